"""Cards: colours, kinds, the face catalogue, card notation, decks and name themes.

A *face* is a card as printed (``R7``, ``WD4``, ``HOLY``); the engine stores cards as
integer face ids, so two red sevens are two entries with the same id.  Every Hot Death
special exists once per deck, so for those a face is also a physical card.

>>> parse_card("r7") == number_face(RED, 7)
True
>>> card_code(parse_card("w4"))
'WD4'
>>> card_name(parse_card("FY"), "family"), card_name(parse_card("FY"), "original")
('Retaliation', 'Fuck You')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from hotdeath.errors import NotationError

# --------------------------------------------------------------------------- colours

RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
NO_COLOR: Final = -1
COLORS: Final = (RED, YELLOW, GREEN, BLUE)
COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
COLOR_LETTERS: Final = ("R", "Y", "G", "B")

# --------------------------------------------------------------------------- kinds

NUMBER: Final = 0
SKIP: Final = 1
REVERSE: Final = 2
DRAW_TWO: Final = 3
DOUBLE_SKIP: Final = 4
REVERSE_SKIP: Final = 5
SPREADER: Final = 6
WILD: Final = 7
WILD_DRAW_FOUR: Final = 8
HOT_DEATH: Final = 9
DELAYED_BLAST: Final = 10
HARVESTER: Final = 11
MYSTERY_DRAW: Final = 12
HOLY_DEFENDER: Final = 13
RETALIATION: Final = 14
QUITTER: Final = 15
BIG_BROTHER: Final = 16
GLASNOST: Final = 17
MAGIC_RED_5: Final = 18
VIRUS: Final = 19
LUCK_O_THE_IRISH: Final = 20
BLUE_SHIELD: Final = 21
MAD: Final = 22
SIXTY_NINE: Final = 23

KIND_IDS: Final = (
    "number", "skip", "reverse", "draw_two", "double_skip", "reverse_skip", "spreader",
    "wild", "wild_draw_four", "hot_death", "delayed_blast", "harvester", "mystery_draw",
    "holy_defender", "retaliation", "quitter", "big_brother", "glasnost", "magic_red_5",
    "virus", "luck_o_the_irish", "blue_shield", "mad", "sixty_nine",
)
"""Neutral identifier of each kind, indexed by kind."""

_ACTION_KINDS: Final = (SKIP, REVERSE, DRAW_TWO, DOUBLE_SKIP, REVERSE_SKIP, SPREADER)
_ACTION_SUFFIX: Final = {
    SKIP: "S", REVERSE: "R", DRAW_TWO: "+2", DOUBLE_SKIP: "SS", REVERSE_SKIP: "RS",
    SPREADER: "SP",
}

# --------------------------------------------------------------------------- faces

# Face ids: 0..39 numbers (colour*10 + n); 40..63 coloured actions (40 + colour*6 + i);
# 64..69 wilds; 70..80 the Hot Death special number cards.
W: Final = 64
WD4: Final = 65
HOT: Final = 66
DB: Final = 67
HOS: Final = 68
MYS: Final = 69
HOLY: Final = 70
RET: Final = 71
QUIT: Final = 72
BB: Final = 73
GLAS: Final = 74
M5: Final = 75
VIR: Final = 76
LOI: Final = 77
BS: Final = 78
MADC: Final = 79
SN: Final = 80
NUM_FACES: Final = 81

BASTARDS: Final = (QUIT, BB, RET, HOLY)
"""The four "bastard cards" (Quitter, Big Brother, Retaliation, Holy Defender)."""

_SPECIALS: Final = (
    # face, kind, colour, printed number, code
    (W, WILD, NO_COLOR, -1, "W"),
    (WD4, WILD_DRAW_FOUR, NO_COLOR, -1, "WD4"),
    (HOT, HOT_DEATH, NO_COLOR, -1, "HOT"),
    (DB, DELAYED_BLAST, NO_COLOR, -1, "DB"),
    (HOS, HARVESTER, NO_COLOR, -1, "HOS"),
    (MYS, MYSTERY_DRAW, NO_COLOR, -1, "MYS"),
    (HOLY, HOLY_DEFENDER, RED, 0, "HOLY"),
    (RET, RETALIATION, BLUE, 0, "RET"),
    (QUIT, QUITTER, GREEN, 0, "QUIT"),
    (BB, BIG_BROTHER, YELLOW, 0, "BB"),
    (GLAS, GLASNOST, RED, 2, "GLAS"),
    (M5, MAGIC_RED_5, RED, 5, "M5"),
    (VIR, VIRUS, GREEN, 3, "VIR"),
    (LOI, LUCK_O_THE_IRISH, GREEN, 4, "LOI"),
    (BS, BLUE_SHIELD, BLUE, 2, "SHIELD"),
    (MADC, MAD, YELLOW, 1, "MAD"),
    (SN, SIXTY_NINE, YELLOW, 69, "69"),
)


def _build() -> tuple[list[int], list[int], list[int], list[str]]:
    kind = [0] * NUM_FACES
    color = [NO_COLOR] * NUM_FACES
    number = [-1] * NUM_FACES
    code = [""] * NUM_FACES
    for c in COLORS:
        for n in range(10):
            f = c * 10 + n
            kind[f], color[f], number[f] = NUMBER, c, n
            code[f] = f"{COLOR_LETTERS[c]}{n}"
        for i, k in enumerate(_ACTION_KINDS):
            f = 40 + c * 6 + i
            kind[f], color[f] = k, c
            code[f] = f"{COLOR_LETTERS[c]}{_ACTION_SUFFIX[k]}"
    for f, k, c, n, s in _SPECIALS:
        kind[f], color[f], number[f], code[f] = k, c, n, s
    return kind, color, number, code


_kind, _color, _number, _code = _build()
FACE_KIND: Final[tuple[int, ...]] = tuple(_kind)
"""Kind of each face id."""
FACE_COLOR: Final[tuple[int, ...]] = tuple(_color)
"""Printed colour of each face id (``NO_COLOR`` for wilds)."""
FACE_NUMBER: Final[tuple[int, ...]] = tuple(_number)
"""Printed number of each face id (-1 for none; 69 for the Sixty-Nine)."""
FACE_CODE: Final[tuple[str, ...]] = tuple(_code)
"""Canonical notation of each face id."""
IS_WILD: Final[tuple[bool, ...]] = tuple(c == NO_COLOR for c in _color)
"""Whether each face id is a wild (no printed colour)."""

WILD_KINDS: Final = frozenset(
    {WILD, WILD_DRAW_FOUR, HOT_DEATH, DELAYED_BLAST, HARVESTER, MYSTERY_DRAW}
)


def number_face(color: int, n: int) -> int:
    """Return the face id of the plain number card of ``color`` and number ``n``."""
    if color not in COLORS or not 0 <= n <= 9:
        raise ValueError(f"no number card {color!r}/{n!r}")
    return color * 10 + n


def action_face(color: int, kind: int) -> int:
    """Return the face id of the coloured action card ``kind`` of ``color``."""
    return 40 + color * 6 + _ACTION_KINDS.index(kind)


def matches_number(face: int, n: int) -> bool:
    """Whether ``face`` shows the number ``n`` (the Sixty-Nine shows both 6 and 9)."""
    num = FACE_NUMBER[face]
    return num == n or (num == 69 and n in (6, 9))


# --------------------------------------------------------------------------- notation

_ALIASES: Final = {
    "W4": "WD4", "+4": "WD4", "DF": "WD4", "WILDDRAWFOUR": "WD4", "WILD": "W", "FY": "RET",
    "FUCKYOU": "RET", "SHIT": "BB",
    "SHITTER": "BB", "AIDS": "VIR", "VIRUS": "VIR", "SIXTYNINE": "69", "HOLYDEFENDER": "HOLY",
    "HD8": "HOT", "HOTDEATH": "HOT", "HARVESTER": "HOS", "MYSTERY": "MYS", "GLASNOST": "GLAS",
    "QUITTER": "QUIT", "MAGIC5": "M5", "LUCK": "LOI", "BLUESHIELD": "SHIELD",
    "PENNSTATE": "SHIELD", "SHLD": "SHIELD",
}
_SUFFIX_ALIASES: Final = {
    "SKIP": "S", "REV": "R", "REVERSE": "R", "D2": "+2", "DS": "SS", "RSKIP": "RS",
    "SPR": "SP", "DRAW2": "+2",
}
_BY_CODE: Final = {s: f for f, s in enumerate(FACE_CODE)}


def parse_card(text: str) -> int:
    """Parse a card code (case-insensitive, common aliases accepted) into a face id.

    Raises :class:`~hotdeath.errors.NotationError` for anything that is not a card.
    """
    t = text.strip().upper().replace(" ", "").replace("_", "")
    t = _ALIASES.get(t, t)
    if t in _BY_CODE:
        return _BY_CODE[t]
    if len(t) >= 2 and t[0] in COLOR_LETTERS:
        rest = t[1:].lstrip("-")
        rest = _SUFFIX_ALIASES.get(rest, rest)
        code = t[0] + rest
        if code in _BY_CODE:
            return _BY_CODE[code]
    raise NotationError("bad_card", f"unknown card {text!r}")


def card_code(face: int) -> str:
    """Return the canonical notation of ``face`` (``R7``, ``WD4``, ``HOLY`` …)."""
    return FACE_CODE[face]


def parse_color(text: str) -> int:
    """Parse a colour name or letter (``red``, ``r``) into a colour constant."""
    t = text.strip().lower()
    for c in COLORS:
        if t in (COLOR_NAMES[c], COLOR_LETTERS[c].lower()):
            return c
    raise NotationError("bad_color", f"unknown colour {text!r} (use red, yellow, green, blue)")


# --------------------------------------------------------------------------- decks

def standard_deck() -> list[int]:
    """The classic 108-card Uno deck (uno-variants §0.1); a new list each call."""
    return list(_STANDARD_DECK)


def _build_standard_deck() -> list[int]:
    deck: list[int] = []
    for c in COLORS:
        deck.append(number_face(c, 0))
        for n in range(1, 10):
            deck += [number_face(c, n)] * 2
        for k in (SKIP, REVERSE, DRAW_TWO):
            deck += [action_face(c, k)] * 2
    deck += [W] * 4 + [WD4] * 4
    return deck


_HD_REPLACED: Final = {
    # standard card replaced -> special (rules HD-1.2)
    number_face(RED, 0): HOLY, number_face(GREEN, 0): QUIT, number_face(BLUE, 0): RET,
    number_face(YELLOW, 0): BB, number_face(YELLOW, 1): MADC, number_face(RED, 2): GLAS,
    number_face(BLUE, 2): BS, number_face(GREEN, 3): VIR, number_face(GREEN, 4): LOI,
    number_face(RED, 5): M5, number_face(YELLOW, 6): SN,
}


def _hd_second_copy_actions(deck: list[int]) -> list[int]:
    out: list[int] = []
    seen: set[int] = set()
    upgrade = {SKIP: DOUBLE_SKIP, REVERSE: REVERSE_SKIP, DRAW_TWO: SPREADER}
    for f in deck:
        k = FACE_KIND[f]
        if k in upgrade and f in seen:
            out.append(action_face(FACE_COLOR[f], upgrade[k]))
        else:
            out.append(f)
            seen.add(f)
    return out


def hotdeath_deck() -> list[int]:
    """The 108-card Hot Death deck (rules HD-1.2): every special once, no plain 0 or Wild.

    A new list each call (built once: a state's deck is made with every new state and
    clone).
    """
    return list(_HOTDEATH_DECK)


def _build_hotdeath_deck() -> list[int]:
    deck = _hd_second_copy_actions(standard_deck())
    out: list[int] = []
    replaced: set[int] = set()
    for f in deck:
        if f in _HD_REPLACED and f not in replaced:
            out.append(_HD_REPLACED[f])
            replaced.add(f)
        elif f == W:
            continue
        else:
            out.append(f)
    out += [HOT, DB, HOS, MYS]
    return out


def hotdeath_double_deck() -> list[int]:
    """The 216-card two-deck Hot Death game (rules HD-1.3); a new list each call."""
    return list(_HOTDEATH_DOUBLE_DECK)


_STANDARD_DECK: Final = tuple(_build_standard_deck())
_HOTDEATH_DECK: Final = tuple(_build_hotdeath_deck())
_HOTDEATH_DOUBLE_DECK: Final = _HOTDEATH_DECK + tuple(
    _hd_second_copy_actions(standard_deck()))


def multiset(cards: Iterable[int]) -> Counter[int]:
    """Count cards by face id (used for conservation checks)."""
    return Counter(cards)


# --------------------------------------------------------------------------- names

THEMES: Final = ("family", "original")

_FAMILY_NAMES: Final = {
    W: "Wild", WD4: "Wild Draw Four", HOT: "Hot Death", DB: "Delayed Blast",
    HOS: "Harvester of Sorrows", MYS: "Mystery Draw", HOLY: "Holy Defender",
    RET: "Retaliation", QUIT: "Quitter", BB: "Big Brother", GLAS: "Glasnost",
    M5: "Magic Red 5", VIR: "Virus", LOI: "Luck o' the Irish", BS: "Blue Shield",
    MADC: "M.A.D.", SN: "69",
}
_ORIGINAL_NAMES: Final = {**_FAMILY_NAMES, RET: "Fuck You", BB: "Shitter", VIR: "AIDS"}
_ACTION_NAMES: Final = {
    SKIP: "Skip", REVERSE: "Reverse", DRAW_TWO: "Draw Two", DOUBLE_SKIP: "Double Skip",
    REVERSE_SKIP: "Reverse Skip", SPREADER: "Spreader",
}


def card_name(face: int, theme: str = "family") -> str:
    """Human-readable name of ``face`` in a name theme (``family`` or ``original``)."""
    if theme not in THEMES:
        raise ValueError(f"unknown name theme {theme!r} (allowed: {', '.join(THEMES)})")
    names = _FAMILY_NAMES if theme == "family" else _ORIGINAL_NAMES
    if face in names:
        return names[face]
    c = COLOR_NAMES[FACE_COLOR[face]].capitalize()
    k = FACE_KIND[face]
    if k == NUMBER:
        return f"{c} {FACE_NUMBER[face]}"
    return f"{c} {_ACTION_NAMES[k]}"
