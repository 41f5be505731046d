"""The simplest bots: ``random`` and ``basic`` (see :mod:`hotdeath.bots` for the interface)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import register_bot
from hotdeath.cards import FACE_COLOR, IS_WILD, NO_COLOR
from hotdeath.view import View


def random_action(legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random action of ``legal`` but leaving the table (TD-6.6).

    Leaving is quitting the game, not a move in it: a random player that left whenever the
    dice said so would quit a Throwdown table within a few turns (one action in a handful
    is ``leave``).  It is chosen only when nothing else is legal.

    >>> import hotdeath
    >>> g = hotdeath.new_game("throwdown", players=3, seed=1)
    >>> g.step(g.legal_actions(0)[0], 0)  # the dealer picks the direction of play
    >>> legal = g.legal_actions(g.current_player())
    >>> any(a.kind == A.LEAVE for a in legal)
    True
    >>> rng = random.Random(0)
    >>> any(random_action(legal, rng).kind == A.LEAVE for _ in range(200))
    False
    """
    stay = [a for a in legal if a.kind != A.LEAVE]
    return rng.choice(stay or legal)


@register_bot("random",
              "Uniformly random among the legal actions; lets windows go by, never leaves.")
class RandomBot:
    """Uniformly random among the legal actions (out-of-turn windows excluded).

    It never leaves a Throwdown table (:func:`random_action`).
    """

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """A uniformly random legal action on its turn; ``None`` out of turn."""
        if view.current_player != view.seat or not view.legal_actions:
            return None
        return random_action(view.legal_actions, rng)


@register_bot("basic", "A beginner: sheds cards, keeps wilds, calls and catches Uno.")
class BasicBot:
    """A sensible beginner: sheds cards, keeps wilds for later, calls and catches Uno.

    It plays a non-wild card when it can (the one whose colour it holds most of), a wild
    otherwise, answers attacks with a defence when it has one, names the colour it holds
    most of, and always calls Uno with its next-to-last card.
    """

    name = "basic"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The bot's choice among ``view.legal_actions``."""
        acts = list(view.legal_actions)
        hand = view.hand or ()
        own = view.seats[view.seat] if view.seat is not None else None
        for a in acts:
            # its own Uno and a catch, on its turn too (a Skip can bring the turn back to
            # a player who has not called yet, TD-5.2)
            if a.kind == A.UNO and a.target < 0 and own is not None and own.uno_catchable:
                return a
            if a.kind == A.CATCH and view.seats[a.target].uno_catchable:
                return a
        if view.current_player != view.seat:
            return None
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
