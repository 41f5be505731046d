"""JSON from outside, read with bounds: only coded errors, whatever the text.

Python's :func:`json.loads` recurses once per nesting level (a few kilobytes of ``[``
raise ``RecursionError``), turns a number of thousands of digits into a ``ValueError``
that is not a ``JSONDecodeError``, and accepts ``NaN`` and ``Infinity``.  Every reader of
JSON that a person or a client sends (positions, records, the server's WebSocket
messages) goes through :func:`loads_bounded`, which checks the nesting depth *before*
parsing and turns every failure into a :class:`~hotdeath.errors.NotationError` with a
stable code:

* ``bad_json``: not JSON text (or a bare ``NaN``/``Infinity``, or a number too long);
* ``json_too_deep``: nested deeper than ``max_depth`` arrays/objects;
* ``json_too_large``: longer than ``max_chars`` characters.

>>> loads_bounded('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads_bounded("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
hotdeath.errors.NotationError: JSON nested deeper than 64 levels [json_too_deep]

:func:`check_depth` does the same check on a value already loaded (a dict built in
Python), without recursion.

Standard library only.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Final

from hotdeath.errors import NotationError

MAX_DEPTH: Final = 64
"""The default nesting bound: a position is 4 levels deep, a message a few more."""

_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def _reject_constant(name: str) -> Any:
    raise NotationError("bad_json", f"not JSON: {name} is not a JSON number")


def text_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``.

    Brackets in strings are not counted; linear time, no recursion.  Text that is not
    JSON gets some number (:func:`loads_bounded` then refuses it for what it is).
    """
    brackets = _NOT_BRACKET.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(accumulate(map(_STEP.__getitem__, brackets)))


def loads_bounded(
    text: str | bytes | bytearray, max_depth: int = MAX_DEPTH, max_chars: int | None = None
) -> Any:
    """Parse JSON ``text`` nested at most ``max_depth`` levels deep.

    Text longer than ``max_chars`` (when given) is refused unread; only
    :class:`NotationError` is raised (see the module).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise NotationError("bad_json", "not JSON: the bytes are not UTF-8") from None
    if not isinstance(text, str):
        raise NotationError("bad_json", f"not JSON: expected text, got {type(text).__name__}")
    if max_chars is not None and len(text) > max_chars:
        raise NotationError("json_too_large", f"JSON longer than {max_chars} characters")
    if text_depth(text) > max_depth:
        raise NotationError("json_too_deep", f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except NotationError:
        raise
    except json.JSONDecodeError as e:
        raise NotationError("bad_json", f"not JSON: {e}") from None
    except (ValueError, RecursionError) as e:  # a number of too many digits; belt and braces
        raise NotationError("bad_json", f"not JSON: {e}") from None


def check_depth(value: object, max_depth: int = MAX_DEPTH) -> None:
    """Refuse (``json_too_deep``) a loaded value nested deeper than ``max_depth`` levels.

    Lists, tuples and dicts count; iterative, so any depth is safe to check.
    """
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            items: Any = v.values()
        elif isinstance(v, (list, tuple)):
            items = v
        else:
            continue
        if d + 1 > max_depth:
            raise NotationError("json_too_deep", f"JSON nested deeper than {max_depth} levels")
        stack.extend((x, d + 1) for x in items)
