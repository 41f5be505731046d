"""What is pending: typed, frozen values with one JSON form each (a ``"type"`` field).

A state says what its game waits for beyond "whose turn" through
``state.pending() -> Pending | None`` and restores it with ``state.load_pending(value)``;
the view (``View.attack``), the position notation (the ``pending`` field) and every front
end use these values, never a variant's private fields.

* :class:`DrawAttack` (``"draw"``): a Hot Death draw attack (HD-4.2): cards to draw, the
  family that decides the answers, the latest card, who sent it, who last added to it.
* :class:`Ejection` (``"eject"``): a Quitter's ejection (HD-2.3.15).
* :class:`Reveal` (``"reveal"``): a Glasnost reveal (HD-2.3.14, HD-4.6).
* :class:`Pot` (``"pot"``): a draw pot: standard's and Cutthroat's pending Draw Two / Wild
  Draw Four (with the challenge fact ``wd4_legal``, hidden from views), Throwdown's draw
  pot (with its ``level``).

Seats are seat numbers; ``-1`` is nobody (an up-card's attack has no sender), ``-2`` the
Glasnost anchor of an up-card when the dealer plays first.  Cards are face ids here and
card codes in JSON.

>>> from hotdeath.cards import parse_card
>>> p = Pot(victim=1, sender=0, count=4, last_card=parse_card("WD4"), wd4_legal=False)
>>> p.to_json()
{'type': 'pot', 'victim': 1, 'sender': 0, 'count': 4, 'last_card': 'WD4', 'wd4_legal': False}
>>> p.public().to_json()["wd4_legal"] is None
True
>>> from_json(p.to_json(), Context(turn=1, top=-1)) == p
True

Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple, TypeAlias

from hotdeath.cards import FACE_KIND, WILD_DRAW_FOUR, card_code, parse_card
from hotdeath.errors import NotationError, PositionError

NOBODY: Final = -1
"""No seat (the sender of an up-card's attack)."""
DEALER_FIRST: Final = -2
"""A Glasnost anchor: the up-card's reveal under ``first_player=dealer`` (HD-4.6)."""

FAMILIES: Final = ("wild_draw", "draw_two", "mystery")
"""Hot Death draw-attack families (HD-4.1): what may answer the attack."""


@dataclass(frozen=True, slots=True)
class DrawAttack:
    """A Hot Death draw attack waiting for its victim's answer (HD-4.2, HD-4.3)."""

    victim: int
    sender: int
    """The seat it came from (``-1``: the up-card)."""
    count: int
    """Cards the victim draws on ``accept``."""
    family: str = "wild_draw"
    """``wild_draw``, ``draw_two`` or ``mystery`` (HD-4.1)."""
    last_card: int = -1
    """The latest attacking card (face id)."""
    attacker: int = NOBODY
    """Who last added to the attack (a stack); the sender unless redirected since."""
    locked: bool = False
    """A Harvester on top: no answer but to accept (HD-2.3.12)."""
    redirected: bool = False
    """A Holy Defender or a Retaliation has sent it on (HD-4.3.2, HD-4.3.3)."""


    def to_json(self) -> dict[str, Any]:
        """The one JSON form."""
        return {
            "type": "draw", "victim": self.victim, "sender": self.sender,
            "attacker": self.attacker, "count": self.count, "family": self.family,
            "last_card": _code(self.last_card), "locked": self.locked,
            "redirected": self.redirected,
        }

    def public(self) -> DrawAttack:
        """What every seat may know (everything)."""
        return self


@dataclass(frozen=True, slots=True)
class Ejection:
    """A Quitter's ejection waiting for its victim's answer (HD-2.3.15)."""

    victim: int
    sender: int
    attacker: int = NOBODY
    redirected: bool = False
    two_active: bool = False
    """Played with two players active under ``quitter_with_two_active=player_wins``."""
    last_card: int = -1
    """The Quitter (face id)."""


    def to_json(self) -> dict[str, Any]:
        """The one JSON form."""
        return {
            "type": "eject", "victim": self.victim, "sender": self.sender,
            "attacker": self.attacker, "last_card": _code(self.last_card),
            "redirected": self.redirected, "two_active": self.two_active,
        }

    def public(self) -> Ejection:
        """What every seat may know (everything)."""
        return self


@dataclass(frozen=True, slots=True)
class Reveal:
    """A Glasnost reveal waiting for its victim's answer (HD-2.3.14, HD-4.6)."""

    victim: int
    sender: int
    attacker: int = NOBODY
    redirected: bool = False
    anchor: int = NOBODY
    """Whose turn the Glasnost window belongs to (HD-4.6 rule 2).

    ``-2``: the up-card's, the dealer playing first.
    """
    last_card: int = -1
    """The Glasnost (face id)."""


    def to_json(self) -> dict[str, Any]:
        """The one JSON form."""
        return {
            "type": "reveal", "victim": self.victim, "sender": self.sender,
            "attacker": self.attacker, "last_card": _code(self.last_card),
            "redirected": self.redirected, "anchor": self.anchor,
        }

    def public(self) -> Reveal:
        """What every seat may know (everything)."""
        return self


@dataclass(frozen=True, slots=True)
class Pot:
    """A draw pot waiting for its victim.

    Standard and Cutthroat (STD-5.4, STD-5.6, STD-12.1, CT-4, CT-5) or Throwdown (TD-4).
    """

    victim: int
    sender: int
    """The seat that played the top card (``-1``: unknown)."""
    count: int
    last_card: int
    """The card on top of the pot (face id): its kind says what may stack on it."""
    level: int | None = None
    """Throwdown: 2 or 4, the draw level of the pot (TD-4.1); None elsewhere."""
    wd4_legal: bool | None = None
    """With a Wild Draw Four on top: whether it was played legally (STD-6.1).

    A challenge or a question reveals it; None in views (hidden) and without one.
    """


    def to_json(self) -> dict[str, Any]:
        """The one JSON form (``level`` only when set)."""
        d: dict[str, Any] = {
            "type": "pot", "victim": self.victim, "sender": self.sender, "count": self.count,
            "last_card": _code(self.last_card),
        }
        if self.level is not None:
            d["level"] = self.level
        d["wd4_legal"] = self.wd4_legal
        return d

    def public(self) -> Pot:
        """What every seat may know: not whether a Wild Draw Four was legal."""
        return self if self.wd4_legal is None else replace(self, wd4_legal=None)

    @property
    def wd4_on_top(self) -> bool:
        """Whether a Wild Draw Four is on top (it may be challenged or questioned)."""
        return self.last_card >= 0 and FACE_KIND[self.last_card] == WILD_DRAW_FOUR


Pending: TypeAlias = DrawAttack | Ejection | Reveal | Pot
"""Anything a game may wait for an answer to."""
TYPES: Final[dict[str, type[Pending]]] = {
    "draw": DrawAttack, "eject": Ejection, "reveal": Reveal, "pot": Pot,
}
"""The value class of each JSON ``type``."""


def _code(face: int) -> str | None:
    return card_code(face) if face >= 0 else None


# ------------------------------------------------------------------ reading JSON


class Context(NamedTuple):
    """What the defaults of a hand-made (partial) value depend on.

    ``turn``: the seat to act (the default victim); ``top``: the discard pile's top card
    or -1; ``before(seat)``: the active seat before ``seat`` (the default sender);
    ``draw_count(card)``: the cards a drawing card makes draw (the default count).
    """

    turn: int
    top: int
    before: Callable[[int], int] | None = None
    draw_count: Callable[[int], int] | None = None


def _fail(message: str) -> PositionError:
    return PositionError("bad_position", message)


class _Reader:
    """Typed field access to one JSON object, each failure a coded ``bad_position``."""

    def __init__(self, data: Mapping[str, Any], kind: str, allowed: frozenset[str]) -> None:
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise _fail(f"a {kind!r} pending value has no field(s) {', '.join(unknown)}")
        self.data = data
        self.kind = kind

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def get_int(self, key: str, default: int, lo: int = -2, hi: int = 10_000) -> int:
        v = self.data.get(key)
        if v is None:
            return default
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise _fail(f"{self.kind}.{key} must be an integer from {lo} to {hi}")
        return v

    def get_bool(self, key: str, default: bool) -> bool:
        v = self.data.get(key)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise _fail(f"{self.kind}.{key} must be true or false")
        return v

    def get_opt_bool(self, key: str) -> bool | None:
        v = self.data.get(key)
        if v is not None and not isinstance(v, bool):
            raise _fail(f"{self.kind}.{key} must be true, false or null")
        return v

    def get_card(self, key: str, default: int) -> int:
        v = self.data.get(key)
        if v is None:
            return default
        if not isinstance(v, str):
            raise _fail(f"{self.kind}.{key} must be a card code")
        try:
            return parse_card(v)
        except NotationError as e:
            raise _fail(f"{self.kind}.{key}: {e.message}") from None

    def get_choice(self, key: str, default: str, values: tuple[str, ...]) -> str:
        v = self.data.get(key)
        if v is None:
            return default
        if v not in values:
            raise _fail(f"{self.kind}.{key} must be one of {', '.join(values)}")
        return str(v)


_COMMON: Final = frozenset({"type", "victim", "sender", "attacker", "last_card", "redirected"})
_FIELDS: Final = {
    "draw": _COMMON | {"count", "family", "locked"},
    "eject": _COMMON | {"two_active"},
    "reveal": _COMMON | {"anchor"},
    "pot": frozenset({"type", "victim", "sender", "count", "last_card", "level", "wd4_legal"}),
}


def from_json(data: object, ctx: Context) -> Pending:
    """The value of a JSON form, with hand-made defaults for left-out fields.

    Defaults: ``victim`` the seat to act; ``sender`` the seat before the victim;
    ``attacker`` the sender; ``last_card`` ``WD4`` / ``QUIT`` / ``GLAS`` by type; a
    pot's ``sender`` nobody (the game knows better) and ``last_card`` the top card;
    ``count`` what ``last_card`` draws; ``locked`` true exactly on a Harvester;
    ``anchor`` the sender; flags false.  A bad field raises
    :class:`~hotdeath.errors.PositionError` (``bad_position``); whether the value fits
    the game is the state's check (``load_pending``).
    """
    if not isinstance(data, Mapping):
        raise _fail("a pending value is an object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise _fail(f"pending.type must be one of {', '.join(TYPES)}")
    r = _Reader(data, kind, _FIELDS[kind])
    victim = r.get_int("victim", ctx.turn, 0)
    if kind == "pot":
        sender = r.get_int("sender", NOBODY, -1)
        last = r.get_card("last_card", ctx.top)
        level = r.get_int("level", -1, 2, 4) if r.has("level") else None
        count = r.get_int("count", -1, 0)
        if count < 0:
            count = level if level is not None else _count(ctx, last, 2)
        if last < 0:
            last = parse_card("WD4" if count >= 4 else "R+2")
        return Pot(victim, sender, count, last, level, r.get_opt_bool("wd4_legal"))
    before = ctx.before(victim) if ctx.before is not None else NOBODY
    sender = r.get_int("sender", before, -1)
    attacker = r.get_int("attacker", sender, -1)
    redirected = r.get_bool("redirected", False)
    if kind == "draw":
        last = r.get_card("last_card", parse_card("WD4"))
        return DrawAttack(
            victim, sender, r.get_int("count", _count(ctx, last, 2), 0),
            r.get_choice("family", "wild_draw", FAMILIES), last, attacker,
            r.get_bool("locked", last == parse_card("HOS")), redirected,
        )
    if kind == "eject":
        return Ejection(victim, sender, attacker, redirected, r.get_bool("two_active", False),
                        r.get_card("last_card", parse_card("QUIT")))
    return Reveal(victim, sender, attacker, redirected, r.get_int("anchor", sender),
                  r.get_card("last_card", parse_card("GLAS")))


def _count(ctx: Context, card: int, default: int) -> int:
    if card < 0 or ctx.draw_count is None:
        return default
    return ctx.draw_count(card)


def legacy(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``pending`` JSON of a position written before the ``pending`` field.

    ``hotdeath-position/1`` and hand-made positions kept a Hot Death attack in
    ``attack`` (its ``kind`` is now the ``type``; ``anchor`` and ``two_active`` belong to
    one type each) and a draw pot in ``pot`` with the Wild Draw Four in ``wd4``
    (``player``: the pot's sender, ``legal``).  None when the position has none of them.
    """
    at, pot, wd4 = data.get("attack"), data.get("pot"), data.get("wd4")
    if at:
        if not isinstance(at, Mapping):
            raise _fail("'attack' must be an object")
        out = {k: v for k, v in at.items() if k != "kind"}
        out["type"] = at.get("kind", "draw")
        keep = _FIELDS.get(out["type"]) if isinstance(out["type"], str) else None
        if keep is not None:
            out = {k: v for k, v in out.items() if k in keep}
        return out
    if pot:
        if not isinstance(pot, Mapping):
            raise _fail("'pot' must be an object")
        out = {"type": "pot", **pot}
        if wd4:
            if not isinstance(wd4, Mapping):
                raise _fail("'wd4' must be an object")
            if wd4.get("player") is not None:
                out.setdefault("sender", wd4.get("player"))
            out["wd4_legal"] = wd4.get("legal", True)
        return out
    return None
