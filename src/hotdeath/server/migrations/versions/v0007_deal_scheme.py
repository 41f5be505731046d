"""The deal scheme of each game: games stored before it replay with their old deals.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.deal_scheme``: how the game's deals follow from its seed.

    NULL, as for every game stored before this column: scheme 1, the one generator of the
    whole game (:func:`hotdeath.server.store.deal_scheme_of`); new games store 2.
    """
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deal_scheme", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop the column (a game stored with scheme 2 would then replay with scheme 1)."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deal_scheme")
