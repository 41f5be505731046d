"""The leases of a server process, kept beside the hub: the :class:`LeaseKeeper`.

With several server processes on one PostgreSQL database (docs/architecture.md,
"Several server processes") the keeper registers this process, renews its heartbeat every
third of the lease time, adopts the running tables of a stopped process, claims a table
asked for here, gives one back when it leaves memory, and drops every table another
process took over (its bots stop, its connections close: the clients reconnect and reach
the owner).  The database methods are :class:`~hotdeath.server.leases.Leases`'; the
keeper calls them in a thread, never on the event loop.

**A process that stalls.**  A lease is this process's only until ``heartbeat + lease
time``; the keeper knows the newest heartbeat that worked (:attr:`LeaseKeeper.valid_until`,
on this process's own clock, from before the heartbeat was sent).  Past it, the tables
may be played elsewhere: nothing is sent to a client of any table, no table request is
served, until a heartbeat says which tables are still held here (:meth:`LeaseKeeper.
confirm`); the others are dropped first, their unsent messages discarded.  So a process
resumed after a SIGSTOP longer than its lease, or cut off from the database that long,
closes the connections of the tables it lost before it sends anything stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from hotdeath.server.leases import Claim, Leases
from hotdeath.server.protocol import ApiError

if TYPE_CHECKING:
    from hotdeath.server.hub import Hub

log = logging.getLogger("hotdeath.server")

ADOPT_BATCH = 50
"""Tables of a stopped process one process takes over per round of its heartbeat."""
LEASE_TRIES = 40
"""Tries (50 ms apart) to take a table another process is taking at the same moment."""


class LeaseKeeper:
    """The leases of one process: heartbeat, claims, adoption, and what it holds now."""

    def __init__(self, hub: Hub, leases: Leases) -> None:
        self.hub = hub
        self.leases = leases
        self.held: set[str] = set()
        """The tables whose lease this process holds."""
        self.peers: list[str] = []
        """The public addresses of the live processes (this one's included), sorted: a
        client that reached one directly may try another when it falls silent."""
        self.valid_until = 0.0
        """Until when (monotonic) the leases are surely this process's."""
        self._task: asyncio.Task[None] | None = None
        self._confirming: asyncio.Task[bool] | None = None
        self._failing = False

    def start(self) -> list[str]:
        """Register, take the running tables nobody holds, start the heartbeat task.

        Returns the tables taken (the hub loads them).
        """
        began = time.monotonic()
        self.leases.register()
        self.peers = self.leases.heartbeat().peers
        self.valid_until = began + self.leases.seconds
        self.hub.store.server_id = self.leases.server_id
        ids = []
        while batch := self.leases.adopt(ADOPT_BATCH, unleased=True):
            ids += batch
            self.held.update(batch)
        self._task = asyncio.get_running_loop().create_task(self._keep())
        return ids

    def fresh(self) -> bool:
        """Whether the last heartbeat that worked is younger than the lease time."""
        return time.monotonic() < self.valid_until

    async def _keep(self) -> None:
        """Renew every third of the lease time; adopt the tables of stopped processes."""
        while True:
            await asyncio.sleep(self.leases.seconds / 3)
            if not await self.confirm():
                continue
            try:
                await self._adopt()
            except Exception:  # the next round tries again
                log.exception("adopting the tables of a stopped server process failed")

    async def confirm(self) -> bool:
        """Renew now (one renewal for every caller at once); False if it failed.

        The tables no longer held here are dropped first.  A process that could not
        renew within the lease time drops every table (another may have them now).
        """
        task = self._confirming
        if task is None or task.done():
            task = self._confirming = asyncio.get_running_loop().create_task(self._renew())
        return await asyncio.shield(task)

    async def _renew(self) -> bool:
        known = set(self.held)
        began = time.monotonic()
        try:
            renewal = await asyncio.to_thread(self.leases.heartbeat)
        except Exception as e:
            if not self._failing:
                log.error("the leases could not be renewed: %s", type(e).__name__)
            self._failing = True
            if not self.fresh():
                for table_id in list(self.hub.rooms):
                    await self.hub.drop(table_id)
                self.held.clear()
            return False
        if self._failing:
            log.info("the leases are renewed again")
        self._failing = False
        for table_id in known - renewal.held:
            await self.hub.drop(table_id)
        self.held -= known - renewal.held
        self.peers = renewal.peers
        self.valid_until = began + self.leases.seconds
        return True

    async def _adopt(self) -> None:
        adopted = await asyncio.to_thread(self.leases.adopt, ADOPT_BATCH)
        for table_id in adopted:
            self.held.add(table_id)
            room = self.hub.rooms.get(table_id) or await self.hub.load(table_id)
            if room is not None and room.run is not None and not room.run.state.is_terminal():
                room.driver.start()
        if adopted:
            log.info("took over %d table(s) of a stopped server process", len(adopted))

    async def owner(self, table_id: str) -> str | None:
        """Where ``table_id`` is played: None here (or nowhere), else the owner's address.

        The table is taken here unless a live other process holds it (docs/architecture.md,
        "Several server processes").  Past the lease time nothing is answered before a
        renewal (:meth:`confirm`).
        """
        if len(table_id) > 32:
            return None
        if not self.fresh():
            await self.confirm()
        if table_id in self.held:
            return None
        for _ in range(LEASE_TRIES):
            got = await asyncio.to_thread(self.leases.claim, table_id)
            if got is Claim.BUSY:
                await asyncio.sleep(0.05)
                continue
            if got is Claim.HERE:
                self.held.add(table_id)
                return None
            if got is Claim.NO_TABLE:
                return None
            assert isinstance(got, str)
            return got
        raise ApiError(503, "elsewhere", "another server process is taking this table at "
                       "the moment; try again in a few seconds")

    async def still_held(self, table_id: str) -> bool:
        """Ask the database whether this process holds ``table_id``; drop it if not.

        True also when the database cannot say (the heartbeat decides then).  A process
        past its lease renews first, and the renewal drops the tables lost meanwhile, this
        one among them, before anything queued for them can go out (asking the owner with
        the table already out of ``held`` left the renewal nothing to drop: a resumed
        process's sender, fresh again, sent a stale message before the drop).
        """
        if not self.fresh() and await self.confirm() and table_id not in self.held:
            return False  # lost while this process stalled: dropped by the renewal
        self.held.discard(table_id)
        try:
            where = await self.owner(table_id)
        except Exception:  # the database fails: keep it, the heartbeat decides
            self.held.add(table_id)
            return True
        if where is None:
            return True
        await self.hub.drop(table_id)
        return False

    async def release(self, table_id: str) -> None:
        """Give a table that left memory back (a lease kept runs out by itself)."""
        if table_id in self.held:
            self.held.discard(table_id)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.leases.release, table_id)

    async def close(self) -> None:
        """Stop the heartbeat; once the queued writes are made, resign.

        The running tables are then free for the other processes at once.
        """
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.hub.store.server_id is not None:
            await asyncio.to_thread(self.hub.store.flush)
            try:
                await asyncio.to_thread(self.leases.resign)
            except Exception as e:  # the leases run out by themselves
                log.error("could not hand the tables over: %s", type(e).__name__)
