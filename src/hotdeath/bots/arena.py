"""Run bots at a table: whose move it is, out-of-turn windows, whole games.

The arena is the one place that decides the order in which seats are asked: first every
bot holding an out-of-turn window that is worth offering (in seat order after the current
player), then the current player.  The browser server, the terminal game, simulations and
the RL environment all use it, so a bot behaves the same everywhere.

Each seat's bot gets its own :class:`random.Random` derived from the game seed
(:func:`seat_rngs`), so a game replays exactly whatever else runs beside it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import Bot
from hotdeath.results import HandResult
from hotdeath.state import GameState
from hotdeath.variants import get_variant


def worth_offering(state: GameState, seat: int, action: Action) -> bool:
    """Whether an out-of-turn action is worth offering to a player.

    Not a call that is sure to be wrong (Throwdown lists those; they only cost cards) and
    not leaving the game.
    """
    if action.kind == A.UNO:
        return seat in state.uno_open
    if action.kind == A.CATCH:
        return action.target in state.uno_open
    return action.kind != A.LEAVE


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator of ``seat`` in the game of ``seed`` (one of :func:`seat_rngs`)."""
    return random.Random(seed * 1_000_003 + 7919 * seat + 1)


def seat_rngs(seed: int, players: int) -> list[random.Random]:
    """One independent generator per seat, derived from ``seed``."""
    return [seat_rng(seed, seat) for seat in range(players)]


def window_seats(state: GameState) -> list[int]:
    """Seats other than the current player holding a window worth offering, in order.

    A seat that may call its own Uno comes first: it is the first to know it holds one
    card, and in the games where the call is not part of the play (Throwdown, TD-5.2; a
    hand handed over by a 7-0 swap, STD-12.2) the others would otherwise always catch it
    before it is asked.  The rest follow in turn order from the player to act, in the
    direction of play: when several seats claim a window at once (two players jumping in,
    STD-12.3), the nearest one in turn order is offered it first.
    """
    actors = state.actors()
    if len(actors) < 2:
        return []
    n = state.n
    turn = state.turn
    d = state.direction
    holders = state.uno_open
    others = sorted(actors[1:], key=lambda s: (s not in holders, ((s - turn) * d) % n))
    return [
        s for s in others if any(worth_offering(state, s, a) for a in state.legal_actions(s))
    ]


def next_bot_move(
    state: GameState,
    bots: Mapping[int, Bot],
    rngs: Sequence[random.Random],
) -> tuple[int, Action] | None:
    """The next move a bot makes, or ``None`` when the game waits for a person.

    Seats without a bot in ``bots`` are people.  Window holders that are bots are asked
    first (a seat that may call its own Uno before the others: :func:`window_seats`); the
    current player's bot is asked last, except that a current player who may call its own
    Uno (a Skip that brings the turn back to him) is asked first: its own call is
    returned at once, any other answer is kept for its turn.  A returned action is legal.
    """
    if state.is_terminal():
        return None
    seat = state.current_player()
    bot = bots.get(seat)
    kept: Action | None = None
    if bot is not None and seat in state.uno_open:
        kept = bot.choose(state.view(seat), rngs[seat])
        if kept is not None and kept.kind == A.UNO:
            return seat, kept
    for other in window_seats(state):
        window_bot = bots.get(other)
        if window_bot is None:
            continue
        choice = window_bot.choose(state.view(other), rngs[other])
        if choice is not None and worth_offering(state, other, choice):
            return other, choice
    if bot is None:
        return None
    choice = kept if kept is not None else bot.choose(state.view(seat), rngs[seat])
    if choice is None:
        raise RuntimeError(f"bot {bot.name!r} returned no action for its own turn")
    return seat, choice


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    seed: int | None = None,
    on_move: Callable[[int, Action], None] | None = None,
    max_moves: int = 1_000_000,
) -> GameState:
    """Let ``bots`` (one per seat) play ``state`` to the end of the game; return it.

    ``seed`` (default: the state's seed) seeds the bots' generators.  ``on_move`` is
    called after each applied move.  ``RuntimeError`` if the game is not over after
    ``max_moves`` moves.
    """
    if len(bots) != state.n:
        raise ValueError(f"{state.n} seats need {state.n} bots (got {len(bots)})")
    table = dict(enumerate(bots))
    rngs = seat_rngs(state.seed if seed is None else seed, state.n)
    for _ in range(max_moves):
        move = next_bot_move(state, table, rngs)
        if move is None:
            return state
        seat, action = move
        state.step(action, seat)
        if on_move is not None:
            on_move(seat, action)
    raise RuntimeError(f"the game did not end within {max_moves} moves")


def play_first_hand(
    variant: str, bots: Sequence[Bot], seed: int, max_moves: int = 5_000
) -> HandResult | None:
    """Let ``bots`` (one per seat) play the first hand of game ``seed``; its result.

    The bots' generators are seeded from ``seed`` as in :func:`play_game`.  The first
    hand's deal does not depend on the bots, so two runs that differ in one seat's bot
    compare that bot on the same cards (a paired, duplicate comparison).  None when the
    hand is not over after ``max_moves`` moves.

    >>> from hotdeath.bots import make_bot
    >>> result = play_first_hand("standard", [make_bot("basic")] * 2, seed=1)
    >>> result is not None and result.winner in (0, 1)
    True
    """
    state = get_variant(variant).new_game(len(bots), seed)
    table = dict(enumerate(bots))
    rngs = seat_rngs(seed, state.n)
    for _ in range(max_moves):
        if state.last_hand is not None:
            break
        move = next_bot_move(state, table, rngs)
        if move is None:
            break
        state.step(move[1], move[0])
    return state.last_hand
