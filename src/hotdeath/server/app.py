"""The ASGI application: pages, the REST API for tables and the WebSocket for play.

:func:`create_app` builds it around a :class:`~hotdeath.server.store.Store` (migrated at
creation) and a :class:`~hotdeath.server.room.Hub` (unfinished games restored at
start-up).  ``docs/protocol.md`` documents every route and message.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from hotdeath import PROGRAM, __version__
from hotdeath.bots import bot_catalog, bot_label, bot_rank
from hotdeath.cards import (
    COLOR_LETTERS,
    COLOR_NAMES,
    FACE_CODE,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    KIND_IDS,
    NO_COLOR,
    NUM_FACES,
    THEMES,
    card_name,
)
from hotdeath.coach import CoachError, hints_line
from hotdeath.events import SCORE_LABELS
from hotdeath.options import OPTION_GROUPS
from hotdeath.server.connections import Conn
from hotdeath.server.driver import BREATHER_SECONDS
from hotdeath.server.forward import Forwarder, Forwarding
from hotdeath.server.hub import FINISHED_UNLOAD, IDLE_UNLOAD, Hub
from hotdeath.server.leases import LEASE_SECONDS, Leases
from hotdeath.server.messages import reveal_json
from hotdeath.server.protocol import (
    DEFAULT_LIMITS,
    RATE_BURST,
    RATE_PER_SECOND,
    ApiError,
    Limits,
    ProtocolError,
    message_id,
    parse_message,
)
from hotdeath.server.replays import MAX_PAGE_STEPS, PER_ADDRESS, ReplayWorkers, used_hints
from hotdeath.server.room import Room
from hotdeath.server.rules_pages import card_help, rules_page
from hotdeath.server.seating import (
    DEFAULT_BOT,
    MAX_BOT_SECONDS,
    bot_levels,
    check_turn_timer,
    server_bot,
    token_hash,
)
from hotdeath.server.store import Store
from hotdeath.variants import DEFAULT_VARIANT
from hotdeath.words import house_rules

log = logging.getLogger("hotdeath.server")


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

STATIC = Path(__file__).parent / "static"
"""The browser UI's files (HTML, CSS, JavaScript modules)."""
DEFAULT_TAKEOVER = 60.0
"""Seconds before a bot plays a disconnected person's seat, unless the table says otherwise."""


class CreateTable(BaseModel):
    """A new table."""

    variant: str = Field(DEFAULT_VARIANT, description="variant name or alias")
    preset: str | None = Field(None, description="preset name (default: the variant's first)")
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, description="option overrides"
    )
    seats: int = Field(4, ge=2, le=10, description="number of seats, 2–10")
    bots: dict[int, str] = Field(default_factory=dict, description="seat → bot spec")
    theme: str = Field("family", description="card-name theme: family or original")
    bot_delay: float | None = Field(None, ge=0, le=10, description="seconds before a bot moves")
    takeover_timeout: float | None = Field(
        DEFAULT_TAKEOVER, ge=0, le=3600,
        description="seconds before a bot plays a disconnected person's seat (null: never)",
    )
    takeover_bot: str = Field(DEFAULT_BOT, description="bot spec for disconnected people")
    name: str | None = Field(None, description="the table's name, at most 80 characters")
    turn_timer: float | None = Field(
        None, description="seconds a person has for a move, 15–120 (null: no timer)"
    )
    public: bool = Field(False, description="list the table in the lobby's open tables")
    breather: float = Field(
        0, ge=0, le=120,
        description="seconds of pause after a hand until every person is ready (0: none)",
    )
    hints: bool | None = Field(
        None, description="people may ask the coach for hints (null: on when a seat is a bot)"
    )


class JoinTable(BaseModel):
    """Take a seat."""

    name: str = Field(..., description="display name, 1–40 characters (docs/protocol.md, "
                      "Security: the input policy)")
    seat: int | None = Field(None, description="the seat (default: the first open one)")


