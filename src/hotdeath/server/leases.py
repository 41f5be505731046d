"""Which server process plays each table, when several share one PostgreSQL database.

Each process registers a row in ``servers`` (a random id, its public address) and renews
its ``heartbeat_at`` every third of the lease time; a table is played by the process its
``leases`` row names while that process's heartbeat is younger than the lease time.
Every comparison uses the database's clock (``now()``), never a host's.  The design and
why a row rather than an advisory lock: docs/architecture.md, "Several server processes".

The methods here are blocking (one short transaction each); the hub calls them in a
thread (:func:`asyncio.to_thread`), never on the event loop.
"""

from __future__ import annotations

import datetime as dt
import secrets
from enum import Enum
from functools import partial
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Engine

from hotdeath.server.store import leases_t, servers_t, tables_t

LEASE_SECONDS = 10.0
"""The default lease time: a dead process's tables are taken over at most this late."""
FORGET_AFTER = dt.timedelta(days=1)
"""Rows of processes silent this long are deleted when a process starts."""
LONG_AGO = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
"""The heartbeat of a process that has stopped (its leases are free at once)."""


class Claim(Enum):
    """The outcomes of :meth:`Leases.claim` other than another process's address."""

    HERE = "here"
    """This process plays the table now."""
    NO_TABLE = "no_table"
    """There is no such table."""
    BUSY = "busy"
    """Another process is taking the table at this moment: ask again shortly."""


class Renewal(NamedTuple):
    """What a heartbeat learns: the tables this process holds, the live processes."""

    held: set[str]
    peers: list[str]
    """The public addresses of the live processes (this one's included), sorted."""


def _idle_limit(ms: int, dbapi_conn: Any, _record: Any) -> None:
    """Set a new connection's ``idle_in_transaction_session_timeout`` to ``ms``."""
    autocommit = dbapi_conn.autocommit
    dbapi_conn.autocommit = True  # a session setting, not undone by a rollback
    cur = dbapi_conn.cursor()
    cur.execute(f"SET idle_in_transaction_session_timeout = {int(ms)}")
    cur.close()
    dbapi_conn.autocommit = autocommit


