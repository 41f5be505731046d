r"""The input policy for every text a person gives: display names, table names, chat.

One function, :func:`clean_text`, used by the server's REST routes and WebSocket messages
and by the terminal client before it sends anything, so the rules are the same
everywhere.  A text is

* normalised to Unicode NFC, trimmed, and runs of spaces folded to one space;
* refused if it holds a control character (C0 and C1, NUL and ESC included), a line or
  paragraph separator, a bidirectional control (overrides, embeddings, isolates, marks),
  an invisible formatting character (zero-width space, word joiner, soft hyphen, byte
  order mark, tag characters …), a lone surrogate, a private-use or unassigned code
  point, or more than :data:`MAX_MARKS` combining marks on one character;
* refused if it is empty (names) or longer than its kind's limit, in characters after
  normalisation (:data:`KINDS`);
* refused if it is not empty but shows nothing: every text needs a visible character (a
  letter, digit, punctuation or symbol that is not blank), and a name or table name may
  not hold a character that looks blank although it is a letter or symbol
  (:data:`BLANKS`: the Hangul fillers, the Braille blank).

The zero-width joiner is the one formatting character kept, and only between two
symbols: it builds emoji such as a family or a profession.  Every refusal is a
:class:`~hotdeath.errors.TextError` with the kind's code (``bad_name`` for names and
table names, ``bad_chat`` for chat).

>>> clean_text("  Ann   Lee ")
'Ann Lee'
>>> clean_text("Eve\u0000")
Traceback (most recent call last):
...
hotdeath.errors.TextError: a name may not hold U+0000 (a control character) [bad_name]

Standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from hotdeath.errors import TextError


@dataclass(frozen=True, slots=True)
class TextKind:
    """A kind of text: its words, its error code, its limit, whether it may be empty."""

    label: str
    code: str
    max_chars: int
    may_be_empty: bool = False
    no_blanks: bool = True
    """Whether :data:`BLANKS` are refused (names: yes; chat may draw Braille art)."""


KINDS: Final = {
    "name": TextKind("a name", "bad_name", 40),
    "table_name": TextKind("a table name", "bad_name", 80, may_be_empty=True),
    "chat": TextKind("a chat message", "bad_chat", 300, no_blanks=False),
}
"""The kinds of text and their rules (limits in characters after NFC)."""

MAX_MARKS: Final = 3
"""Combining marks allowed on one character (more is "Zalgo" text that overflows lines)."""

ZWJ: Final = "\u200d"
BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that show nothing: the Hangul choseong, jungseong, compatibility and
halfwidth fillers (default-ignorable letters) and the Braille pattern blank.  A name made
of them looks empty, and one beside a name looks like the same name."""
_UNSEEN: Final = frozenset("ZMC")
"""The first letters of the categories that show nothing on their own: separators, marks
and the other (control, format …) characters."""

_WHY: Final = {
    "Cc": "a control character",
    "Cf": "a direction or invisible character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_SPACES: Final = re.compile(r"\s+")


def _joins_symbols(text: str, i: int) -> bool:
    """Whether the joiner at ``i`` stands between two symbols (an emoji sequence)."""
    before = i - 1
    while before >= 0 and unicodedata.category(text[before]) in ("Mn", "Me", "Sk"):
        before -= 1
    after = i + 1
    return (
        before >= 0 and after < len(text)
        and unicodedata.category(text[before]) == "So"
        and unicodedata.category(text[after]) == "So"
    )


def clean_text(text: object, kind: str = "name") -> str:
    r"""``text`` as the server keeps it, or a :class:`TextError` naming what is wrong.

    ``kind`` is a key of :data:`KINDS` (``name``, ``table_name``, ``chat``).  A
    ``table_name`` may be empty (the caller then gives the table its default name).

    >>> clean_text("Cafe\u0301")  # NFC: one character, not two
    'Café'
    >>> clean_text("Mallory\u202e")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hotdeath.errors.TextError: a name may not hold U+202E (...) [bad_name]
    """
    spec = KINDS[kind]
    if not isinstance(text, str):
        raise TextError(spec.code, f"{spec.label} must be text")
    try:
        text = unicodedata.normalize("NFC", text)
    except UnicodeError:  # pragma: no cover - normalize accepts every str
        raise TextError(spec.code, f"{spec.label} is not valid text") from None
    marks = 0
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                raise TextError(spec.code, f"{spec.label} may not stack more than "
                                f"{MAX_MARKS} combining marks on one character")
            continue
        marks = 0
        why = _WHY.get(cat)
        if why is None and spec.no_blanks and ch in BLANKS:
            why = "a blank-looking character"
        if why is not None and not (ch == ZWJ and _joins_symbols(text, i)):
            raise TextError(spec.code, f"{spec.label} may not hold U+{ord(ch):04X} ({why})")
    text = _SPACES.sub(" ", text).strip()
    if not text and not spec.may_be_empty:
        raise TextError(spec.code, f"{spec.label} may not be empty")
    if text and not any(visible(ch) for ch in text):
        raise TextError(spec.code, f"{spec.label} needs a visible character (a letter, "
                        "digit, punctuation or symbol)")
    if len(text) > spec.max_chars:
        raise TextError(spec.code, f"{spec.label} has at most {spec.max_chars} characters "
                        f"(got {len(text)})")
    return text


def visible(ch: str) -> bool:
    r"""Whether the character ``ch`` shows something on its own.

    Not a space, a mark, a control or format character, nor one of :data:`BLANKS`.

    >>> [visible(c) for c in "a \u0301\u3164\u2800!"]
    [True, False, False, False, False, True]
    """
    return unicodedata.category(ch)[0] not in _UNSEEN and ch not in BLANKS


def shown(text: str, limit: int = 80) -> str:
    r"""``text`` safe to print: anything :func:`clean_text` refuses becomes U+FFFD.

    For names that come from elsewhere (another server), in the terminal and the logs.

    >>> shown("Eve\u001b[31m")
    'Eve\ufffd[31m'
    """
    out = []
    for i, ch in enumerate(text[: limit * 4]):
        why = _WHY.get(unicodedata.category(ch))
        out.append("\ufffd" if why is not None and not (
            ch == ZWJ and _joins_symbols(text, i)) else ch)
    return "".join(out)[:limit]
