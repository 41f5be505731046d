"""What the routers share, and the FastAPI dependency that hands it to a route.

``create_app`` builds one :class:`Services` per application and keeps it in
``app.state.services``; a route asks for it with ``svc: Svc`` (a dependency reading the
application's state), so the routers are plain module-level ``APIRouter`` objects.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from hotdeath.server.forward import Forwarder
from hotdeath.server.guard import AddressLimits
from hotdeath.server.hub import Hub
from hotdeath.server.protocol import ApiError, Limits
from hotdeath.server.replays import PER_ADDRESS, ReplayWorkers
from hotdeath.server.room import Room
from hotdeath.server.store import Store

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The browser UI's files (HTML, CSS, JavaScript modules)."""


@dataclass(slots=True)
class Services:
    """One application's hub, store, limits and workers, as its routes see them."""

    hub: Hub
    store: Store
    limits: Limits
    per_address: AddressLimits
    replays: ReplayWorkers
    rate_limit: tuple[float, float]
    """Each connection's token bucket (burst, messages per second)."""
    forwarder: Forwarder | None = None
    replaying: dict[str, int] = field(default_factory=dict)
    """Replays under way per client address (:func:`under_way`)."""
    reviewing: dict[str, int] = field(default_factory=dict)
    """Reviews under way per client address."""


def services(conn: HTTPConnection) -> Services:
    """The application's :class:`Services` (a FastAPI dependency, HTTP or WebSocket)."""
    found: Services = conn.app.state.services
    return found


Svc = Annotated[Services, Depends(services)]
"""A route's parameter for the application's :class:`Services`."""


def error(status: int, code: str, message: str) -> JSONResponse:
    """An error answer in our shape: ``{"code", "message"}``."""
    return JSONResponse({"code": code, "message": message}, status_code=status)


WRITE_WAIT = 10.0
"""The longest a REST change waits for its write (seconds).  Still queued then (or still
being made, not yet committing), it is withdrawn: not made, and answered 503
``not_saved``; so is a change whose client went away before its write was made."""


async def committed(room: Room, request: Request | None = None) -> None:
    """Wait until the room's last change has committed; ``not_saved`` (503) if not.

    A change that failed is undone in memory (the room's own callback, which runs
    first), so what the server holds is what the database holds.  The answer comes
    within :data:`WRITE_WAIT`: a write not committing by then, or whose client
    (``request``) disconnected meanwhile, is withdrawn and never made, so nobody holds a
    seat (or anything else) whose answer never reached them.
    """
    fut, room.writes.last_write = room.writes.last_write, None
    if fut is None:
        return
    waiting = asyncio.wrap_future(fut)
    if not fut.done():
        gone = asyncio.ensure_future(disconnected(request)) if request is not None else None
        try:
            await asyncio.wait({waiting} if gone is None else {waiting, gone},
                               timeout=WRITE_WAIT, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if gone is not None:
                gone.cancel()
        if not fut.done() and room.store.withdraw(fut):
            with contextlib.suppress(Exception):
                await waiting
            raise ApiError(503, "not_saved", "the change could not be saved in time, so it "
                           "was not made; try again")
    try:
        await waiting
    except Exception:
        await room.writes.settled()
        raise ApiError(503, "not_saved", "the change could not be saved, so it was "
                       "not made; try again later") from None


async def disconnected(request: Request) -> None:
    """Return once the client of ``request`` has disconnected (its body read or not)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


@contextmanager
def under_way(counts: dict[str, int], request: Request, what: str) -> Iterator[None]:
    """Count one request of the caller's address under way in ``counts`` while it runs.

    ``rate_limited`` (429) when the address already has :data:`PER_ADDRESS` of ``what``
    under way (replays, reviews: each a worker's time).
    """
    address = request.client.host if request.client else "?"
    if counts.get(address, 0) >= PER_ADDRESS:
        raise ApiError(429, "rate_limited", f"at most {PER_ADDRESS} {what} at once from one "
                       "address")
    counts[address] = counts.get(address, 0) + 1
    try:
        yield
    finally:
        counts[address] -= 1
        if not counts[address]:
            del counts[address]


def variant_name(variant: str) -> str:
    """The variant's name for a name or alias in a path, or ``unknown_variant`` (404)."""
    from hotdeath.errors import HotDeathError
    from hotdeath.variants import get_variant

    try:
        return get_variant(variant).name
    except HotDeathError as e:
        raise ApiError(404, "unknown_variant", e.message) from None


def theme_arg(theme: str) -> str:
    """A name theme given in a query, or ``bad_theme`` (400)."""
    from hotdeath.cards import THEMES

    if theme not in THEMES:
        raise ApiError(400, "bad_theme", f"theme must be one of {', '.join(THEMES)}")
    return theme
