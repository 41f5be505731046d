"""Bots that do not blunder: mistake rates over seeded simulations of every variant.

The scan behind these limits is ``benchmarks/blunders.py`` (docs/bots.md, "Mistakes"):
every variant's rates side by side.  Here a few games of each bot level in each variant
keep the rates that once went wrong from coming back: Throwdown's ``heuristic`` bots were
caught on 133 of 141 Uno episodes in one game (the arena asked the catchers before the
holder), and the expert challenged nearly every Wild Draw Four and lost 91% of them.
"""

from __future__ import annotations

import pytest

from hotdeath import actions as A
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs, window_seats
from hotdeath.simulate import SimConfig, blunder_rates, simulate
from hotdeath.variants import all_variants
from tests.support import position

VARIANTS = [v.name for v in all_variants()]
GAMES = 4
"""Games per variant and bot (a Cutthroat game is one short hand, a Throwdown game one
long one: their counts differ)."""
MORE_GAMES = {"cutthroat": 15, "throwdown": 2}
SEED = 2525


def _rates(variant: str, bot: str) -> dict[str, tuple[int, int]]:
    games = MORE_GAMES.get(variant, GAMES)
    return blunder_rates(simulate(SimConfig.make(variant, None, [bot], seed=SEED), games))


@pytest.mark.parametrize("bot", ["heuristic", "heuristic:expert", "basic"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_sound_bots_call_their_uno_and_make_no_costly_call(variant: str, bot: str) -> None:
    rates = _rates(variant, bot)
    caught, episodes = rates["uno_caught"]
    assert episodes >= 15, rates  # enough Uno episodes for the rate to mean something
    assert caught <= 0.05 * episodes, f"{bot} in {variant}: caught {caught} of {episodes}"
    assert rates["false_calls"][0] == 0, rates
    assert rates["left"][0] == 0, rates
    assert rates["unfinished"][0] == 0, rates
    blocked, hands = rates["blocked"]
    assert blocked <= 0.05 * hands, rates
    dry, hands = rates["dry_hands"]
    assert dry <= 0.1 * hands, rates
    lost, challenges = rates["failed_challenges"]
    if bot == "heuristic:expert":
        # it challenges a sender of many cards only, and wins about half of them
        assert challenges <= 10 and lost <= 0.75 * challenges + 1, rates
    else:
        assert challenges == 0, rates


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_weak_bot_forgets_uno_now_and_then_but_not_always(variant: str) -> None:
    """The weak level forgets its Uno about a third of the time by design (docs/bots.md)."""
    caught, episodes = _rates(variant, "heuristic:weak")["uno_caught"]
    assert episodes >= 15
    assert caught <= 0.4 * episodes, f"caught {caught} of {episodes}"


def test_the_holder_of_an_uno_call_is_asked_before_the_catchers() -> None:
    # P2 has just played down to one card; P3 is to play and P0, P1 could catch him
    g = position(variant="throwdown", hands=[["R1", "G2"], ["B3", "Y4"], ["G5"], ["R6", "B7"]],
                 top="R9", turn=3, top_player=2, uno_open=[2])
    assert window_seats(g)[0] == 2
    bots = {s: make_bot("heuristic") for s in range(4)}
    seat, action = next_bot_move(g, bots, seat_rngs(1, 4)) or (-1, A.UNO_ACTION)
    assert seat == 2 and action.kind == A.UNO


def test_a_current_player_on_one_card_calls_before_anyone_catches_him() -> None:
    # a Skip brought the turn back to P2, who has not called yet (TD-5.2)
    g = position(variant="throwdown", hands=[[], ["B3", "Y4"], ["G5"], []],
                 top="RS", turn=2, top_player=2, uno_open=[2], active=[False, True, True, False])
    bots = {s: make_bot("basic") for s in range(4)}
    seat, action = next_bot_move(g, bots, seat_rngs(1, 4)) or (-1, A.UNO_ACTION)
    assert seat == 2 and action.kind == A.UNO
