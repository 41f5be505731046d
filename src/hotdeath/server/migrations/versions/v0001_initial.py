"""The first schema: tables, seats, games, actions and deal commitments.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "tables",
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
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("connected", sa.Boolean, nullable=False),
    )
    op.create_table(
        "games",
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
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("hand_no", sa.Integer, primary_key=True),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for name in ("deals", "actions", "games", "seats", "tables"):
        op.drop_table(name)
