"""Table chat: the words people type and the quick reactions.

:func:`chat_text` checks a chat line with the project's one input policy
(:func:`hotdeath.text.clean_text`); the pages show it as text, never as HTML.
:class:`TableChat` keeps a table's newest lines and sends a line once it is stored.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any, Final

from hotdeath.errors import TextError
from hotdeath.server.messages import dumps
from hotdeath.server.protocol import ProtocolError
from hotdeath.server.store import CHAT_KEPT
from hotdeath.text import KINDS, clean_text

if TYPE_CHECKING:
    from hotdeath.server.connections import Conn
    from hotdeath.server.room import Room

MAX_CHAT_CHARS: Final = KINDS["chat"].max_chars
"""The longest chat line, in characters (after NFC)."""
CHAT_BURST: Final = 5.0
"""Chat lines a connection may send at once."""
CHAT_PER_SECOND: Final = 0.5
"""Chat lines a connection may keep sending per second."""
REACTIONS: Final = {
    "gg": "Good game!",
    "nice": "Nice one!",
    "ouch": "Ouch!",
    "oops": "Oops!",
    "hurry": "Your move!",
    "thanks": "Thanks!",
}
"""The quick reactions: id → the words everyone sees."""

def chat_text(text: object) -> str:
    """A chat line as it is stored and shown (the input policy's ``chat`` kind), or ``bad_chat``.

    The one input policy for text people give (:func:`hotdeath.text.clean_text`): NFC,
    no control, bidi or invisible characters, at most :data:`MAX_CHAT_CHARS` characters.

    >>> chat_text("  Cafe\u0301  ")
    'Café'
    """
    try:
        cleaned = clean_text(text, "chat")
    except TextError as e:
        raise ProtocolError("bad_chat", e.message) from None
    if not cleaned:
        raise ProtocolError("bad_chat", "a chat line needs some text")
    return cleaned


class TableChat:
    """A table's chat: the newest lines in memory (the store keeps them all)."""

    def __init__(self, room: Room, lines: list[dict[str, Any]] | None = None) -> None:
        self.room = room
        self.lines: list[dict[str, Any]] = list(lines or [])
        """The newest chat lines, oldest first."""

    def receive(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A ``chat`` or ``react`` message of ``conn``: checked, rate-limited, then said."""
        if msg["type"] == "chat":
            text = chat_text(msg.get("text"))  # a refused line costs no chat token
            if not conn.chat_bucket.take():
                raise ProtocolError("chat_limited", "too many chat lines: wait a moment")
            self.say(conn, "text", text)
            return
        words = REACTIONS.get(str(msg.get("reaction")))
        if words is None:
            raise ProtocolError(
                "bad_chat", f"reactions: {', '.join(REACTIONS)}", msg.get("id")
            )
        if not conn.chat_bucket.take():
            raise ProtocolError("chat_limited", "too many chat lines: wait a moment")
        self.say(conn, "reaction", words)

    def say(self, conn: Conn, kind: str, text: str) -> None:
        """Store and send one chat line (or reaction) of a connection (never of a bot)."""
        room = self.room
        if room.writes.busy():
            raise ProtocolError("busy", "this table's changes are still being saved: try "
                                "again in a moment")
        if conn.seat is not None:
            name = room.seats[conn.seat].name or f"Seat {conn.seat + 1}"
        else:
            name = f"Watcher {conn.watcher}"
        idx = (self.lines[-1]["idx"] + 1) if self.lines else 1
        line = {"idx": idx, "seat": conn.seat, "name": name, "kind": kind, "text": text}
        self.lines.append(line)
        del self.lines[:-CHAT_KEPT]
        room.used = time.monotonic()
        saving = room.store.add_chat(room.table_id, line)
        message = dumps({"type": "chat", "line": line})

        def sent() -> None:
            for c in list(room.conns):
                if c.greeted:
                    c.send(message)

        def unsent() -> None:  # not stored: nobody sees it
            with contextlib.suppress(ValueError):
                self.lines.remove(line)

        room.writes.when_saved(saving, sent, unsent, episode=False)
