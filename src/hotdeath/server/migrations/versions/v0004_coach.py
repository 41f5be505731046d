"""The coach: a table's hints setting, the hints each game's players used, its reviews.

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
    """Add ``tables.hints``, ``games.hints`` and ``games.reviews``.

    ``tables.hints`` None: on when the table has bots; ``games.reviews``: the coach's
    reviews of its hands, by ``"hand:seat"``.
    """
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.JSON, nullable=True))
        batch.add_column(sa.Column("reviews", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop the three columns."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reviews")
        batch.drop_column("hints")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
