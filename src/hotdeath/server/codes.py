"""Short table codes: a few letters and digits that open a table at ``/{CODE}``.

People read a code off the table screen and type it in a phone: 4 characters (5 once
the 4-character ones run short) from an alphabet without look-alikes: no 0 or O, no 1,
I or L, no U (it passes for V).  A code opens the table, never a seat; it is stored with
the table (``tables.code``, unique) and is not a secret: anyone with it can watch, as with
the table's link.
"""

from __future__ import annotations

import re
import secrets
from typing import Final

import sqlalchemy as sa
from starlette.convertors import Convertor, register_url_convertor

from hotdeath.server.store import tables_t

ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The characters of a code: digits and capitals, without 0, 1, I, L, O and U."""
LENGTHS: Final = (4, 5)
"""A new table's code has 4 characters while free ones are easily found, else 5."""
CANDIDATES: Final = 8
"""Random codes tried at once, in one query, before a longer code is tried."""
PATTERN: Final = re.compile(f"^[{ALPHABET}]{{{LENGTHS[0]},{LENGTHS[-1]}}}$")
"""A well-formed code (after :func:`normalise`)."""


def random_codes(length: int, count: int = CANDIDATES) -> list[str]:
    """``count`` random codes of ``length`` characters (distinct).

    >>> all(PATTERN.match(c) for c in random_codes(4))
    True
    """
    out: list[str] = []
    while len(out) < count:
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if code not in out:
            out.append(code)
    return out


def normalise(text: str) -> str | None:
    """The code a person typed, or None if it is not a well-formed code.

    Any case; spaces and dashes are ignored.

    >>> normalise(" k7p-q ")
    'K7PQ'
    >>> normalise("K0PQ") is None  # no zero in codes
    True
    """
    code = re.sub(r"[\s-]+", "", text).upper()
    return code if PATTERN.match(code) else None


def read_codes_taken(engine: sa.Engine, codes: list[str]) -> set[str]:
    """Which of ``codes`` some table has (a read for ``Store.later``)."""
    with engine.connect() as c:
        rows = c.execute(sa.select(tables_t.c.code).where(tables_t.c.code.in_(codes)))
        return {str(r[0]) for r in rows}


def read_table_of_code(engine: sa.Engine, code: str) -> str | None:
    """The id of the table with ``code``, or None (a read for ``Store.later``)."""
    with engine.connect() as c:
        found = c.execute(sa.select(tables_t.c.id).where(tables_t.c.code == code)).scalar()
        return None if found is None else str(found)


class CodeConvertor(Convertor[str]):
    """A path segment shaped like a code (``/{code:code}``), in any case.

    Only such paths reach the code route, so a page name (``/rules``) or a file
    (``/favicon.ico``) is never taken for a wrong code.
    """

    regex = f"[{ALPHABET}{ALPHABET.lower()}]{{{LENGTHS[0]},{LENGTHS[-1]}}}"

    def convert(self, value: str) -> str:
        """The segment as it was written."""
        return value

    def to_string(self, value: str) -> str:
        """The code in a path."""
        return value


register_url_convertor("code", CodeConvertor())
