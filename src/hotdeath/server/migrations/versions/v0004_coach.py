"""The coach: a table's hints setting and the hints each game's players used.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``tables.hints`` (None: on when the table has bots) and ``games.hints``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
