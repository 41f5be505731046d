"""The standard variant's fused fast path gives exactly the general engine's results.

``StandardState.step`` applies the common turn (a card played, a card drawn, a pass) of a
plain ruleset in one piece, and ``StandardState.legal_actions`` builds the ordinary turn
list without the generic dispatch (``docs/performance.md`` §5).  These tests drive the same
games twice, once through the fast path (``step``) and once through the general path
(``apply_action``, which collects events and so never takes the fused path), and require
identical positions and legal lists after every action; the legal lists are also checked
against the generic builder with the lean branches switched off.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import hotdeath
from hotdeath.actions import Action
from hotdeath.notation import to_position
from hotdeath.state import GameState
from hotdeath.variants.standard import StandardState
from tests.support import assert_step_matches_apply_action, assert_step_refuses_and_changes_nothing

RULESETS: list[dict[str, Any]] = [
    {},  # official: Wild Draw Four challenge
    {"wild_draw_four_rule": "strict", "rounds": 1},  # the benchmark's ruleset
    {"wild_draw_four_rule": "free"},
    {"may_draw_with_playable": False},
    {"drawn_card_play": "must"},
    {"two_player_rules": False, "initial_direction": -1},
    {"stacking": "flat"},
    {"draw_rule": "until_playable"},
    {"false_uno_call_penalty": 2},
    {"wild_color_must_change": True},
    {"max_turns": 60, "target_score": 60},  # a stop in the fused step (STD-9.4)
]


def reference_legal(state: GameState, seat: int) -> list[Action]:
    """The legal list built by the generic code, with the lean branches switched off."""
    ref = state.clone()
    assert isinstance(ref, StandardState)
    ref._plain = False
    ref._fast = False
    return GameState.legal_actions(ref, seat)


@pytest.mark.parametrize("options", RULESETS, ids=lambda o: ",".join(o) or "official")
def test_step_matches_apply_action(options: dict[str, Any]) -> None:
    for seed in range(12):
        players = 2 + seed % 4
        fast = hotdeath.new_game("standard", players=players, seed=seed, options=options)
        slow = hotdeath.new_game("standard", players=players, seed=seed, options=options)
        assert_step_matches_apply_action(fast, slow, random.Random(seed), 400, reference_legal)


def test_fast_path_still_refuses_and_changes_nothing() -> None:
    g = hotdeath.new_game("standard", players=3, seed=8,
                          options={"wild_draw_four_rule": "strict"})
    assert isinstance(g, StandardState) and g._fast
    p = g.current_player()
    acts = g.legal_actions()
    assert_step_refuses_and_changes_nothing(g)
    assert g.history == []
    g.step(str(acts[-1]))  # text is parsed and checked against the right list
    assert g.history == [(p, acts[-1])]


def test_step_accepts_an_equal_action_that_is_not_the_listed_object() -> None:
    g = hotdeath.new_game("standard", players=2, seed=3, options={"rounds": 1})
    h = g.clone()
    a = g.legal_actions()[0]
    copy = Action(a.kind, tuple(a.cards), a.color, a.target, a.n, a.uno)
    assert copy is not a
    g.step(copy)
    h.apply_action(a)
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
