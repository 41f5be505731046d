"""Positions that set up a deal by hand (issue 12 item 8a).

``stack`` puts chosen cards on top of the deck for the next deal (the rest shuffled under
them); ``turn_up`` is a hand just dealt whose start-of-hand procedure (the first card and its
rules) the loader runs.  Together they let a puzzle or a bug report reach any first-card /
up-card rule by hand.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hotdeath.cards import card_code
from hotdeath.errors import PositionError
from hotdeath.events import describe
from hotdeath.notation import from_position, to_position
from hotdeath.state import CHOOSE_COLOR, DEAL, RESPONSE, TURN
from tests.support import act, hand, legal


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


class TestStack:
    @pytest.mark.rule("HD-3.2", "HD-3.3", "ruling", "issue 12 item 8a")
    def test_the_hot_death_deal_takes_the_stacked_cards_first(self) -> None:
        dealt = [f"{c}{n}" for n in range(1, 6) for c in "RGB"]  # R1 G1 B1 R2 G2 B2 ...
        top = [*dealt, "QUIT"]
        g = from_position({"variant": "hotdeath", "players": 3, "phase": "deal", "hand": 0,
                           "dealer": 0, "turn": 0, "stack": top})
        assert to_position(g)["stack"] == top
        act(g, "deal 5")
        # one card at a time from the dealer's left: P1, P2, P0, P1, P2, P0 ...
        assert [hand(g, s) for s in range(3)] == [
            sorted(f"B{n}" for n in range(1, 6)), sorted(f"R{n}" for n in range(1, 6)),
            sorted(f"G{n}" for n in range(1, 6))]
        # the next card is the up-card: the Quitter attacks the dealer (HD-3.3)
        assert card_code(g.top) == "QUIT" and g.phase == RESPONSE and g.turn == 0
        assert "stack" not in to_position(g)  # used once
        assert len(g.draw_pile) == len(g.deck) - 16
        all_cards = [c for h in g.hands for c in h] + g.discard + g.draw_pile
        assert Counter(all_cards) == Counter(g.deck)

    @pytest.mark.rule("STD-2.2", "ruling", "issue 12 item 8a")
    def test_the_next_standard_deal_takes_the_stacked_cards(self) -> None:
        stack = ["R1", "G1", "R2", "G2", "R3", "G3", "R4", "G4", "R5", "G5", "R6", "G6",
                 "R7", "G7", "B9"]
        g = from_position({"variant": "standard", "hands": [["R8"], ["Y1", "Y2"]],
                           "top": "R9", "stack": stack})
        act(g, "play R8")  # out: the hand is scored and the next one dealt at once
        assert g.hand_no == 2
        dealer = g.dealer
        first = (dealer + 1) % 2
        assert hand(g, first) == sorted(stack[0:14:2])
        assert hand(g, 1 - first) == sorted(stack[1:14:2])
        assert card_code(g.discard[0]) == "B9"

    def test_a_stack_holds_only_cards_of_the_deck(self) -> None:
        with pytest.raises(PositionError):
            from_position({"variant": "standard", "hands": [["R8"], ["Y1"]], "top": "R9",
                           "stack": ["HOT"]})
        with pytest.raises(PositionError):
            from_position({"variant": "standard", "hands": [["R8"], ["Y1"]], "top": "R9",
                           "stack": ["R0", "R0"]})


class TestTurnUp:
    @pytest.mark.rule("STD-3", "ruling", "issue 12 item 8a")
    def test_a_first_draw_two_makes_the_first_player_draw(self) -> None:
        g = from_position({"variant": "standard", "hands": [["R1", "R2"], ["G1", "G2"]],
                           "draw": ["R+2", "B5", "B6", "B7"], "dealer": 1, "turn_up": True})
        assert card_code(g.top) == "R+2" and g.phase == TURN
        assert hand(g, 0) == ["B5", "B6", "R1", "R2"]  # the next two cards of the pile
        assert describe(g.opening_events[0]).startswith("the first card turned up is Red Draw Two")
        assert g.turn == 1  # P0 drew two and lost the turn (first_card_draw_two_loses_turn)
        assert "turn_up" not in to_position(g)
        act(g, "draw")

    @pytest.mark.rule("STD-3", "ruling", "issue 12 item 8a")
    def test_a_first_wild_draw_four_goes_back_and_another_is_turned(self) -> None:
        g = from_position({"variant": "standard", "hands": [["R1"], ["G1"]],
                           "draw": ["WD4", "B5"], "dealer": 0, "turn_up": True})
        assert card_code(g.top) == "B5"
        assert "WD4" in _codes(g.draw_pile)
        with pytest.raises(PositionError):  # nothing but Wild Draw Fours to turn up
            from_position({"variant": "standard", "hands": [["R1"], ["G1"]],
                           "draw": ["WD4"], "turn_up": True})

    @pytest.mark.rule("HD-3.3", "ruling", "issue 12 item 8a")
    def test_a_hot_death_wild_up_card_waits_for_the_dealers_colour(self) -> None:
        g = from_position({"variant": "hotdeath", "hands": [["R1", "R2"], ["G1", "G2"]],
                           "draw": ["HOT", "B5"], "dealer": 0, "turn_up": True})
        assert g.phase == CHOOSE_COLOR and g.turn == 0
        assert legal(g) == ["color red", "color yellow", "color green", "color blue"]
        act(g, "color blue")
        # the Hot Death up-card attacks the dealer (HD-3.3): eight cards to answer
        p = g.pending()
        assert p is not None and p.victim == 0 and getattr(p, "count", 0) == 8

    @pytest.mark.rule("CT-2", "ruling", "issue 12 item 8a")
    def test_a_cutthroat_first_wild_draw_four_hits_the_first_player(self) -> None:
        g = from_position({"variant": "cutthroat", "hands": [["R1"], ["G1"], ["B1"]],
                           "draw": ["WD4", "B5", "B6", "B7", "B8"], "dealer": 0,
                           "turn_up": True})
        assert g.phase == CHOOSE_COLOR and g.turn == 0
        assert len(g.hands[1]) == 5

    @pytest.mark.rule("TD-1.4", "TD-1.5", "ruling", "issue 12 item 8a")
    def test_a_throwdown_first_special_stays_buried(self) -> None:
        g = from_position({"variant": "throwdown", "hands": [["R1"], ["G1"]],
                           "draw": ["R+2", "B5", "B6"], "dealer": 0, "turn_up": True,
                           "options": {"initial_direction": 0}})
        assert _codes(g.discard) == ["R+2", "B5"] and g.phase == DEAL

    def test_turn_up_is_a_hand_just_dealt(self) -> None:
        for extra in ({"top": "R5"}, {"phase": "response"}, {"turn_up": 1}):
            with pytest.raises(PositionError):
                from_position({"variant": "standard", "hands": [["R1"], ["G1"]],
                               "draw": ["B5"], "turn_up": True, **extra})
