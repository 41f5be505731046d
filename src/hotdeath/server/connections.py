"""One WebSocket connection of a table: its seat, its rate buckets and its outbox.

The WebSocket route (:mod:`hotdeath.server.routes.play`) makes a :class:`Conn` per socket
and runs the task that sends its outbox; a room queues messages on it and never waits for
a socket.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from hotdeath.server.chat import CHAT_BURST, CHAT_PER_SECOND
from hotdeath.server.messages import dumps
from hotdeath.server.protocol import RATE_BURST, RATE_PER_SECOND, TokenBucket

OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow (closed with 1013,
try again later: the client reconnects and gets the table as it is then)."""


class Conn:
    """One WebSocket connection: its seat (None: spectator) and its outgoing queue."""

    def __init__(self, burst: float = RATE_BURST, rate: float = RATE_PER_SECOND) -> None:
        self.seat: int | None = None
        self.greeted = False
        self.bucket = TokenBucket(burst, rate, burst)
        self.chat_bucket = TokenBucket(CHAT_BURST, CHAT_PER_SECOND, CHAT_BURST)
        self.watcher = 0
        """A spectator's number at its table (its chat name is "Watcher N")."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code: int | None = None
        """The WebSocket close code to send when the server closes it (None: keep it)."""

    def send(self, text: str) -> None:
        """Queue ``text``; a connection that falls too far behind is closed."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # what it has not read is out of date
            self.close(code=1013, discard=True)
            return
        self.outbox.put_nowait(text)

    def send_json(self, obj: Mapping[str, Any]) -> None:
        """Queue a JSON message."""
        self.send(dumps(obj))

    def close(self, code: int | None = None, discard: bool = False) -> None:
        """Stop sending (the sender task ends at the ``None`` mark).

        ``code``: close the socket too, with this close code (1012: served elsewhere now,
        1013: fell behind); ``discard``: drop what is queued and not yet sent.
        """
        if not self.closed:
            self.closed = True
            self.close_code = code
            while discard and not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

