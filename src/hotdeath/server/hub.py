"""Every table in memory: the :class:`Hub`.

The hub loads a table from the database on demand (:meth:`Hub.load`), unloads a table
nobody is connected to once it has been idle for a while (the sweeper), restores the
running games at start-up, and drops a table another process took over.  Beside it:
with PostgreSQL, the :class:`~hotdeath.server.keeper.LeaseKeeper` of this process's leases
(docs/architecture.md, "Several server processes"), and the :class:`~hotdeath.server.
connections.Pulse` that sends every quiet connection its heartbeat.  The worker threads of
the thinking bots and of the coach, and the coach's reviews, are the hub's, shared by
every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hotdeath.cards import THEMES
from hotdeath.coach import HINT_SECONDS
from hotdeath.errors import HotDeathError
from hotdeath.server.coaching import REVIEW_SECONDS, Reviews
from hotdeath.server.codes import LENGTHS, random_codes, read_codes_taken
from hotdeath.server.connections import Pulse
from hotdeath.server.keeper import LeaseKeeper
from hotdeath.server.leases import Leases
from hotdeath.server.protocol import RATE_BURST, RATE_PER_SECOND, ApiError
from hotdeath.server.room import Room
from hotdeath.server.seating import (
    DEFAULT_BOT,
    MAX_BOT_SECONDS,
    MAX_MASTER_SEATS,
    SeatInfo,
    bot_name,
    changed_options,
    check_bot,
    check_turn_timer,
    checked_text,
    opts_value,
    searching_seats,
    thinks,
    token_hash,
)
from hotdeath.server.store import Store, Withdrawn
from hotdeath.server.writes import next_backoff
from hotdeath.variants import get_variant

log = logging.getLogger("hotdeath.server")

THINKERS = 2
"""Worker threads for thinking bots, shared by every table.  Bots are pure Python, so more
threads add no speed under the GIL, only delay for the event loop (docs/performance.md)."""
IDLE_UNLOAD = 900.0
"""Default seconds a table nobody is connected to stays in memory after its last event."""
FINISHED_UNLOAD = 120.0
"""The same for a table whose game is over."""


class Hub:
    """Every room in memory: loaded from the store on demand, unloaded when idle.

    A table nobody is connected to is unloaded ``idle_unload`` seconds after the last thing
    that happened at it (``finished_unload`` once its game is over; None: never); any
    request for it (a page, a connection, a replay) loads it back from the database.
    """

    def __init__(
        self, store: Store, bot_delay: float = 0.6, max_bot_seconds: float = MAX_BOT_SECONDS,
        idle_unload: float | None = IDLE_UNLOAD, finished_unload: float | None = FINISHED_UNLOAD,
        seat_rate: tuple[float, float] = (RATE_BURST, RATE_PER_SECOND),
        leases: Leases | None = None, max_master_seats: int = MAX_MASTER_SEATS,
    ) -> None:
        self.store = store
        self.keeper = LeaseKeeper(self, leases) if leases is not None else None
        """Shared with other processes (PostgreSQL): this process's leases; None: alone."""
        self.max_master_seats = max_master_seats
        """The most seats this process runs a searching bot (``master``) in at once: the
        seats of its loaded, unfinished tables, each table's searching takeover bot
        counted once (:func:`~hotdeath.server.seating.searching_seats`)."""
        self.seat_rate = seat_rate
        """Each seat's token bucket (burst, per second), shared by its connections."""
        self.bot_delay = bot_delay
        self.max_bot_seconds = max_bot_seconds
        """The cap on a thinking bot's time per decision (seconds)."""
        self.thinkers = ThreadPoolExecutor(THINKERS, thread_name_prefix="hotdeath-bot")
        self.coach = ThreadPoolExecutor(1, thread_name_prefix="hotdeath-coach")
        """Where hints are computed, one at a time for every table."""
        self.hint_seconds = min(HINT_SECONDS, max_bot_seconds)
        """The coach's thinking time per hint (the bots' cap, at most a second)."""
        self.reviews = Reviews(store, min(REVIEW_SECONDS, max_bot_seconds))
        """The coach's reviews of hands (a worker process of their own)."""
        self.rooms: dict[str, Room] = {}
        self.idle_unload = idle_unload
        self.finished_unload = finished_unload
        self.unloaded = 0
        """How many times a table was unloaded."""
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.pulse = Pulse(self.rooms)
        """The heartbeat of every connection (started with the sweeper)."""
        self.create_backoff = 0.0
        """The wait after a table could not be created (doubles per failure, capped)."""
        self.create_retry_at = 0.0
        """When (monotonic) a new table may be created again."""

    def create_table(
        self,
        variant: str,
        preset: str | None,
        options: Mapping[str, object],
        seats: int,
        bots: Mapping[int, str],
        theme: str,
        bot_delay: float | None,
        takeover_timeout: float | None,
        takeover_bot: str | None,
        name: str | None,
        turn_timer: float | None = None,
        public: bool = False,
        breather: float = 0.0,
        hints: bool | None = None,
        code: str | None = None,
    ) -> tuple[Room, str]:
        """Validate and create a table; returns the room and the host token.

        ``code``: the table's short code (:meth:`free_code`); None, none.
        """
        try:
            v = get_variant(variant)
            preset = preset or v.default_preset
            opts = v.resolve_options(preset, options)
            options = changed_options(v.name, preset, options)
            v.check_players(seats, opts)
        except HotDeathError as e:
            raise ApiError(400, e.code, e.message) from None
        if theme not in THEMES:
            raise ApiError(400, "bad_theme", f"theme must be one of {', '.join(THEMES)}")
        specs = {}
        for seat, spec in bots.items():
            if not 0 <= seat < seats:
                raise ApiError(400, "bad_seat", f"seat must be a number from 0 to {seats - 1}")
            specs[seat] = check_bot(spec, self.max_bot_seconds, (v.name, seats))
        takeover = check_bot(takeover_bot or DEFAULT_BOT, self.max_bot_seconds, (v.name, seats))
        self.check_search_seats(sum(1 for spec in [*specs.values(), takeover] if thinks(spec)))
        host = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        title = checked_text(name or "", "table_name") or f"{v.title} table"
        row = {
            "id": table_id, "name": title, "variant": v.name, "preset": preset,
            "options": {k: opts_value(val) for k, val in options.items()},
            "players": seats, "theme": theme,
            "bot_delay": self.bot_delay if bot_delay is None else bot_delay,
            "takeover_timeout": takeover_timeout,
            "takeover_bot": takeover,
            "host_token_hash": token_hash(host), "status": "waiting", "game_id": None,
            "turn_timer": check_turn_timer(turn_timer), "public": bool(public),
            "breather": float(breather), "hints": hints, "code": code,
        }
        seat_rows: list[dict[str, Any]] = [
            {"seat": s, "bot": specs.get(s),
             "name": bot_name(s, specs[s]) if s in specs else None,
             "token_hash": None, "connected": False}
            for s in range(seats)
        ]
        wait = self.create_retry_at - time.monotonic()
        if wait > 0:
            raise ApiError(503, "not_saved", "new tables cannot be saved at the moment; try "
                           f"again in {math.ceil(wait)} s")
        fut = self.store.create_table(row, seat_rows)
        room = Room(self, row, [SeatInfo(s["seat"], s["name"], None, s["bot"]) for s in seat_rows])
        self.rooms[table_id] = room
        room.writes.last_write = fut

        def stored() -> None:
            self.create_backoff = 0.0
            if self.keeper is not None:  # its lease was stored with it
                self.keeper.held.add(table_id)

        def not_stored() -> None:  # it never existed
            if self.rooms.get(table_id) is room:
                del self.rooms[table_id]
            if not isinstance(fut.exception(), Withdrawn):  # the database failed
                self.create_backoff = next_backoff(self.create_backoff)
                self.create_retry_at = time.monotonic() + self.create_backoff

        room.writes.when_saved(fut, stored, not_stored, episode=False)
        return room, host

    async def free_code(self) -> str:
        """A short code no table has (:mod:`hotdeath.server.codes`), asked of the database.

        Random candidates are checked in one query, 4 characters long first, then 5; the
        unique index on ``tables.code`` refuses the rare code two processes chose at once
        (the creation then answers ``not_saved``).
        """
        for length in LENGTHS:
            candidates = random_codes(length)
            taken = await asyncio.wrap_future(
                self.store.later(read_codes_taken, self.store.engine, candidates))
            free = [c for c in candidates if c not in taken]
            if free:
                return free[0]
        raise ApiError(503, "not_saved", "no free table code was found; try again")

    def searching_seats(self) -> int:
        """The seats with a searching bot the loaded tables run (``max_master_seats``)."""
        return sum(searching_seats(room) for room in self.rooms.values())

    def check_search_seats(self, extra: int) -> None:
        """Refuse (409 ``master_busy``) ``extra`` more searching seats beyond the limit."""
        if extra <= 0:
            return
        used = self.searching_seats()
        if used + extra > self.max_master_seats:
            limit = self.max_master_seats
            raise ApiError(409, "master_busy", (
                f"this server plays at most {limit} master bot{'s' if limit != 1 else ''} "
                f"at once and {used} {'is' if used == 1 else 'are'} playing: choose "
                "another level, or try again when a game ends") if limit else
                "this server does not run master bots: choose another level")

    def get(self, table_id: str) -> Room | None:
        """The room of ``table_id`` (loaded from the database if needed, waiting), or None.

        For start-up and scripts; the application awaits :meth:`load` instead.
        """
        room = self.rooms.get(table_id)
        if room is not None or len(table_id) > 32:
            return room
        rows = self.store.load_room(table_id).result()
        if rows is None:
            return None
        room = self.rooms[table_id] = Room.from_rows(self, rows)
        return room

    async def load(self, table_id: str) -> Room | None:
        """The room of ``table_id``, loaded from the database if it is not in memory.

        The database is read in the store's thread; a loaded running game gets its bots.
        """
        room = self.rooms.get(table_id)
        if room is not None or len(table_id) > 32:
            return room
        if (self.keeper is not None and table_id not in self.keeper.held
                and await self.keeper.owner(table_id) is not None):
            raise ApiError(503, "elsewhere", "another server process plays this table at "
                           "the moment; try again in a few seconds")
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            rows = await asyncio.wrap_future(self.store.load_room(table_id))
            room = self.rooms.get(table_id)
            if room is not None or rows is None:
                return room
            room = self.rooms[table_id] = Room.from_rows(self, rows)
            if room.run is not None and not room.run.state.is_terminal():
                room.driver.start()
            log.info("table %s loaded from the database", table_id)
            return room

    async def room(self, table_id: str) -> Room:
        """Like :meth:`load`, but ``unknown_table`` (404) if there is no such table."""
        room = await self.load(table_id)
        if room is None:
            raise ApiError(404, "unknown_table", f"there is no table {table_id!r}")
        return room

    def restore(self) -> int:
        """Load every table with a running game and start its bots; returns how many.

        With leases: register this process and load only the running tables nobody
        (alive) holds, and start the task that keeps the leases (:meth:`LeaseKeeper.start
        <hotdeath.server.keeper.LeaseKeeper.start>`).  Also starts the tasks that unload
        idle tables and send the heartbeats.
        """
        if self.keeper is not None:
            ids = self.keeper.start()
        else:
            self.store.reset_connected()
            ids = self.store.playing_tables()
        for table_id in ids:
            room = self.get(table_id)
            if room is not None and room.run is not None and not room.run.state.is_terminal():
                room.driver.start()
        self.start_sweeper()
        return len(ids)

    def start_sweeper(self) -> None:
        """Start the task that unloads idle tables (if unloading is on)."""
        self.pulse.start()
        limits = [t for t in (self.idle_unload, self.finished_unload) if t is not None]
        if limits and (self._sweeper is None or self._sweeper.done()):
            every = max(0.02, min(30.0, min(limits) / 4))
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))

    async def drop(self, table_id: str) -> None:
        """Forget a table another process has taken over: its bots stop, its sockets close.

        The clients reconnect (close code 1012) and reach the process that plays it now.
        """
        if self.keeper is not None:
            self.keeper.held.discard(table_id)
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        await room.driver.stop()
        for c in list(room.conns):  # what they were not sent yet may be out of date
            c.close(code=1012, discard=True)
        log.info("table %s is played by another server process now", table_id)

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.unload_idle()
            except Exception:  # never stop sweeping
                log.exception("unloading idle tables failed")

    async def unload_idle(self) -> list[str]:
        """Unload every table idle long enough that nobody is connected to; their ids."""
        now = time.monotonic()
        gone = []
        for table_id, room in list(self.rooms.items()):
            limit = self.finished_unload if room.status == "finished" else self.idle_unload
            if limit is None or room.conns or room.writes.recovering or now - room.used < limit:
                continue
            await room.driver.stop()
            if room.conns or self.rooms.get(table_id) is not room or room.used > now:
                if room.run is not None and not room.run.state.is_terminal():
                    room.driver.start()  # someone came back meanwhile
                continue
            del self.rooms[table_id]
            if self.keeper is not None:
                await self.keeper.release(table_id)
            self.unloaded += 1
            gone.append(table_id)
            log.info("table %s unloaded (idle %.0f s)", table_id, now - room.used)
        return gone

    async def close(self) -> None:
        """Stop every bot task, the bots' threads and close every connection.

        With leases: once the queued writes are made, this process resigns (its running
        tables are free for the other processes at once).
        """
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self.pulse.stop()
        for room in list(self.rooms.values()):
            await room.driver.stop()
            for c in list(room.conns):
                c.close(code=1012 if self.keeper is not None else None)
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        self.coach.shutdown(wait=False, cancel_futures=True)
        self.reviews.close()
        if self.keeper is not None:
            await self.keeper.close()
