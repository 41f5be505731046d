"""Saving a table's changes, and what the table does when a write fails.

Every change of a table is written through the store's one ordered writer
(:class:`~hotdeath.server.store.Store`), which returns a future at once.  :class:`Writes`
calls back on the event loop when a write has committed (:meth:`Writes.when_saved`): an
action's messages go out only then (:meth:`Writes.after_save`), so nobody sees a move that
is not saved.  A write that fails starts an episode: it is logged and every connection is
told once, the table refuses changes while it backs off (1 s doubling to 60 s:
:meth:`Writes.paused_for`), and the table is reloaded from what the database holds
(:meth:`Writes.lost`).  A write refused because another process holds the table now
(:class:`~hotdeath.server.store.LeaseLost`) drops the table here instead.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from hotdeath.server.protocol import ApiError, ProtocolError
from hotdeath.server.store import LeaseLost, RoomRows, Withdrawn

if TYPE_CHECKING:
    from hotdeath.server.authority import GameRun
    from hotdeath.server.connections import Conn
    from hotdeath.server.room import Room

log = logging.getLogger("hotdeath.server")

BACKOFF_FIRST = 1.0
"""Seconds a table whose write failed waits before it tries to write again."""
BACKOFF_MAX = 60.0
"""The longest wait: each failure in a row doubles the wait up to this."""
IN_FLIGHT = 32
"""The most writes of one table queued or being made at once: a person's change beyond it
is refused (``busy``), the table's bots wait for its last write before they move, and its
seats' connected flags wait for their last write (issue 23, N1)."""


def next_backoff(wait: float) -> float:
    """The wait after one more failure in a row (the first: :data:`BACKOFF_FIRST`)."""
    return min(BACKOFF_MAX, max(BACKOFF_FIRST, wait * 2))


