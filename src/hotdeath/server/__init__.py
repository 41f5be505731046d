"""The browser game's server: tables with friends and bots, over HTTP and WebSockets.

An adapter around the pure core (it imports FastAPI, SQLAlchemy and Alembic; the core
never imports it).  :func:`create_app` builds the ASGI application; ``hotdeath serve``
runs it on uvicorn.  ``docs/protocol.md`` documents the REST routes and the WebSocket
messages.
"""

from __future__ import annotations

from pathlib import Path

from hotdeath import PROGRAM
from hotdeath.server.app import create_app


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir(PROGRAM, appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hotdeath.sqlite3'}"


__all__ = ["create_app", "default_database_url"]
