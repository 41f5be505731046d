"""The protocol's pieces that need no game: limits, errors (REST and WebSocket), checks.

``docs/protocol.md`` documents every message and error code.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final

from hotdeath.errors import NotationError
from hotdeath.jsontext import loads_bounded

MAX_MESSAGE_BYTES: Final = 4096
"""A client message longer than this (in UTF-8) is refused with ``too_large``."""
RATE_BURST: Final = 20.0
"""Token-bucket size: messages a connection may send at once."""
RATE_PER_SECOND: Final = 10.0
"""Token-bucket refill rate: messages per second a connection may keep sending."""
MAX_DEPTH: Final = 8
"""Deepest nesting of a client message (the deepest one, an action, has depth 1)."""
MAX_ID_LENGTH: Final = 64
"""Longest client message id."""
MAX_ACTION_LENGTH: Final = 200
"""Longest action text."""
MAX_CHECK_CARDS: Final = 20
"""Most cards a ``check`` message may ask about."""
CLIENT_TYPES: Final = (
    "hello", "action", "rematch", "ping", "chat", "react", "ready", "hint", "check",
)
"""The message types a client may send."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's abuse limits (``hotdeath serve`` options; docs/protocol.md, Security).

    Every refusal is coded: ``too_large`` (413) for a body over ``max_body_bytes``,
    refused from its ``Content-Length`` before it is read; ``rate_limited`` (429) for a
    client address over ``tables_per_minute`` new tables; ``too_many_connections`` for an
    address over ``connections_per_address`` WebSockets; ``rate_limited`` (with the
    message's ``id``) for a seat over its token bucket ``seat_rate`` (burst, per second;
    default: a connection's), shared by every connection of the seat, besides each
    connection's own bucket.
    """

    max_body_bytes: int = 64 * 1024
    tables_per_minute: int = 30
    connections_per_address: int = 40
    seat_rate: tuple[float, float] | None = None
    """None: the same budget as one connection's (``create_app``'s ``rate_limit``)."""
    wrong_codes_per_minute: int = 20
    """Table codes one client address may get wrong in a minute (a wrong one more:
    ``rate_limited``, 429)."""


DEFAULT_LIMITS: Final = Limits()
"""The limits of ``hotdeath serve`` unless its options say otherwise."""


class ProtocolError(Exception):
    """A refused client message: a stable ``code`` and a ``message`` for people."""

    def __init__(self, code: str, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id

    def to_json(self) -> dict[str, Any]:
        """The ``error`` message sent back."""
        return {"type": "error", "code": self.code, "message": self.message, "id": self.msg_id}


class ApiError(Exception):
    """A refused REST request: HTTP status, stable code, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(slots=True)
class TokenBucket:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    burst: float = RATE_BURST
    rate: float = RATE_PER_SECOND
    tokens: float = RATE_BURST
    stamp: float = 0.0

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; False means over the limit."""
        t = time.monotonic() if now is None else now
        if self.stamp:
            self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def message_id(text: str | bytes) -> str | None:
    """The ``id`` of a client message, if it has a valid one (for a refusal's answer).

    >>> message_id('{"type": "ping", "id": "p-1"}')
    'p-1'
    >>> message_id("[[[") is None
    True
    """
    raw = _utf8(text)
    if raw is None or len(raw) > MAX_MESSAGE_BYTES:
        return None
    try:
        msg = loads_bounded(raw, MAX_DEPTH)
    except NotationError:
        return None
    raw_id = msg.get("id") if isinstance(msg, dict) else None
    if not isinstance(raw_id, str) or not 0 < len(raw_id) <= MAX_ID_LENGTH:
        return None
    return raw_id if _utf8(raw_id) is not None else None


def _utf8(text: str | bytes) -> bytes | None:
    """``text`` in UTF-8; None if it holds a lone surrogate (it is not Unicode text)."""
    if isinstance(text, bytes):
        return text
    try:
        return text.encode()
    except UnicodeEncodeError:
        return None


def _lone_surrogate(raw: bytes, msg: Any) -> bool:
    r"""Whether a decoded message holds a lone surrogate (JSON may escape one: ``\ud800``).

    Such a string cannot be hashed, stored or sent back as UTF-8; only a message with a
    ``\u`` escape can hold one, so the others are not looked at.
    """
    if b"\\u" not in raw:
        return False
    return _utf8(json.dumps(msg, ensure_ascii=False)) is None


def parse_message(text: str | bytes) -> dict[str, Any]:
    """Decode and check one client message; raise :class:`ProtocolError` if it is bad."""
    raw = _utf8(text)
    if raw is None:  # a str from a caller, never from a socket (frames are UTF-8)
        raise ProtocolError("bad_json", "the message is not Unicode text (a lone surrogate)")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes (got {len(raw)})"
        )
    try:
        msg = loads_bounded(raw, MAX_DEPTH)
    except NotationError as e:
        code = "too_deep" if e.code == "json_too_deep" else "bad_json"
        raise ProtocolError(code, f"the message is not JSON this server reads: {e.message}"
                            ) from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_json", "the message must be a JSON object")
    if _lone_surrogate(raw, msg):
        raise ProtocolError("bad_json", "the message holds a lone surrogate (\\ud800 to "
                            "\\udfff without its pair): that is not text")
    raw_id = msg.get("id")
    msg_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_LENGTH else None
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r} (types: {', '.join(CLIENT_TYPES)})",
            msg_id,
        )
    if kind == "hello":
        token = msg.get("token")
        if token is not None and not (isinstance(token, str) and 0 < len(token) <= 200):
            raise ProtocolError("bad_message", "'token' must be a string or null", msg_id)
    elif kind == "action":
        if not isinstance(raw_id, str) or not 0 < len(raw_id) <= MAX_ID_LENGTH:
            raise ProtocolError(
                "bad_message", f"an action needs an 'id' string of 1 to {MAX_ID_LENGTH} characters"
            )
        act = msg.get("action")
        if not isinstance(act, str) or not 0 < len(act) <= MAX_ACTION_LENGTH:
            raise ProtocolError(
                "bad_message", "'action' must be action notation, e.g. \"play R7\"", msg_id
            )
        version = msg.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("bad_message", "'version' must be an integer", msg_id)
        seat = msg.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_message", "'seat' must be an integer", msg_id)
    elif kind == "check":
        cards = msg.get("cards")
        if not (isinstance(cards, list) and 0 < len(cards) <= MAX_CHECK_CARDS
                and all(isinstance(c, str) and 0 < len(c) <= 8 for c in cards)):
            raise ProtocolError("bad_message", "'cards' must be a list of 1 to "
                                f"{MAX_CHECK_CARDS} card codes", msg_id)
    elif kind == "ping" and raw_id is not None and msg_id is None:
        raise ProtocolError("bad_message", f"'id' must be a string of at most {MAX_ID_LENGTH}")
    return msg
