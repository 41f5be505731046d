"""The ASGI application: :func:`create_app` wires the store, the hub and the routers.

:func:`create_app` builds it around a :class:`~hotdeath.server.store.Store` (migrated at
creation) and a :class:`~hotdeath.server.hub.Hub` (unfinished games restored at
start-up); the routes are one ``APIRouter`` per concern (:mod:`hotdeath.server.routes`).
``docs/protocol.md`` documents every route and message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from hotdeath import PROGRAM, __version__
from hotdeath.server.forward import Forwarder, Forwarding
from hotdeath.server.guard import HTTP_CODES, AddressLimits, Guard
from hotdeath.server.hub import FINISHED_UNLOAD, IDLE_UNLOAD, Hub
from hotdeath.server.leases import LEASE_SECONDS, Leases
from hotdeath.server.protocol import (
    DEFAULT_LIMITS,
    RATE_BURST,
    RATE_PER_SECOND,
    ApiError,
    Limits,
    ProtocolError,
)
from hotdeath.server.replays import ReplayWorkers
from hotdeath.server.routes import cards, games, join, pages, play, tables
from hotdeath.server.routes.deps import STATIC, Services, error
from hotdeath.server.seating import MAX_BOT_SECONDS, MAX_MASTER_SEATS
from hotdeath.server.store import Store

log = logging.getLogger("hotdeath.server")


def create_app(
    database_url: str,
    bot_delay: float = 0.6,
    rate_limit: tuple[float, float] = (RATE_BURST, RATE_PER_SECOND),
    max_bot_seconds: float = MAX_BOT_SECONDS,
    idle_unload: float | None = IDLE_UNLOAD,
    finished_unload: float | None = FINISHED_UNLOAD,
    db_thread: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
    public_url: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
    max_master_seats: int = MAX_MASTER_SEATS,
) -> FastAPI:
    """The server application on the database at ``database_url`` (migrated now).

    ``bot_delay`` is the default delay of new tables' bots; ``rate_limit`` each
    connection's token bucket (burst, messages per second); ``max_bot_seconds`` the most
    a searching bot (``master``, ``ismcts``) may think per decision (CPU
    seconds for ``master``; its searches run in worker processes), ``max_master_seats``
    the most seats the process runs such a bot in at once; ``idle_unload`` and
    ``finished_unload`` the seconds after which a table nobody is connected to leaves
    memory (None: never); ``db_thread`` whether database statements run in a thread of
    their own (None: for a database server, not for SQLite; see :class:`Store`);
    ``limits`` the abuse limits (:class:`~hotdeath.server.protocol.Limits`).  On shutdown
    every queued database write is made.

    ``public_url`` (PostgreSQL only): where the other server processes on the same
    database reach this one; given, the process shares the tables with them, each table
    played by one process at a time under a lease of ``lease_seconds``, and a request for
    a table another process plays is forwarded there (docs/architecture.md, "Several
    server processes").
    """
    if not max_bot_seconds > 0:
        raise ValueError(f"max_bot_seconds must be more than 0 (got {max_bot_seconds})")
    store = Store(database_url, db_thread)
    leases = None
    if public_url is not None and store.engine.dialect.name != "sqlite":
        leases = Leases(store.engine, public_url, lease_seconds)
    if max_master_seats < 0:
        raise ValueError(f"max_master_seats must be 0 or more (got {max_master_seats})")
    hub = Hub(store, bot_delay, max_bot_seconds, idle_unload, finished_unload,
              seat_rate=limits.seat_rate or rate_limit, leases=leases,
              max_master_seats=max_master_seats)
    forwarder = Forwarder(hub) if leases is not None else None
    replays = ReplayWorkers(database_url)
    svc = Services(hub, store, limits, AddressLimits(limits), replays, rate_limit, forwarder)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        replays.open()
        try:
            restored = hub.restore()
            if restored:
                log.info("restored %d unfinished game(s)", restored)
            yield
            await hub.close()
        finally:  # even after a failed start-up: the last server stops the replay workers
            await replays.close()
        if forwarder is not None:
            await forwarder.close()
        await asyncio.to_thread(store.close)  # writes what is queued, then stops

    app = FastAPI(
        title=PROGRAM,
        version=__version__,
        description=(
            "Hot Death Uno in the browser: tables with friends and bots. The WebSocket "
            "protocol for play (`/ws/{table_id}`) is documented in docs/protocol.md."
        ),
        lifespan=lifespan,
    )
    app.state.services = svc
    app.state.hub = hub
    app.state.limits = svc.per_address
    app.state.replays, app.state.replaying = replays, svc.replaying
    if forwarder is not None:  # inside the guard: its limits and headers hold for both
        app.add_middleware(Forwarding, forwarder=forwarder)
    app.add_middleware(Guard, max_body=limits.max_body_bytes)
    _handle_errors(app)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    for concern in (cards, tables, games, play, join):  # join last: /{CODE} takes the rest
        app.include_router(concern.router)
    return app


def _handle_errors(app: FastAPI) -> None:
    """Answer every refusal and failure in our shape: ``{"code", "message"}``."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        return error(503 if exc.code == "not_saved" else 409, exc.code, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500
                              else "server_error")
        detail = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        if code == "bad_request" and "parsing the body" in detail:
            detail = "the body is not JSON this server reads (too deeply nested, or not JSON)"
        return JSONResponse({"code": code, "message": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("a request failed: %s", type(exc).__name__, exc_info=exc)
        return error(500, "server_error", "the server could not answer this request")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [
            f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg', '')}"
            for err in exc.errors()
        ]
        return error(400, "bad_request", "; ".join(parts) or "the request is not valid")
