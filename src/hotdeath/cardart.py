"""Card art: every face as an SVG drawn from the card data (no copied artwork).

Each coloured card carries its colour three ways, so it reads without colour vision: the
fill, a pattern and a shape that belong to that colour only (red diamonds on diagonal
stripes, yellow circles on dots, green triangles on zigzags, blue squares on a grid), and
the colour's letter in two corners.  Wild cards show the four colours as quadrants, each
with its letter.  Every action and Hot Death special has a symbol of its own, and the card
name, from a name theme, is written across the card.

>>> svg = card_svg(parse_card("R7"))
>>> svg.startswith("<svg") and "Red 7" in svg
True
>>> ret = parse_card("RET")
>>> "Retaliation" in card_svg(ret), "Fuck You" in card_svg(ret, "original")
(True, True)
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final
from xml.sax.saxutils import escape

from hotdeath.cards import (
    BIG_BROTHER,
    BLUE_SHIELD,
    COLOR_LETTERS,
    COLOR_NAMES,
    COLORS,
    DELAYED_BLAST,
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    GLASNOST,
    HARVESTER,
    HOLY_DEFENDER,
    HOT_DEATH,
    LUCK_O_THE_IRISH,
    MAD,
    MAGIC_RED_5,
    MYSTERY_DRAW,
    NO_COLOR,
    NUM_FACES,
    NUMBER,
    QUITTER,
    RETALIATION,
    REVERSE,
    REVERSE_SKIP,
    SIXTY_NINE,
    SKIP,
    SPREADER,
    THEMES,
    VIRUS,
    WILD,
    WILD_DRAW_FOUR,
    card_code,
    card_name,
    parse_card,
)

WIDTH: Final = 200
HEIGHT: Final = 300
BACK: Final = "back"
"""The code that names the card back in :func:`card_svg_for_code`."""

FILL: Final = ("#d8323c", "#f2b705", "#2e9a4f", "#2463c9")
"""Card fill of each colour."""
DARK: Final = ("#7a1219", "#7a5800", "#10502a", "#0f2f6b")
"""A darker shade of each colour (outlines, patterns)."""
SYMBOL_YELLOW: Final = "#d39a00"
"""Yellow symbols are drawn a shade deeper so that they stand out on the white disc."""
INK: Final = "#1d1d24"
PAPER: Final = "#fffdf7"
WILD_FILL: Final = "#22222b"

_FONT: Final = "'DejaVu Sans', 'Segoe UI', Verdana, Arial, sans-serif"
_CX: Final = 100
_CY: Final = 132


# --------------------------------------------------------------------------- colour marks

def _shape(color: int, x: float, y: float, r: float, fill: str, stroke: str = "none") -> str:
    """The colour's shape (diamond, circle, triangle, square) centred on (x, y)."""
    sw = f' stroke="{stroke}" stroke-width="{r * 0.18:.1f}"' if stroke != "none" else ""
    if color == 0:
        pts = f"{x},{y - r} {x + r},{y} {x},{y + r} {x - r},{y}"
        return f'<polygon points="{pts}" fill="{fill}"{sw}/>'
    if color == 1:
        return f'<circle cx="{x}" cy="{y}" r="{r * 0.86:.1f}" fill="{fill}"{sw}/>'
    if color == 2:
        h = r * 0.9
        pts = f"{x},{y - r} {x + r},{y + h * 0.8:.1f} {x - r},{y + h * 0.8:.1f}"
        return f'<polygon points="{pts}" fill="{fill}"{sw}/>'
    s = r * 0.78
    return (
        f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}"'
        f' rx="{s * 0.15:.1f}" fill="{fill}"{sw}/>'
    )


def _badge(color: int, x: float, y: float, r: float) -> str:
    """The colour's shape in white with its letter inside (the colour-blind mark)."""
    dy = r * 0.38 if color != 2 else r * 0.52
    size = r * (1.05 if color != 2 else 0.9)
    return (
        _shape(color, x, y, r, PAPER, DARK[color])
        + f'<text x="{x}" y="{y + dy:.1f}" font-size="{size:.1f}" font-weight="bold"'
        f' text-anchor="middle" fill="{DARK[color]}">{COLOR_LETTERS[color]}</text>'
    )


