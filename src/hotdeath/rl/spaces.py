"""The fixed action space and the observation layout of the RL environments.

Both depend only on the variant and the number of seats, never on options or the deal, so
a policy trained on one preset can be run on another preset of the same variant.

**Actions** (:class:`ActionLayout`): one integer slot per distinct decision, in this order

* *plays*: one slot per face of the variant's deck; a wild has four slots, one per named
  colour; a card that picks a victim (a 7 under the 7-0 rule, Glasnost, M.A.D.) has one more
  slot per other seat, counted clockwise from the acting seat (``+1`` is the next seat).
  A play that leaves one card calls Uno with it whenever the rules allow (the env makes the
  call for the agent).  In Throwdown a play slot means *add this card to the throw being
  built* (see below) and wilds have one slot each;
* ``draw``, ``pass``, ``accept``, ``challenge``, ``question``, ``jump`` (jump in with the
  card identical to the top), ``decline`` (Throwdown: refuse a call-back), ``uno`` (call
  Uno out of turn) and ``ignore`` (let an out-of-turn window go by);
* ``catch +k`` (catch the seat ``k`` places clockwise), ``victim +k``, ``color C`` (4);
* where the variant's kit says so (:class:`~hotdeath.variants.base.VariantKit`): ``jump @+k``
  (``jump_swaps``: jump in with a 7 under the 7-0 rule, swapping with the seat ``k`` places
  clockwise, as in standard Uno); ``deal N`` for N = 0..30 (``chooses_deal``, as in Hot
  Death); ``uno @+k`` (name a seat that draws with one's Uno call), ``direction cw|ccw``,
  ``throw end`` and ``throw end C`` (``throws``, as in Throwdown).

The faces and the cards that name a victim are the kit's ``faces`` and ``directed_faces``.

Leaving the table (Throwdown's ``leave``) is not in the space: the environments never leave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import COLOR_NAMES, COLORS, IS_WILD, card_code, card_name
from hotdeath.variants.base import VariantKit

IGNORE: Final = -1
"""The pseudo action kind of the ``ignore`` slot (let a window go by); not an engine action."""

SINGLE_KINDS: Final = (
    (A.DRAW, "draw"),
    (A.PASS, "pass"),
    (A.ACCEPT, "accept"),
    (A.CHALLENGE, "challenge"),
    (A.QUESTION, "question"),
    (A.JUMP, "jump"),
    (A.DECLINE, "decline"),
    (A.UNO, "uno"),
    (IGNORE, "ignore"),
)
"""Kinds with one slot each: at most one action of each is ever legal for a seat at once."""

MAX_DEAL: Final = 30
"""Largest deal size with a slot (Hot Death allows 5 to 15 by default, at most 30)."""

WINDOW_KINDS: Final = frozenset({A.UNO, A.CATCH, A.CHALLENGE, A.JUMP, A.DECLINE})
"""Kinds that can be out-of-turn window actions."""


def _kit(variant: str) -> VariantKit:
    from hotdeath.variants import get_variant

    return get_variant(variant).kit


def variant_faces(variant: str) -> tuple[int, ...]:
    """The face ids that can occur in ``variant`` (every preset and option), ascending."""
    return _kit(variant).faces


@dataclass(frozen=True)
class ActionLayout:
    """The discrete action space of one variant at one table size.

    ``names[i]`` is slot ``i`` in words (``play R7 @+1``, ``play WD4 red``, ``catch +1``).
    :meth:`slot_of` maps an engine action of a seat to its slot (-1: not in the space).
    """

    variant: str
    players: int
    faces: tuple[int, ...]
    names: tuple[str, ...]
    play_slots: dict[tuple[int, int, int], int] = field(repr=False)
    single: dict[int, int] = field(repr=False)
    catch: tuple[int, ...] = field(repr=False)
    victim: tuple[int, ...] = field(repr=False)
    color: tuple[int, ...] = field(repr=False)
    deal: tuple[int, ...] = field(repr=False)
    jump_at: tuple[int, ...] = field(repr=False)
    uno_at: tuple[int, ...] = field(repr=False)
    direction: tuple[int, ...] = field(repr=False)
    throw_end: int = -1
    throw_end_color: tuple[int, ...] = field(default=(), repr=False)

    @property
    def size(self) -> int:
        """Number of slots."""
        return len(self.names)

    @property
    def throws(self) -> bool:
        """Whether plays are built card by card (Throwdown)."""
        return self.throw_end >= 0

    def slot_of(self, action: Action, seat: int) -> int:
        """The slot of ``action`` taken by ``seat``, or -1 when the space leaves it out.

        Multi-card Throwdown plays, ``leave`` and a last-card wild played without naming a
        colour (the same play naming one is always legal too) have no slot; a play with an
        Uno call has the slot of the same play without it.
        """
        k = action.kind
        n = self.players
        if k == A.PLAY:
            if self.throws or len(action.cards) != 1:
                return -1
            rel = (action.target - seat) % n if action.target >= 0 else 0
            return self.play_slots.get((action.cards[0], action.color, rel), -1)
        if k == A.CATCH:
            return self.catch[(action.target - seat) % n - 1] if action.target != seat else -1
        if k == A.VICTIM:
            return self.victim[(action.target - seat) % n - 1] if action.target != seat else -1
        if k == A.COLOR:
            return self.color[action.color]
        if k == A.DEAL:
            return self.deal[action.n] if self.deal and 0 <= action.n <= MAX_DEAL else -1
        if k == A.DIRECTION:
            return self.direction[0 if action.n == 1 else 1] if self.direction else -1
        if k == A.JUMP and action.target >= 0:
            if not self.jump_at or action.target == seat:
                return -1
            return self.jump_at[(action.target - seat) % n - 1]
        if k == A.UNO and action.target >= 0:
            if not self.uno_at or action.target == seat:
                return -1
            return self.uno_at[(action.target - seat) % n - 1]
        return self.single.get(k, -1)

    def describe(self, slot: int, theme: str = "family") -> str:
        """Slot ``slot`` in words with card names from ``theme`` (``Play Red 7 at +1``)."""
        if not 0 <= slot < self.size:
            raise ValueError(f"no action slot {slot} (the space has {self.size})")
        for (f, c, rel), s in self.play_slots.items():
            if s == slot:
                verb = "Throw" if self.throws else "Play"
                text = f"{verb} {card_name(f, theme)}"
                if c >= 0:
                    text += f" naming {COLOR_NAMES[c]}"
                if rel:
                    text += f" at the seat {rel} place{'s' if rel > 1 else ''} clockwise"
                return text
        return self.names[slot]

    def to_table(self) -> list[tuple[int, str]]:
        """Every slot with its name, for documentation."""
        return list(enumerate(self.names))


_LAYOUTS: dict[tuple[str, int], ActionLayout] = {}


def action_layout(variant: str, players: int) -> ActionLayout:
    """The action layout of ``variant`` (a registry name) at ``players`` seats (cached)."""
    key = (variant, players)
    hit = _LAYOUTS.get(key)
    if hit is not None:
        return hit
    names: list[str] = []

    def add(name: str) -> int:
        names.append(name)
        return len(names) - 1

    kit = _kit(variant)
    faces = kit.faces
    throws = kit.throws
    targets = kit.directed_faces
    plays: dict[tuple[int, int, int], int] = {}
    for f in faces:
        code = card_code(f)
        if IS_WILD[f] and not throws:
            for c in COLORS:
                plays[(f, c, 0)] = add(f"play {code} {COLOR_NAMES[c]}")
        else:
            plays[(f, -1, 0)] = add(f"{'throw' if throws else 'play'} {code}")
        if f in targets:
            for rel in range(1, players):
                plays[(f, -1, rel)] = add(f"play {code} @+{rel}")
    single = {k: add(word) for k, word in SINGLE_KINDS}
    catch = tuple(add(f"catch +{r}") for r in range(1, players))
    victim = tuple(add(f"victim +{r}") for r in range(1, players))
    color = tuple(add(f"color {COLOR_NAMES[c]}") for c in COLORS)
    deal: tuple[int, ...] = ()
    jump_at: tuple[int, ...] = ()
    uno_at: tuple[int, ...] = ()
    direction: tuple[int, ...] = ()
    throw_end = -1
    throw_end_color: tuple[int, ...] = ()
    if kit.chooses_deal:
        deal = tuple(add(f"deal {k}") for k in range(MAX_DEAL + 1))
    if kit.jump_swaps:
        jump_at = tuple(add(f"jump @+{r}") for r in range(1, players))
    if throws:
        uno_at = tuple(add(f"uno @+{r}") for r in range(1, players))
        direction = (add("direction cw"), add("direction ccw"))
        throw_end = add("throw end")
        throw_end_color = tuple(add(f"throw end {COLOR_NAMES[c]}") for c in COLORS)
    layout = ActionLayout(
        variant, players, faces, tuple(names), plays, single, catch, victim, color, deal,
        jump_at, uno_at, direction, throw_end, throw_end_color,
    )
    _LAYOUTS[key] = layout
    return layout


HISTORY: Final = 4
"""Discard-pile cards under the top card that an observation shows (newest first)."""

SEAT_FEATURES: Final = (
    "hand_size", "active", "uno_catchable", "score", "infections", "to_act", "dealer",
    "revealed",
)
"""Per-seat public facts, one row per seat in clockwise order from the observer."""

PHASES: Final = ("deal", "turn", "response", "choose_color", "choose_victim", "game_over")
ATTACK_KINDS: Final = ("draw", "eject", "reveal", "other")
DECISIONS: Final = ("turn", "window", "throw")


@dataclass(frozen=True)
class ObservationLayout:
    """Where each fact sits in the flat ``observation`` vector (float32).

    ``sections`` lists ``(name, offset, size)``; rows of per-face sections follow
    :attr:`faces`; per-seat sections are in clockwise order from the observer (row 0 is
    the observer itself, row 1 the next seat).
    """

    variant: str
    players: int
    faces: tuple[int, ...]
    sections: tuple[tuple[str, int, int], ...]

    @property
    def size(self) -> int:
        """Length of the observation vector."""
        _, off, size = self.sections[-1]
        return off + size

    def offset(self, name: str) -> int:
        """Offset of the section ``name``; ``KeyError`` if the layout has none."""
        for sec, off, _ in self.sections:
            if sec == name:
                return off
        raise KeyError(name)

    def section(self, name: str) -> tuple[int, int]:
        """``(offset, size)`` of the section ``name``."""
        for sec, off, size in self.sections:
            if sec == name:
                return off, size
        raise KeyError(name)


def observation_layout(variant: str, players: int) -> ObservationLayout:
    """The observation layout of ``variant`` at ``players`` seats."""
    kit = _kit(variant)
    faces = kit.faces
    nf = len(faces)
    n = players
    parts: list[tuple[str, int]] = [("hand", nf)]
    if kit.throws:
        parts += [("throw", nf), ("throw_last", nf)]
    parts += [
        ("top", nf),
        ("history", HISTORY * nf),
        ("color", 4),
        ("clockwise", 1),
        ("phase", len(PHASES)),
        ("decision", len(DECISIONS)),
        ("drew", 1),
        ("seats", n * len(SEAT_FEATURES)),
        ("revealed", (n - 1) * nf),
        ("attack", 5 + len(ATTACK_KINDS) + 2 * n),
        ("sixty_nine", n),
        ("table", 3),
    ]
    sections = []
    off = 0
    for name, size in parts:
        sections.append((name, off, size))
        off += size
    return ObservationLayout(variant, players, faces, tuple(sections))
