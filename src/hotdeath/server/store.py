"""Storage: the action log (the truth) and the tables around it, behind a narrow interface.

SQLAlchemy Core over any SQLAlchemy URL (SQLite by default, PostgreSQL too).  The schema
is created and upgraded by the Alembic migrations in ``hotdeath/server/migrations`` when a
:class:`Store` opens.  Every accepted action is written by :meth:`Store.record_action` in
one transaction together with what it changed (a new deal commitment, the game's end).

Every statement goes through the store's :class:`~hotdeath.server.writer.Writer`, in
order per table: for a database server it runs in one thread of the store, never on the
event loop (a write is queued and its :class:`~concurrent.futures.Future` returned at
once; the tables are served in turn and each round's writes share one transaction); for
SQLite, by default, in the caller's thread (see :class:`Store`).  Either way a table's
jobs run in order, so the actions of a game are written in the order they were applied,
and a read of a table (also queued) sees every write of it queued before.  A failed write
fails its future with :class:`WriteFailed` and is logged once per episode (not again until
a write of that table works); the later actions of that table are then refused (not
written out of order) until :meth:`Store.load_room` reloads the table.
:meth:`Store.close` runs what is queued before it stops.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hotdeath.server.writer import (
    Commits,
    LeaseLost,
    Quiet,
    SaveRefused,
    Withdrawn,
    Write,
    WriteFailed,
    Writer,
    reason,
)

__all__ = ["CHAT_KEPT", "DealRow", "GameRows", "LeaseLost", "Quiet", "RoomRows",
           "SaveRefused", "Store", "Withdrawn", "WriteFailed", "Writer", "make_engine",
           "migrate", "read_game_since"]

log = logging.getLogger("hotdeath.server")
T = TypeVar("T")

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("theme", sa.String(20), nullable=False),
    sa.Column("bot_delay", sa.Float, nullable=False),
    sa.Column("takeover_timeout", sa.Float, nullable=True),
    sa.Column("takeover_bot", sa.String(200), nullable=False),
    sa.Column("host_token_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("turn_timer", sa.Float, nullable=True),
    sa.Column("breather", sa.Float, nullable=False, server_default="0", default=0.0),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false(), default=False),
    sa.Column("hints", sa.Boolean, nullable=True),
    sa.Column("code", sa.String(8), nullable=True),
    sa.Index("ix_tables_code", "code", unique=True),
)

seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(200), nullable=True),
    sa.Column("connected", sa.Boolean, nullable=False, default=False),
)

games_t = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seed_salt", sa.String(64), nullable=False),
    sa.Column("names", sa.JSON, nullable=False),
    sa.Column("bots", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("winners", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("finished_at", sa.DateTime, nullable=True),
    sa.Column("hints", sa.JSON, nullable=True),
    sa.Column("reviews", sa.JSON, nullable=True),
    sa.Column("dealer", sa.Integer, nullable=True),
    sa.Column("deal_scheme", sa.Integer, nullable=True),
)

def deal_scheme_of(row: Mapping[str, Any]) -> int:
    """The deal scheme a stored game was dealt with (``games.deal_scheme``).

    NULL (a game stored before migration 0007, or by a server before it) is scheme 1: the
    one generator every game had then (see :data:`hotdeath.rng.DEAL_SCHEME`).
    """
    value = row.get("deal_scheme")
    return 1 if value is None else int(value)


actions_t = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(200), nullable=False),
    sa.Column("at", sa.DateTime, nullable=False),
)

deals_t = sa.Table(
    "deals",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("hand_no", sa.Integer, primary_key=True),
    sa.Column("salt", sa.String(64), nullable=False),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("deck", sa.Text, nullable=False),
)

chat_t = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("text", sa.String(800), nullable=False),
    sa.Column("at", sa.DateTime, nullable=False),
)

servers_t = sa.Table(
    "servers",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("url", sa.String(300), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
)
"""The server processes sharing the database (:mod:`hotdeath.server.leases`)."""

leases_t = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("server_id", sa.String(32), nullable=False, index=True),
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
)
"""Which process plays each table while that process's heartbeat is fresh."""

