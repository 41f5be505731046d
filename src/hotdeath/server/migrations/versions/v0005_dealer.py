"""The dealer of each game: a later game at a table is dealt as the variant says.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.dealer``: the seat the game was started with as its dealer.

    None: no dealer was given (the variant's rule for a first game), as for every game
    stored before this column.
    """
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dealer", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dealer")