def _pattern(pid: str, color: int) -> str:
    """A tile pattern unique to the colour, drawn in its darker shade."""
    d = DARK[color]
    if color == 0:  # diagonal stripes
        body = f'<path d="M-4,4 l8,-8 M0,20 l20,-20 M16,24 l8,-8" stroke="{d}" stroke-width="3"/>'
    elif color == 1:  # dots
        body = (
            f'<circle cx="5" cy="5" r="2.4" fill="{d}"/>'
            f'<circle cx="15" cy="15" r="2.4" fill="{d}"/>'
        )
    elif color == 2:  # zigzag
        body = (
            f'<path d="M0,14 l5,-8 l5,8 l5,-8 l5,8" fill="none" stroke="{d}"'
            ' stroke-width="2.4"/>'
        )
    else:  # grid
        body = f'<path d="M0,10 h20 M10,0 v20" stroke="{d}" stroke-width="2.2"/>'
    return (
        f'<pattern id="{pid}" width="20" height="20" patternUnits="userSpaceOnUse">'
        f"{body}</pattern>"
    )


# --------------------------------------------------------------------------- symbols

def _ring_slash(x: float, y: float, r: float, stroke: str) -> str:
    w = r * 0.28
    k = r * 0.7
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{stroke}" stroke-width="{w:.1f}"/>'
        f'<line x1="{x - k:.1f}" y1="{y + k:.1f}" x2="{x + k:.1f}" y2="{y - k:.1f}"'
        f' stroke="{stroke}" stroke-width="{w:.1f}" stroke-linecap="round"/>'
    )


def _arrows(x: float, y: float, s: float, fill: str) -> str:
    """Two opposed arrows (reverse)."""
    def arrow(sign: int) -> str:
        yy = y - sign * s * 0.32
        tip = x + sign * s
        tail = x - sign * s * 0.8
        head = x + sign * s * 0.45
        return (
            f'<path d="M{tail:.1f},{yy - s * 0.12:.1f} L{head:.1f},{yy - s * 0.12:.1f}'
            f" L{head:.1f},{yy - s * 0.34:.1f} L{tip:.1f},{yy:.1f} L{head:.1f},{yy + s * 0.34:.1f}"
            f' L{head:.1f},{yy + s * 0.12:.1f} L{tail:.1f},{yy + s * 0.12:.1f} Z" fill="{fill}"/>'
        )

    return arrow(1) + arrow(-1)


def _mini_cards(x: float, y: float, n: int, fill: str) -> str:
    out = []
    for i in range(n):
        dx = (i - (n - 1) / 2) * 16
        out.append(
            f'<rect x="{x + dx - 13:.1f}" y="{y - 20 + i * 4:.1f}" width="26" height="38" rx="4"'
            f' fill="{fill}" stroke="{PAPER}" stroke-width="3"'
            f' transform="rotate({(i - (n - 1) / 2) * 12:.0f} {x + dx:.1f} {y:.1f})"/>'
        )
    return "".join(out)


def _flame(x: float, y: float, s: float, outer: str, inner: str) -> str:
    def path(k: float, fill: str, dy: float) -> str:
        w, h = s * k, s * 1.25 * k
        yy = y + dy
        return (
            f'<path d="M{x:.1f},{yy - h:.1f} C{x + w * 0.35:.1f},{yy - h * 0.45:.1f}'
            f" {x + w:.1f},{yy - h * 0.25:.1f} {x + w * 0.8:.1f},{yy + h * 0.35:.1f}"
            f" C{x + w * 0.6:.1f},{yy + h * 0.75:.1f} {x - w * 0.6:.1f},{yy + h * 0.75:.1f}"
            f" {x - w * 0.8:.1f},{yy + h * 0.35:.1f}"
            f" C{x - w:.1f},{yy - h * 0.05:.1f} {x - w * 0.3:.1f},{yy - h * 0.3:.1f}"
            f' {x:.1f},{yy - h:.1f} Z" fill="{fill}"/>'
        )

    return path(1.0, outer, 0) + path(0.55, inner, s * 0.3)


def _shield(x: float, y: float, s: float, fill: str, stroke: str) -> str:
    return (
        f'<path d="M{x},{y - s} L{x + s * 0.85:.1f},{y - s * 0.7:.1f}'
        f" C{x + s * 0.85:.1f},{y + s * 0.2:.1f} {x + s * 0.4:.1f},{y + s * 0.75:.1f} {x},{y + s}"
        f" C{x - s * 0.4:.1f},{y + s * 0.75:.1f} {x - s * 0.85:.1f},{y + s * 0.2:.1f}"
        f' {x - s * 0.85:.1f},{y - s * 0.7:.1f} Z" fill="{fill}" stroke="{stroke}"'
        f' stroke-width="{s * 0.1:.1f}" stroke-linejoin="round"/>'
    )