def on_loop(fut: Future[Any], fn: Callable[[], None]) -> None:
    """Call ``fn`` on the running event loop once ``fut`` is done.

    Outside an event loop, wait for ``fut`` here and call ``fn``.  Callbacks of one
    future run in the order they were added, before anything awaiting it resumes.  A
    future already done is queued on the loop too, never called at once: the store's
    thread finishes writes in order and queues their callbacks as each one commits, so a
    later write that is done already must wait behind an earlier one's queued callback
    (called at once, version 15 went out before version 0 on a busy machine).
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        fut.exception()
        fn()
        return
    if fut.done():
        loop.call_soon(fn)
        return

    def committed(_f: Future[Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody to tell
            loop.call_soon_threadsafe(fn)

    fut.add_done_callback(committed)


class Writes:
    """A table's writes: their callbacks, the failure episode and the reload after it."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.recovering = False
        """True from a failed write until the table is reloaded from the database."""
        self.failing = False
        """True from a failed write until a write of the table works again (an episode)."""
        self.backoff = 0.0
        """The current wait between write attempts (doubles per failure, capped)."""
        self.retry_at = 0.0
        """When (monotonic) the table may try to write again."""
        self.last_write: Future[None] | None = None
        """The write of the last change made through a method (the REST API awaits it)."""
        self.tail: Future[None] | None = None
        """The newest write of the table (the bots wait for it before they move)."""
        self._under_way: collections.deque[Future[None]] = collections.deque()
        """The table's writes not known to be done, oldest first (one lane: in order)."""
        self._flags: dict[int, tuple[bool, bool]] = {}
        """Per seat with a connected flag being written: (written, wanted next)."""
        self._recovery: asyncio.Task[None] | None = None

    def when_saved(
        self, fut: Future[None], ok: Callable[[], None],
        failed: Callable[[], None] | None = None, episode: bool = True,
    ) -> None:
        """Call ``ok`` on the event loop once ``fut`` has committed, ``failed`` if not.

        Every write of the table passes here: it counts as in flight until it is done.
        A write that failed also starts (or continues) the table's backoff episode (with
        ``episode``; not for a write withdrawn because its client stopped waiting); one
        refused because another process holds the table now (:class:`LeaseLost`) drops the
        table here instead, and its clients reconnect to that process.
        """
        self.tail = fut
        if not fut.done():
            self._under_way.append(fut)

        def done() -> None:
            e = fut.exception()
            if e is None:
                self._saved()
                ok()
            elif isinstance(e, LeaseLost):
                self._moved()
            else:
                if episode and not isinstance(e, Withdrawn):
                    self.failed()
                if failed is not None:
                    failed()

        on_loop(fut, done)

    @property
    def in_flight(self) -> int:
        """The table's writes queued or being made (at most about :data:`IN_FLIGHT`)."""
        under_way = self._under_way
        while under_way and under_way[0].done():
            under_way.popleft()
        return len(under_way)

    def busy(self) -> bool:
        """Whether the table has :data:`IN_FLIGHT` writes queued or being made."""
        return self.in_flight >= IN_FLIGHT

    def check(self, msg_id: str | None = None) -> None:
        """Raise ``not_saved`` while the table backs off, ``busy`` at the bound of writes.

        For a change from the WebSocket (an action, a chat line, a rematch): the error
        carries the message's id.
        """
        wait = self.paused_for()
        if wait > 0:
            raise ProtocolError("not_saved", "a change could not be saved: the table "
                                f"waits and tries again in {math.ceil(wait)} s", msg_id)
        if self.busy():
            raise ProtocolError("busy", "this table's changes are still being saved: try "
                                "again in a moment", msg_id)

    async def caught_up(self) -> None:
        """Wait until the table's newest write is done (whether it worked or not)."""
        tail = self.tail
        if tail is not None and not tail.done():
            with contextlib.suppress(Exception):
                await asyncio.wrap_future(tail)

    def connected(self, seat: int, on: bool) -> None:
        """Write a seat's connected flag: one write in flight per seat, the last one wins.

        A person who connects and disconnects faster than the database answers makes
        one write at a time, the newest value once the last one is done.
        """
        pending = self._flags.get(seat)
        if pending is not None:
            self._flags[seat] = (pending[0], on)
            return
        self._flags[seat] = (on, on)
        room = self.room

        def next_flag() -> None:
            written, wanted = self._flags.pop(seat, (on, on))
            if wanted != written and room.hub.rooms.get(room.table_id) is room:
                self.connected(seat, wanted)

        fut = room.store.update_seat(room.table_id, seat, connected=on)
        self.when_saved(fut, next_flag, next_flag, episode=False)

    def after_save(
        self, saving: Future[None], run: GameRun, version: int, out: list[tuple[Conn, str]]
    ) -> None:
        """Send ``out`` once ``saving`` has committed; if it failed, reload the table.

        The store's thread finishes writes in the order they were queued, so messages go
        out in the order of the versions.
        """

        def sent() -> None:
            run.saved = max(run.saved, version)
            for conn, text in out:
                conn.send(text)

        self.when_saved(saving, sent, lambda: self.lost(run))

    def _moved(self) -> None:
        """Another process holds this table now: drop it here (once), nothing acknowledged."""
        room = self.room
        if room.hub.rooms.get(room.table_id) is not room or (
                self._recovery is not None and not self._recovery.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop to close sockets on: the next heartbeat drops it
            return
        self._recovery = loop.create_task(room.hub.drop(room.table_id))

    # ------------------------------------------------------------------ the episode

    def paused_for(self) -> float:
        """Seconds until this table may write again (0: now)."""
        if self.recovering:
            return max(self.retry_at - time.monotonic(), 0.5)
        return max(self.retry_at - time.monotonic(), 0.0) if self.failing else 0.0

    def writable(self) -> None:
        """Raise 503 ``not_saved`` while the table backs off, ``busy`` at its write bound.

        ``not_saved`` after failed writes; ``busy`` while the table has :data:`IN_FLIGHT`
        writes under way.
        """
        wait = self.paused_for()
        if wait > 0:
            raise ApiError(503, "not_saved", "this table's changes cannot be saved at the "
                           f"moment; try again in {math.ceil(wait)} s")
        if self.busy():
            raise ApiError(503, "busy", "this table's changes are still being saved; try "
                           "again in a moment")

    def failed(self) -> None:
        """A write failed: start the episode (log and tell once) or double the wait."""
        if not self.failing:
            self.failing = True
            self.backoff = BACKOFF_FIRST
            log.error("table %s: a change could not be saved; the table waits and tries "
                      "again (%.0f s, doubling up to %.0f s)", self.room.table_id,
                      self.backoff, BACKOFF_MAX)
            note = {"type": "error", "code": "not_saved", "id": None,
                    "message": "this table's changes cannot be saved at the moment: it "
                               "waits and tries again; nothing unsaved is kept"}
            for c in self.room.conns:
                c.send_json(note)
        else:
            self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        self.retry_at = time.monotonic() + self.backoff

    def _saved(self) -> None:
        """A write committed: the episode (if any) is over."""
        if self.failing:
            self.failing = False
            self.backoff = self.retry_at = 0.0
            log.info("table %s: its changes are saved again", self.room.table_id)

    # ------------------------------------------------------------------ recovery

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait (at most ``timeout``) until a reload after a failed write is done."""
        task = self._recovery
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    def lost(self, run: GameRun) -> None:
        """A write of ``run`` failed: reload the table from the database (once)."""
        if self.room.run is not run or self.recovering:
            return
        self.recovering = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            rows = self.room.store.load_room(self.room.table_id).result()
            self._recovered(rows)
            return
        self._recovery = loop.create_task(self._recover())

    async def _recover(self) -> None:
        """Reload what the database holds: at once, then after each wait of the backoff.

        With leases, first make sure this process still holds the table: a write that
        failed may be the sign that another process took it over (both wrote the same
        action's key); then the table is dropped here, not reloaded.
        """
        room = self.room
        await room.driver.stop()
        if room.hub.keeper is not None and not await room.hub.keeper.still_held(
                room.table_id):
            self.recovering = False
            return
        while True:
            try:
                rows = await asyncio.wrap_future(room.store.load_room(room.table_id))
                break
            except Exception:  # the database still fails: logged once by the store
                self.failed()
                await asyncio.sleep(max(0.0, self.retry_at - time.monotonic()))
        self._recovered(rows)
        if room.run is not None and not room.run.state.is_terminal():
            room.driver.start()

    def _recovered(self, rows: RoomRows | None) -> None:
        """Install what the database holds and tell every connection."""
        room = self.room
        self.recovering = False
        if rows is None:  # the table itself was never saved
            room.hub.rooms.pop(room.table_id, None)
            for c in list(room.conns):
                c.send_json({"type": "error", "code": "not_saved", "id": None,
                             "message": "this table could not be saved"})
                c.close()
            return
        room.install(rows)
        room.broadcast_table()  # the episode's note went out with its first failure
        for c in room.conns:
            if c.greeted and room.run is not None:
                c.send_json(room.state_message(c.seat, with_log=True))
