"""Actions: immutable values with a text notation that round-trips.

>>> a = Action.parse("play WD4 green")
>>> str(a), Action.parse(str(a)) == a
('play WD4 green', True)
>>> str(Action.parse("PLAY glas @2"))
'play GLAS @2'
>>> Action.parse("catch 3").target
3

The grammar (tokens separated by spaces, case-insensitive)::

    play CARD [CARD ...] [COLOUR] [@SEAT] [uno]   one or more cards (several: Throwdown)
    jump CARD [@SEAT] [uno]                       standard jump-in house rule
    draw | pass | accept | challenge | question | decline | leave
    uno [@SEAT]                                   call Uno (Throwdown: make SEAT draw two)
    catch SEAT                                    catch a player who did not call Uno
    direction cw|ccw                              the dealer chooses the direction (Throwdown)
    deal N                                        the dealer chooses the hand size
    color COLOUR                                  name a colour (first card / up-card wild)
    victim SEAT                                   choose a victim (up-card Glasnost, M.A.D.)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from hotdeath.cards import COLOR_NAMES, FACE_CODE, NO_COLOR, parse_card, parse_color
from hotdeath.errors import NotationError

PLAY: Final = 0
DRAW: Final = 1
PASS: Final = 2
ACCEPT: Final = 3
UNO: Final = 4
CATCH: Final = 5
CHALLENGE: Final = 6
DEAL: Final = 7
COLOR: Final = 8
VICTIM: Final = 9
QUESTION: Final = 10
JUMP: Final = 11
DECLINE: Final = 12
LEAVE: Final = 13
DIRECTION: Final = 14

KIND_WORDS: Final = (
    "play", "draw", "pass", "accept", "uno", "catch", "challenge", "deal", "color", "victim",
    "question", "jump", "decline", "leave", "direction",
)
_WORD_KIND: Final = {w: i for i, w in enumerate(KIND_WORDS)}
_WORD_KIND["colour"] = COLOR


class Action(NamedTuple):
    """One decision of one seat (an immutable value; equal fields mean equal actions).

    ``cards`` are face ids (one for an ordinary play), ``color`` a chosen colour or
    ``NO_COLOR``, ``target`` a chosen seat or -1, ``n`` a number (deal size), and ``uno``
    says that the player calls Uno with this play.  A named tuple, so comparing and
    hashing actions runs at C speed.
    """

    kind: int
    cards: tuple[int, ...] = ()
    color: int = NO_COLOR
    target: int = -1
    n: int = 0
    uno: bool = False

    @property
    def card(self) -> int:
        """The first (usually the only) card of a play, or -1."""
        return self.cards[0] if self.cards else -1

    def __str__(self) -> str:
        parts = [KIND_WORDS[self.kind]]
        parts += [FACE_CODE[c] for c in self.cards]
        if self.kind == DEAL:
            parts.append(str(self.n))
        elif self.kind == DIRECTION:
            parts.append("cw" if self.n == 1 else "ccw")
        if self.color != NO_COLOR:
            parts.append(COLOR_NAMES[self.color])
        if self.target >= 0:
            parts.append(
                str(self.target) if self.kind in (CATCH, VICTIM, CHALLENGE) else f"@{self.target}"
            )
        if self.uno:
            parts.append("uno")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: object) -> Action:
        """Parse the text notation; raises :class:`NotationError` on bad syntax.

        Any text at all gets either an action or a coded :class:`NotationError` (numbers
        are ASCII digits, at most ``MAX_NUMBER_DIGITS`` of them; text longer than
        ``MAX_ACTION_CHARS`` is refused before it is split).
        """
        if not isinstance(text, str):
            raise NotationError("bad_syntax", f"an action is text, not {type(text).__name__}")
        if len(text) > MAX_ACTION_CHARS:
            raise NotationError(
                "bad_syntax", f"an action is at most {MAX_ACTION_CHARS} characters long"
            )
        tokens = text.split()
        if not tokens:
            raise NotationError("bad_syntax", "empty action")
        word = tokens[0].lower()
        if word not in _WORD_KIND:
            raise NotationError(
                "bad_syntax",
                f"unknown action {tokens[0]!r} (expected one of: {', '.join(KIND_WORDS)})",
            )
        kind = _WORD_KIND[word]
        rest = tokens[1:]
        if kind in (PLAY, JUMP):
            return _parse_play(kind, rest, text)
        if kind in (DRAW, PASS, ACCEPT, QUESTION, DECLINE, LEAVE):
            if rest:
                raise NotationError("bad_syntax", f"{word!r} takes no arguments: {text!r}")
            return make(kind)
        if kind == UNO:
            if len(rest) > 1:
                raise NotationError("bad_syntax", f"'uno' takes at most a seat: {text!r}")
            return make(UNO, target=_seat(rest[0], text) if rest else -1)
        if kind == DIRECTION:
            if len(rest) != 1 or rest[0].lower() not in ("cw", "ccw"):
                raise NotationError("bad_syntax", f"'direction' takes cw or ccw: {text!r}")
            return make(DIRECTION, n=1 if rest[0].lower() == "cw" else -1)
        if kind == CHALLENGE:
            if len(rest) > 1:
                raise NotationError("bad_syntax", f"'challenge' takes at most a seat: {text!r}")
            return make(CHALLENGE, target=_seat(rest[0], text) if rest else -1)
        if len(rest) != 1:
            raise NotationError("bad_syntax", f"{word!r} takes exactly one argument: {text!r}")
        if kind == COLOR:
            return make(COLOR, color=parse_color(rest[0]))
        if kind == DEAL:
            n = _number(rest[0])
            if n < 0:
                raise NotationError("bad_syntax", f"deal size must be a number: {text!r}")
            return make(DEAL, n=n)
        return make(kind, target=_seat(rest[0], text))


MAX_ACTION_CHARS: Final = 1000
"""The longest action text :meth:`Action.parse` reads (the longest real one is far shorter)."""
MAX_NUMBER_DIGITS: Final = 6
"""The most digits a seat number or a deal size may have in the notation."""


def _number(tok: str) -> int:
    """``tok`` as a number of ASCII digits, or -1.

    (``int`` would also take ``²``, ``٣``, ``+1``, ``1_0`` and thousands of digits, and
    fail on some of them.)
    """
    if not tok or len(tok) > MAX_NUMBER_DIGITS or not tok.isascii() or not tok.isdigit():
        return -1
    return int(tok)


def _seat(tok: str, text: str) -> int:
    t = tok[1:] if tok.startswith("@") else tok
    n = _number(t)
    if n < 0:
        raise NotationError("bad_syntax", f"expected a seat number, got {tok!r} in {text!r}")
    return n


def _parse_play(kind: int, rest: list[str], text: str) -> Action:
    cards: list[int] = []
    color = NO_COLOR
    target = -1
    uno = False
    for tok in rest:
        low = tok.lower()
        if low == "uno":
            uno = True
        elif tok.startswith("@"):
            if target != -1:
                raise NotationError("bad_syntax", f"more than one seat in {text!r}")
            target = _seat(tok, text)
        elif low in COLOR_NAMES or low in ("r", "y", "g", "b"):
            if color != NO_COLOR:
                raise NotationError("bad_syntax", f"more than one colour in {text!r}")
            color = parse_color(low)
        else:
            try:
                cards.append(parse_card(tok))
            except NotationError:
                raise NotationError(
                    "bad_syntax", f"unknown card or word {tok!r} in {text!r}"
                ) from None
    if not cards:
        raise NotationError("bad_syntax", f"{KIND_WORDS[kind]!r} needs a card: {text!r}")
    return make(kind, tuple(cards), color, target, 0, uno)


_CACHE: dict[tuple[int, tuple[int, ...], int, int, int, bool], Action] = {}
_CACHE_LIMIT: Final = 100_000


def make(
    kind: int,
    cards: tuple[int, ...] = (),
    color: int = NO_COLOR,
    target: int = -1,
    n: int = 0,
    uno: bool = False,
) -> Action:
    """Return the action with these fields (interned while the cache is small).

    Interning only saves allocations; actions compare by value, so the cache is bounded
    and text from outside (a server's clients) cannot make it grow without limit.
    """
    key = (kind, cards, color, target, n, uno)
    a = _CACHE.get(key)
    if a is None:
        a = Action(kind, cards, color, target, n, uno)
        if len(_CACHE) < _CACHE_LIMIT:
            _CACHE[key] = a
    return a


def play(card: int, color: int = NO_COLOR, target: int = -1, uno: bool = False) -> Action:
    """The action of playing one card (with a colour, a victim seat, an Uno call)."""
    return make(PLAY, (card,), color, target, 0, uno)


DRAW_ACTION: Final = make(DRAW)
PASS_ACTION: Final = make(PASS)
ACCEPT_ACTION: Final = make(ACCEPT)
UNO_ACTION: Final = make(UNO)
CHALLENGE_ACTION: Final = make(CHALLENGE)
QUESTION_ACTION: Final = make(QUESTION)
