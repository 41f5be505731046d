"""Forwarding: a request for a table another server process plays is sent to that process.

:class:`Forwarding` is ASGI middleware in front of the routes.  A request that names a
table (``/api/tables/{id}…``, ``/ws/{id}``, ``/rules/…?table={id}``) is served here when
this process holds the table's lease or takes it now (:meth:`Hub.owner
<hotdeath.server.hub.Hub.owner>`); held by a live other process, it is forwarded to
that process's public address: HTTP through httpx, a WebSocket relayed message by
message.  A forwarded request carries ``X-Hotdeath-Forwarded`` and is never forwarded
again (the process it reaches serves it or answers 503 ``elsewhere``).  When the owner
goes away, or stalls (a relay pings it every :data:`RELAY_PING` seconds and gives up on a
late pong), the relay closes the client's socket with 1012 (service restart); the page
and the terminal client reconnect as after any drop and reach whoever plays it then.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

if TYPE_CHECKING:
    from hotdeath.server.hub import Hub

log = logging.getLogger("hotdeath.server")

FORWARDED = "x-hotdeath-forwarded"
"""The header of a forwarded request (its value: the forwarding process's id)."""
TABLE_PATH = re.compile(r"^/(?:api/tables|ws)/([^/]+)")
"""The routes whose path names a table."""
HOP_HEADERS = frozenset({
    "host", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
    "proxy-authorization", "proxy-authenticate", "content-length",
})
"""Headers of one hop, never passed on."""
OWN_HEADERS = frozenset({
    "content-security-policy", "x-frame-options", "x-content-type-options",
    "referrer-policy", "cross-origin-opener-policy", "content-encoding", "server", "date",
})
"""Headers of the owner's answer this process sets itself (its guard adds them again)."""
RELAY_OPEN = 3.0
"""Seconds a relay waits for the owner to accept its WebSocket (a stalled process accepts
the connection in its kernel but never answers)."""
RELAY_PING = 2.0
"""A relay pings the owner this often and gives up when a pong is this late: a stalled
owner is noticed within two of these, and the relay closes its client's socket (1012)."""
UNREACHABLE = {"code": "elsewhere", "message": "the server process that plays this table "
               "does not answer at the moment; try again in a few seconds"}


def table_of(scope: dict[str, Any]) -> str | None:
    """The table a request names, or None."""
    path: str = scope.get("path", "")
    m = TABLE_PATH.match(path)
    if m is not None:
        return m.group(1)
    if path.startswith("/rules/"):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        tables = query.get("table")
        return tables[0] if tables else None
    return None


class Forwarder:
    """Sends requests and relays WebSockets to the process that plays a table."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._client: Any = None

    def _http(self) -> Any:
        if self._client is None:
            try:
                import httpx
            except ImportError as e:  # pragma: no cover - the postgres extra installs it
                raise RuntimeError("forwarding needs httpx: pip install 'hotdeath[postgres]'"
                                   ) from e
            self._client = httpx.AsyncClient(timeout=30.0)
        return self._client

    async def close(self) -> None:
        """Close the HTTP client's connections."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def _headers(self, scope: dict[str, Any]) -> list[tuple[str, str]]:
        out = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]
               if k.decode("latin-1").lower() not in HOP_HEADERS
               and not k.lower().startswith(b"sec-websocket")]
        client = scope.get("client")
        if client:
            seen = [v for k, v in out if k.lower() == "x-forwarded-for"]
            out = [(k, v) for k, v in out if k.lower() != "x-forwarded-for"]
            out.append(("x-forwarded-for", ", ".join([*seen, client[0]])))
        keeper = self.hub.keeper
        out.append((FORWARDED, keeper.leases.server_id if keeper is not None else "?"))
        return out

    @staticmethod
    def _target(base: str, scope: dict[str, Any]) -> str:
        query = scope.get("query_string", b"").decode("latin-1")
        path: bytes = scope.get("raw_path") or scope["path"].encode()
        return base + path.decode("latin-1") + (f"?{query}" if query else "")

    async def http(self, base: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Send an HTTP request to ``base`` and its answer back."""
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        import httpx

        try:
            resp = await self._http().request(
                scope["method"], self._target(base, scope), content=body,
                headers=self._headers(scope))
        except httpx.HTTPError as e:
            log.warning("forwarding to %s failed: %s", base, type(e).__name__)
            data = json.dumps(UNREACHABLE).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(data)).encode())]})
            await send({"type": "http.response.body", "body": data})
            return
        content = resp.content
        headers = [(k.encode("latin-1"), v.encode("latin-1"))
                   for k, v in resp.headers.multi_items()
                   if k.lower() not in HOP_HEADERS and k.lower() not in OWN_HEADERS]
        headers.append((b"content-length", str(len(content)).encode()))
        await send({"type": "http.response.start", "status": resp.status_code,
                    "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def websocket(self, base: str, scope: dict[str, Any], receive: Any,
                        send: Any) -> None:
        """Relay a WebSocket to ``base``, both ways, until either side closes."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        first = await receive()
        if first["type"] != "websocket.connect":
            return
        url = "ws" + self._target(base, scope)[len("http"):]
        try:
            upstream = await connect(url, compression=None, open_timeout=RELAY_OPEN,
                                     ping_interval=RELAY_PING, ping_timeout=RELAY_PING,
                                     additional_headers=self._headers(scope),
                                     max_size=2 ** 24)  # uvicorn's own limit
        except (OSError, TimeoutError, WebSocketException) as e:
            log.warning("relaying to %s failed: %s", base, type(e).__name__)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(
                {"type": "error", "id": None, **UNREACHABLE})})
            await send({"type": "websocket.close", "code": 1013})
            return
        await send({"type": "websocket.accept"})

        async def down() -> int:
            try:
                async for message in upstream:
                    if isinstance(message, str):
                        await send({"type": "websocket.send", "text": message})
                    else:
                        await send({"type": "websocket.send", "bytes": message})
            except ConnectionClosed:
                pass
            code = upstream.close_code
            return code if code is not None and code >= 4000 else 1012

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                await upstream.send(text if text is not None else message.get("bytes") or b"")

        downs, ups = asyncio.ensure_future(down()), asyncio.ensure_future(up())
        try:
            done, _ = await asyncio.wait({downs, ups}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (downs, ups):
                task.cancel()
            with contextlib.suppress(Exception):
                await upstream.close()
        if downs in done and not downs.cancelled() and downs.exception() is None:
            with contextlib.suppress(Exception):  # the client may be gone already
                await send({"type": "websocket.close", "code": downs.result()})


class Forwarding:
    """ASGI middleware: a request for a table another live process plays goes there."""

    def __init__(self, app: Any, forwarder: Forwarder) -> None:
        self.app = app
        self.forwarder = forwarder

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Serve here, or forward to the table's process."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        table_id = table_of(scope)
        forwarded = any(k == FORWARDED.encode() for k, _ in scope.get("headers", []))
        if table_id is None or forwarded:
            await self.app(scope, receive, send)
            return
        keeper = self.forwarder.hub.keeper
        try:
            owner = await keeper.owner(table_id) if keeper is not None else None
        except Exception:  # the route answers (503 elsewhere, or the database's error)
            owner = None
        if owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self.forwarder.http(owner, scope, receive, send)
        else:
            await self.forwarder.websocket(owner, scope, receive, send)
