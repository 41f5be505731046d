"""Blocked hands: nobody can play and nothing can be drawn (rulings under STD-0.4, HD-3.7.1)."""

from __future__ import annotations

import pytest

from tests.support import act, kinds, pos, position


@pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7 (no source covers a blocked hand)")
def test_hot_death_blocked_hand_ends_without_a_winner() -> None:
    # every other card is in hands: draw pile empty, discard holds only its top
    g = position(
        variant="hotdeath", players=2, turn=0, top="HOS", color="blue", draw=[],
        hands=[["R1", "R3"], ["G5", "Y7"]],
    )
    ev = act(g, "draw")
    assert kinds(ev)[-1] == "pass" and g.current_player() == 1
    assert pos(g)["idle"] == 1
    ev = act(g, "draw")
    assert "blocked" in kinds(ev)
    assert g.last_hand is not None and g.last_hand.winner == -1
    assert g.scores == [4, 12]
    assert g.phase == 0 and g.dealer == 0  # the lowest hand deals the next hand


@pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7")
def test_a_player_who_could_play_but_drew_does_not_count_towards_a_block() -> None:
    g = position(
        variant="hotdeath", players=2, turn=0, top="B9", draw=[],
        hands=[["B1", "R3"], ["G5", "Y7"]],
    )
    act(g, "draw")  # P0 could have played B1
    assert pos(g)["idle"] == 0
    act(g, "draw")
    assert g.last_hand is None and g.current_player() == 0


@pytest.mark.rule("STD-0.4", "ruling", "uno-variants.md §0.4")
def test_standard_blocked_hand_goes_to_the_fewest_points() -> None:
    g = position(
        variant="standard", players=3, turn=0, top="B9", draw=[],
        hands=[["R1", "R3"], ["G5", "YS"], ["R8", "Y7"]],
    )
    for _ in range(3):
        ev = act(g, "draw")
    assert "blocked" in kinds(ev)
    assert g.last_hand is not None and g.last_hand.winner == 0  # 4 points in hand
    assert g.scores[0] == 25 + 15
