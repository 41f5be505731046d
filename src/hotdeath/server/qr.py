"""QR codes of join addresses: an SVG for the table screen, text for the terminal.

Drawn by segno (a QR code library with no dependencies of its own).  What a code holds is
always an address of this server: an origin a page or ``serve --lan`` gives, checked by
:func:`check_origin`, and a path of ours (a table's short code or link).
"""

from __future__ import annotations

import io
import re
from typing import Final

import segno

ORIGIN: Final = re.compile(
    r"^https?://(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)"
    r"(?::[0-9]{1,5})?$"
)
"""An origin: scheme, host (a name, an IPv4 address or a bracketed IPv6 one) and port."""
DARK: Final = "#1d1d24"
LIGHT: Final = "#ffffff"
ON: Final = "\x1b[97;40m"
"""ANSI: bright white letters (the light modules) on a black ground (the dark ones)."""
OFF: Final = "\x1b[0m"


def check_origin(origin: str) -> str | None:
    """``origin`` without a trailing slash if it is an http(s) origin, else None.

    >>> check_origin("http://192.168.1.20:8000/")
    'http://192.168.1.20:8000'
    >>> check_origin("javascript:alert(1)") is None
    True
    """
    origin = origin.strip().rstrip("/")
    return origin if ORIGIN.match(origin) else None


def make(text: str) -> segno.QRCode:
    """The QR code of ``text`` (error correction M at least, raised when it costs nothing)."""
    return segno.make_qr(text, error="m")


def qr_svg(text: str, title: str = "") -> str:
    """A standalone SVG document of the QR code of ``text``, dark on white.

    >>> qr_svg("http://h/ABCD").startswith("<svg")
    True
    """
    buf = io.BytesIO()
    make(text).save(buf, kind="svg", scale=8, border=3, dark=DARK, light=LIGHT,
                    xmldecl=False, title=title or None, svgclass="qr", lineclass=None)
    return buf.getvalue().decode("utf-8")


def terminal_qr(text: str, colour: bool = False) -> str:
    """The QR code of ``text`` as lines of block characters for a terminal.

    Two rows of modules per line (half blocks), a quiet zone of four modules, dark
    modules printed as spaces and light ones as blocks.  That reads right on a terminal
    with light letters on a dark ground; ``colour`` (for a terminal, not a file) sets
    white letters on black for each line, so a light-themed terminal shows the code the
    right way round too (a phone's camera may not read one inverted).

    >>> terminal_qr("http://h/ABCD", colour=True).splitlines()[0].startswith(ON)
    True
    """
    buf = io.StringIO()
    make(text).terminal(out=buf, compact=True, border=4)
    if not colour:
        return buf.getvalue()
    return "".join(f"{ON}{line}{OFF}\n" for line in buf.getvalue().splitlines())


def terminal_matrix(lines: str) -> list[list[bool]]:
    """The modules (True: dark) that :func:`terminal_qr` lines show, quiet zone included.

    Reads the half-block characters back (with or without the colours), for checking
    what was printed.
    """
    cells = {" ": (True, True), "▀": (False, True), "▄": (True, False), "█": (False, False)}
    rows: list[list[bool]] = []
    for line in lines.replace(ON, "").replace(OFF, "").splitlines():
        if not line:
            continue
        top = [cells[ch][0] for ch in line]
        bottom = [cells[ch][1] for ch in line]
        rows += [top, bottom]
    return rows
