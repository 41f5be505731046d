"""Joining a table in the room: short codes, the QR code of a table's address, the health.

``/{CODE}`` and ``GET /api/codes/{code}`` open a table by its short code (never a seat;
wrong codes are counted per address and limited); ``GET /api/tables/{id}/qr.svg`` is the
QR code the table screen shows; ``GET /healthz`` is what the container's and the proxy's
health checks ask.  This router comes last: ``/{CODE}`` takes only what no other route
does, and only paths shaped like a code (:class:`~hotdeath.server.codes.CodeConvertor`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from hotdeath import __version__
from hotdeath.server.codes import normalise, read_table_of_code
from hotdeath.server.protocol import ApiError
from hotdeath.server.qr import check_origin, qr_svg
from hotdeath.server.routes.deps import Svc, error

router = APIRouter()

HEALTH_TIMEOUT: Final = 5.0
"""Seconds ``/healthz`` waits for the database before it answers 503 ``unhealthy``."""


def ping_database(engine: sa.Engine) -> None:
    """Ask the database a trivial query (run by ``Store.later`` for ``/healthz``)."""
    with engine.connect() as c:
        c.execute(sa.text("SELECT 1"))


@router.get("/healthz", tags=["health"])
async def health(svc: Svc) -> Response:
    """Whether this process serves (the container's and the proxy's health checks).

    200 once the database answers a query within :data:`HEALTH_TIMEOUT` seconds, else
    503 ``unhealthy``.
    """
    store = svc.store
    try:
        await asyncio.wait_for(asyncio.wrap_future(store.later(ping_database, store.engine)),
                               HEALTH_TIMEOUT)
    except Exception as e:  # any failure is the answer: not healthy
        reason = "no answer in time" if isinstance(e, TimeoutError) else type(e).__name__
        return error(503, "unhealthy", f"the database does not answer ({reason})")
    return JSONResponse({"status": "ok", "version": __version__,
                         "tables": len(svc.hub.rooms)},
                        headers={"Cache-Control": "no-store"})


@router.get("/api/tables/{table_id}/qr.svg", tags=["tables"])
async def table_qr(svc: Svc, table_id: str, request: Request,
                   origin: str | None = None) -> Response:
    """The QR code of the table's join address (its short link) at ``origin``.

    ``origin`` is the address people reach this server at, as the page sees it
    (``https://play.example.org``); by default the request's own.  The code holds that
    origin and the table's link, never a seat's token.
    """
    room = await svc.hub.room(table_id)
    base = check_origin(origin if origin is not None else str(request.base_url))
    if base is None:
        raise ApiError(400, "bad_origin", "origin must be an http or https origin, like "
                       "https://play.example.org")
    url = f"{base}{room.join_path()}"
    return Response(qr_svg(url, title=f"Join the table: {url}"), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


async def table_of_code(svc: Svc, text: str, request: Request) -> str:
    """The id of the table whose code ``text`` is; wrong codes counted per address."""
    address = request.client.host if request.client else "?"
    svc.per_address.check_wrong(address)
    code = normalise(text)
    if code is None:
        svc.per_address.wrong_code(address)
        raise ApiError(400, "bad_code", f"{text[:12]!r} is not a table code: codes are 4 or "
                       "5 letters and digits, such as K7PQ")
    store = svc.store
    found = await asyncio.wrap_future(store.later(read_table_of_code, store.engine, code))
    if found is None:
        svc.per_address.wrong_code(address)
        raise ApiError(404, "unknown_code", f"no table has the code {code}: check it on the "
                       "table's screen")
    return found


@router.get("/api/codes/{code}", tags=["tables"])
async def code_lookup(svc: Svc, code: str, request: Request) -> dict[str, Any]:
    """The table a short code opens: its id and link (never a seat).

    A malformed code is 400 ``bad_code``, an unknown one 404 ``unknown_code``; an address
    that got too many codes wrong in a minute is refused (429 ``rate_limited``).
    """
    table_id = await table_of_code(svc, code, request)
    return {"code": normalise(code), "table_id": table_id, "link": f"/t/{table_id}"}


@router.get("/{code:code}", include_in_schema=False)
async def code_page(svc: Svc, code: str, request: Request) -> Response:
    """``/{CODE}``: the table the code opens.

    A wrong code goes to the lobby (``/?code=``), which asks again and says why.
    """
    try:
        table_id = await table_of_code(svc, code, request)
    except ApiError as e:
        if e.code == "rate_limited":
            raise
        return RedirectResponse(f"/?code={normalise(code) or code[:12]}", status_code=303)
    return RedirectResponse(f"/t/{table_id}", status_code=303)
