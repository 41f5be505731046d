"""``step`` and ``apply_action`` run the same code: random games agree action by action.

There is one apply path (``GameState.step``: the checks, the variant's ``_apply``, the end
of the action); ``apply_action`` is the same call with an event sink.  These tests drive
the same games twice, once through ``step`` (the way bots, simulations and the benchmark
call it) and once through ``apply_action``, under many rulesets of every variant, and
require identical positions, histories, legal lists and actors after every action.  The
legal lists are also checked against independent builders (the generic per-card
expansion for standard, the old loop over the hand for Hot Death).  The scenario tests run
through both paths too (``tests/conftest.py``); whole seeded games are pinned as text in
``tests/data/playthroughs``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import BB, SN
from hotdeath.notation import to_position
from hotdeath.state import TURN, GameState
from hotdeath.variants.hotdeath import MATCH, PRESETS, PRIV, HotDeathState
from hotdeath.variants.standard import StandardState
from tests.support import (
    assert_step_matches_apply_action,
    assert_step_refuses_and_changes_nothing,
)

STANDARD_RULESETS: list[dict[str, Any]] = [
    {},  # official: Wild Draw Four challenge
    {"wild_draw_four_rule": "strict", "rounds": 1},  # the benchmark's ruleset
    {"wild_draw_four_rule": "free"},
    {"may_draw_with_playable": False},
    {"drawn_card_play": "must"},
    {"two_player_rules": False, "initial_direction": -1},
    {"stacking": "flat"},
    {"stacking": "escalating", "seven_o": True},
    {"draw_rule": "until_playable"},
    {"false_uno_call_penalty": 2},
    {"jump_in": True},
    {"wild_color_must_change": True},
    {"max_turns": 60, "target_score": 60},  # a stop (STD-9.4)
]

HD_OPTION_SETS: list[dict[str, Any]] = [
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
"""Non-default Hot Death option sets (with the ``canonical`` preset)."""

HD_SIDE_BY_SIDE: list[tuple[str, dict[str, Any]]] = (
    [(p, {}) for p in PRESETS] + [("canonical", o) for o in HD_OPTION_SETS[1:]]
)
"""Every Hot Death preset with its own options, then canonical with each option set."""

def standard_reference(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal list with every face's plays built by ``_expand`` (no play tables)."""
    ref = state.clone()
    assert isinstance(ref, StandardState)
    ref._plain = False
    return GameState.legal_actions(ref, seat)


def old_turn_actions(g: HotDeathState, seat: int) -> list[Action]:
    """The Hot Death turn list built by a loop over the hand (independent of the sets)."""
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