def _text(x: float, y: float, size: float, body: str, fill: str, stroke: str = "none",
          sw: float = 0, weight: str = "bold") -> str:
    st = f' stroke="{stroke}" stroke-width="{sw}" paint-order="stroke"' if sw else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" text-anchor="middle"'
        f' fill="{fill}"{st}>{escape(body)}</text>'
    )


def _symbol(kind: int, face: int, ink: str, accent: str) -> str:
    """The central symbol of a face (``ink`` the main colour, ``accent`` a second one)."""
    x, y = _CX, _CY
    if kind == SKIP:
        return _ring_slash(x, y, 34, ink)
    if kind == DOUBLE_SKIP:
        return _ring_slash(x - 20, y - 16, 20, ink) + _ring_slash(x + 20, y + 16, 20, ink)
    if kind == REVERSE:
        return _arrows(x, y, 40, ink)
    if kind == REVERSE_SKIP:
        return _arrows(x, y - 2, 30, ink) + (
            f'<line x1="{x - 34}" y1="{y + 30}" x2="{x + 34}" y2="{y - 30}" stroke="{accent}"'
            f' stroke-width="9" stroke-linecap="round"/>'
        )
    if kind == DRAW_TWO:
        return _mini_cards(x, y - 6, 2, ink) + _text(x, y + 42, 30, "+2", ink, PAPER, 5)
    if kind == SPREADER:
        rays = "".join(
            f'<path d="M{x},{y + 28} L{x + dx},{y - 22} " stroke="{ink}" stroke-width="8"'
            f' stroke-linecap="round"/><polygon points="{x + dx * 1.25:.1f},{y - 36}'
            f' {x + dx - 10:.1f},{y - 16} {x + dx + 10:.1f},{y - 16}" fill="{ink}"/>'
            for dx in (-32, 0, 32)
        )
        return rays + f'<circle cx="{x}" cy="{y + 30}" r="9" fill="{ink}"/>'
    if kind == WILD:
        return _text(x, y + 14, 44, "W", PAPER, INK, 6)
    if kind == WILD_DRAW_FOUR:
        return _mini_cards(x, y - 4, 4, INK) + _text(x, y + 44, 30, "+4", PAPER, INK, 6)
    if kind == HOT_DEATH:
        return _flame(x, y - 2, 34, "#ff5a1f", "#ffd23f") + _text(x, y + 20, 26, "8", INK)
    if kind == DELAYED_BLAST:
        return (
            f'<circle cx="{x - 6}" cy="{y + 8}" r="28" fill="{INK}"/>'
            f'<rect x="{x + 8}" y="{y - 30}" width="14" height="12" rx="2" fill="{INK}"'
            f' transform="rotate(35 {x + 15} {y - 24})"/>'
            f'<path d="M{x + 20},{y - 30} q10,-14 22,-6" stroke="#8a6a3a" stroke-width="4"'
            f' fill="none"/>' + _flame(x + 42, y - 38, 10, "#ff5a1f", "#ffd23f")
            + f'<circle cx="{x - 16}" cy="{y - 2}" r="7" fill="#ffffff" opacity="0.35"/>'
        )
    if kind == HARVESTER:
        return (
            f'<line x1="{x + 22}" y1="{y - 40}" x2="{x - 18}" y2="{y + 44}" stroke="#8a6a3a"'
            f' stroke-width="8" stroke-linecap="round"/>'
            f'<path d="M{x + 22},{y - 40} C{x - 10},{y - 52} {x - 44},{y - 36} {x - 50},{y - 8}'
            f' C{x - 34},{y - 26} {x - 8},{y - 34} {x + 20},{y - 28} Z" fill="#c9ccd6"'
            f' stroke="{INK}" stroke-width="3"/>'
        )
    if kind == MYSTERY_DRAW:
        return _text(x, y + 24, 72, "?", PAPER, INK, 7)
    if kind == HOLY_DEFENDER:
        return (
            f'<ellipse cx="{x}" cy="{y - 42}" rx="24" ry="6" fill="none" stroke="#e0b000"'
            f' stroke-width="4"/>' + _shield(x, y + 4, 34, ink, INK)
            + f'<path d="M{x},{y - 18} v40 M{x - 14},{y - 4} h28" stroke="{PAPER}"'
            f' stroke-width="7" stroke-linecap="round"/>'
        )
    if kind == RETALIATION:
        return (
            f'<path d="M{x + 30},{y + 30} L{x - 10},{y + 30} C{x - 48},{y + 30} {x - 48},{y - 26}'
            f' {x - 10},{y - 26} L{x + 10},{y - 26}" fill="none" stroke="{ink}" stroke-width="11"'
            f' stroke-linecap="round"/><polygon points="{x + 38},{y - 26} {x + 8},{y - 46}'
            f' {x + 8},{y - 6}" fill="{ink}"/>'
        )
    if kind == QUITTER:
        return (
            f'<rect x="{x - 30}" y="{y - 40}" width="40" height="76" rx="3" fill="none"'
            f' stroke="{ink}" stroke-width="7"/><circle cx="{x + 2}" cy="{y}" r="4" fill="{ink}"/>'
            f'<path d="M{x - 4},{y + 10} H{x + 34}" stroke="{accent}" stroke-width="9"'
            f' stroke-linecap="round"/><polygon points="{x + 48},{y + 10} {x + 28},{y - 6}'
            f' {x + 28},{y + 26}" fill="{accent}"/>'
        )
    if kind == BIG_BROTHER:
        return (
            f'<path d="M{x - 46},{y} Q{x},{y - 44} {x + 46},{y} Q{x},{y + 44} {x - 46},{y} Z"'
            f' fill="{PAPER}" stroke="{ink}" stroke-width="6"/>'
            f'<circle cx="{x}" cy="{y}" r="16" fill="{ink}"/>'
            f'<circle cx="{x}" cy="{y}" r="7" fill="{INK}"/>'
            f'<circle cx="{x + 5}" cy="{y - 5}" r="3" fill="{PAPER}"/>'
        )
    if kind == GLASNOST:
        return (
            f'<circle cx="{x - 8}" cy="{y - 8}" r="26" fill="{PAPER}" stroke="{ink}"'
            f' stroke-width="8"/><line x1="{x + 11}" y1="{y + 11}" x2="{x + 36}" y2="{y + 36}"'
            f' stroke="{ink}" stroke-width="12" stroke-linecap="round"/>'
            + _text(x - 8, y + 2, 26, "2", ink)
        )
    if kind == MAGIC_RED_5:
        pts = []
        for i in range(10):
            r = 42 if i % 2 == 0 else 18
            a = math.pi / 2 + i * math.pi / 5
            pts.append(f"{x + r * math.cos(a):.1f},{y - r * math.sin(a):.1f}")
        return (
            f'<polygon points="{" ".join(pts)}" fill="#ffd23f" stroke="{INK}" stroke-width="3"'
            f' stroke-linejoin="round"/>' + _text(x, y + 11, 30, "5", ink)
        )
    if kind == VIRUS:
        spikes = "".join(
            f'<line x1="{x}" y1="{y}" x2="{x + 40 * c:.1f}" y2="{y + 40 * s:.1f}" stroke="{ink}"'
            f' stroke-width="5"/><circle cx="{x + 42 * c:.1f}" cy="{y + 42 * s:.1f}" r="6"'
            f' fill="{ink}"/>'
            for c, s in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.71, 0.71), (-0.71, 0.71),
                         (0.71, -0.71), (-0.71, -0.71))
        )
        return spikes + f'<circle cx="{x}" cy="{y}" r="24" fill="{ink}"/>' + _text(
            x, y + 9, 26, "3", PAPER
        )
    if kind == LUCK_O_THE_IRISH:
        leaves = "".join(
            f'<circle cx="{x + dx}" cy="{y + dy}" r="17" fill="{ink}"/>'
            for dx, dy in ((-15, -15), (15, -15), (-15, 15), (15, 15))
        )
        return (
            f'<path d="M{x},{y + 10} q6,30 20,42" stroke="{ink}" stroke-width="7" fill="none"/>'
            + leaves + _text(x, y + 9, 24, "4", PAPER)
        )
    if kind == BLUE_SHIELD:
        return _shield(x, y, 42, ink, INK) + _text(x, y + 12, 34, "2", PAPER)
    if kind == MAD:
        blades = []
        for i in range(3):
            a0 = math.radians(-90 + i * 120 - 30)
            a1 = math.radians(-90 + i * 120 + 30)
            r0, r1 = 12, 42
            blades.append(
                f'<path d="M{x + r0 * math.cos(a0):.1f},{y + r0 * math.sin(a0):.1f}'
                f" L{x + r1 * math.cos(a0):.1f},{y + r1 * math.sin(a0):.1f}"
                f" A{r1},{r1} 0 0 1 {x + r1 * math.cos(a1):.1f},{y + r1 * math.sin(a1):.1f}"
                f" L{x + r0 * math.cos(a1):.1f},{y + r0 * math.sin(a1):.1f}"
                f' A{r0},{r0} 0 0 0 {x + r0 * math.cos(a0):.1f},{y + r0 * math.sin(a0):.1f} Z"'
                f' fill="{INK}"/>'
            )
        return (
            f'<circle cx="{x}" cy="{y}" r="46" fill="#ffd23f" stroke="{INK}" stroke-width="3"/>'
            + "".join(blades) + f'<circle cx="{x}" cy="{y}" r="8" fill="{INK}"/>'
        )
    if kind == SIXTY_NINE:
        return (
            f'<circle cx="{x}" cy="{y}" r="44" fill="none" stroke="{ink}" stroke-width="5"'
            f' stroke-dasharray="12 8"/>' + _text(x, y + 18, 50, "69", ink, PAPER, 5)
        )
    # plain numbers
    n = FACE_NUMBER[face]
    out = _text(x, y + 30, 92, str(n), ink, INK, 7)
    if n in (6, 9):
        out += f'<rect x="{x - 22}" y="{y + 40}" width="44" height="7" rx="3" fill="{INK}"/>'
    return out


