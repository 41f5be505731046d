"""Hot Death's fused fast path gives exactly the general engine's results.

``HotDeathState.legal_actions`` builds the current player's ordinary turn list and caches it
under the state's version counter, and ``HotDeathState.step`` applies a plain play, a draw or
a pass from that list in one piece (``docs/performance.md`` §4).  These tests

* drive the same games through ``step`` (the fused path) and through ``apply_action`` (the
  general path, which collects events and never takes the fused one) side by side, under
  every preset, 2–6 players and several option sets, and require identical positions,
  histories and legal lists after every action; the legal lists are also checked against
  the generic builder with the fused one switched off;
* replay 200 seeded games with random legal actions (Uno calls, catches and 69 challenges
  included) and compare each final position and history with digests recorded from the
  engine before the fast path existed (``tests/data/hd_replay_digests.json``): any change of
  behaviour — a deal, a legal list's order, a draw, a score — changes a digest.

Record the digests again (only for an intended rules change) with
``python -m tests.test_hd_fast_path --record``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import BB, SN
from hotdeath.notation import to_position
from hotdeath.state import TURN, GameState
from hotdeath.variants.hotdeath import MATCH, PRESETS, PRIV, HotDeathState
from tests.support import (
    assert_step_matches_apply_action,
    assert_step_refuses_and_changes_nothing,
    pick,
    step_as_bots_do,
)

DIGESTS = Path(__file__).parent / "data" / "hd_replay_digests.json"

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"draw_rule": "draw_until_playable"},
    {"after_draw_play": "any_legal_card"},
    {"uno_rule": "off"},
    {"sixty_nine_proof": "reveal_on_use", "stack_draw_twos": True},
    {"sixty_nine_proof": "none", "shitter_last_card_needs_match": True},
    {"deck": "double_216", "min_deal": 2, "max_deal": 4},
    {"uno_penalty_cards": 0, "glasnost_response": "next_player_only",
     "quitter_with_two_active": "player_wins", "mad_min_active_players": 2},
    {"min_deal": 1, "max_deal": 3, "game_end_score": 150},
]
"""Non-default option sets (with the ``canonical`` preset)."""


SIDE_BY_SIDE: list[tuple[str, dict[str, Any]]] = (
    [(p, {}) for p in PRESETS] + [("canonical", o) for o in OPTION_SETS[1:]]
)
"""Every preset with its own options, then canonical with each non-default option set."""


def replay_specs() -> list[tuple[str, dict[str, Any], int, int]]:
    """The 200 replayed games: (preset, options, players, seed)."""
    specs: list[tuple[str, dict[str, Any], int, int]] = []
    for i in range(200):
        preset, options = SIDE_BY_SIDE[i % len(SIDE_BY_SIDE)]
        specs.append((preset, options, 2 + i % 5, i))
    return specs


def play_out(state: GameState, seed: int, limit: int) -> None:
    """Random legal actions through ``step``, the way bots and simulations call it."""
    rnd = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        step_as_bots_do(state, *pick(state, rnd))


def digest(state: GameState) -> str:
    """A digest of the whole position and the history."""
    h = hashlib.sha256(json.dumps(to_position(state), sort_keys=True).encode())
    for seat, action in state.history:
        h.update(f"{seat}:{action};".encode())
    return h.hexdigest()[:20]


def replay_digests() -> list[str]:
    """The digest of each replayed game after at most 700 actions."""
    out = []
    for preset, options, players, seed in replay_specs():
        g = hotdeath.new_game("hotdeath", players=players, seed=seed, preset=preset,
                              options=options)
        play_out(g, seed, 700)
        out.append(digest(g))
    return out


def test_200_seeded_games_replay_exactly_as_recorded() -> None:
    recorded = json.loads(DIGESTS.read_text())["digests"]
    assert len(recorded) == 200
    now = replay_digests()
    changed = [i for i in range(200) if now[i] != recorded[i]]
    assert not changed, f"games whose position or history changed: {changed[:20]}"


def old_turn_actions(g: HotDeathState, seat: int) -> list[Action]:
    """The turn list as the engine built it before the fast path (a loop over the hand)."""
    hand = g.hands[seat]
    uno = len(hand) == 2 and g.opts.uno_rule == "catch"
    key = g._key()
    m = MATCH[key]
    acts: list[Action] = []
    if g.drew and g.opts.after_draw_play == "drawn_card_only":
        cands: Sequence[int] = [g.drawn] if g.drawn in hand else []
    else:
        cands = sorted(set(hand))
    has69 = SN in hand
    pv = PRIV[key]
    for f in cands:
        if m[f] or (has69 and pv[f]) or (f == BB and g._bb_ok(key, hand)):
            acts += g._expand(seat, f, False)
            if uno:
                acts += g._expand(seat, f, True)
    acts.append(A.PASS_ACTION if g.drew else A.DRAW_ACTION)
    return acts


def reference_legal(state: GameState, seat: int) -> list[Action]:
    """The legal list built by the generic code with the old turn builder."""
    ref = state.clone()
    assert isinstance(ref, HotDeathState)
    ref._fast = False
    setattr(ref, "_turn_actions", lambda s: old_turn_actions(ref, s))  # noqa: B010
    return GameState.legal_actions(ref, seat)


@pytest.mark.parametrize(("preset", "options"), SIDE_BY_SIDE,
                         ids=[p + (":" + ",".join(o) if o else "") for p, o in SIDE_BY_SIDE])
def test_step_matches_apply_action(preset: str, options: dict[str, Any]) -> None:
    for seed in range(5):
        players = 2 + seed
        fast = hotdeath.new_game("hotdeath", players=players, seed=seed, preset=preset,
                                 options=options)
        slow = hotdeath.new_game("hotdeath", players=players, seed=seed, preset=preset,
                                 options=options)
        assert_step_matches_apply_action(fast, slow, random.Random(seed), 300, reference_legal,
                                         same_actors=True)


def turn_state() -> HotDeathState:
    """A 3-player canonical game at an ordinary turn (no attack, no window)."""
    g = hotdeath.new_game("hotdeath", players=3, seed=8)
    rnd = random.Random(1)
    while True:
        assert isinstance(g, HotDeathState)
        if (g.phase == TURN and not g.uno_open and g.sn_seat < 0 and not g.drew
                and len(g.hands[g.turn]) > 3):
            return g
        g.step(rnd.choice(g.legal_actions()))


def test_fast_path_still_refuses_and_changes_nothing() -> None:
    g = turn_state()
    acts = g.legal_actions()
    assert_step_refuses_and_changes_nothing(g)
    h = g.clone()
    g.step(str(acts[-1]))  # text is parsed and checked against the right list
    h.apply_action(acts[-1])
    assert to_position(g) == to_position(h) and g.history == h.history


def test_step_accepts_an_equal_action_that_is_not_the_listed_object() -> None:
    g = turn_state()
    h = g.clone()
    a = g.legal_actions()[0]
    copy = Action(a.kind, tuple(a.cards), a.color, a.target, a.n, a.uno)
    assert copy is not a
    g.step(copy)
    h.apply_action(a)
    assert to_position(g) == to_position(h) and g.history == h.history


def test_a_clone_does_not_share_the_cached_turn_list() -> None:
    g = turn_state()
    acts = g.legal_actions()
    c = g.clone()
    c.step(acts[-1])
    assert g.legal_actions() == acts and to_position(g) != to_position(c)
    h = g.clone()
    g.step(acts[0])
    h.apply_action(acts[0])
    assert to_position(g) == to_position(h)


if __name__ == "__main__" and "--record" in sys.argv:
    DIGESTS.parent.mkdir(exist_ok=True)
    DIGESTS.write_text(json.dumps({"digests": replay_digests()}, indent=0) + "\n")
    print(f"wrote {DIGESTS}")
