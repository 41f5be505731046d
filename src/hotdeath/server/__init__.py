"""The browser game's server: tables with friends and bots, over HTTP and WebSockets.

An adapter around the pure core (it imports FastAPI, SQLAlchemy and Alembic; the core
never imports it).  :func:`create_app` builds the ASGI application; ``hotdeath serve``
runs it on uvicorn.  ``docs/protocol.md`` documents the REST routes and the WebSocket
messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from hotdeath import PROGRAM

if TYPE_CHECKING:
    from hotdeath.server.app import create_app


def __getattr__(name: str) -> Any:
    """``create_app``, imported when first asked for.

    So the package's light modules (the container's health check, ``python -m
    hotdeath.server.health``, run every 30 s) load no web stack: 0.2 s of CPU, not 0.9.
    """
    if name == "create_app":
        from hotdeath.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir(PROGRAM, appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hotdeath.sqlite3'}"


__all__ = ["create_app", "default_database_url"]