class Leases:
    """One process's side of the leases: registration, heartbeat, claims, adoption."""

    def __init__(self, engine: Engine, url: str, seconds: float = LEASE_SECONDS) -> None:
        """``url``: where the other processes reach this one; ``seconds``: the lease time."""
        if engine.dialect.name != "postgresql":
            raise ValueError("several server processes need PostgreSQL (SQLite is for one)")
        if not seconds > 0:
            raise ValueError(f"the lease time must be more than 0 s (got {seconds})")
        self.engine = engine
        self.url = url.rstrip("/")
        self.seconds = seconds
        self.server_id = secrets.token_hex(8)
        self._ttl = dt.timedelta(seconds=seconds)
        # A process stopped inside a transaction (SIGSTOP, a paused VM) keeps its row locks,
        # among them the lease rows its writes lock to check them, and the others' adoption
        # skips locked rows: a stalled owner's table was never taken over.  PostgreSQL ends
        # a session idle in a transaction for longer than the lease time, its locks with it.
        sa.event.listen(engine, "connect", partial(_idle_limit, max(1, round(seconds * 1000))))
        engine.dispose()  # the pool's connections so far are made again, with the limit

    def _alive(self) -> sa.ColumnElement[bool]:
        return servers_t.c.heartbeat_at > sa.func.now() - self._ttl

    def register(self) -> None:
        """Add this process; an earlier one at the same address is over (a restart)."""
        with self.engine.begin() as c:
            c.execute(servers_t.delete().where(
                servers_t.c.heartbeat_at < sa.func.now() - FORGET_AFTER))
            c.execute(servers_t.update().where(servers_t.c.url == self.url)
                      .values(heartbeat_at=LONG_AGO))
            c.execute(servers_t.insert().values(
                id=self.server_id, url=self.url, started_at=sa.func.now(),
                heartbeat_at=sa.func.now()))

    def heartbeat(self) -> Renewal:
        """Renew this process's heartbeat; returns the tables it holds now."""
        with self.engine.begin() as c:
            renewed = c.execute(servers_t.update().where(servers_t.c.id == self.server_id)
                                .values(heartbeat_at=sa.func.now())).rowcount
            if not renewed:  # deleted as long silent: this process comes back
                c.execute(servers_t.insert().values(
                    id=self.server_id, url=self.url, started_at=sa.func.now(),
                    heartbeat_at=sa.func.now()))
            held = set(c.execute(sa.select(leases_t.c.table_id)
                                 .where(leases_t.c.server_id == self.server_id)).scalars())
            peers = c.execute(sa.select(servers_t.c.url).distinct().where(self._alive())
                              .order_by(servers_t.c.url)).scalars()
            return Renewal(held, [str(u) for u in peers])

    def claim(self, table_id: str) -> Claim | str:
        """Take ``table_id`` unless a live other process holds it (then: its address)."""
        with self.engine.begin() as c:
            row = c.execute(
                sa.select(leases_t.c.server_id, servers_t.c.url, self._alive())
                .select_from(leases_t.outerjoin(servers_t,
                                                servers_t.c.id == leases_t.c.server_id))
                .where(leases_t.c.table_id == table_id)
                .with_for_update(of=leases_t, skip_locked=True)
            ).first()
            if row is None:
                if c.execute(sa.select(tables_t.c.id).where(tables_t.c.id == table_id)
                             ).first() is None:
                    return Claim.NO_TABLE
                taken = c.execute(
                    pg_insert(leases_t).values(table_id=table_id, server_id=self.server_id,
                                               since=sa.func.now())
                    .on_conflict_do_nothing().returning(leases_t.c.table_id)
                ).first()
                return Claim.HERE if taken is not None else Claim.BUSY
            owner, url, alive = row
            if owner == self.server_id:
                return Claim.HERE
            if alive and url is not None and url != self.url:
                return str(url)
            c.execute(leases_t.update().where(leases_t.c.table_id == table_id)
                      .values(server_id=self.server_id, since=sa.func.now()))
            return Claim.HERE

    def adopt(self, limit: int, unleased: bool = False) -> list[str]:
        """Take up to ``limit`` running tables whose process is dead; returns their ids.

        ``SKIP LOCKED``: processes adopting at once share the tables, none waits on another.
        ``unleased`` (at start): running tables nobody holds count too.
        """
        with self.engine.begin() as c:
            dead = c.execute(
                sa.select(leases_t.c.table_id)
                .select_from(
                    leases_t.join(tables_t, tables_t.c.id == leases_t.c.table_id)
                    .outerjoin(servers_t, servers_t.c.id == leases_t.c.server_id))
                .where(tables_t.c.status == "playing",
                       sa.or_(servers_t.c.id.is_(None), sa.not_(self._alive())))
                .order_by(leases_t.c.table_id)
                .limit(limit)
                .with_for_update(of=leases_t, skip_locked=True)
            ).scalars().all()
            ids = list(dead)
            if ids:
                c.execute(leases_t.update().where(leases_t.c.table_id.in_(ids))
                          .values(server_id=self.server_id, since=sa.func.now()))
            if unleased and len(ids) < limit:
                free = c.execute(
                    sa.select(tables_t.c.id)
                    .where(tables_t.c.status == "playing",
                           ~sa.exists().where(leases_t.c.table_id == tables_t.c.id))
                    .limit(limit - len(ids))
                ).scalars().all()
                for table_id in free:
                    if c.execute(
                        pg_insert(leases_t).values(table_id=table_id,
                                                   server_id=self.server_id,
                                                   since=sa.func.now())
                        .on_conflict_do_nothing().returning(leases_t.c.table_id)
                    ).first() is not None:
                        ids.append(table_id)
        return ids

    def release(self, table_id: str) -> None:
        """Give a table back (it left memory: the next process asked for it takes it)."""
        with self.engine.begin() as c:
            c.execute(leases_t.delete().where(leases_t.c.table_id == table_id,
                                              leases_t.c.server_id == self.server_id))

    def resign(self) -> None:
        """Stop: this process's running tables are free for the others at once."""
        with self.engine.begin() as c:
            c.execute(servers_t.update().where(servers_t.c.id == self.server_id)
                      .values(heartbeat_at=LONG_AGO))
