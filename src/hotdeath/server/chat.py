"""Table chat: the words people type and the quick reactions.

:func:`chat_text` checks a chat line with the project's one input policy
(:func:`hotdeath.text.clean_text`); the pages show it as text, never as HTML.
"""

from __future__ import annotations

from typing import Final

from hotdeath.errors import TextError
from hotdeath.server.protocol import ProtocolError
from hotdeath.text import KINDS, clean_text

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