class TableSettings(BaseModel):
    """Settings the host may change at any time (each one optional)."""

    bot_delay: float | None = Field(None, ge=0, le=10, description="seconds before a bot moves")
    turn_timer: float | None = Field(
        None, description="seconds a person has for a move, 15–120 (null: no timer)"
    )
    public: bool | None = Field(None, description="list the table in the lobby")
    hints: bool | None = Field(
        None, description="people may ask the coach for hints (null: on when a seat is a bot)"
    )


class SetBot(BaseModel):
    """Put a bot in a seat."""

    seat: int
    bot: str = Field(DEFAULT_BOT, description="bot spec, e.g. basic or random")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: our own scripts and styles only, never framed."""
DOCS_CSP: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: "
    "https://fastapi.tiangolo.com; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
"""The OpenAPI pages' policy (FastAPI's page loads Swagger UI from its CDN)."""
SECURITY_HEADERS: Final = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Sent with every HTTP answer, besides the CSP (no referrer: table links carry tokens)."""
HTTP_CODES: Final = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                     413: "too_large", 429: "rate_limited"}
"""Our codes for the HTTP errors the framework raises itself."""


class Guard:
    """ASGI middleware: security headers on every answer, bodies over the limit refused.

    A body whose ``Content-Length`` is over ``max_body`` is answered 413 ``too_large``
    before a byte of it is read; one sent without a length is cut off (and answered the
    same) once it passes the limit.
    """

    def __init__(self, app: Any, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = (DOCS_CSP if path in ("/docs", "/redoc") or path.startswith("/docs/")
               else CSP).encode()
        started = over = False

        async def send_headers(message: dict[str, Any]) -> None:
            nonlocal started
            if over:  # the application's answer to a body cut off: ours goes instead
                return
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in (b"content-security-policy",)]
                headers += [(b"content-security-policy", csp), *SECURITY_HEADERS]
                message = {**message, "headers": headers}
            await send(message)

        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = -1
                if length > self.max_body or length < 0:
                    await self._too_large(send)
                    return
        seen = 0

        async def counted() -> dict[str, Any]:
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message: dict[str, Any] = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body and not started:
                    over = True  # the application sees the client gone, and stops reading
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, counted, send_headers)
        if over:
            await self._too_large(send)

    async def _too_large(self, send: Any) -> None:
        headers = [(b"content-security-policy", CSP.encode()), *SECURITY_HEADERS]
        body = json.dumps({"code": "too_large", "message": "the request body is over "
                           f"{self.max_body} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), *headers]})
        await send({"type": "http.response.body", "body": body})


class AddressLimits:
    """Per client address: new tables in the last minute, open WebSocket connections."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._created: dict[str, deque[float]] = {}
        self.connections: dict[str, int] = {}

    def create_table(self, address: str) -> None:
        """Count a new table of ``address``; ``rate_limited`` (429) over the limit."""
        now = time.monotonic()
        if len(self._created) > 10_000:  # forget addresses idle for a minute
            for key in [k for k, q in self._created.items() if not q or q[-1] < now - 60]:
                del self._created[key]
        times = self._created.setdefault(address, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.limits.tables_per_minute:
            wait = math.ceil(times[0] + 60 - now)
            raise ApiError(429, "rate_limited", f"at most {self.limits.tables_per_minute} "
                           f"new tables a minute from one address; try again in {wait} s")
        times.append(now)

    def connect(self, address: str) -> bool:
        """Count a new connection of ``address``; False (not counted) over the limit."""
        n = self.connections.get(address, 0)
        if n >= self.limits.connections_per_address:
            return False
        self.connections[address] = n + 1
        return True

    def disconnect(self, address: str) -> None:
        """A connection of ``address`` closed."""
        n = self.connections.get(address, 0) - 1
        if n > 0:
            self.connections[address] = n
        else:
            self.connections.pop(address, None)


def cards_json() -> dict[str, Any]:
    """Every card face with its colour, kind and names in every theme, for the pages.

    ``order`` sorts a hand: by colour (red, yellow, green, blue, then wilds), then by face.
    The pages take card names and score words from here, never from a copy of their own.

    >>> data = cards_json()
    >>> [c for c in data["cards"] if c["code"] == "RET"][0]["names"]
    {'family': 'Retaliation', 'original': 'Fuck You'}
    """
    def rank(face: int) -> tuple[int, int]:
        color = FACE_COLOR[face]
        return (len(COLOR_NAMES) if color == NO_COLOR else color, face)

    order = {face: i for i, face in enumerate(sorted(range(NUM_FACES), key=rank))}
    return {
        "colors": [
            {"name": name, "letter": letter} for name, letter in zip(COLOR_NAMES, COLOR_LETTERS,
                                                                     strict=True)
        ],
        "themes": list(THEMES),
        "cards": [
            {
                "code": FACE_CODE[face],
                "color": None if FACE_COLOR[face] == NO_COLOR else COLOR_NAMES[FACE_COLOR[face]],
                "kind": KIND_IDS[FACE_KIND[face]],
                "number": FACE_NUMBER[face] if FACE_NUMBER[face] >= 0 else None,
                "order": order[face],
                "names": {theme: card_name(face, theme) for theme in THEMES},
            }
            for face in range(NUM_FACES)
        ],
        "score_labels": dict(SCORE_LABELS),
    }


def open_table_json(row: dict[str, Any]) -> dict[str, Any]:
    """One public table for the lobby's list: names for people, never ids or specs."""
    from hotdeath.variants import get_variant

    v = get_variant(row["variant"])
    rules = house_rules(v.name, row["preset"], row["options"], row["theme"])
    return {
        "table_id": row["id"], "name": row["name"], "variant": v.name,
        "variant_title": v.title, "preset_title": v.preset_title(row["preset"]),
        "players": row["players"], "seats_free": int(row["free"]),
        "turn_timer": row["turn_timer"],
        "house_rules": [h["text"] for h in rules],
        "link": f"/t/{row['id']}",
    }


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
) -> FastAPI:
    """The server application on the database at ``database_url`` (migrated now).

    ``bot_delay`` is the default delay of new tables' bots; ``rate_limit`` each
    connection's token bucket (burst, messages per second); ``max_bot_seconds`` the most
    a thinking bot (``ismcts``) may think per decision; ``idle_unload`` and
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
    hub = Hub(store, bot_delay, max_bot_seconds, idle_unload, finished_unload,
              seat_rate=limits.seat_rate or rate_limit, leases=leases)
    forwarder = Forwarder(hub) if leases is not None else None
    per_address = AddressLimits(limits)

    async def committed(room: Room) -> None:
        """Wait until the room's last change has committed; ``not_saved`` (503) if not.

        A change that failed is undone in memory (the room's own callback, which runs
        first), so what the server holds is what the database holds.
        """
        fut, room.writes.last_write = room.writes.last_write, None
        if fut is None:
            return
        try:
            await asyncio.wrap_future(fut)
        except Exception:
            await room.writes.settled()
            raise ApiError(503, "not_saved", "the change could not be saved, so it was "
                           "not made; try again later") from None

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
    app.state.hub = hub
    app.state.limits = per_address
    if forwarder is not None:  # inside the guard: its limits and headers hold for both
        app.add_middleware(Forwarding, forwarder=forwarder)
    app.add_middleware(Guard, max_body=limits.max_body_bytes)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        return _error(503 if exc.code == "not_saved" else 409, exc.code, exc.message)

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
        return _error(500, "server_error", "the server could not answer this request")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [
            f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg', '')}"
            for err in exc.errors()
        ]
        return _error(400, "bad_request", "; ".join(parts) or "the request is not valid")

    # ---------------------------------------------------------------- pages

    def page(name: str) -> Response:
        path = STATIC / name
        if not path.is_file():
            return _error(404, "no_page", f"the page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> Response:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> Response:
        return page("table.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    def replay_page(game_id: str) -> Response:
        return page("replay.html")

    def variant_name(variant: str) -> str:
        from hotdeath.errors import HotDeathError
        from hotdeath.variants import get_variant

        try:
            return get_variant(variant).name
        except HotDeathError as e:
            raise ApiError(404, "unknown_variant", e.message) from None

    def theme_arg(theme: str) -> str:
        if theme not in THEMES:
            raise ApiError(400, "bad_theme", f"theme must be one of {', '.join(THEMES)}")
        return theme

    @app.get("/rules/", include_in_schema=False)
    async def rules_default() -> Response:
        """The lobby's Rules link before a game is chosen: the default game's rules."""
        return RedirectResponse(f"/rules/{DEFAULT_VARIANT}", status_code=307)

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules(variant: str, table: str | None = None, theme: str | None = None) -> Response:
        """The rules of a variant, from the rulebook; ``table`` marks that table's rules."""
        name = variant_name(variant)
        summary = None
        if table is not None:
            room = await hub.room(table)
            summary = room.summary()
            name = room.variant
        chosen = theme_arg(theme) if theme else summary["theme"] if summary else "family"
        return Response(rules_page(name, chosen, summary), media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.get("/cards/{code}.svg", tags=["cards"])
    def card_svg(code: str, theme: str = "family") -> Response:
        """One card (or ``back``) as SVG, drawn from the card data."""
        try:
            art: Any = importlib.import_module("hotdeath.cardart")
            svg = str(art.card_svg(code, theme))
        except (ImportError, AttributeError):
            raise ApiError(404, "unknown_card", "card art is not installed") from None
        except (ValueError, KeyError) as e:
            raise ApiError(404, "unknown_card", str(e)) from None
        return Response(
            svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
        )

    # ---------------------------------------------------------------- REST

    cards_data = cards_json()

    @app.get("/api/cards", tags=["cards"])
    async def cards(response: Response) -> dict[str, Any]:
        """Every card face: code, colour, kind, number, sort order, names in each theme.

        Also the colours with their letters and the words of each score step.
        """
        response.headers["Cache-Control"] = "public, max-age=3600"
        return cards_data

    @app.get("/api/variants", tags=["lobby"])
    async def variants() -> dict[str, Any]:
        """Every variant with its presets and options, every bot, the name themes."""
        import hotdeath

        return {
            "variants": [v.to_json() for v in hotdeath.all_variants()],
            "default_variant": DEFAULT_VARIANT,
            "bots": [
                {
                    "name": b.name,
                    "description": b.description,
                    "params": [
                        {"name": p.name, "type": p.kind.__name__, "default": p.default,
                         "help": p.help, "choices": list(p.choices)}
                        for p in b.params
                    ],
                    "budget": b.budget,
                    "levels": bot_levels(b, hub.max_bot_seconds),
                }
                for b in bot_catalog()
                if server_bot(b)
            ],
            "bot_menu": sorted(
                (
                    {"spec": lv["spec"], "label": bot_label(lv["spec"]),
                     "rank": bot_rank(lv["spec"])[0], "help": b.description,
                     "default": lv["spec"] == DEFAULT_BOT}
                    for b in bot_catalog() if server_bot(b)
                    for lv in bot_levels(b, hub.max_bot_seconds)
                ),
                key=lambda item: (item["rank"], item["spec"]),
            ),
            "themes": list(THEMES),
            "option_groups": dict(OPTION_GROUPS),
            "max_bot_seconds": hub.max_bot_seconds,
            "defaults": {"bot": DEFAULT_BOT, "bot_delay": hub.bot_delay,
                         "breather": BREATHER_SECONDS,
                         "takeover_timeout": DEFAULT_TAKEOVER, "theme": "family"},
        }

    @app.get("/api/rules/{variant}", tags=["cards"])
    async def card_rules(variant: str, response: Response, theme: str = "family") -> dict[str, Any]:
        """What each card of the variant does: name, rule id, title and text, in ``theme``."""
        help_ = card_help(variant_name(variant), theme_arg(theme))
        response.headers["Cache-Control"] = "public, max-age=3600"
        return help_

    def links(room: Room) -> dict[str, Any]:
        return {
            "seat_links": {
                str(s.seat): f"/t/{room.table_id}?seat={s.seat}"
                for s in room.seats if s.kind == "open"
            },
            "spectator_link": f"/t/{room.table_id}?spectate=1",
        }

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; the answer carries the host token (keep it) and the links."""
        per_address.create_table(request.client.host if request.client else "?")
        room, host = hub.create_table(
            req.variant, req.preset, req.options, req.seats, req.bots, req.theme,
            req.bot_delay, req.takeover_timeout, req.takeover_bot, req.name,
            req.turn_timer, req.public, req.breather, req.hints,
        )
        await committed(room)
        return {"table_id": room.table_id, "host_token": host, "table": room.summary(),
                **links(room)}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """The public summary of a table (no tokens, no cards)."""
        return (await hub.room(table_id)).summary()

    @app.patch("/api/tables/{table_id}", tags=["tables"])
    async def change_table(
        table_id: str, req: TableSettings, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: change the table's settings (the bots' delay), at any time."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        given = req.model_fields_set
        if "turn_timer" in given:
            check_turn_timer(req.turn_timer)  # a bad value changes nothing, not even the delay
        if "bot_delay" in given and req.bot_delay is not None:
            room.seating.set_bot_delay(req.bot_delay)
            await committed(room)  # each write is answered for before the next one
        room.seating.set_settings(
            turn_timer=req.turn_timer if "turn_timer" in given else ...,
            public=req.public if "public" in given and req.public is not None else ...,
            hints=req.hints if "hints" in given else ...,
        )
        await committed(room)
        return room.summary()

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["tables"])
    async def remove_player(
        table_id: str, seat: int, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: remove a person from the table; a bot takes the seat (also mid-game)."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        room.seating.remove_player(seat)
        await committed(room)
        return room.summary()

    @app.get("/api/tables", tags=["lobby"])
    async def open_tables() -> dict[str, Any]:
        """The public tables waiting for players: variant, open seats, house rules."""
        rows = await asyncio.wrap_future(store.open_tables())
        return {"tables": [open_table_json(r) for r in rows]}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(table_id: str, req: JoinTable) -> dict[str, Any]:
        """Take a seat: the answer's token is the only way back into it."""
        room = await hub.room(table_id)
        seat, token = room.seating.join(req.name, req.seat)
        await committed(room)
        return {"seat": seat, "token": token, "table": room.summary()}

    @app.post("/api/tables/{table_id}/bots", tags=["tables"])
    async def add_bot(
        table_id: str, req: SetBot, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: put a bot in an open seat (or change a bot)."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        room.seating.set_bot(req.seat, req.bot)
        await committed(room)
        return room.summary()

    @app.delete("/api/tables/{table_id}/bots/{seat}", tags=["tables"])
    async def remove_bot(
        table_id: str, seat: int, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: make a bot's seat open again."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        room.seating.set_bot(seat, None)
        await committed(room)
        return room.summary()

    @app.post("/api/tables/{table_id}/start", tags=["tables"])
    async def start(
        table_id: str, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: start the game (every seat needs a person or a bot)."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        room.start()
        await committed(room)
        return room.summary()

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"])
    async def rematch(
        table_id: str, x_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Host: a new game at the table once the game is over."""
        room = await hub.room(table_id)
        room.require_host(x_token)
        room.rematch()
        await committed(room)
        return room.summary()

    replays = ReplayWorkers(database_url)
    replaying: dict[str, int] = {}
    app.state.replays, app.state.replaying = replays, replaying

    @app.get("/api/games/{game_id}/replay", tags=["games"])
    async def replay(
        game_id: str, request: Request, x_token: Annotated[str | None, Header()] = None,
        start: Annotated[int, Query(ge=0, description="the first step of the page")] = 0,
        count: Annotated[int, Query(ge=1, le=MAX_PAGE_STEPS,
                                    description="steps in the page, at most 200")
                         ] = MAX_PAGE_STEPS,
    ) -> Response:
        """A page of a game's steps: a finished game with everything, a running one seen.

        A running game is shown as the caller (its seat token) sees it.  ``next`` is the
        start of the next page (null: the last page).
        """
        with under_way(replaying, request, "replays"):
            return await replay_steps(game_id, x_token, start, count)

    async def replay_steps(
        game_id: str, x_token: str | None, start: int, count: int
    ) -> Response:
        # the record is read and the page built in a worker process (a long game's
        # actions are many rows, and a page is pure Python: in this process it would hold
        # the GIL this loop needs), not through the store's queue: records only grow, and
        # a page shows saved steps only.  It waits for the writes queued before it (a
        # database server's writer thread may not have stored the game's last actions or
        # its end yet when the table says so)
        await asyncio.wrap_future(store.barrier())
        head = await replays.head(game_id) if len(game_id) <= 32 else None
        if head is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        row, actions, deals = head
        found = await asyncio.wrap_future(store.later(store.read_table_now, row["table_id"]))
        if found is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        table, seat_rows = found
        full = row["status"] == "finished"
        seat: int | None = None
        if not full and x_token is not None:
            h = token_hash(x_token)
            mine = [int(r["seat"]) for r in seat_rows if r["token_hash"] == h]
            if not mine:
                raise ApiError(403, "bad_token", "this token is not a seat's at this table")
            seat = mine[0]
        if start > actions:
            raise ApiError(400, "bad_range", f"this game has steps 0 to {actions}")
        page = await replays.page(game_id, actions, seat, full, table["theme"], start, count)
        if page is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        out: dict[str, Any] = {
            "game_id": game_id, "table_id": row["table_id"], "status": row["status"],
            "variant": row["variant"], "preset": row["preset"], "options": row["options"],
            "players": row["players"], "names": row["names"], "theme": table["theme"],
            "seat": seat, "start": start, "total_steps": actions + 1, "next": page.next,
        }
        if full:  # the hints people used, told once the game is over
            used = used_hints(row)
            out["hints"] = used
            out["hints_line"] = hints_line(used, int(row["players"]), list(row["names"]))
        if full:
            out.update(seed=int(row["seed"]), seed_salt=row["seed_salt"],
                       dealer=row.get("dealer"),
                       commitments=[reveal_json(deals[h]) for h in sorted(deals)])
        head_text = json.dumps(out, separators=(",", ":"), ensure_ascii=False)[:-1]
        record = f',"record":{page.record}' if full and page.record is not None else ""
        body = f'{head_text}{record},"steps":[{page.steps}]}}'
        return Response(body, media_type="application/json")

    reviewing: dict[str, int] = {}

    @app.get("/api/games/{game_id}/review", tags=["games"])
    async def review_hand(
        game_id: str,
        request: Request,
        hand: Annotated[int, Query(ge=1, description="the hand to review (1 for the first)")],
        seat: Annotated[int | None, Query(ge=0, description="the seat to review")] = None,
        x_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The coach's review of a hand that is over, for one seat (docs/protocol.md).

        A running game's hands are reviewed only for the caller's own seat (its token); a
        finished game's for any seat.  Computed once in the review process, within a
        budget, and stored with the game.  One address may wait for :data:`PER_ADDRESS`
        reviews at once (429); a server computes or holds :data:`REVIEWS_WAITING` at once
        (503 ``coach_busy``).
        """
        with under_way(reviewing, request, "reviews"):
            return await review_of(game_id, hand, seat, x_token)

    async def review_of(game_id: str, hand: int, seat: int | None,
                        x_token: str | None) -> dict[str, Any]:
        if len(game_id) > 32:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        await asyncio.wrap_future(store.barrier())
        loaded = await asyncio.wrap_future(store.fetch_game(game_id))
        if loaded is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        row, actions, _deals = loaded
        found = await asyncio.wrap_future(store.later(store.read_table_now, row["table_id"]))
        if found is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        table, seat_rows = found
        mine: int | None = None
        if x_token is not None:
            h = token_hash(x_token)
            owned = [int(r["seat"]) for r in seat_rows if r["token_hash"] == h]
            if not owned:
                raise ApiError(403, "bad_token", "this token is not a seat's at this table")
            mine = owned[0]
        if row["status"] != "finished":
            if mine is None:
                raise ApiError(403, "bad_token", "a running game's hands are reviewed for "
                               "your own seat: send its token")
            if seat is not None and seat != mine:
                raise ApiError(403, "not_your_seat", f"you hold seat {mine}, not seat {seat}")
        target = seat if seat is not None else mine
        if target is None:
            raise ApiError(400, "bad_seat", "say which seat to review (?seat=)")
        if target >= int(row["players"]):
            raise ApiError(400, "bad_seat",
                           f"seat must be a number from 0 to {int(row['players']) - 1}")
        try:
            result = await asyncio.wrap_future(
                hub.reviews.review(row, actions, hand, target, str(table["theme"])))
        except CoachError as e:
            status = {"no_hand": 404, "hand_not_over": 409, "coach_busy": 503}.get(e.code, 400)
            raise ApiError(status, e.code, e.message) from None
        except BrokenProcessPool:  # the next review starts a new process
            raise ApiError(503, "review_failed", "the coach stopped before the review was "
                           "done: ask again") from None
        return {"game_id": game_id, "hand": hand, "seat": target, "review": result}

    # ---------------------------------------------------------------- WebSocket

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        address = ws.client.host if ws.client else "?"
        await ws.accept()
        if not per_address.connect(address):
            await ws.send_text(json.dumps(
                {"type": "error", "code": "too_many_connections", "id": None,
                 "message": f"at most {limits.connections_per_address} connections from one "
                            "address"}
            ))
            await ws.close(code=4429)
            return
        try:
            await connection(ws, table_id)
        finally:
            per_address.disconnect(address)

    async def connection(ws: WebSocket, table_id: str) -> None:
        try:
            room = await hub.load(table_id)
        except ApiError as e:  # another process is taking the table: the client retries
            await ws.send_text(json.dumps({"type": "error", "code": e.code,
                                           "message": e.message, "id": None}))
            await ws.close(code=1013)
            return
        if room is None:
            await ws.send_text(json.dumps(
                {"type": "error", "code": "unknown_table",
                 "message": f"there is no table {table_id!r}", "id": None}
            ))
            await ws.close(code=4404)
            return
        conn = Conn(*rate_limit)

        async def sender() -> None:
            while True:
                text = await conn.outbox.get()
                if text is None:
                    if conn.close_code is not None:  # served elsewhere now: the client
                        await ws.close(code=conn.close_code)  # reconnects and finds it
                    return
                await ws.send_text(text)

        task = asyncio.get_running_loop().create_task(sender())
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect" or conn.closed:
                    break  # closed meanwhile (another process plays the table now)
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                if not conn.bucket.take() or not room.seat_bucket(conn.seat):
                    conn.send_json(ProtocolError(
                        "rate_limited", "too many messages: slow down", message_id(data)
                    ).to_json())
                    continue
                try:
                    msg = parse_message(data)
                    if conn not in room.conns:  # not attached yet: the table may have been
                        fresh = await hub.load(table_id)  # unloaded and loaded again
                        room = fresh if fresh is not None else room
                    room.handle(conn, msg)
                except ProtocolError as e:
                    conn.send_json(e.to_json())
                except Exception:  # a defect of ours: say so in our shape, keep the socket
                    log.exception("table %s: a message could not be handled", table_id)
                    conn.send_json(ProtocolError(
                        "server_error", "the server could not handle this message",
                        message_id(data)).to_json())
        except WebSocketDisconnect:
            pass
        finally:
            room.detach(conn)
            conn.close()
            try:
                await task
            except Exception:  # the socket may already be gone
                task.cancel()

    return app
