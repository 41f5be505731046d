"""One WebSocket connection of a table: its seat, its rate buckets and its outbox.

The WebSocket route (:mod:`hotdeath.server.routes.play`) makes a :class:`Conn` per socket
and runs the task that sends its outbox; a room queues messages on it and never waits for
a socket.  :class:`Pulse` sends a ``heartbeat`` to every connection that was sent nothing
for :data:`HEARTBEAT` seconds, so a client that hears nothing for longer knows its server
stalled or is gone (docs/protocol.md, "Heartbeat"), even at a table where nothing happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hotdeath.server.chat import CHAT_BURST, CHAT_PER_SECOND
from hotdeath.server.messages import dumps
from hotdeath.server.protocol import RATE_BURST, RATE_PER_SECOND, TokenBucket

if TYPE_CHECKING:
    from hotdeath.server.room import Room

HEARTBEAT = 2.0
"""Seconds after which a connection that was sent nothing gets a ``heartbeat`` message."""
PULSE_EVERY = 0.5
"""Seconds between two looks at every connection (a client hears something at least every
:data:`HEARTBEAT` + this)."""
HEARTBEAT_TEXT = '{"type":"heartbeat"}'
OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow (closed with 1013,
try again later: the client reconnects and gets the table as it is then)."""


class Conn:
    """One WebSocket connection: its seat (None: spectator) and its outgoing queue."""

    def __init__(self, burst: float = RATE_BURST, rate: float = RATE_PER_SECOND) -> None:
        self.seat: int | None = None
        self.greeted = False
        self.bucket = TokenBucket(burst, rate, burst)
        self.chat_bucket = TokenBucket(CHAT_BURST, CHAT_PER_SECOND, CHAT_BURST)
        self.watcher = 0
        """A spectator's number at its table (its chat name is "Watcher N")."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code: int | None = None
        """The WebSocket close code to send when the server closes it (None: keep it)."""
        self.sent_at = time.monotonic()
        """When (monotonic) a message was last queued for it."""

    def send(self, text: str) -> None:
        """Queue ``text``; a connection that falls too far behind is closed."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # what it has not read is out of date
            self.close(code=1013, discard=True)
            return
        self.sent_at = time.monotonic()
        self.outbox.put_nowait(text)

    def send_json(self, obj: Mapping[str, Any]) -> None:
        """Queue a JSON message."""
        self.send(dumps(obj))

    def close(self, code: int | None = None, discard: bool = False) -> None:
        """Stop sending (the sender task ends at the ``None`` mark).

        ``code``: close the socket too, with this close code (1012: served elsewhere now,
        1013: fell behind); ``discard``: drop what is queued and not yet sent.
        """
        if not self.closed:
            self.closed = True
            self.close_code = code
            while discard and not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)


class Pulse:
    """The heartbeat of every connection of a process: a ``heartbeat`` to the quiet ones.

    One task for the whole process looks at every connection each :data:`PULSE_EVERY`
    seconds; a connection sent nothing for :data:`HEARTBEAT` seconds gets a heartbeat,
    one with traffic gets nothing more.  Like every message it goes through the
    connection's outbox, so a process whose leases lapsed sends no heartbeat for a table
    it may have lost (:class:`~hotdeath.server.keeper.LeaseKeeper`).
    """

    def __init__(self, rooms: Mapping[str, Room]) -> None:
        self.rooms = rooms
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task (once)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the task."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PULSE_EVERY)
            self.beat(time.monotonic())

    def beat(self, now: float) -> int:
        """Send a heartbeat to every connection quiet since ``now - HEARTBEAT``; how many."""
        sent = 0
        for room in list(self.rooms.values()):
            for conn in room.conns:
                if now - conn.sent_at >= HEARTBEAT:
                    conn.send(HEARTBEAT_TEXT)
                    sent += 1
        return sent
