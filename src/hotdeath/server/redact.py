"""Secrets out of every output: the database password masked in URLs, messages and logs.

:func:`mask_url` shows a database URL with its password as ``***`` (the start line, error
messages); :class:`RedactingFormatter` replaces every secret it was told about in each
log line it formats, tracebacks included (``hotdeath serve`` installs it on its log
handlers and uvicorn's); :func:`redact` does the same for one text.
"""

from __future__ import annotations

import logging
import re
from typing import ClassVar, Final

_USERINFO: Final = re.compile(r"(?P<head>[a-z][a-z0-9+.\-]*://[^:/@\s]*:)(?P<pw>[^@\s]*)@",
                              re.IGNORECASE)
MASK: Final = "***"


def url_password(url: str) -> str | None:
    """The password in ``url`` (None if it has none).

    >>> url_password("postgresql+psycopg://ann:s3cret@db/games")
    's3cret'
    >>> url_password("sqlite:///games.sqlite3") is None
    True
    """
    try:
        from sqlalchemy.engine import make_url

        pw = make_url(url).password
        if pw:
            return str(pw)
    except Exception:  # not a URL SQLAlchemy reads: look for user:password@ ourselves
        pass
    m = _USERINFO.search(url)
    return m.group("pw") if m and m.group("pw") else None


def mask_url(url: str) -> str:
    """``url`` with its password shown as ``***``.

    >>> mask_url("postgresql+psycopg://ann:s3cret@db:5432/games")
    'postgresql+psycopg://ann:***@db:5432/games'
    >>> mask_url("sqlite:///games.sqlite3")
    'sqlite:///games.sqlite3'
    """
    pw = url_password(url)
    out = _USERINFO.sub(lambda m: f"{m.group('head')}{MASK}@", url)
    return out.replace(pw, MASK) if pw else out


def redact(text: str, secrets: tuple[str, ...] | None = None) -> str:
    """``text`` with every secret (default: those registered) replaced by ``***``."""
    for secret in RedactingFormatter.secrets if secrets is None else secrets:
        if secret:
            text = text.replace(secret, MASK)
    return _USERINFO.sub(lambda m: f"{m.group('head')}{MASK}@", text)


class RedactingFormatter(logging.Formatter):
    """A log formatter that masks the registered secrets (and any URL's password)."""

    secrets: ClassVar[tuple[str, ...]] = ()
    """The texts never to print (the database password …): :meth:`register` adds one."""

    @classmethod
    def register(cls, secret: str | None) -> None:
        """Never print ``secret`` in a log line again (nor its URL-quoted form)."""
        if not secret:
            return
        from urllib.parse import quote

        cls.secrets = tuple(dict.fromkeys((*cls.secrets, secret, quote(secret, safe=""))))

    def format(self, record: logging.LogRecord) -> str:
        """The formatted line, secrets masked."""
        return redact(super().format(record))


def log_config(level: str = "WARNING") -> dict[str, object]:
    """A ``logging.config.dictConfig`` for ``hotdeath serve``: every line redacted.

    uvicorn's loggers and the root logger (the server's own ``hotdeath.server`` lines)
    write to stderr through :class:`RedactingFormatter`.
    """
    fmt = {"()": f"{__name__}.RedactingFormatter", "fmt": "%(levelname)s %(name)s: %(message)s"}
    handler = {"class": "logging.StreamHandler", "formatter": "redacted",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"redacted": fmt},
        "handlers": {"stderr": handler},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["stderr"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
