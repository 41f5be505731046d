"""The HTTP guard and the per-address limits, in front of every route.

:class:`Guard` is ASGI middleware: the security headers (a strict Content-Security-Policy,
no framing, no referrer) on every answer, and a request body over the limit refused before
it is read.  :class:`AddressLimits` counts, per client address, the tables created and the
table codes got wrong in the last minute, and the open WebSocket connections
(docs/protocol.md, Security).
"""

from __future__ import annotations

import json
import math
import time
from collections import deque
from typing import Any, Final

from hotdeath.server.protocol import ApiError, Limits

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
        self._wrong: dict[str, deque[float]] = {}
        self.connections: dict[str, int] = {}

    @staticmethod
    def _last_minute(seen: dict[str, deque[float]], address: str, most: int, what: str,
                     count: bool = True) -> None:
        """Refuse ``address`` past ``most`` of ``what`` in the last minute, else count one.

        ``rate_limited`` (429) over the limit; ``count`` False only looks.
        """
        now = time.monotonic()
        if len(seen) > 10_000:  # forget addresses idle for a minute
            for key in [k for k, q in seen.items() if not q or q[-1] < now - 60]:
                del seen[key]
        times = seen.setdefault(address, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= most:
            wait = math.ceil(times[0] + 60 - now)
            raise ApiError(429, "rate_limited", f"at most {most} {what} a minute from one "
                           f"address; try again in {wait} s")
        if count:
            times.append(now)

    def create_table(self, address: str) -> None:
        """Count a new table of ``address``; ``rate_limited`` (429) over the limit."""
        self._last_minute(self._created, address, self.limits.tables_per_minute,
                          "new tables")

    def wrong_code(self, address: str) -> None:
        """Count a wrong table code of ``address``; ``rate_limited`` (429) over the limit."""
        self._last_minute(self._wrong, address, self.limits.wrong_codes_per_minute,
                          "wrong table codes")

    def check_wrong(self, address: str) -> None:
        """``rate_limited`` (429) while ``address`` has used up its wrong codes."""
        self._last_minute(self._wrong, address, self.limits.wrong_codes_per_minute,
                          "wrong table codes", count=False)

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

