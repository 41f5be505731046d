"""The ``ismcts`` bot: information-set Monte Carlo tree search (single observer).

Each iteration samples a *determinization*: a whole game state consistent with the bot's
view.  Its own hand, the discard pile, every revealed card, hand sizes, scores and the
pending attack are as the view shows them; the unseen cards (the variant's deck less all
of those) are shuffled and dealt to the other seats to their hand sizes (their revealed
cards stay in their hands) and the rest is the draw pile.  The state is built once per
decision from the view with the position notation (:func:`hotdeath.notation.from_position`)
and each iteration clones it and redeals the unseen cards, which is cheap.

The search then runs as in Cowling, Powley and Whitehouse's SO-ISMCTS: one tree over the
actions of every seat; in each determinization only the children whose actions are legal
there compete, by UCB1 with *availability* counts; one new child is added per iteration;
a rollout with a cheap policy plays to the end of the **hand** (not the game) or to a move
horizon; the reward of each seat (winning the hand, plus a small term for a cheap hand in
Hot Death) is backed up to the nodes where that seat chose.

The move is the root move visited most, or (``pick=sure``) the expert heuristic's
favourite unless the most visited move leads it by ``margin`` in mean reward and by
:data:`SURE_Z` standard errors: near-equal moves then resolve the same way at any budget.
With ``root=paired`` the root moves are instead compared on common random numbers:
every move is played from the same determinization with the same rollout dice, so their
difference is measured on equal luck (flat Monte Carlo below the root).
The rollout policy is ``fast`` (a cheap shedding policy), ``expert`` (the expert heuristic
itself, the opponents' model), ``random`` or any bot.

Budget: ``iterations`` (deterministic under the caller's generator) or ``seconds`` per
decision, of wall time (``clock=wall``) or of the searching thread's CPU time
(``clock=cpu``: the same search on a busy machine as on an idle one, the budget a server
enforces); ``workers`` searches each decision in that many processes at once
(root-parallel: :mod:`hotdeath.bots.parallel`, the parts' root tallies merged).  The module
is compiled with the core (``scripts/build_mypyc.py``): typed for mypyc, no class
decorators.  Out-of-turn windows (Uno calls, catches, jump-ins) and the
dealer's deal size are left to an expert :class:`~hotdeath.bots.heuristic.HeuristicBot`.
The bot reads nothing but its view: the real state never reaches it.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import Bot, BotParam, make_bot, register_bot
from hotdeath.bots.heuristic import HeuristicBot, _Table
from hotdeath.cards import (
    BB,
    COLOR_NAMES,
    FACE_COLOR,
    HOLY,
    IS_WILD,
    M5,
    card_code,
)
from hotdeath.errors import HotDeathError
from hotdeath.notation import from_position, to_position
from hotdeath.pending import Pot
from hotdeath.rng import Rng
from hotdeath.state import DEAL, GAME_OVER, GameState
from hotdeath.variants import get_variant
from hotdeath.view import View

_WINDOW_KINDS: Final = frozenset({A.UNO, A.CATCH, A.JUMP, A.DECLINE})
_ROLLOUTS: Final = ("fast", "random", "expert")
ROOTS: Final = ("tree", "paired")
"""How the root moves are compared: one search tree (UCB1), or every move on the same
sampled deals and rollout dice (common random numbers; see :meth:`IsmctsBot._paired`)."""
PAIRED_WIDTH: Final = 12
"""The most root moves ``root=paired`` compares (the expert heuristic's favourites first)."""

CLOCKS: Final = ("wall", "cpu")
"""What ``seconds`` counts: wall time, or the CPU time of the searching thread (each part's
own, in a root-parallel search)."""
REWARDS: Final = ("hand", "game")
PICKS: Final = ("visits", "sure")
"""How the move is chosen after the search: the most visited root move, or the expert
heuristic's favourite unless the search is sure that another move is better."""
WIDEN_BASE: Final = 8
"""Children a node grows before progressive widening (``widen``) holds it back."""
SURE_Z: Final = 1.96
"""How many standard errors the ``sure`` rule asks a move's lead over the favourite to be."""
"""What a rollout's result is worth to a seat: winning the hand, or standing in the game."""
GAME_TEMPERATURE: Final = 150.0
"""Points of total that change a seat's game standing by a factor e (the ``game`` reward)."""

Policy = Callable[[GameState, int, Sequence[Action], random.Random], Action]


_SKIPPED: Final = frozenset({*_WINDOW_KINDS, A.LEAVE})
"""Kinds search never plays: the out-of-turn windows and leaving the table."""
_UNCALLED: dict[Action, Action] = {}
"""Each Uno-calling play's twin without the call (memo: actions are few and interned)."""


def _skipped(a: Action) -> bool:
    """Whether search leaves ``a`` out: a window kind, leaving, or a 69 challenge."""
    k = a.kind
    return k in _SKIPPED or (k == A.CHALLENGE and a.target >= 0)


def _uncalled(a: Action) -> Action:
    """``a`` without its Uno call."""
    twin = _UNCALLED.get(a)
    if twin is None:
        twin = a._replace(uno=False)
        if len(_UNCALLED) < 100_000:
            _UNCALLED[a] = twin
    return twin


def _searched(actions: Sequence[Action]) -> list[Action]:
    """The actions worth searching.

    No out-of-turn kinds, no leaving, and a play that can call Uno always does (the
    search does not model catches; the table does).
    """
    acts: list[Action] = []
    calls = False
    for a in actions:
        if not _skipped(a):
            acts.append(a)
            if a.uno:
                calls = True
    if calls:
        twins = {_uncalled(a) for a in acts if a.uno}
        acts = [a for a in acts if a.uno or a not in twins]
    return acts


def _main_actions(state: GameState, seat: int) -> list[Action]:
    """The actions of the player to act that the search considers."""
    return _searched(state.legal_actions(seat)) or list(state.legal_actions(seat))


def fast_policy(state: GameState, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
    """A cheap rollout policy reading the (sampled) state: shed cards, defend, call Uno.

    It plays rather than draws, goes out when it can, prefers non-wild cards of the colour
    it holds most of, answers attacks, dumps the Big Brother and keeps the Holy Defender
    and the Magic Red 5 for defence.  ``acts`` may be the seat's whole legal list: the
    kinds search leaves out (windows, leaving) are passed over here, and a play's Uno
    call always wins over its twin without it, so rollouts skip :func:`_searched`.
    """
    hand = state.hands[seat]
    counts = [0, 0, 0, 0]
    for f in hand:
        c = FACE_COLOR[f]
        if c >= 0:
            counts[c] += 1
    best = acts[0]
    best_score = -1e9
    size = len(hand)
    found = False
    for a in acts:
        k = a.kind
        if k in _SKIPPED or (k == A.CHALLENGE and a.target >= 0):
            continue
        found = True
        if k == A.PLAY:
            f = a.cards[0]
            s = 10.0 + 5.0 * len(a.cards)
            if len(a.cards) >= size:
                s += 1000.0
            if IS_WILD[f]:
                s -= 6.0
                if a.color >= 0:
                    s += counts[a.color]
            else:
                s += counts[FACE_COLOR[f]] * 0.5
            if a.uno:
                s += 20.0
            if f == BB:
                s += 50.0
            elif f in (HOLY, M5):
                s -= 8.0
        elif k == A.DRAW:
            s = 0.0
        elif k == A.PASS:
            s = -1.0
        elif k == A.ACCEPT:
            s = -5.0
        elif k == A.CHALLENGE:
            s = -6.0
        elif k == A.COLOR:
            s = float(counts[a.color])
        else:
            s = -2.0
        s += 3.0 * rng.random()
        if s > best_score:
            best, best_score = a, s
    if not found:  # nothing but windows (never in practice): as _main_actions does
        return acts[0]
    return best


def random_policy(
    state: GameState, seat: int, acts: Sequence[Action], rng: random.Random
) -> Action:
    """Uniformly random among the actions (a baseline rollout policy)."""
    return rng.choice(acts)


def expert_policy(
    state: GameState, seat: int, acts: Sequence[Action], rng: random.Random
) -> Action:
    """The expert heuristic's move on the sampled state (the opponents' model; slower).

    It scores ``acts`` from the seat's view of the determinization exactly as
    ``heuristic:expert`` scores a turn, with the same small noise, so a rollout plays the
    game as three expert opponents would.
    """
    count = 0
    only = acts[0]
    for a in acts:
        if not _skipped(a):
            count += 1
            only = a
            if count > 1:
                break
    if count <= 1:  # one move worth making (or none but windows): no view to build
        return only
    table = _Table(state.view(seat), _EXPERT.aggression)
    best = acts[0]
    best_score = -1e18
    for a in acts:
        if _skipped(a):  # a whole legal list: what search leaves out is passed over
            continue
        s = _EXPERT._score(table, a, rng) + 2.0 * rng.random()
        if s > best_score:
            best, best_score = a, s
    return best


_EXPERT: Final = HeuristicBot("expert")


def _bot_policy(bot: Bot) -> Policy:
    """A rollout policy that asks a registered bot (through views: slower)."""

    def policy(state: GameState, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
        choice = bot.choose(state.view(seat), rng)
        return choice if choice is not None and choice in acts else acts[0]

    return policy


# ------------------------------------------------------------------ determinizations


def position_of(view: View, hands: list[list[int]], draw: list[int],
                buried: list[int] | None = None) -> dict[str, Any]:
    """A position (notation dict) with the view's public facts and the given hidden cards.

    ``hands`` are every seat's hand (the viewer's own as in the view), ``draw`` the draw
    pile from its top and ``buried`` the ``view.buried`` face-down cards under the discard
    pile.  Fields a view does not show get neutral values (the idle count,
    who played the top card when no attack says it).
    """
    n = view.players
    d: dict[str, Any] = {
        "variant": view.variant,
        "options": dict(view.options),
        "players": n,
        "hand": view.hand_no,
        "dealer": view.dealer,
        "hand_size": view.hand_size,
        "phase": view.phase,
        "turn": view.current_player,
        "direction": "cw" if view.direction == 1 else "ccw",
        "color": COLOR_NAMES[view.color] if view.color >= 0 else None,
        "drew": view.drew,
        "drawn": card_code(view.drawn) if view.drawn >= 0 else None,
        "hands": [[card_code(c) for c in h] for h in hands],
        "draw": [card_code(c) for c in draw],
        "discard": [card_code(c) for c in (*(buried or ()), *view.discard)],
        "active": [s.active for s in view.seats],
        "revealed": [[card_code(c) for c in s.revealed] for s in view.seats],
        "uno_open": [s.seat for s in view.seats if s.uno_catchable],
        "scores": [s.score for s in view.seats],
        "winners": list(view.winners),
    }
    if buried:
        d["buried"] = len(buried)
    if view.last_hand is not None:
        d["last_hand"] = view.last_hand.to_json()
    d.update(get_variant(view.variant).kit.position_from_view(view))
    at = view.attack
    if at is not None:
        # the view hides only whether a Wild Draw Four was legal: assume it was (a pot of
        # levels, Throwdown's, has no challenge and takes no such fact)
        d["pending"] = at.to_json()
        if isinstance(at, Pot) and at.wd4_on_top and at.level is None:
            d["pending"]["wd4_legal"] = True
    return d


class Sampler:
    """Builds determinizations of one view: a template state and a pool of unseen cards."""

    def __init__(self, view: View) -> None:
        if view.seat is None or view.hand is None:
            raise ValueError("a determinization needs a seat's view")
        self.view = view
        me = view.seat
        known = Counter(view.hand) + Counter(view.discard)
        for s in view.seats:
            if s.seat != me:
                known.update(s.revealed)
        # the deck: build an empty template once to learn it
        probe = _deck_probe(view)
        deck = list(probe.deck)
        rest = Counter(deck) - known
        pool: list[int] = []
        for f in sorted(rest):
            pool += [f] * rest[f]
        self.pool = pool
        self.need = [
            0 if s.seat == me else max(0, s.hand_size - len(s.revealed)) for s in view.seats
        ]
        hidden = sum(self.need)
        if hidden > len(pool):
            raise ValueError("the view shows more hidden cards than the deck leaves")
        if hidden + view.buried > len(pool):
            raise ValueError("the view shows more face-down cards than the deck leaves")
        hands = self._deal(pool)
        buried = pool[hidden:hidden + view.buried]
        draw = pool[hidden + view.buried:]
        self.template = from_position(position_of(view, hands, draw, buried))
        self.hidden = hidden

    def _deal(self, pool: list[int]) -> list[list[int]]:
        view = self.view
        me = view.seat
        hands: list[list[int]] = []
        i = 0
        for s in view.seats:
            if s.seat == me:
                hands.append(list(view.hand or ()))
                continue
            k = self.need[s.seat]
            hands.append(list(s.revealed) + pool[i:i + k])
            i += k
        return hands

    def sample(self, rng: random.Random) -> GameState:
        """A fresh determinization (the unseen cards reshuffled with ``rng``)."""
        state = self.template.clone()
        pool = self.pool[:]
        _shuffle(pool, rng)
        view = self.view
        i = 0
        for s in view.seats:
            if s.seat == view.seat:
                continue
            k = self.need[s.seat]
            state.hands[s.seat] = list(s.revealed) + pool[i:i + k]
            i += k
        b = view.buried
        if b:
            state.discard[:b] = pool[i:i + b]
            i += b
        state.draw_pile = pool[i:][::-1]
        state.rng = Rng(rng.getrandbits(63))
        state._ver += 1  # drop any cached legal actions
        return state


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher–Yates with ``rng.random()`` (compiled: a C call a card, no Python frame)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _deck_probe(view: View) -> GameState:
    """An empty state of the view's variant and options (to learn its deck)."""
    variant = get_variant(view.variant)
    opts = variant.resolve_options(None, view.options)
    return variant.state_cls(variant, opts, view.players, 0)


# ------------------------------------------------------------------ the tree


class Part(NamedTuple):
    """What one search (or one worker of a root-parallel search) found at the root.

    ``moves`` maps each root move to its tally: (visits, sum of rewards, sum of squares)
    in the tree, (tries, sum of rewards, sum of leads over the favourite, sum of their
    squares) in the paired comparison; ``done`` counts the iterations; ``cpu`` the CPU
    seconds the search took (its thread's).
    """

    moves: dict[Action, tuple[float, ...]]
    done: int
    cpu: float = 0.0


class SearchParams(NamedTuple):
    """An :class:`IsmctsBot`'s settings but ``workers``, in the constructor's order."""

    iterations: int
    seconds: float
    c: float
    rollout: str
    horizon: int
    prior: float
    reward: str
    pick: str
    margin: float
    widen: float
    root: str
    clock: str


class SearchSetting(NamedTuple):
    """What a worker of a root-parallel search needs (plain values: it is pickled).

    The view travels as the position of the sampler's first deal and the seat: its view is
    the searched view (a compiled core's views are not picklable).
    """

    params: SearchParams
    """The bot's settings."""
    position: dict[str, Any]
    seat: int
    moves: list[Action]
    """The root moves searched (the paired comparison's, in its order)."""
    favourite: Action | None
    bias: dict[Action, float]
    lowest: bool | None


def merge_parts(parts: Sequence[Part]) -> Part:
    """The tallies of several searches of one root, added up move by move (in order)."""
    merged: dict[Action, tuple[float, ...]] = {}
    done = 0
    cpu = 0.0
    for part in parts:
        done += part.done
        cpu += part.cpu
        for a, tally in part.moves.items():
            have = merged.get(a)
            merged[a] = tally if have is None else tuple(
                x + y for x, y in zip(have, tally, strict=True))
    return Part(merged, done, cpu)


def search_part(setting: SearchSetting, seed: int, iterations: int) -> Part:
    """One part of a root-parallel search: a search of its own with seed ``seed``.

    ``iterations`` is the part's share of the budget (0: the bot's seconds).
    """
    bot = IsmctsBot(**setting.params._asdict())
    bot.favourite = setting.favourite
    bot._bias = dict(setting.bias)
    bot._lowest = setting.lowest
    view = from_position(setting.position).view(setting.seat)
    sampler = Sampler(view)
    rng = random.Random(seed)
    if bot.root == "paired":
        return bot._paired_stats(view, sampler, list(setting.moves), iterations, rng)
    return bot._tree_stats(view, sampler, iterations, rng)


def _spent(iterations: int, done: int, deadline: float, now: Callable[[], float]) -> bool:
    """Whether a search that has run ``done`` iterations (rollouts) must stop now.

    ``iterations`` above 0 is the budget; otherwise the clock ``now``, after at least one.
    """
    if iterations:
        return done >= iterations
    return done > 0 and now() >= deadline


class _Node:
    __slots__ = ("avail", "children", "seat", "square", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.square = 0.0


def _hand_over(state: GameState, hand_no: int) -> bool:
    """Whether hand ``hand_no`` is over in ``state`` (search starts in no deal phase).

    The game is over, the next hand is dealt, or its dealer is choosing it (a deal
    phase): read from the phase, never from ``last_hand``, which a variant builds when
    it is first read.
    """
    phase = state.phase
    return phase in (GAME_OVER, DEAL) or state.hand_no != hand_no


def _rewards(state: GameState, hand_no: int) -> list[float]:
    """Each seat's reward for the hand (1 for the winner, a little for a cheap hand)."""
    n = state.n
    last = state.last_hand
    if last is not None and last.hand == hand_no:
        winner = last.winner
        out = [1.0 if s == winner else 0.0 for s in range(n)]
        if state.variant.kit.points_reward:
            for row in last.seats:
                s = row.seat
                if 0 <= s < n and s != winner:
                    pts = max(0, min(row.points, 300))
                    out[s] = 0.15 * (1.0 - pts / 300.0)
        return out
    return _estimate(state)


def _game_rewards(state: GameState, hand_no: int, lowest: bool | None) -> list[float]:
    """Each seat's reward by the game's real goal once the hand is scored.

    A finished game: 1 for each winner.  Otherwise a guess at each seat's chance to win
    the game from the totals after the hand: a softmax of the totals over
    :data:`GAME_TEMPERATURE` points (low totals good when the lowest total wins).  A game
    no points decide (``lowest`` None) and a hand cut off at the horizon fall back to the
    hand's reward.
    """
    last = state.last_hand
    if lowest is None or last is None or last.hand != hand_no or not last.seats:
        return _rewards(state, hand_no)
    n = state.n
    if state.is_terminal():
        winners = set(state.winners)
        return [1.0 if s in winners else 0.0 for s in range(n)]
    totals = [0.0] * n
    for row in last.seats:
        if 0 <= row.seat < n:
            totals[row.seat] = float(row.total)
    sign = -1.0 if lowest else 1.0
    best = max(sign * t for t in totals)
    weights = [math.exp((sign * t - best) / GAME_TEMPERATURE) for t in totals]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def _estimate(state: GameState) -> list[float]:
    """A guess at each seat's chance to win the hand from hand sizes (a horizon cut-off)."""
    n = state.n
    kit = state.variant.kit
    weights = []
    for s in range(n):
        if not state.active[s]:
            weights.append(0.0)
            continue
        size = len(state.hands[s])
        w = 1.0 / (1.0 + size) ** 2
        if kit.points_reward:
            w *= 1.0 + 1.0 / (1.0 + max(0, kit.points_of(state.hands[s])) / 50.0)
        weights.append(w)
    total = sum(weights) or 1.0
    return [w / total for w in weights]


class IsmctsBot:
    """Single-observer information-set MCTS; see the module docstring."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 0,
        seconds: float = 0.5,
        c: float = 0.7,
        rollout: str = "fast",
        horizon: int = 80,
        prior: float = 1.0,
        reward: str = "hand",
        pick: str = "visits",
        margin: float = 0.02,
        widen: float = 0.0,
        root: str = "tree",
        clock: str = "wall",
        workers: int = 1,
    ) -> None:
        if iterations < 0:
            raise ValueError(f"iterations must be 0 or more (got {iterations})")
        if iterations == 0 and not 0 < seconds <= 60:
            raise ValueError(f"seconds must be more than 0 and at most 60 (got {seconds})")
        if c < 0:
            raise ValueError(f"c must be 0 or more (got {c})")
        if horizon < 1:
            raise ValueError(f"horizon must be at least 1 (got {horizon})")
        if prior < 0:
            raise ValueError(f"prior must be 0 or more (got {prior})")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)} (got {reward!r})")
        if pick not in PICKS:
            raise ValueError(f"pick must be one of {', '.join(PICKS)} (got {pick!r})")
        if not 0 <= margin < 1:
            raise ValueError(f"margin must be from 0 up to 1 (got {margin})")
        if widen < 0:
            raise ValueError(f"widen must be 0 or more (got {widen})")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)} (got {root!r})")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)} (got {clock!r})")
        if workers < 0:
            raise ValueError(f"workers must be 0 or more (got {workers})")
        self.params = SearchParams(iterations, seconds, c, rollout, horizon, prior, reward,
                                   pick, margin, widen, root, clock)
        """The settings but ``workers`` (what a root-parallel worker's bot is built with)."""
        self.workers = workers if workers > 0 else max(1, os.cpu_count() or 1)
        """Processes searching each decision at once (root-parallel search)."""
        self.root = root
        self.clock = clock
        self.widen = widen
        self.pick = pick
        self.margin = margin
        self.reward = reward
        self._lowest: bool | None = None
        self.prior = prior
        self._bias: dict[Action, float] = {}
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.horizon = horizon
        self.rollout = rollout
        self._raw = rollout in ("fast", "expert")
        """Whether the rollout policy takes the seat's whole legal list (fast, expert)."""
        if rollout == "fast":
            self.policy: Policy = fast_policy
        elif rollout == "random":
            self.policy = random_policy
        elif rollout == "expert":
            self.policy = expert_policy
        else:
            self.policy = _bot_policy(make_bot(rollout.replace(";", ",")))
        self.helper = HeuristicBot("expert")
        self.opinion: Callable[[View, list[Action]], dict[Action, float]] | None = None
        """How much the search likes each root move before searching (1 for its favourite,
        which ``pick=sure`` and ``root=paired`` keep unless the search is sure of another);
        None, the default: the expert heuristic's opinion (:meth:`_root_bias`)."""
        self.last_iterations = 0
        """Iterations the last search ran (for measurements)."""
        self.last_cpu = 0.0
        """CPU seconds the last search took: this thread's and every worker part's (the
        set-up and the expert's opinion included; 0 for a decision made without search)."""
        self.last_stats: list[tuple[Action, int, float]] = []
        """The last search's root moves: (action, visits, mean reward of the seat), the
        chosen move first, then the most visited (what :mod:`hotdeath.coach` reports)."""
        self.favourite: Action | None = None
        """The expert heuristic's move in the last search (``pick=sure`` keeps it unless the
        search is sure of a better one); None when it was not asked."""
        self._spread: dict[Action, tuple[int, float, float]] = {}
        """The last search's root moves: (tries, sum, sum of squares) of each move's reward
        (tree) or of its paired difference from :attr:`_base` (``root=paired``)."""
        self._base: Action | None = None
        self._worker_cpu = 0.0
        """CPU seconds the worker processes of the last root-parallel search took."""
        self.offload = False
        """Search every part in a worker process (:mod:`hotdeath.bots.parallel`), none in
        the calling thread, which only waits for them (a server sets it, so that a search
        never holds the interpreter against its event loop)."""

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations else f"seconds={self.seconds}"
        return f"IsmctsBot({budget}, c={self.c}, rollout={self.rollout!r})"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The most visited root action after the search (windows: see the docstring)."""
        self.last_cpu = 0.0
        if view.seat is None or not view.legal_actions:
            return None
        if view.current_player != view.seat:
            return self.helper.choose(view, rng)
        window = [a for a in view.legal_actions if a.kind in (A.UNO, A.CATCH)]
        if window:
            choice = self.helper.choose(view, rng)
            if choice is not None and choice in window:
                return choice
        acts = _searched(view.legal_actions)
        if len(acts) == 1:
            return acts[0]
        if not acts or view.phase in ("deal",):
            return self.helper.choose(view, rng)
        cpu = time.thread_time()
        try:
            sampler = Sampler(view)
        except (HotDeathError, ValueError):
            return self.helper.choose(view, rng)
        self._worker_cpu = 0.0
        try:
            return self._search(view, sampler, acts, rng)
        finally:
            self.last_cpu = time.thread_time() - cpu + self._worker_cpu

    def analyse(
        self, view: View, acts: Sequence[Action], rng: random.Random
    ) -> list[tuple[Action, int, float]]:
        """Search ``view`` over ``acts`` only; each root move with its visits and value.

        The value is the mean reward of the seat over the iterations through the move (its
        estimated chance to win the hand).  Raises ``ValueError`` when the view cannot be
        sampled (a spectator's, or one that shows more cards than the deck holds).
        """
        try:
            sampler = Sampler(view)
        except HotDeathError as e:
            raise ValueError(e.message) from None
        self._search(view, sampler, list(acts), rng)
        return list(self.last_stats)

    def _search(
        self, view: View, sampler: Sampler, acts: list[Action], rng: random.Random
    ) -> Action:
        self._bias = {}
        self.favourite = None
        self._spread = {}
        self._base = None
        if self.prior > 0 or self.pick == "sure" or self.root == "paired":
            liking = self._root_bias(view, acts, rng)
            self.favourite = max(acts, key=lambda a: liking[a])
            if self.prior > 0:
                self._bias = {a: self.prior * v for a, v in liking.items()}
        if self.reward == "game":
            variant = get_variant(view.variant)
            self._lowest = variant.goal(variant.resolve_options(None, view.options)).lowest_wins
        if self.root == "paired":
            fav = self.favourite
            assert fav is not None
            order = sorted(acts, key=lambda a: -self._bias.get(a, 0.0) if self._bias else 0.0)
            moves = [fav, *[a for a in order if a != fav]][:PAIRED_WIDTH]
            if self.workers > 1 or self.offload:
                part = self._in_parallel(view, sampler, moves, rng)
            else:
                part = self._paired_stats(view, sampler, moves, self.iterations, rng)
            return self._paired_choice(moves, part)
        if self.workers > 1 or self.offload:
            merged = self._in_parallel(view, sampler, acts, rng)
        else:
            merged = self._tree_stats(view, sampler, self.iterations, rng)
        self.last_iterations = merged.done
        stats = merged.moves
        legal = set(acts)
        ranked = sorted(
            ((st[0], st[1], a) for a, st in stats.items() if a in legal),
            key=lambda t: (t[0], t[1]),
            reverse=True,
        )
        if not ranked:
            self.last_stats = []
            choice = self.helper.choose(view, rng)
            return choice if choice is not None else acts[0]
        if self.pick == "sure" and self.favourite is not None:
            chosen = self._sure(stats, ranked[0][2], self.favourite)
            ranked.sort(key=lambda t: t[2] != chosen)  # stable: the rest by visits
        self.last_stats = [(a, int(v), t / v if v else 0.0) for v, t, a in ranked]
        self._spread = {a: (int(st[0]), st[1], st[2]) for a, st in stats.items() if a in legal}
        return ranked[0][2]

    def _tree_stats(self, view: View, sampler: Sampler, iterations: int,
                    rng: random.Random) -> Part:
        """One search tree over ``iterations`` (0: :attr:`seconds`): its root moves' tallies."""
        me = view.seat if view.seat is not None else 0
        root = _Node(me)
        hand_no = view.hand_no
        now = time.thread_time if self.clock == "cpu" else time.perf_counter
        cpu = time.thread_time()
        deadline = now() + self.seconds
        done = 0
        while not _spent(iterations, done, deadline, now):
            self._iterate(root, sampler.sample(rng), hand_no, rng)
            done += 1
        return Part({a: (float(ch.visits), ch.total, ch.square)
                     for a, ch in root.children.items()}, done, time.thread_time() - cpu)

    def _in_parallel(self, view: View, sampler: Sampler, acts: list[Action],
                     rng: random.Random) -> Part:
        """Root-parallel search: :attr:`workers` searches at once, their tallies merged.

        Each part searches the same root moves on its own sampled deals (a seed drawn here,
        so the merged result is fixed by the caller's generator and the number of workers);
        with an iteration budget the parts share it.  This process runs the first part
        while the worker processes (:mod:`hotdeath.bots.parallel`) run the others
        (:attr:`offload`: the workers run every part; if a worker fails, one part is
        searched here instead).
        """
        from hotdeath.bots.parallel import search_parts

        n = self.workers
        seeds = [rng.getrandbits(63) for _ in range(n)]
        budgets = [0] * n
        if self.iterations:
            budgets = [self.iterations // n + (1 if i < self.iterations % n else 0)
                       for i in range(n)]
        seat = view.seat if view.seat is not None else 0
        setting = SearchSetting(self.params, to_position(sampler.template), seat, acts,
                                self.favourite, self._bias, self._lowest)
        try:
            parts = search_parts(setting, seeds, budgets, local=not self.offload)
        except RuntimeError:  # a worker process failed (WorkerError): search here instead
            if not self.offload:
                raise
            parts = [search_part(setting, seeds[0], budgets[0])]
            self._worker_cpu = 0.0
            return parts[0]
        self._worker_cpu = sum(p.cpu for p in (parts if self.offload else parts[1:]))
        return merge_parts(parts)

    def _paired_stats(self, view: View, sampler: Sampler, moves: list[Action], iterations: int,
                      rng: random.Random) -> Part:
        """The paired comparison of ``moves`` (``root=paired``): each move's tallies.

        Each iteration samples one determinization and one seed for the rollout's dice,
        then plays every compared move from that same deal with those same dice, so the
        difference of two moves' rewards is measured on equal luck: its variance is far
        below that of two independent rollouts.  A move's tally is its tries, the sum of
        its rewards, and the sum and sum of squares of its lead over ``moves[0]`` (the
        expert's favourite), deal by deal.
        """
        me = view.seat if view.seat is not None else 0
        hand_no = view.hand_no
        k = len(moves)
        total = [0.0] * k
        diff = [0.0] * k
        diff_sq = [0.0] * k
        n = [0] * k
        now = time.thread_time if self.clock == "cpu" else time.perf_counter
        cpu = time.thread_time()
        deadline = now() + self.seconds
        done = 0
        while not _spent(iterations, done, deadline, now):
            base = sampler.sample(rng)
            legal = set(_main_actions(base, me))
            dice = rng.getrandbits(63)
            rewards: list[float | None] = []
            for a in moves:
                if a not in legal:
                    rewards.append(None)
                    continue
                state = base.clone()
                state.step(a, me)
                rewards.append(self._rollout(state, hand_no, random.Random(dice))[me])
            done += k
            r0 = rewards[0]
            for i, r in enumerate(rewards):
                if r is None or r0 is None:
                    continue
                n[i] += 1
                total[i] += r
                d = r - r0
                diff[i] += d
                diff_sq[i] += d * d
        return Part({moves[i]: (float(n[i]), total[i], diff[i], diff_sq[i]) for i in range(k)},
                    done, time.thread_time() - cpu)

    def _rollout(self, state: GameState, hand_no: int, rng: random.Random) -> list[float]:
        """Play ``state`` on with the rollout policy; each seat's reward.

        The fast and expert policies read the seat's whole legal list (they pass over what
        search leaves out); the others get :func:`_main_actions`.
        """
        policy = self.policy
        raw = self._raw
        for _ in range(self.horizon):
            if _hand_over(state, hand_no):
                break
            seat = state.turn  # the hand is not over: the current player
            acts = state.legal_actions(seat) if raw else _main_actions(state, seat)
            state.step(policy(state, seat, acts, rng), seat)
        return (_game_rewards(state, hand_no, self._lowest) if self.reward == "game"
                else _rewards(state, hand_no))

    def _paired_choice(self, moves: list[Action], part: Part) -> Action:
        """The move after a paired comparison.

        The expert's favourite (``moves[0]``) unless another move's mean paired lead over
        it is at least ``margin`` and :data:`SURE_Z` standard errors (with
        ``pick=visits``: the best mean).
        """
        k = len(moves)
        tally = [part.moves.get(a, (0, 0.0, 0.0, 0.0)) for a in moves]
        n = [int(t[0]) for t in tally]
        means = [tally[i][1] / n[i] if n[i] else 0.0 for i in range(k)]
        self.last_iterations = part.done
        best = max(range(k), key=lambda i: (means[i], -i))
        chosen = 0
        if best != 0 and n[best] >= 2:
            m = tally[best][2] / n[best]
            var = max(tally[best][3] / n[best] - m * m, 0.0)
            se = math.sqrt(var / n[best])
            if self.pick == "visits" or (m >= self.margin and m >= SURE_Z * se):
                chosen = best
        ranked = sorted(range(k), key=lambda i: (i != chosen, -means[i]))
        self.last_stats = [(moves[i], n[i], means[i]) for i in ranked]
        self._base = moves[0]
        self._spread = {moves[i]: (n[i], tally[i][2], tally[i][3]) for i in range(k)}
        return moves[chosen]

    def lead_over(self, rival: Action, chosen: Action) -> tuple[float, float, int] | None:
        """How the last search compares ``rival`` with ``chosen``.

        The mean lead of ``rival``'s reward over ``chosen``'s, the standard error of that
        lead, and the sampled deals ``rival`` was tried on (the ``pick=sure`` rule asks a
        lead of ``margin`` and :data:`SURE_Z` standard errors).  With ``root=paired`` the
        lead is measured on the same deals and dice.  None when either move was tried
        fewer than twice.
        """
        a = self._spread.get(rival)
        b = self._spread.get(chosen)
        if a is None or b is None or a[0] < 2 or b[0] < 2:
            return None
        if self._base is None:  # the tree: two independent samples
            ma, mb = a[1] / a[0], b[1] / b[0]
            va = max(a[2] / a[0] - ma * ma, 0.0)
            vb = max(b[2] / b[0] - mb * mb, 0.0)
            return ma - mb, math.sqrt(va / a[0] + vb / b[0]), a[0]
        # paired: each move's difference from the base move, deal by deal
        da, db = a[1] / a[0], b[1] / b[0]
        va = max(a[2] / a[0] - da * da, 0.0)
        vb = max(b[2] / b[0] - db * db, 0.0)
        se = math.sqrt(va / a[0] + (vb / b[0] if chosen != self._base else 0.0))
        return da - db, se, a[0]

    def _sure(self, stats: dict[Action, tuple[float, ...]], top: Action,
              favourite: Action) -> Action:
        """The ``sure`` rule: ``top`` (most visited) only if it is surely better.

        The favourite is the expert heuristic's move.  ``top`` replaces it only when its
        mean reward leads the favourite's by at least ``margin`` and by :data:`SURE_Z`
        standard errors of the difference; near-equal moves (a wild naming another
        colour, two cards of one colour) thus resolve the same way at any budget.
        """
        if top == favourite:
            return top
        a = stats.get(top)
        b = stats.get(favourite)
        if a is None or a[0] < 2:
            return favourite
        if b is None or b[0] < 2:
            return top
        ma, mb = a[1] / a[0], b[1] / b[0]
        va = max(a[2] / a[0] - ma * ma, 0.0)
        vb = max(b[2] / b[0] - mb * mb, 0.0)
        se = math.sqrt(va / a[0] + vb / b[0])
        lead = ma - mb
        return top if lead >= self.margin and lead >= SURE_Z * se else favourite

    def _root_bias(self, view: View, acts: list[Action], rng: random.Random) -> dict[Action, float]:
        """The expert heuristic's liking of each root action, 1 for its favourite.

        :attr:`opinion`, when set, gives it instead.
        """
        if self.opinion is not None:
            return self.opinion(view, acts)
        table = _Table(view, self.helper.aggression)
        scores = {a: self.helper._score(table, a, rng) for a in acts}
        top = max(scores.values())
        return {a: math.exp(max(-10.0, (v - top) / 15.0)) for a, v in scores.items()}

    def _iterate(self, root: _Node, state: GameState, hand_no: int, rng: random.Random) -> None:
        node = root
        path: list[_Node] = []
        c = self.c
        # selection and expansion
        while not _hand_over(state, hand_no):
            seat = state.current_player()
            acts = _main_actions(state, seat)
            untried = [a for a in acts if a not in node.children]
            if untried and self.widen > 0 and len(acts) > WIDEN_BASE:
                # progressive widening: a node of many moves (Throwdown's throws) grows
                # one child at a time as its visits grow, so the search goes deep on a few
                tried = [ch.visits for b in acts if (ch := node.children.get(b)) is not None]
                if len(tried) >= WIDEN_BASE + self.widen * math.sqrt(sum(tried)):
                    untried = []
            if untried:
                if node is root and self._bias:
                    liking = self._bias
                    a = max(untried, key=lambda u: liking.get(u, 0.0))
                else:
                    a = untried[int(rng.random() * len(untried))]
                child = _Node(seat)
                node.children[a] = child
                for b in acts:
                    ch = node.children.get(b)
                    if ch is not None:
                        ch.avail += 1
                state.step(a, seat)
                path.append(child)
                break
            best: _Node | None = None
            best_a = acts[0]
            best_v = -1.0
            bias = self._bias if node is root else {}
            for b in acts:
                ch = node.children.get(b)
                if ch is None:  # not grown yet (progressive widening)
                    continue
                ch.avail += 1
                v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if bias:
                    v += bias.get(b, 0.0) / ch.visits
                if v > best_v:
                    best_v, best, best_a = v, ch, b
            if best is None:  # pragma: no cover - acts is never empty
                break
            state.step(best_a, seat)
            path.append(best)
            node = best
        rewards = self._rollout(state, hand_no, rng)
        for nd in path:
            nd.visits += 1
            r = rewards[nd.seat]
            nd.total += r
            nd.square += r * r


register_bot(
    "ismcts",
    "Information-set Monte Carlo tree search over sampled deals (iteration or time budget).",
    (
        BotParam("iterations", int, 0, "iterations per decision (0: use the time budget)"),
        BotParam("seconds", float, 0.5, "seconds per decision when iterations is 0"),
        BotParam("c", float, 0.7, "UCB exploration constant"),
        BotParam("rollout", str, "fast",
                 "rollout policy: fast, expert, random, or a bot spec with ';' for ','"),
        BotParam("horizon", int, 80, "most moves in a rollout before its result is estimated"),
        BotParam("prior", float, 1.0,
                 "weight of the expert heuristic's opinion of the root moves (0: none)"),
        BotParam("reward", str, "hand",
                 "what a rollout is worth: hand (winning it) or game (standing after it)",
                 REWARDS),
        BotParam("widen", float, 0.0,
                 "progressive widening: a node of more than 8 moves has at most "
                 "8 + widen·√visits children (0: off)"),
        BotParam("pick", str, "visits",
                 "the move: visits (most visited) or sure (the expert's favourite unless "
                 "the search is sure another is better)", PICKS),
        BotParam("margin", float, 0.02,
                 "with pick=sure: the least lead in mean reward that beats the favourite"),
        BotParam("root", str, "tree",
                 "how root moves are compared: tree (UCB1) or paired (every move on the "
                 "same sampled deals and dice)", ROOTS),
        BotParam("workers", int, 1,
                 "processes that search each decision at once, their results merged "
                 "(root-parallel; 0: one per CPU core)"),
        BotParam("clock", str, "wall",
                 "what seconds counts: wall time, or the searching thread's CPU time (cpu)",
                 CLOCKS),
    ),
    budget="seconds",
)(IsmctsBot)


__all__ = [
    "CLOCKS", "ROOTS", "IsmctsBot", "Sampler", "expert_policy", "fast_policy", "position_of",
    "random_policy",
]