def _corner_label(kind: int, face: int) -> str:
    """The short index printed in the corners (number or action mark)."""
    if kind == NUMBER or FACE_NUMBER[face] >= 0:
        return str(FACE_NUMBER[face])
    return {
        SKIP: "⊘", DOUBLE_SKIP: "⊘⊘", REVERSE: "⇄", REVERSE_SKIP: "⇄⊘", DRAW_TWO: "+2",
        SPREADER: "⋔", WILD: "W", WILD_DRAW_FOUR: "+4", HOT_DEATH: "+8", DELAYED_BLAST: "DB",
        HARVESTER: "HS", MYSTERY_DRAW: "?",
    }[kind]


# --------------------------------------------------------------------------- whole cards

def _frame(pid: str, defs: str, body: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' width="{WIDTH}" height="{HEIGHT}" font-family="{_FONT}" role="img"'
        f' aria-label="{escape(title, {chr(34): "&quot;"})}">'
        f"<title>{escape(title)}</title><defs>{defs}</defs>"
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="18" fill="{PAPER}"'
        f' stroke="#9a9aa5" stroke-width="2"/>'
        f"{body}</svg>"
    )


def _name_banner(name: str, fg: str) -> str:
    size = min(22, int(150 / (0.64 * max(len(name), 1))))
    return (
        f'<rect x="18" y="216" width="164" height="34" rx="9" fill="{PAPER}" opacity="0.93"/>'
        + _text(_CX, 233 + size * 0.36, size, name, fg)
    )


