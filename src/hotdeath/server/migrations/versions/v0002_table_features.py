"""The friends' table: a turn timer, a breather and a public flag per table; the chat.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the tables' turn timer and public flag, and the chat table."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_timer", sa.Float, nullable=True))
        batch.add_column(sa.Column("breather", sa.Float, nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    """Drop the chat table and the two columns."""
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("public")
        batch.drop_column("turn_timer")
        batch.drop_column("breather")
