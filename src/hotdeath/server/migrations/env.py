"""Alembic environment: runs the migrations on the connection the server hands over.

``hotdeath.server.store.migrate`` puts an open connection in ``config.attributes``; run
from the ``alembic`` command line instead, the URL comes from ``sqlalchemy.url``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from hotdeath.server.store import metadata

config = context.config


def _run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_conn = config.attributes.get("connection")
if _conn is not None:
    _run(_conn)
else:
    _engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with _engine.begin() as _c:
        _run(_c)
