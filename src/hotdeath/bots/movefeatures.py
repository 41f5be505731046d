"""The move features of the ``neural`` bot's move head (a learned linear score per move).

The network of :mod:`hotdeath.bots.neural` gives every action slot a value and an
imitation logit.  A model may also carry a *move head*: one weight per named feature of a
move, and the bot adds ``weights · features(move)`` to each legal move's score.  The
features are a few plain facts about a move that a player at the table sees (does it
spend a wild while nobody is close to going out, how many points it sheds, does it keep
the colour the hand holds most of, is it a Hot Death defence card…); the weights are
fitted by direct policy search on whole hands (:mod:`hotdeath.rl.tune`, ``docs/rl.md``),
where the network's values were fitted one decision at a time.  One feature is the
choice of ``heuristic:strong`` in the same view: the head learns how far to trust the
rule-of-thumb player, the network and the facts of the move against each other.

A model file records the feature names it was fitted with; a model whose names differ
from :func:`feature_names` of its table was made for another feature set and is refused.
This module imports only the core.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots.heuristic import HeuristicBot
from hotdeath.cards import (
    BB,
    DOUBLE_SKIP,
    FACE_COLOR,
    FACE_KIND,
    GLAS,
    HOLY,
    IS_WILD,
    LOI,
    M5,
    MADC,
    MYS,
    NO_COLOR,
    NUMBER,
    QUIT,
    RET,
    REVERSE,
    REVERSE_SKIP,
    SKIP,
    SN,
    SPREADER,
    VIR,
)
from hotdeath.pending import DrawAttack, Pot
from hotdeath.variants import get_variant
from hotdeath.view import View

COMMON: Final = (
    "out",            # the play goes out
    "wild_early",     # a wild spent while nobody is close to going out and 3+ cards remain
    "wild_late",      # a wild spent when somebody is close or 2 cards or fewer remain
    "points_calm",    # card points shed (per 50) while nobody is close to going out
    "points_danger",  # card points shed (per 50) when an opponent holds 2 cards or fewer
    "attack",         # cards the play makes somebody draw (per 4)
    "attack_close",   # the same when the next seat holds 2 cards or fewer
    "skip",           # a skip (a reverse at two players): another turn at once
    "colour_kept",    # share of the cards left that match the colour the play leaves
    "colour_change",  # the play changes the colour in play
    "several",        # cards played beyond the first
    "one_left",       # the play leaves one card
    "number",         # a number card
    "answer",         # a card played to answer an attack
    "draw",           # drawing a card
    "pass",           # passing after a draw
    "accept",         # taking an attack (1, plus its cards per 4)
    "colour_choice",  # share of the hand in the colour named
    "victim_close",   # the victim named: 1 / its hand size
    "strong_pick",    # the move heuristic:strong plays in this view
)
"""The features of every variant, in order."""

SPECIAL: Final = (
    ("holy", HOLY), ("magic5", M5), ("retaliation", RET), ("quitter", QUIT),
    ("big_brother", BB), ("sixty_nine", SN), ("virus", VIR), ("glasnost", GLAS),
    ("mad", MADC), ("luck", LOI), ("mystery", MYS),
)
"""Hot Death's cards with a feature of their own (played, as the last card of a play),
for the variants whose deck holds them."""

_SKIPS: Final = frozenset({SKIP, DOUBLE_SKIP, REVERSE_SKIP})
_CACHE: dict[str, tuple[tuple[str, ...], dict[int, int]]] = {}


def _layout(variant: str) -> tuple[tuple[str, ...], dict[int, int]]:
    got = _CACHE.get(variant)
    if got is None:
        faces = set(get_variant(variant).kit.faces)
        special = [(name, f) for name, f in SPECIAL if f in faces]
        if any(FACE_KIND[f] == SPREADER for f in faces):
            special.append(("spreader", -1))
        names = COMMON + tuple(name for name, _ in special)
        index = {f: len(COMMON) + i for i, (_, f) in enumerate(special) if f >= 0}
        got = _CACHE[variant] = (names, index)
    return got


def feature_names(variant: str) -> tuple[str, ...]:
    """The names of the move features of ``variant``, in the order of the weights.

    >>> feature_names("standard")[:3]
    ('out', 'wild_early', 'wild_late')
    >>> "holy" in feature_names("hotdeath"), "holy" in feature_names("standard")
    (True, False)
    """
    return _layout(variant)[0]


class MoveFeatures:
    """Computes the features of a view's moves (one instance per variant)."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.names, self._special = _layout(variant)
        self.size = len(self.names)
        kit = get_variant(variant).kit
        self._points = kit.card_points
        self._draws = kit.draw_count
        self._spreader = self.names.index("spreader") if "spreader" in self.names else -1
        self._ix = {name: i for i, name in enumerate(self.names)}
        self._strong = HeuristicBot("strong")

    def of(self, view: View, actions: Sequence[Action | None],
           rng: random.Random | None = None) -> list[list[float]]:
        """One feature row per action (``None``: letting a window go by).

        ``rng`` is the dice of ``heuristic:strong``'s choice (``strong_pick``): that bot
        breaks near ties at random, and the same dice at every decision would favour the
        same places in the list of moves (which measurably costs it points).  None: dice
        seeded from the view's hand and pile.
        """
        hand = view.hand or ()
        me = view.seat if view.seat is not None else 0
        sizes = [s.hand_size for s in view.seats if s.seat != me and s.active and s.hand_size]
        danger = bool(sizes) and min(sizes) <= 2
        two = len(sizes) == 1
        nxt = view.seats[view.next_seat(me)].hand_size
        by_color = [0, 0, 0, 0]
        for f in hand:
            c = FACE_COLOR[f]
            if c >= 0 and not IS_WILD[f]:
                by_color[c] += 1
        if rng is None:
            rng = random.Random(hash((tuple(hand), view.discard, view.hand_no, me)))
        pick = self._strong.choose(view, rng)
        key = None if pick is None else pick[:5]
        strong = self._ix["strong_pick"]
        rows: list[list[float]] = []
        for a in actions:
            row = [0.0] * self.size
            if a is not None:
                self._fill(row, view, a, hand, by_color, danger, two, nxt)
            if (a is None and key is None) or (a is not None and a[:5] == key):
                row[strong] = 1.0  # the Uno call aside: a play is one slot with or without
            rows.append(row)
        return rows

    def _fill(self, row: list[float], view: View, a: Action, hand: Sequence[int],
              by_color: list[int], danger: bool, two: bool, nxt: int) -> None:
        ix = self._ix
        k = a.kind
        if k == A.PLAY:
            self._play(row, view, a, hand, by_color, danger, two, nxt)
        elif k == A.DRAW:
            row[ix["draw"]] = 1.0
        elif k == A.PASS:
            row[ix["pass"]] = 1.0
        elif k == A.ACCEPT:
            at = view.attack
            count = at.count if isinstance(at, (DrawAttack, Pot)) and at.count else 0
            row[ix["accept"]] = 1.0 + count / 4.0
        elif k == A.COLOR and 0 <= a.color < 4:
            row[ix["colour_choice"]] = by_color[a.color] / max(1, len(hand))
        if a.target >= 0 and k in (A.PLAY, A.VICTIM):
            row[ix["victim_close"]] = 1.0 / max(1, view.seats[a.target].hand_size)

    def _play(self, row: list[float], view: View, a: Action, hand: Sequence[int],
              by_color: list[int], danger: bool, two: bool, nxt: int) -> None:
        ix = self._ix
        cards = a.cards
        f = cards[-1]
        left = len(hand) - len(cards)
        if left <= 0:
            row[ix["out"]] = 1.0
            return
        wild = any(IS_WILD[g] for g in cards)
        late = danger or left <= 2
        if wild:
            row[ix["wild_late" if late else "wild_early"]] = 1.0
        pts = sum(self._points(g) for g in cards) / 50.0
        row[ix["points_danger" if danger else "points_calm"]] = pts
        drawn = self._draws(f)
        if drawn:
            row[ix["attack"]] = drawn / 4.0
            if nxt <= 2:
                row[ix["attack_close"]] = drawn / 4.0
        kind = FACE_KIND[f]
        if kind in _SKIPS or (kind == REVERSE and two):
            row[ix["skip"]] = 1.0
        color = a.color if a.color != NO_COLOR else FACE_COLOR[f]
        if color >= 0:
            counts = by_color[:]
            for g in cards:
                c = FACE_COLOR[g]
                if c >= 0 and not IS_WILD[g]:
                    counts[c] -= 1
            row[ix["colour_kept"]] = counts[color] / left
            if color != view.color:
                row[ix["colour_change"]] = 1.0
        row[ix["several"]] = len(cards) - 1.0
        if left == 1:
            row[ix["one_left"]] = 1.0
        if kind == NUMBER:
            row[ix["number"]] = 1.0
        if view.phase == "response":
            row[ix["answer"]] = 1.0
        special = self._special.get(f)
        if special is not None:
            row[special] = 1.0
        elif kind == SPREADER and self._spreader >= 0:
            row[self._spreader] = 1.0


__all__ = ["COMMON", "SPECIAL", "MoveFeatures", "feature_names"]
