"""Very long Hot Death hands under random play are the policy's doing, not an engine loop.

With three or four players, ejections (the Quitter, M.A.D., a Virus answer) often leave two
players active while the ejected hands stay out of play (HD-3.9); once the draw pile is
empty, a uniformly random policy keeps refilling both hands from the discards and the hand
can run for 100,000 decisions and more (``docs/rl.md``, "Episode length").  The position is
not a trap: the rule bots end the same hand in a few hundred decisions.
"""

from __future__ import annotations

import random

import hotdeath
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs
from hotdeath.state import GameState

SEED = 212  # benchmarks/random_play.py: 4 players, still in hand 1 after 300,000 decisions
# (found under the first deal scheme, which the engine keeps for games recorded before
# duplicate deals: the game is the same one)


def _locked_position() -> tuple[GameState, random.Random]:
    st = hotdeath.new_game("hotdeath", 4, SEED, deal_scheme=1)
    rng = random.Random(SEED)
    for _ in range(5000):
        if sum(st.active) == 2 and not st.draw_pile:
            return st, rng
        st.step(rng.choice(st.legal_actions()))
    raise AssertionError("random play did not reach two active players and an empty pile")


def test_random_play_in_the_two_survivor_lock_runs_on_but_bots_end_the_hand() -> None:
    st, rng = _locked_position()
    hand = st.hand_no
    survivors = [s for s in range(4) if st.active[s]]
    ejected = [s for s in range(4) if not st.active[s]]
    assert len(survivors) == 2
    held = sum(len(st.hands[s]) for s in ejected)
    assert held > 10  # the ejected hands stay out of play
    sizes = set()
    for _ in range(3000):  # random play: the hand goes on while cards keep moving
        st.step(rng.choice(st.legal_actions()))
        assert st.hand_no == hand and not st.is_terminal()
        sizes.add(tuple(len(st.hands[s]) for s in survivors))
    assert len(sizes) > 50
    assert sum(len(st.hands[s]) for s in ejected) == held
    bots = {s: make_bot("basic") for s in range(4)}
    rngs = seat_rngs(SEED, 4)
    moves = 0
    while st.hand_no == hand and not st.is_terminal():
        move = next_bot_move(st, bots, rngs)
        assert move is not None
        st.step(move[1], move[0])
        moves += 1
        assert moves < 1000, "the basic bots did not end the locked hand in 1000 decisions"
