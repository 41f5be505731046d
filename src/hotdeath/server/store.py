"""Storage: the action log (the truth) and the tables around it, behind a narrow interface.

SQLAlchemy Core over any SQLAlchemy URL (SQLite by default, PostgreSQL too).  The schema
is created and upgraded by the Alembic migrations in ``hotdeath/server/migrations`` when a
:class:`Store` opens.  Every accepted action is written by :meth:`Store.record_action` in
one transaction together with what it changed (a new deal commitment, the game's end).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

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
)

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

_INSERT_ACTION = actions_t.insert()
"""The one statement of the hot path, compiled once (SQLAlchemy caches it)."""

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script directory shipped inside the package."""


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
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """The server's database: tables, seats, games, their actions and deal commitments."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # ---------------------------------------------------------------- tables and seats

    def create_table(self, row: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> None:
        """Insert a table and its seats."""
        with self.engine.begin() as c:
            c.execute(tables_t.insert().values(created_at=_now(), **row))
            c.execute(seats_t.insert(), [{"table_id": row["id"], **s} for s in seats])

    def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        """Change a seat's name, token hash, bot or connected flag."""
        with self.engine.begin() as c:
            c.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(**values)
            )

    def update_table(self, table_id: str, **values: Any) -> None:
        """Change a table's settings (``bot_delay`` …)."""
        with self.engine.begin() as c:
            c.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))

    def load_table(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A table row and its seat rows (by seat), or None."""
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
        with self.engine.connect() as c:
            return list(
                c.execute(sa.select(tables_t.c.id).where(tables_t.c.status == "playing"))
                .scalars()
            )

    def reset_connected(self) -> None:
        """Mark every seat disconnected (at start: no connection survives a restart)."""
        with self.engine.begin() as c:
            c.execute(seats_t.update().values(connected=False))

    def table_games(self, table_id: str) -> list[str]:
        """The ids of a table's games, oldest first."""
        with self.engine.connect() as c:
            return list(
                c.execute(
                    sa.select(games_t.c.id)
                    .where(games_t.c.table_id == table_id)
                    .order_by(games_t.c.created_at, games_t.c.id)
                ).scalars()
            )

    # ---------------------------------------------------------------- games

    def start_game(self, row: Mapping[str, Any], deals: Iterable[DealRow]) -> None:
        """Insert a new game (and its first deal commitment) and make it the table's game."""
        with self.engine.begin() as c:
            c.execute(games_t.insert().values(created_at=_now(), status="running", **row))
            self._insert_deals(c, row["id"], deals)
            c.execute(
                tables_t.update()
                .where(tables_t.c.id == row["table_id"])
                .values(status="playing", game_id=row["id"])
            )

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
        game_id: str,
        index: int,
        seat: int,
        action: str,
        deals: Sequence[DealRow] = (),
        result: tuple[str, list[int], list[int]] | None = None,
    ) -> None:
        """Write one accepted action, in one transaction with what it changed.

        ``index`` counts from 1; ``deals`` are new deal commitments; ``result`` (table id,
        scores, winners) ends the game.
        """
        with self.engine.begin() as c:
            c.execute(
                _INSERT_ACTION,
                {"game_id": game_id, "idx": index, "seat": seat, "action": action, "at": _now()},
            )
            if deals:
                self._insert_deals(c, game_id, deals)
            if result is not None:
                table_id, scores, winners = result
                c.execute(
                    games_t.update()
                    .where(games_t.c.id == game_id)
                    .values(status="finished", scores=scores, winners=winners,
                            finished_at=_now())
                )
                c.execute(
                    tables_t.update().where(tables_t.c.id == table_id).values(status="finished")
                )

    def load_game(
        self, game_id: str
    ) -> tuple[dict[str, Any], list[tuple[int, str]], dict[int, DealRow]] | None:
        """A game row, its actions ``(seat, text)`` in order and its deals, or None."""
        with self.engine.connect() as c:
            row = c.execute(games_t.select().where(games_t.c.id == game_id)).mappings().first()
            if row is None:
                return None
            acts = c.execute(
                sa.select(actions_t.c.seat, actions_t.c.action)
                .where(actions_t.c.game_id == game_id)
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
