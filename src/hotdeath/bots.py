"""Simple bots that see only a seat's view (they cannot cheat by construction).

A bot is anything with ``choose(view, rng) -> Action``, where ``view`` is
:class:`hotdeath.view.View` (its ``legal_actions`` are the seat's options now) and
``rng`` a :class:`random.Random` owned by the caller, so games stay reproducible.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import FACE_COLOR, IS_WILD, NO_COLOR
from hotdeath.view import View


class Bot(Protocol):
    """The bot interface."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """Pick one of ``view.legal_actions``."""
        ...


class RandomBot:
    """Uniformly random among the legal actions (out-of-turn windows excluded)."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(list(view.legal_actions))


class BasicBot:
    """A sensible beginner: sheds cards, keeps wilds for later, calls and catches Uno.

    It plays a non-wild card when it can (the one whose colour it holds most of), a wild
    otherwise, answers attacks with a defence when it has one, names the colour it holds
    most of, and always calls Uno with its next-to-last card.
    """

    name = "basic"

    def choose(self, view: View, rng: random.Random) -> Action:
        """The bot's choice among ``view.legal_actions``."""
        acts = list(view.legal_actions)
        hand = view.hand or ()
        for a in acts:
            if a.kind in (A.CATCH, A.UNO, A.CHALLENGE) and view.current_player != view.seat:
                return a
        if view.current_player != view.seat:
            return acts[0]
        colors = Counter(FACE_COLOR[c] for c in hand if FACE_COLOR[c] != NO_COLOR)
        best_color = colors.most_common(1)[0][0] if colors else rng.randrange(4)
        plays = [a for a in acts if a.kind == A.PLAY]
        calls = [a for a in plays if a.uno]
        if calls:
            plays = calls
        if plays:
            tame = [a for a in plays if not IS_WILD[a.card]]
            pool = tame or [a for a in plays if a.color in (best_color, NO_COLOR)] or plays
            pool.sort(key=lambda a: -colors.get(FACE_COLOR[a.card], 0))
            top = [a for a in pool if FACE_COLOR[a.card] == FACE_COLOR[pool[0].card]]
            return rng.choice(top)
        for kind in (A.COLOR, A.DEAL, A.VICTIM):
            options = [a for a in acts if a.kind == kind]
            if options:
                if kind == A.COLOR:
                    return next((a for a in options if a.color == best_color), options[0])
                return rng.choice(options)
        for kind in (A.DRAW, A.PASS, A.ACCEPT):
            for a in acts:
                if a.kind == kind:
                    return a
        return acts[0]


BOTS: dict[str, type[RandomBot] | type[BasicBot]] = {"random": RandomBot, "basic": BasicBot}
"""Bots by name."""


def make_bot(name: str) -> Bot:
    """A bot by name (``random`` or ``basic``)."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return BOTS[name]()