def _corners(label: str, fg: str, color: int) -> str:
    size = 34 if len(label) == 1 else 28 if len(label) == 2 else 22
    tl = _text(34, 48, size, label, PAPER, fg, 5)
    br = (
        f'<g transform="rotate(180 {_CX} {HEIGHT / 2})">{tl}</g>'
    )
    marks = ""
    if color != NO_COLOR:
        marks = _badge(color, 166, 36, 17) + (
            f'<g transform="rotate(180 {_CX} {HEIGHT / 2})">{_badge(color, 166, 36, 17)}</g>'
        )
    return tl + br + marks


def card_svg(face: int | str, theme: str = "family") -> str:
    """The SVG (a complete document) of a card with its name in ``theme``.

    ``face`` is a face id (0..80) or a card code (``R7``, ``WD4``, ``HOLY``, any alias
    :func:`~hotdeath.cards.parse_card` reads) or ``back`` for the card back.  Raises
    ``ValueError`` for a face id that does not exist or an unknown theme, and
    :class:`~hotdeath.errors.NotationError` (a ``ValueError``, code ``bad_card``) for an
    unknown card code.
    """
    if theme not in THEMES:
        raise ValueError(f"unknown name theme {theme!r} (allowed: {', '.join(THEMES)})")
    if isinstance(face, str):
        if face.strip().lower() == BACK:
            return back_svg()
        face = parse_card(face)
    if isinstance(face, bool) or not isinstance(face, int) or not 0 <= face < NUM_FACES:
        raise ValueError(f"there is no card face {face!r} (faces are 0..{NUM_FACES - 1})")
    return _face_svg(face, theme)