def hd_reference(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal list of the generic code with the loop-over-the-hand turn builder."""
    ref = state.clone()
    assert isinstance(ref, HotDeathState)
    listed = GameState.legal_actions(ref, seat)
    if ref.phase != TURN or seat != ref.turn:
        return listed
    # the turn's own actions come first, the window actions after them: swap in the loop's
    # list for the turn part (no method of the state is replaced, so the compiled core's
    # classes, which take no new attributes, are tested the same way)
    turn = ref._turn_actions(seat)
    assert listed[: len(turn)] == tuple(turn)
    return (*old_turn_actions(ref, seat), *listed[len(turn):])


def any_reference(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal list of a fresh copy (nothing cached)."""
    return state.clone().legal_actions(seat)


@pytest.mark.parametrize("options", STANDARD_RULESETS,
                         ids=lambda o: ",".join(o) or "official")
def test_standard_step_matches_apply_action(options: dict[str, Any]) -> None:
    for seed in range(10):
        players = 2 + seed % 4
        fast = hotdeath.new_game("standard", players=players, seed=seed, options=options)
        slow = hotdeath.new_game("standard", players=players, seed=seed, options=options)
        assert_step_matches_apply_action(fast, slow, random.Random(seed), 400,
                                         standard_reference, same_actors=True)


@pytest.mark.parametrize(("preset", "options"), HD_SIDE_BY_SIDE,
                         ids=[p + (":" + ",".join(o) if o else "") for p, o in HD_SIDE_BY_SIDE])
def test_hotdeath_step_matches_apply_action(preset: str, options: dict[str, Any]) -> None:
    for seed in range(5):
        players = 2 + seed
        fast = hotdeath.new_game("hotdeath", players=players, seed=seed, preset=preset,
                                 options=options)
        slow = hotdeath.new_game("hotdeath", players=players, seed=seed, preset=preset,
                                 options=options)
        assert_step_matches_apply_action(fast, slow, random.Random(seed), 300, hd_reference,
                                         same_actors=True)


OTHER_PRESETS = [(v, p) for v in ("cutthroat", "throwdown")
                 for p in hotdeath.get_variant(v).presets]
"""Every preset of the other variants."""


@pytest.mark.parametrize(("variant", "preset"), OTHER_PRESETS,
                         ids=[f"{v}-{p}" for v, p in OTHER_PRESETS])
def test_other_variants_step_matches_apply_action(variant: str, preset: str) -> None:
    for seed in range(4):
        players = 3 + seed % 3
        fast = hotdeath.new_game(variant, players=players, seed=seed, preset=preset)
        slow = hotdeath.new_game(variant, players=players, seed=seed, preset=preset)
        assert_step_matches_apply_action(fast, slow, random.Random(seed), 250, any_reference,
                                         same_actors=True)


def turn_state(variant: str) -> GameState:
    """A 3-player game at an ordinary turn (no attack, no window, four cards or more)."""
    g = hotdeath.new_game(variant, players=3, seed=8,
                          options={"wild_draw_four_rule": "strict"} if variant == "standard"
                          else None)
    rnd = random.Random(1)
    while True:
        if (g.phase == TURN and not g.uno_open and g.actors() == [g.turn] and not g.drew
                and len(g.hands[g.turn]) > 3):
            return g
        g.step(rnd.choice(g.legal_actions()))


@pytest.mark.parametrize("variant", ["standard", "hotdeath"])
def test_step_refuses_and_changes_nothing(variant: str) -> None:
    g = turn_state(variant)
    acts = g.legal_actions()
    assert_step_refuses_and_changes_nothing(g)
    h = g.clone()
    g.step(str(acts[-1]))  # text is parsed and checked against the right list
    h.apply_action(acts[-1])
    assert to_position(g) == to_position(h) and g.history == h.history


@pytest.mark.parametrize("variant", ["standard", "hotdeath"])
def test_step_accepts_an_equal_action_that_is_not_the_listed_object(variant: str) -> None:
    g = turn_state(variant)
    h = g.clone()
    a = g.legal_actions()[0]
    copy = Action(a.kind, tuple(a.cards), a.color, a.target, a.n, a.uno)
    assert copy is not a
    g.step(copy)
    h.apply_action(a)
    assert to_position(g) == to_position(h) and g.history == h.history


def test_a_clone_does_not_share_the_cached_legal_list() -> None:
    g = turn_state("hotdeath")
    acts = g.legal_actions()
    c = g.clone()
    c.step(acts[-1])
    assert g.legal_actions() == acts and to_position(g) != to_position(c)
    h = g.clone()
    g.step(acts[0])
    h.apply_action(acts[0])
    assert to_position(g) == to_position(h)


def test_clone_copies_every_slot_of_every_variant() -> None:
    from hotdeath.state import _SLOTS

    for variant in ("standard", "cutthroat", "hotdeath", "throwdown"):
        g = hotdeath.new_game(variant, players=3, seed=2)
        rnd = random.Random(2)
        for _ in range(25):
            if g.is_terminal():
                break
            g.step(rnd.choice(g.legal_actions()))
        c = g.clone()
        for name in _SLOTS:
            if name in ("rng", "_events", "_lc_ver"):
                continue
            assert getattr(c, name) == getattr(g, name), (variant, name)
        assert c.rng.state == g.rng.state
        assert to_position(c) == to_position(g)