CHAT_KEPT = 100
"""Chat lines of a table loaded with it (the newest)."""

_INSERT_ACTION = actions_t.insert()
"""The one statement of the hot path, compiled once (SQLAlchemy caches it)."""

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script directory shipped inside the package."""


MIGRATION_LOCK = 0x686F7464  # "hotd"
"""The PostgreSQL advisory lock (transaction-scoped) a process holds while it migrates."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


@dataclass(frozen=True, slots=True)
class DealRow:
    """A stored deal commitment: the salt, the digest and the committed deck (codes)."""

    hand_no: int
    salt: str
    digest: str
    deck: tuple[str, ...]


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode, foreign keys and cross-thread use."""
    is_sqlite = url.startswith("sqlite")
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False} if is_sqlite else {},
    )
    if is_sqlite:

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database schema to the newest migration (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # processes starting at once migrate in turn
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


GameRows = tuple[dict[str, Any], list[tuple[int, str]], dict[int, DealRow]]
"""A game row, its actions ``(seat, text)`` in order and its deal commitments by hand."""


@dataclass(frozen=True, slots=True)
class RoomRows:
    """Everything stored about a table: its row, seat rows, game ids and current game."""

    table: dict[str, Any]
    seats: list[dict[str, Any]]
    games: list[str]
    game: GameRows | None
    chat: list[dict[str, Any]] = field(default_factory=list)
    """The newest :data:`CHAT_KEPT` chat lines, oldest first."""


def read_game_since(engine: Engine, game_id: str, known: int) -> GameRows | None:
    """A game's row, its actions after the first ``known`` and its deals (None: no game).

    :meth:`Store.read_game_since` on the store's engine; the replay workers read with an
    engine of their own (another process).
    """
    with engine.connect() as c:
        row = c.execute(games_t.select().where(games_t.c.id == game_id)).mappings().first()
        if row is None:
            return None
        acts = c.execute(
            sa.select(actions_t.c.seat, actions_t.c.action)
            .where(actions_t.c.game_id == game_id, actions_t.c.idx > known)
            .order_by(actions_t.c.idx)
        ).all()
        deals = c.execute(
            deals_t.select().where(deals_t.c.game_id == game_id)
        ).mappings().all()
    return (
        dict(row),
        [(int(s), str(a)) for s, a in acts],
        {
            int(d["hand_no"]): DealRow(
                int(d["hand_no"]), d["salt"], d["digest"], tuple(d["deck"].split())
            )
            for d in deals
        },
    )


class Store:
    """The server's database: tables, seats, games, their actions and deal commitments.

    Methods that change something queue the change and return its future; methods that
    read wait for their answer (every write queued before them included), and
    :meth:`later` queues any of them to await from the event loop.
    """

    def __init__(self, url: str, threaded: bool | None = None) -> None:
        """Open (and migrate) the database at ``url``.

        ``threaded``: statements run in a thread of the store (True) or in the caller's
        thread (False); None (the default) chooses a thread for a database server and the
        caller's thread for SQLite, whose commits take a fraction of a millisecond and
        cost more in hand-overs between threads than they take (the run log in
        benchmarks/results/, §8).
        """
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)
        self.commits = Commits(self.engine, leases_t)
        """Makes the writes (the writer's thread): the lease fence, the failure episodes."""
        self.writer = Writer(self.commits.run,
                             threaded=not url.startswith("sqlite") if threaded is None
                             else threaded)

    @property
    def server_id(self) -> str | None:
        """The id of this process when it shares the database (its new tables' leases)."""
        return self.commits.server_id

    @server_id.setter
    def server_id(self, value: str | None) -> None:
        self.commits.server_id = value

    @property
    def failures(self) -> int:
        """Writes the database refused (a count, for tests and the log)."""
        return self.commits.failures

    @property
    def fenced(self) -> int:
        """Writes refused because another process holds the table now (a count)."""
        return self.commits.fenced

    def close(self) -> None:
        """Write everything queued, then release the connections."""
        self.writer.close()
        self.engine.dispose()

    def later(self, read: Callable[..., T], *args: Any, lane: str = "") -> Future[T]:
        """Queue ``read(*args)`` (one of the ``_read_*`` queries) in ``lane``.

        It runs behind the queued writes of that table (``""``: of no table).
        """
        return self.writer.submit(lambda: read(*args), getattr(read, "__name__", "read"),
                                  lane)

    def flush(self) -> None:
        """Wait until every write queued so far is done (whether it worked or not)."""
        self.barrier().result()

    def withdraw(self, fut: Future[Any]) -> bool:
        """Withdraw a write not yet committing (:meth:`Writer.withdraw`); True if so."""
        return self.writer.withdraw(fut)

    def _write(self, table_id: str, what: str, job: Callable[[sa.Connection], None],
               chain: bool = False, fenced: bool = True) -> Future[None]:
        """Queue ``job`` in ``table_id``'s lane; ``chain``: part of the table's game record.

        It runs in a transaction, with the other writes of its round (:mod:`~hotdeath.
        server.writer`).  ``fenced`` (with several processes): the transaction first locks
        the table's lease row (``FOR SHARE``: no claim or adoption takes it meanwhile),
        and the write raises :class:`LeaseLost` unless the row names this process.
        """
        return self.writer.submit_write(Write(table_id, what, job, chain, fenced))

    # ---------------------------------------------------------------- tables and seats

    def create_table(
        self, row: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
    ) -> Future[None]:
        """Insert a table and its seats."""
        row, rows = dict(row), [{"table_id": row["id"], **s} for s in seats]
        created = _now()

        server_id = self.server_id

        def job(c: sa.Connection) -> None:
            c.execute(tables_t.insert().values(created_at=created, **row))
            c.execute(seats_t.insert(), rows)
            if server_id is not None:  # the process that creates a table plays it
                c.execute(leases_t.insert().values(table_id=row["id"], server_id=server_id,
                                                   since=sa.func.now()))

        return self._write(row["id"], "create the table", job, chain=True, fenced=False)

    def update_seat(self, table_id: str, seat: int, **values: Any) -> Future[None]:
        """Change a seat's name, token hash, bot or connected flag."""

        def job(c: sa.Connection) -> None:
            c.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(**values)
            )

        return self._write(table_id, f"update seat {seat}", job)

    def update_table(self, table_id: str, **values: Any) -> Future[None]:
        """Change a table's settings (``bot_delay`` …)."""

        def job(c: sa.Connection) -> None:
            c.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))

        return self._write(table_id, "update the table", job)

    def reset_connected(self) -> Future[None]:
        """Mark every seat disconnected (at start: no connection survives a restart)."""

        def job(c: sa.Connection) -> None:
            c.execute(seats_t.update().values(connected=False))

        return self._write("*", "reset the connected flags", job, fenced=False)

    def load_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A table row and its seat rows (by seat), or None."""
        return self.later(self._read_table, table_id, lane=table_id).result()

    def _read_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        with self.engine.connect() as c:
            row = c.execute(tables_t.select().where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seats = c.execute(
                seats_t.select().where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings().all()
            return dict(row), [dict(s) for s in seats]

    def playing_tables(self) -> list[str]:
        """Ids of the tables whose game is running."""
        return self.later(self._read_playing).result()

    def _read_playing(self) -> list[str]:
        with self.engine.connect() as c:
            return list(
                c.execute(sa.select(tables_t.c.id).where(tables_t.c.status == "playing"))
                .scalars()
            )

    def table_games(self, table_id: str) -> list[str]:
        """The ids of a table's games, oldest first."""
        return self.later(self._read_games, table_id, lane=table_id).result()

    def _read_games(self, table_id: str) -> list[str]:
        with self.engine.connect() as c:
            return list(
                c.execute(
                    sa.select(games_t.c.id)
                    .where(games_t.c.table_id == table_id)
                    .order_by(games_t.c.created_at, games_t.c.id)
                ).scalars()
            )

    def read_table_now(
        self, table_id: str
    ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """:meth:`load_table`'s rows, read at once in the caller's thread (not queued)."""
        return self._read_table(table_id)

    def read_game_since(self, game_id: str, known: int) -> GameRows | None:
        """A game's rows after its first ``known`` actions, read now in the caller's thread.

        Not queued, and only the newer actions (a replay cache holds the first ones).  For
        replays: a game's record only grows, so a read that misses writes still queued
        shows a little less of a running game, never anything wrong.
        """
        return read_game_since(self.engine, game_id, known)

    def load_room(self, table_id: str) -> Future[RoomRows | None]:
        """Queue the read of everything about a table (None: no such table).

        Writes of the table refused since one failed are allowed again after it: the
        caller rebuilds the table from what this read finds.
        """

        def read() -> RoomRows | None:
            self.commits.broken.discard(table_id)
            self.commits.taken.discard(table_id)
            try:
                return load()
            except Exception as e:
                self.commits.log_failure(table_id, f"load table {table_id}", e)
                raise WriteFailed(f"the database could not load table {table_id}: "
                                  f"{reason(e)}") from e

        def load() -> RoomRows | None:
            found = self._read_table(table_id)
            if found is None:
                return None
            row, seats = found
            game = self._read_game(row["game_id"]) if row["game_id"] is not None else None
            return RoomRows(row, seats, self._read_games(table_id), game,
                            self._read_chat(table_id))

        return self.writer.submit(read, f"load table {table_id}", table_id)

    # ---------------------------------------------------------------- chat, lobby

    def add_chat(self, table_id: str, line: Mapping[str, Any]) -> Future[None]:
        """Store one chat line (``idx``, ``seat``, ``name``, ``kind``, ``text``)."""
        row = {"table_id": table_id, **line, "at": _now()}

        def job(c: sa.Connection) -> None:
            c.execute(chat_t.insert().values(**row))

        return self._write(table_id, "a chat line", job)

    def _read_chat(self, table_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(chat_t.c.idx, chat_t.c.seat, chat_t.c.name, chat_t.c.kind,
                          chat_t.c.text)
                .where(chat_t.c.table_id == table_id)
                .order_by(chat_t.c.idx.desc())
                .limit(CHAT_KEPT)
            ).mappings().all()
        return [dict(r) for r in reversed(rows)]

    def open_tables(self, limit: int = 50) -> Future[list[dict[str, Any]]]:
        """Queue the read of the public tables waiting for players, with their open seats."""
        return self.later(self._read_open_tables, limit)

    def _read_open_tables(self, limit: int) -> list[dict[str, Any]]:
        open_seat = sa.and_(seats_t.c.token_hash.is_(None), seats_t.c.bot.is_(None))
        free = sa.func.sum(sa.case((open_seat, 1), else_=0)).label("free")
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_t.c.id, tables_t.c.name, tables_t.c.variant, tables_t.c.preset,
                          tables_t.c.options, tables_t.c.players, tables_t.c.theme,
                          tables_t.c.turn_timer, free)
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .where(tables_t.c.public.is_(True), tables_t.c.status == "waiting")
                .group_by(tables_t.c.id)
                .having(free > 0)
                .order_by(tables_t.c.created_at.desc())
                .limit(limit)
            ).mappings().all()
        return [dict(r) for r in rows]

    # ---------------------------------------------------------------- games

    def start_game(self, row: Mapping[str, Any], deals: Iterable[DealRow]) -> Future[None]:
        """Insert a new game (and its first deal commitment) and make it the table's game."""
        row, deals = dict(row), list(deals)
        created = _now()

        def job(c: sa.Connection) -> None:
            c.execute(games_t.insert().values(created_at=created, status="running", **row))
            self._insert_deals(c, row["id"], deals)
            c.execute(
                tables_t.update()
                .where(tables_t.c.id == row["table_id"])
                .values(status="playing", game_id=row["id"])
            )

        return self._write(row["table_id"], f"start game {row['id']}", job, chain=True)

    @staticmethod
    def _insert_deals(c: sa.Connection, game_id: str, deals: Iterable[DealRow]) -> None:
        rows = [
            {"game_id": game_id, "hand_no": d.hand_no, "salt": d.salt, "digest": d.digest,
             "deck": " ".join(d.deck)}
            for d in deals
        ]
        if rows:
            c.execute(deals_t.insert(), rows)

    def record_action(
        self,
        table_id: str,
        game_id: str,
        index: int,
        seat: int,
        action: str,
        deals: Sequence[DealRow] = (),
        result: tuple[list[int], list[int]] | None = None,
    ) -> Future[None]:
        """Queue one accepted action, written in one transaction with what it changed.

        ``index`` counts from 1; ``deals`` are new deal commitments; ``result`` (scores,
        winners) ends the game.
        """
        deals = list(deals)
        at = _now()

        def job(c: sa.Connection) -> None:
            self._write_action(c, table_id, game_id, index, seat, action, deals, result, at)

        return self._write(table_id, f"action {index} of game {game_id}", job, chain=True)

    def _write_action(
        self, c: sa.Connection, table_id: str, game_id: str, index: int, seat: int,
        action: str, deals: Sequence[DealRow], result: tuple[list[int], list[int]] | None,
        at: dt.datetime,
    ) -> None:
        c.execute(
            _INSERT_ACTION,
            {"game_id": game_id, "idx": index, "seat": seat, "action": action, "at": at},
        )
        if deals:
            self._insert_deals(c, game_id, deals)
        if result is not None:
            scores, winners = result
            c.execute(
                games_t.update()
                .where(games_t.c.id == game_id)
                .values(status="finished", scores=scores, winners=winners, finished_at=at)
            )
            c.execute(tables_t.update().where(tables_t.c.id == table_id).values(status="finished"))

    def record_hints(self, table_id: str, game_id: str, hints: Sequence[Sequence[int]]
                     ) -> Future[None]:
        """Queue the write of a game's hints so far (``[seat, action index]`` pairs)."""
        value = [[int(s), int(i)] for s, i in hints]

        def job(c: sa.Connection) -> None:
            c.execute(games_t.update().where(games_t.c.id == game_id).values(hints=value))

        return self._write(table_id, f"hints of game {game_id}", job)

    def record_review(self, table_id: str, game_id: str, key: str,
                      review: Mapping[str, Any]) -> Future[None]:
        """Queue the write of one review of a game's hand (``key``: ``"hand:seat"``)."""
        value = dict(review)

        def job(c: sa.Connection) -> None:
            old = c.execute(
                sa.select(games_t.c.reviews).where(games_t.c.id == game_id)
            ).scalar()
            reviews = dict(old or {})
            reviews[key] = value
            c.execute(games_t.update().where(games_t.c.id == game_id).values(reviews=reviews))

        return self._write(table_id, f"a review of game {game_id}", job, fenced=False)

    def load_game(self, game_id: str) -> GameRows | None:
        """A game row, its actions ``(seat, text)`` in order and its deals, or None."""
        return self.fetch_game(game_id).result()

    def fetch_game(self, game_id: str) -> Future[GameRows | None]:
        """Queue the read of :meth:`load_game` (to await from the event loop)."""
        return self.later(self._read_game, game_id)

    def barrier(self) -> Future[None]:
        """A future done when every job queued so far (writes and reads) is done."""
        return self.writer.barrier()

    def _read_game(self, game_id: str) -> GameRows | None:
        return read_game_since(self.engine, game_id, 0)
