"""A short code per table (``/{CODE}`` opens it): a column, its unique index, the codes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The codes' characters as this migration wrote them (hotdeath.server.codes.ALPHABET)."""


def upgrade() -> None:
    """Add ``tables.code`` (unique), and give every table already stored a code."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("code", sa.String(8), nullable=True))
    bind = op.get_bind()
    ids = [row[0] for row in bind.execute(sa.text("SELECT id FROM tables ORDER BY id"))]
    used: set[str] = set()
    length = 4 if len(ids) < 30 ** 4 // 4 else 5
    for table_id in ids:
        code = ""
        while not code or code in used:
            code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        used.add(code)
        bind.execute(sa.text("UPDATE tables SET code = :code WHERE id = :id"),
                     {"code": code, "id": table_id})
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_tables_code", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("code")