@lru_cache(maxsize=2 * NUM_FACES)
def _face_svg(face: int, theme: str) -> str:
    kind = FACE_KIND[face]
    color = FACE_COLOR[face]
    name = card_name(face, theme)
    code = card_code(face)
    pid = "p" + "".join(ch if ch.isalnum() else "_" for ch in code)
    label = _corner_label(kind, face)
    if color == NO_COLOR:
        quads = []
        for c, (qx, qy) in zip(COLORS, ((0, 0), (1, 0), (0, 1), (1, 1)), strict=True):
            cx = _CX - 29 + qx * 58
            cy = _CY - 29 + qy * 58
            quads.append(
                f'<path d="M{_CX},{_CY} L{_CX + (qx * 2 - 1) * 70},{_CY}'
                f' A70,70 0 0 {1 if qx == qy else 0} {_CX},{_CY + (qy * 2 - 1) * 70} Z"'
                f' fill="{FILL[c]}"/>'
                + _text(cx + (qx * 2 - 1) * 14, cy + (qy * 2 - 1) * 14 + 7, 18,
                        COLOR_LETTERS[c], PAPER, DARK[c], 3)
            )
        body = (
            f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="12"'
            f' fill="{WILD_FILL}"/>'
            f'<circle cx="{_CX}" cy="{_CY}" r="72" fill="{PAPER}"/>' + "".join(quads)
            + f'<circle cx="{_CX}" cy="{_CY}" r="70" fill="none" stroke="{PAPER}"'
            ' stroke-width="3"/>'
            + _symbol(kind, face, PAPER, "#ffd23f")
            + _corners(label, INK, NO_COLOR)
            + _name_banner(name, INK)
        )
        return _frame(pid, "", body, f"{name} (wild card)")
    fill, dark = FILL[color], DARK[color]
    ink = SYMBOL_YELLOW if color == 1 else fill
    body = (
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="12" fill="{fill}"/>'
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="12"'
        f' fill="url(#{pid})" opacity="0.35"/>'
        f'<circle cx="{_CX}" cy="{_CY}" r="66" fill="{PAPER}" stroke="{dark}" stroke-width="4"/>'
        + _symbol(kind, face, ink, dark)
        + _corners(label, dark, color)
        + _name_banner(name, dark)
    )
    title = f"{name} ({COLOR_NAMES[color]} card)"
    return _frame(pid, _pattern(pid, color), body, title)


@lru_cache(maxsize=1)
def back_svg() -> str:
    """The SVG of the card back (the same for every card)."""
    body = (
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="12" fill="#2a0f14"/>'
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="12"'
        f' fill="url(#pback)"/>'
        f'<ellipse cx="{_CX}" cy="{HEIGHT / 2}" rx="74" ry="112" fill="#b3121f"'
        f' stroke="#ffd23f" stroke-width="5" transform="rotate(-18 {_CX} {HEIGHT / 2})"/>'
        + _flame(_CX, HEIGHT / 2 - 40, 26, "#ff7a1f", "#ffd23f")
        + _text(_CX, HEIGHT / 2 + 24, 34, "HOT", PAPER, INK, 6)
        + _text(_CX, HEIGHT / 2 + 60, 34, "DEATH", PAPER, INK, 6)
    )
    defs = (
        '<pattern id="pback" width="16" height="16" patternUnits="userSpaceOnUse">'
        '<path d="M0,8 l8,-8 l8,8 l-8,8 Z" fill="none" stroke="#4a1a22" stroke-width="2"/>'
        "</pattern>"
    )
    return _frame("pback", defs, body, "card back")


def card_svg_for_code(code: str, theme: str = "family") -> str:
    """The SVG for a card code (``R7``, ``WD4``, ``HOLY`` …) or ``back``.

    Raises :class:`~hotdeath.errors.NotationError` (code ``bad_card``) for an unknown card
    and ``ValueError`` for an unknown theme.
    """
    return card_svg(code, theme)


__all__ = ["BACK", "back_svg", "card_svg", "card_svg_for_code"]
