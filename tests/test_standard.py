"""Scenario tests of standard (official Mattel) Uno and its house rules (uno-variants.md §1).

Every test builds a position (or a seeded new game for the first card and the deal),
applies actions and checks the outcome.  Rule ids are those of ``hotdeath.rulebook``
(STD-…); the contract is ../shared/rules/uno-variants.md §0, §1 and the Standard column
of the option registry (§4).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import hotdeath
from hotdeath.bots.arena import window_seats
from hotdeath.cards import (
    DRAW_TWO,
    FACE_KIND,
    FACE_NUMBER,
    NUMBER,
    REVERSE,
    SKIP,
    WILD,
    card_code,
    standard_deck,
)
from hotdeath.cards import WD4 as WD4_FACE
from hotdeath.errors import IllegalActionError, OptionError, PositionError
from hotdeath.pending import Pot
from hotdeath.rng import DEAL_STREAM, Rng, stream_seed
from hotdeath.state import GameState
from hotdeath.variants.standard import card_points
from tests.support import act, hand, kinds, legal, pos, position, texts

CONTRACT = "uno-variants.md"


def std(hands: list[list[str]], top: str, **fields: Any) -> GameState:
    """A standard-Uno position (turn 0 and clockwise unless given)."""
    return position(variant="standard", hands=hands, top=top, **fields)


def first_game(
    kind: int,
    players: int = 4,
    options: dict[str, object] | None = None,
    dealer: int | None = None,
) -> tuple[int, GameState]:
    """The first seed whose first up-card (the bottom of the discard pile) has ``kind``."""
    for seed in range(3000):
        g = hotdeath.new_game(
            "standard", players=players, seed=seed, options=options, dealer=dealer
        )
        if FACE_KIND[g.discard[0]] == kind:
            return seed, g
    raise AssertionError(f"no seed turns up a card of kind {kind}")


def shuffled_deck(seed: int) -> list[int]:
    """The deck as the first hand of ``seed`` shuffles it (the top is the END of the list).

    The shuffle of the hand's own stream (deal scheme 2): seat ``s`` gets its cards
    ``s``, ``s + players`` … counted from the top, and the up-card follows the cards dealt.
    """
    pile = standard_deck()[:]
    Rng(stream_seed(seed, 1, DEAL_STREAM)).shuffle(pile)
    return pile


def laid_deck(seed: int, dealer: int, players: int = 4) -> list[int]:
    """The deck of ``seed``'s first hand as laid for ``dealer`` (what he deals from).

    Recorded as the server's deck commitment records it (``Rng.shuffles``).
    """
    variant = hotdeath.get_variant("standard")
    twin = variant.state_cls(variant, variant.resolve_options(None, None), players, seed)
    twin.rng.shuffles = []
    twin.start(dealer)
    return [s for s in twin.rng.shuffles if len(s) == len(twin.deck)][-1]


def all_cards(g: GameState) -> Counter[str]:
    """Every card of the game, wherever it is."""
    cards = [c for h in g.hands for c in h] + g.draw_pile + g.discard
    return Counter(card_code(c) for c in cards)


def seat_value(g: GameState, seat: int) -> int:
    """The hand value of ``seat`` in the hand that just ended."""
    assert g.last_hand is not None
    return sum(card_points(c) for c in g.last_hand.seats[seat].cards)


def seat_points(g: GameState, seat: int) -> int:
    """The points ``seat`` scored in the hand that just ended."""
    assert g.last_hand is not None
    row = g.last_hand.seats[seat]
    assert sum(x.points for x in row.lines) == row.points
    return row.points


# =========================================================================== STD-0 shared model


class TestSharedModel:
    @pytest.mark.rule("STD-0.4", "official", "ruling", f"{CONTRACT} §0.4")
    def test_empty_draw_pile_reshuffles_discards_under_the_top(self) -> None:
        g = std([["B5", "Y2"], ["G1"], ["G2"], ["G3"]], "R7", discard=["B1", "Y3", "G9", "R7"],
                draw=[])
        ev = act(g, "draw")
        assert "reshuffle" in kinds(ev)
        assert [card_code(c) for c in g.discard] == ["R7"]
        assert len(g.hands[0]) == 3
        assert card_code(g.hands[0][-1]) in {"B1", "Y3", "G9"}
        assert len(g.draw_pile) == 2

    @pytest.mark.rule("STD-0.4", "ruling", f"{CONTRACT} §0.4 shortfall=forgive")
    def test_owed_cards_are_forgiven_when_both_piles_are_empty(self) -> None:
        g = std([["R+2", "B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=[])
        ev = act(g, "play R+2")
        # the only card under the top (R7) is reshuffled and drawn; the second is forgiven
        assert hand(g, 1) == ["G1", "R7"]
        assert g.draw_pile == []
        assert [e.n for e in ev if e.kind == "forgiven"] == [1]
        assert g.current_player() == 2

    @pytest.mark.rule("STD-0.4", "ruling", f"{CONTRACT} §0.4 shortfall has one value")
    def test_shortfall_only_forgives(self) -> None:
        g = hotdeath.new_game("standard", players=4, seed=1, options={"shortfall": "forgive"})
        assert g.opts.shortfall == "forgive"
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("standard", players=4, seed=1, options={"shortfall": "owe"})
        assert err.value.code == "bad_option_value"

    @pytest.mark.rule("STD-0.5", "official", "ruling", f"{CONTRACT} §0.5")
    def test_uno_episode_ends_when_the_hand_size_changes(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4"])
        act(g, "play R3")
        assert g.uno_open == [0]
        act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B5", "Y1", "Y2"]
        assert g.uno_open == []
        assert "catch 0" not in legal(g, 3)


# =========================================================================== STD-1 components


class TestComponents:
    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} §0.1")
    def test_one_deck_holds_108_cards(self) -> None:
        g = hotdeath.new_game("standard", players=4, seed=1)
        cards = all_cards(g)
        assert sum(cards.values()) == 108
        for col in "RYGB":
            assert cards[f"{col}0"] == 1
            for n in range(1, 10):
                assert cards[f"{col}{n}"] == 2
            for action in ("S", "R", "+2"):
                assert cards[f"{col}{action}"] == 2
        assert cards["W"] == 4
        assert cards["WD4"] == 4

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} §0.1, §4 decks")
    def test_two_decks_hold_216_cards(self) -> None:
        g = hotdeath.new_game("standard", players=4, seed=1, options={"decks": 2})
        cards = all_cards(g)
        assert sum(cards.values()) == 216
        assert cards["R0"] == 2
        assert cards["B9"] == 4
        assert cards["WD4"] == 8

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} STD-1.1")
    @pytest.mark.parametrize("players", [2, 3, 10])
    def test_two_to_ten_players_can_play(self, players: int) -> None:
        g = hotdeath.new_game("standard", players=players, seed=3)
        assert g.num_players() == players
        assert all(len(h) >= 7 for h in g.hands)

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} STD-1.1")
    def test_one_player_is_refused(self) -> None:
        with pytest.raises(OptionError):
            hotdeath.new_game("standard", players=1, seed=3)

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} §4 max_players")
    def test_more_players_than_max_players_is_a_bad_combination(self) -> None:
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("standard", players=11, seed=3)
        assert err.value.code == "bad_option_combination"
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("standard", players=5, seed=3, options={"max_players": 4})
        assert err.value.code == "bad_option_combination"
        g = hotdeath.new_game("standard", players=5, seed=3, options={"max_players": 5})
        assert g.num_players() == 5

    @pytest.mark.rule("STD-1.2", "official", f"{CONTRACT} STD-1.2")
    def test_objective_first_to_500_by_scoring_the_opponents_cards(self) -> None:
        g = std([["R3"], ["B5", "Y9"], ["G1"], ["G3"]], "R7", scores=[490, 0, 0, 0])
        act(g, "play R3")
        assert g.scores[0] == 490 + 14 + 1 + 3
        assert g.is_terminal()
        assert g.winners == [0]


# =========================================================================== STD-2 dealer, deal


class TestDealerAndDeal:
    @pytest.mark.rule("STD-2.1", "official", "ruling", f"{CONTRACT} STD-2.1 given")
    def test_given_dealer_deals_and_the_left_player_starts(self) -> None:
        seed, _ = first_game(NUMBER)
        g = hotdeath.new_game("standard", players=4, seed=seed, dealer=2)
        assert g.dealer == 2
        assert g.current_player() == 3
        default = hotdeath.new_game("standard", players=4, seed=seed)
        assert default.dealer == 0
        assert default.current_player() == 1

    @pytest.mark.rule("STD-2.1", "official", f"{CONTRACT} STD-2.1 draw_high")
    def test_draw_high_chooses_the_dealer_by_drawing(self) -> None:
        given = {hotdeath.new_game("standard", players=4, seed=s).dealer for s in range(30)}
        high = {
            hotdeath.new_game(
                "standard", players=4, seed=s, options={"dealer_selection": "draw_high"}
            ).dealer
            for s in range(30)
        }
        assert given == {0}
        assert len(high) > 1
        assert high <= {0, 1, 2, 3}

    @pytest.mark.rule("STD-2.1", "ruling", f"{CONTRACT} STD-2.1, STD-13 A13")
    @pytest.mark.parametrize(("selection", "next_dealer"), [("rotate_left", 2), ("given", 1)])
    def test_later_hand_dealer(self, selection: str, next_dealer: int) -> None:
        # Contract: only rotate_left passes the deal to the left for later hands; with
        # `given` the given dealer keeps dealing.
        g = std([["G9"], ["R3"], ["G1", "B2"], ["G3", "Y4"]], "R7", turn=1, dealer=1,
                options={"dealer_selection": selection})
        act(g, "play R3")
        assert g.hand_no == 2
        assert g.dealer == next_dealer

    @pytest.mark.rule("STD-2.1", "official", "ruling", f"{CONTRACT} STD-2.1, STD-13 A13")
    def test_draw_high_draws_again_for_every_later_hand(self) -> None:
        # Ruling: the official set-up begins every hand with the draw for the deal; the deal
        # does not pass to the left (that is rotate_left).
        dealers = []
        for seed in range(12):
            g = std([["G9"], ["R3"], ["G1", "B2"], ["G3", "Y4"]], "R7", turn=1, dealer=1,
                    seed=seed, options={"dealer_selection": "draw_high"})
            twin = g.clone()
            ev = act(g, "play R3")
            assert g.hand_no == 2
            drawn = [e for e in ev if e.kind == "dealer"]
            assert [(e.seat, e.rule, e.n) for e in drawn] == [(g.dealer, "STD-2.1", 2)]
            assert texts(drawn) == [f"P{g.dealer} wins the draw for the deal of hand 2  [STD-2.1]"]
            assert kinds(ev).index("dealer") < kinds(ev).index("deal")
            twin.step("play R3")
            assert twin.dealer == g.dealer  # from the seed: the same with or without events
            dealers.append(g.dealer)
        assert len(set(dealers)) > 1 and set(dealers) <= {0, 1, 2, 3}

    @pytest.mark.rule("STD-2.1", "official", f"{CONTRACT} STD-2.1 the highest card deals")
    def test_draw_high_the_highest_number_deals(self) -> None:
        # the draw for the deal before hand 2: each player turns a card of the shuffled
        # deck (seat 0 first, from the top); the highest number deals, an action card or
        # wild counting 0, and ties draw again among the tied
        unique = 0
        for seed in range(16):
            g = std([["G9"], ["R3"], ["G1", "B2"], ["G3", "Y4"]], "R7", turn=1, dealer=1,
                    seed=seed, options={"dealer_selection": "draw_high"})
            g.rng.shuffles = []  # keep a copy of each shuffle: the first is the draw's
            act(g, "play R3")
            pile = g.rng.shuffles[0]
            values = [FACE_NUMBER[f] if FACE_KIND[f] == NUMBER else 0
                      for f in (pile[-1 - s] for s in range(4))]
            assert values[g.dealer] == max(values), (seed, values, g.dealer)
            if values.count(max(values)) == 1:
                unique += 1
                assert g.dealer == values.index(max(values))
        assert unique >= 8

    @pytest.mark.rule("STD-2.2", "official", "ruling", f"{CONTRACT} STD-2.2")
    @pytest.mark.parametrize("dealer", [0, 2])
    def test_seven_cards_dealt_one_at_a_time_from_the_dealers_left(self, dealer: int) -> None:
        seed = next(s for s in range(3000) if FACE_KIND[shuffled_deck(s)[-1 - 28]] == NUMBER)
        g = hotdeath.new_game("standard", players=4, seed=seed, dealer=dealer)
        laid = laid_deck(seed, dealer)  # dealt one at a time from the dealer's left
        for seat in range(4):
            order = (seat - dealer - 1) % 4
            expected = [card_code(laid[-1 - (k * 4 + order)]) for k in range(7)]
            assert [card_code(c) for c in g.hands[seat]] == expected
        assert card_code(g.discard[0]) == card_code(laid[-1 - 28])
        # the deck is laid so that each seat's cards are the shuffle's, whoever deals
        pile = shuffled_deck(seed)
        for seat in range(4):
            assert g.hands[seat] == [pile[-1 - (k * 4 + seat)] for k in range(7)]
        assert laid[:-28] == pile[:-28]
        assert len(g.draw_pile) == 108 - 28 - 1


# =========================================================================== STD-3 first card


class TestFirstCard:
    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 number")
    def test_number_first_card_left_of_dealer_starts(self) -> None:
        _, g = first_game(NUMBER)
        assert g.current_player() == 1
        assert g.direction == 1
        assert [len(h) for h in g.hands] == [7, 7, 7, 7]
        assert pos(g)["color"] == {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}[
            card_code(g.discard[0])[0]]

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 skip")
    def test_skip_first_card_skips_the_player_left_of_dealer(self) -> None:
        _, g = first_game(SKIP)
        assert g.current_player() == 2
        assert g.direction == 1

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 reverse, first_card_reverse")
    @pytest.mark.parametrize(("option", "first"), [("dealer_first", 0),
                                                   ("dealer_right_first", 3)])
    def test_reverse_first_card(self, option: str, first: int) -> None:
        seed, _ = first_game(REVERSE)
        g = hotdeath.new_game("standard", players=4, seed=seed,
                              options={"first_card_reverse": option})
        assert g.direction == -1
        assert g.current_player() == first

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3, STD-7")
    @pytest.mark.parametrize("option", ["dealer_first", "dealer_right_first"])
    def test_reverse_first_card_with_two_players_dealer_starts(self, option: str) -> None:
        _, g = first_game(REVERSE, players=2, options={"first_card_reverse": option})
        assert g.dealer == 0
        assert g.current_player() == 0

    @pytest.mark.rule("STD-3", "official", "ruling",
                      f"{CONTRACT} STD-3 draw two, first_card_draw_two_loses_turn")
    @pytest.mark.parametrize(("loses", "first"), [(True, 2), (False, 1)])
    def test_draw_two_first_card(self, loses: bool, first: int) -> None:
        seed, _ = first_game(DRAW_TWO)
        g = hotdeath.new_game("standard", players=4, seed=seed,
                              options={"first_card_draw_two_loses_turn": loses})
        assert [len(h) for h in g.hands] == [7, 9, 7, 7]
        assert g.current_player() == first

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 wild first_player_names")
    def test_wild_first_card_first_player_names_colour_then_plays(self) -> None:
        _, g = first_game(WILD)
        assert pos(g)["phase"] == "choose_color"
        assert g.current_player() == 1
        assert legal(g) == ["color red", "color yellow", "color green", "color blue"]
        act(g, "color green")
        assert pos(g)["phase"] == "turn"
        assert g.current_player() == 1
        assert pos(g)["color"] == "green"
        for a in legal(g):
            assert a == "draw" or a.startswith(("play G", "play W"))

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 first_card_wild=redraw")
    def test_wild_first_card_redrawn_with_redraw_option(self) -> None:
        seed, _ = first_game(WILD)
        g = hotdeath.new_game("standard", players=4, seed=seed,
                              options={"first_card_wild": "redraw"})
        assert len(g.discard) == 1
        assert FACE_KIND[g.discard[0]] != WILD
        assert pos(g)["phase"] != "choose_color"
        assert all_cards(g)["W"] == 4

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 first_card_wild=redraw")
    def test_redraw_option_leaves_a_number_up_card_alone(self) -> None:
        seed = next(s for s in range(3000) if card_code(shuffled_deck(s)[-1 - 28]) == "R7")
        default = hotdeath.new_game("standard", players=4, seed=seed)
        g = hotdeath.new_game("standard", players=4, seed=seed,
                              options={"first_card_wild": "redraw"})
        assert [card_code(c) for c in default.discard] == ["R7"]
        assert [card_code(c) for c in g.discard] == ["R7"]
        assert g.current_player() == default.current_player() == 1

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 (two players)")
    @pytest.mark.parametrize("kind", [SKIP, DRAW_TWO])
    def test_two_players_skip_or_draw_two_up_card_dealer_starts(self, kind: int) -> None:
        _, g = first_game(kind, players=2)
        assert g.current_player() == 0
        assert [len(h) for h in g.hands] == [7, 9 if kind == DRAW_TWO else 7]

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 wild draw four")
    def test_wild_draw_four_first_card_is_returned_and_redrawn(self) -> None:
        seed = next(s for s in range(3000) if shuffled_deck(s)[-1 - 28] == WD4_FACE)
        g = hotdeath.new_game("standard", players=4, seed=seed)
        assert len(g.discard) == 1
        assert g.discard[0] != WD4_FACE
        in_hands = sum(h.count(WD4_FACE) for h in g.hands)
        assert g.draw_pile.count(WD4_FACE) == 4 - in_hands
        assert pos(g)["phase"] in ("turn", "choose_color")

    @pytest.mark.rule("STD-3", "official", f"{CONTRACT} STD-3 (nobody played it)")
    def test_first_card_cannot_be_challenged(self) -> None:
        _, g = first_game(DRAW_TWO)
        assert "challenge" not in legal(g)
        assert "accept" not in legal(g)


# =========================================================================== STD-4 a turn


class TestTurn:
    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 (a), §0.3")
    def test_play_one_matching_card_or_draw(self) -> None:
        g = std([["R3", "Y2", "G7", "B7", "W"], ["G1"], ["G2"], ["G3"]], "R7")
        assert legal(g) == ["play R3", "play G7", "play B7", "play W red", "play W yellow",
                            "play W green", "play W blue", "draw"]

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} §0.3 wild on top")
    def test_a_coloured_card_matches_a_wild_only_by_its_named_colour(self) -> None:
        g = std([["G4", "R4", "B7"], ["G1"], ["G2"], ["G3"]], "W", color="green")
        assert legal(g) == ["play G4", "draw"]

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 (b)")
    def test_after_drawing_only_the_drawn_card_may_be_played(self) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["R9", "Y1"])
        assert kinds(act(g, "draw")) == ["draw"]
        assert g.current_player() == 0
        assert hand(g, 0) == ["B5", "R3", "R9"]
        assert legal(g) == ["play R9", "pass"]
        act(g, "play R9")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B5", "R3"]

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 (b)")
    def test_an_unplayable_drawn_card_ends_the_turn(self) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["Y1", "R9"])
        assert "pass" not in legal(g)
        ev = act(g, "draw")
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (0, "STD-4")
        assert g.current_player() == 1
        assert legal(g, 0) == []
        assert hand(g, 0) == ["B5", "R3", "Y1"]
        assert pos(g)["drew"] is False and pos(g)["drawn"] is None

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 wilds")
    def test_a_drawn_wild_may_be_played_with_any_colour(self) -> None:
        g = std([["B5", "Y5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["W"])
        act(g, "draw")
        assert legal(g) == ["play W red", "play W yellow", "play W green", "play W blue",
                            "pass"]

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 reneging, may_draw_with_playable")
    @pytest.mark.parametrize(("may", "can_draw"), [(True, True), (False, False)])
    def test_may_draw_with_playable(self, may: bool, can_draw: bool) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                options={"may_draw_with_playable": may})
        assert ("draw" in legal(g)) is can_draw
        assert "play R3" in legal(g)

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 may_draw_with_playable=false")
    def test_without_a_playable_card_drawing_is_always_allowed(self) -> None:
        g = std([["Y3", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                options={"may_draw_with_playable": False})
        assert legal(g) == ["draw"]

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 drawn_card_play")
    @pytest.mark.parametrize(("rule", "after"), [("may", ["play R9", "pass"]),
                                                 ("must", ["play R9"])])
    def test_drawn_card_play(self, rule: str, after: list[str]) -> None:
        g = std([["B5", "Y5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["R9"],
                options={"drawn_card_play": rule})
        act(g, "draw")
        assert legal(g) == after

    @pytest.mark.rule("STD-4", "official", f"{CONTRACT} STD-4 drawn_card_play=must")
    def test_force_play_still_passes_an_unplayable_drawn_card(self) -> None:
        g = std([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["Y1"],
                options={"drawn_card_play": "must"})
        assert legal(g) == ["draw"]
        ev = act(g, "draw")
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (0, "STD-4")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B5", "Y1"]

    @pytest.mark.rule("STD-4", "ruling", f"{CONTRACT} STD-4 'a wild played as the last card "
                      "needs no color'")
    def test_a_wild_played_as_the_last_card_needs_no_colour(self) -> None:
        g = std([["W"], ["G1"], ["G2"], ["G3"]], "R7")
        act(g, "play W")
        assert g.last_hand is not None
        assert g.last_hand.winner == 0


# =========================================================================== STD-5 card effects


class TestCardEffects:
    @pytest.mark.rule("STD-5.1", "official", f"{CONTRACT} STD-5.1")
    def test_number_card_has_no_effect(self) -> None:
        g = std([["B7", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        act(g, "play B7")
        assert g.current_player() == 1
        assert g.direction == 1
        assert pos(g)["color"] == "blue"
        assert [len(h) for h in g.hands] == [1, 1, 1, 1]

    @pytest.mark.rule("STD-5.2", "official", f"{CONTRACT} STD-5.2")
    def test_skip_makes_the_next_player_lose_a_turn(self) -> None:
        g = std([["BS", "B5"], ["G1"], ["G2"], ["G3"]], "RS")
        ev = act(g, "play BS")
        assert g.current_player() == 2
        assert [e.seat for e in ev if e.kind == "skip"] == [1]

    @pytest.mark.rule("STD-5.3", "official", f"{CONTRACT} STD-5.3")
    def test_reverse_turns_the_direction(self) -> None:
        g = std([["RR", "B5", "Y6"], ["G1"], ["G2"], ["G3"]], "BR")
        assert legal(g) == ["play B5", "play RR", "draw"]
        act(g, "play RR")
        assert g.direction == -1
        assert g.current_player() == 3

    @pytest.mark.rule("STD-5.4", "official", f"{CONTRACT} STD-5.4")
    def test_draw_two_next_player_draws_two_and_loses_turn(self) -> None:
        g = std([["B+2", "B5"], ["G1"], ["G2"], ["G3"]], "R+2", draw=["Y1", "Y2", "Y3"])
        act(g, "play B+2")
        assert hand(g, 1) == ["G1", "Y1", "Y2"]
        assert g.current_player() == 2

    @pytest.mark.rule("STD-5.4", "official", f"{CONTRACT} STD-5.4 no stacking, stacking=none")
    def test_no_stacking_the_victim_must_draw(self) -> None:
        g = std([["R+2", "B5"], ["G+2", "WD4", "G1"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3"])
        act(g, "play R+2")
        assert pos(g)["phase"] == "turn"
        assert hand(g, 1) == ["G+2", "G1", "WD4", "Y1", "Y2"]
        assert g.current_player() == 2

    @pytest.mark.rule("STD-5.5", "official", f"{CONTRACT} STD-5.5")
    def test_wild_names_the_colour_to_match(self) -> None:
        g = std([["W", "B5", "B6"], ["G1", "R1", "Y1"], ["G2"], ["G3"]], "R7")
        act(g, "play W green")
        assert pos(g)["color"] == "green"
        assert g.current_player() == 1
        assert legal(g) == ["play G1", "draw"]

    @pytest.mark.rule("STD-5.5", "official", f"{CONTRACT} STD-4 'including the current color'")
    def test_wild_may_name_the_current_colour(self) -> None:
        g = std([["W", "B5", "B6"], ["G1", "R1", "Y1"], ["G2"], ["G3"]], "R7")
        act(g, "play W red")
        assert pos(g)["color"] == "red"
        assert legal(g) == ["play R1", "draw"]

    @pytest.mark.rule("STD-5.6", "official", f"{CONTRACT} STD-5.6")
    def test_wild_draw_four_next_player_draws_four_and_loses_turn(self) -> None:
        g = std([["WD4", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4", "Y5"])
        act(g, "play WD4 blue")
        assert legal(g) == ["challenge", "accept"]
        act(g, "accept")
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert g.current_player() == 2
        assert pos(g)["color"] == "blue"


# =========================================================================== STD-6 WD4 challenge


def _wd4_game(p0: list[str], **fields: Any) -> GameState:
    """P0 to play a Wild Draw Four on a red 7; P1 to answer it."""
    fields.setdefault("draw", ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"])
    return std([p0, ["G1"], ["G2"], ["G3"]], "R7", **fields)


class TestWildDrawFour:
    @pytest.mark.rule("STD-6.1", "official", f"{CONTRACT} STD-6.1")
    def test_holding_the_current_colour_makes_it_illegal(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"], options={"wild_draw_four_rule": "strict"})
        assert not any(a.startswith("play WD4") for a in legal(g))

    @pytest.mark.rule("STD-6.1", "official", f"{CONTRACT} STD-6.1 (other colour, same number)")
    def test_matching_number_of_another_colour_and_wilds_do_not_count(self) -> None:
        g = _wd4_game(["WD4", "B7", "W", "WD4"])
        act(g, "play WD4 green")
        assert (pos(g)["pending"]["sender"], pos(g)["pending"]["wd4_legal"]) == (0, True)

    @pytest.mark.rule("STD-6.1", "ruling", f"{CONTRACT} STD-6.1 named colour on a wild")
    def test_current_colour_is_the_named_colour_on_a_wild(self) -> None:
        legal_g = std([["WD4", "R5"], ["G1"], ["G2"], ["G3"]], "W", color="green",
                      options={"wild_draw_four_rule": "strict"})
        assert "play WD4 red" in legal(legal_g)
        bluff_g = std([["WD4", "G5"], ["G1"], ["G2"], ["G3"]], "W", color="green",
                      options={"wild_draw_four_rule": "strict"})
        assert "play WD4 red" not in legal(bluff_g)

    @pytest.mark.rule("STD-6.2", "official", f"{CONTRACT} STD-6.2 wild_draw_four_rule=challenge")
    def test_challenge_rule_allows_a_bluff_and_records_it(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"])
        act(g, "play WD4 blue")
        assert (pos(g)["pending"]["sender"], pos(g)["pending"]["wd4_legal"]) == (0, False)
        assert legal(g) == ["challenge", "accept"]

    @pytest.mark.rule("STD-6.2", "official", f"{CONTRACT} STD-6.2 wild_draw_four_rule")
    @pytest.mark.parametrize(("rule", "allowed"), [("challenge", True), ("strict", False),
                                                   ("free", True)])
    def test_an_illegal_wild_draw_four_by_rule(self, rule: str, allowed: bool) -> None:
        g = _wd4_game(["WD4", "R3", "B5"], options={"wild_draw_four_rule": rule})
        assert ("play WD4 blue" in legal(g)) is allowed

    @pytest.mark.rule("STD-6.2", "official", f"{CONTRACT} STD-6.2 wild_draw_four_rule=free")
    def test_free_rule_has_no_challenge(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"], options={"wild_draw_four_rule": "free"})
        act(g, "play WD4 blue")
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert g.current_player() == 2
        assert "challenge" not in legal(g)

    @pytest.mark.rule("STD-6.3", "official", f"{CONTRACT} STD-6.3")
    def test_only_the_victim_may_challenge_before_drawing(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"])
        act(g, "play WD4 blue")
        assert g.current_player() == 1
        assert hand(g, 1) == ["G1"]
        assert "challenge" not in legal(g, 2)
        assert "challenge" not in legal(g, 3)
        with pytest.raises(IllegalActionError):
            act(g, "challenge", seat=2)
        assert hand(g, 1) == ["G1"]

    @pytest.mark.rule("STD-6.3", "official", f"{CONTRACT} STD-6.3, views")
    def test_the_pending_draw_is_public_and_challengeable(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"])
        act(g, "play WD4 blue")
        attack = g.view(2).attack
        assert isinstance(attack, Pot) and attack.wd4_on_top
        assert (attack.count, attack.victim, attack.sender) == (4, 1, 0)
        assert attack.wd4_legal is None  # hidden: only a challenge tells
        assert g.view(2).to_json()["attack"]["wd4_legal"] is None
        assert "challenge" in legal(g, 1)
        assert g.view(1).legal_actions == tuple(g.legal_actions(1))

    @pytest.mark.rule("STD-6.4", "official", f"{CONTRACT} STD-6.4 guilty")
    def test_guilty_the_wild_draw_four_player_draws_four(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"])
        act(g, "play WD4 blue")
        act(g, "challenge")
        assert hand(g, 0) == ["B5", "R3", "Y1", "Y2", "Y3", "Y4"]
        assert hand(g, 1) == ["G1"]

    @pytest.mark.rule("STD-6.4", "official", f"{CONTRACT} STD-6.4 not guilty")
    def test_not_guilty_the_challenger_draws_six_and_loses_turn(self) -> None:
        g = _wd4_game(["WD4", "G3", "B5"])
        act(g, "play WD4 blue")
        act(g, "challenge")
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
        assert hand(g, 0) == ["B5", "G3"]
        assert g.current_player() == 2

    @pytest.mark.rule("STD-6.4", "official", f"{CONTRACT} STD-6.4 private show of hand")
    def test_the_hand_is_shown_to_the_challenger_only(self) -> None:
        g = _wd4_game(["WD4", "R3", "B5"])
        act(g, "play WD4 blue")
        ev = act(g, "challenge")
        reveals = [e for e in ev if e.kind == "reveal"]
        assert len(reveals) == 1
        shown = reveals[0]
        assert shown.hidden
        assert (shown.seat, shown.target) == (0, 1)
        assert sorted(card_code(c) for c in shown.for_seat(1).cards) == ["B5", "R3"]
        assert shown.for_seat(2).cards == ()
        assert shown.for_seat(3).cards == ()
        assert shown.for_seat(None).cards == ()
        assert g.view(2).seats[0].revealed == ()

    @pytest.mark.rule("STD-6.5", "ruling", f"{CONTRACT} STD-6.5 wd4_guilty_challenger_turn")
    @pytest.mark.parametrize(("option", "next_player"), [("plays", 1), ("skipped", 2)])
    def test_after_a_guilty_verdict(self, option: str, next_player: int) -> None:
        g = _wd4_game(["WD4", "R3", "B5"], options={"wd4_guilty_challenger_turn": option})
        act(g, "play WD4 blue")
        ev = act(g, "challenge")
        assert g.current_player() == next_player
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == (
            [(1, "STD-6.5")] if option == "skipped" else [])
        assert card_code(g.discard[-1]) == "WD4"
        assert pos(g)["color"] == "blue"
        assert pos(g)["phase"] == "turn"

    @pytest.mark.rule("STD-6.6", "ruling", f"{CONTRACT} STD-6.6")
    def test_legality_is_judged_on_the_hand_at_play_time(self) -> None:
        g = _wd4_game(["WD4", "B5"], draw=["R1", "R2", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
        act(g, "play WD4 green")
        act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B5", "R1", "R2"]
        act(g, "challenge")
        assert hand(g, 0) == ["B5", "R1", "R2"]
        assert len(g.hands[1]) == 7
        assert g.current_player() == 2

    @pytest.mark.rule("STD-6.7", "ruling", f"{CONTRACT} STD-6.7, STD-9.2")
    def test_a_last_card_wild_draw_four_is_not_challengeable(self) -> None:
        g = std([["WD4"], ["G1"], ["G2"], ["G3"]], "R7", draw=["Y1", "Y2", "Y3", "Y4"])
        ev = act(g, "play WD4 red")
        assert "challenge" not in kinds(ev)
        assert "attack" not in kinds(ev)
        assert g.last_hand is not None
        assert g.last_hand.winner == 0
        assert seat_value(g, 1) == 1 + 1 + 2 + 3 + 4


# =========================================================================== STD-7 two players


def _two(p0: list[str], top: str = "R7", **fields: Any) -> GameState:
    return std([p0, ["G1", "G2"]], top, players=2, **fields)


class TestTwoPlayers:
    @pytest.mark.rule("STD-7.0", "official", f"{CONTRACT} STD-7.0 two_player_rules")
    @pytest.mark.parametrize(("on", "next_player"), [(True, 0), (False, 1)])
    def test_two_player_rules_option(self, on: bool, next_player: int) -> None:
        g = _two(["RR", "B5", "R4"], options={"two_player_rules": on})
        act(g, "play RR")
        assert g.direction == -1
        assert g.current_player() == next_player

    @pytest.mark.rule("STD-7.1", "official", f"{CONTRACT} STD-7.1")
    def test_reverse_acts_as_a_skip(self) -> None:
        g = _two(["RR", "B5", "R4"])
        ev = act(g, "play RR")
        assert g.current_player() == 0
        assert [e.seat for e in ev if e.kind == "skip"] == [1]

    @pytest.mark.rule("STD-7.2", "official", f"{CONTRACT} STD-7.2")
    def test_skip_player_plays_again(self) -> None:
        g = _two(["RS", "B5", "R4"])
        ev = act(g, "play RS")
        assert g.current_player() == 0
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "STD-7.2")]

    @pytest.mark.rule("STD-7.3", "official", f"{CONTRACT} STD-7.3")
    def test_draw_two_returns_play_to_its_player(self) -> None:
        g = _two(["R+2", "B5", "R4"], draw=["Y1", "Y2"])
        ev = act(g, "play R+2")
        assert hand(g, 1) == ["G1", "G2", "Y1", "Y2"]
        assert g.current_player() == 0
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "STD-7.3")]

    @pytest.mark.rule("STD-5.2", "official", f"{CONTRACT} STD-5.2")
    def test_skip_with_more_players_cites_the_skip_rule(self) -> None:
        g = std([["RS", "B5"], ["G1", "G2"], ["G3", "G4"]], "R7", players=3)
        ev = act(g, "play RS")
        assert g.current_player() == 2
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "STD-5.2")]

    @pytest.mark.rule("STD-7.3", "official", f"{CONTRACT} STD-7.3")
    def test_wild_draw_four_returns_play_to_its_player(self) -> None:
        g = _two(["WD4", "B5", "B4"], draw=["Y1", "Y2", "Y3", "Y4"])
        act(g, "play WD4 blue")
        ev = act(g, "accept")
        assert len(g.hands[1]) == 6
        assert g.current_player() == 0
        # logged as the Draw Two's is: the victim is skipped, by STD-7.3
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "STD-7.3")]

    @pytest.mark.rule("STD-7.3", "official", f"{CONTRACT} STD-7.3, STD-6.4")
    def test_an_unsuccessful_challenge_returns_play_to_the_wild_draw_four(self) -> None:
        g = _two(["WD4", "B5", "B4"], draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
        act(g, "play WD4 blue")
        ev = act(g, "challenge")  # P0 held no red: not guilty, P1 draws six
        assert len(g.hands[1]) == 8 and g.current_player() == 0
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "STD-7.3")]
        # with more players the victim's skip cites the card's rule (or the challenge's)
        for answer, rule, drawn in (("accept", "STD-5.6", 4), ("challenge", "STD-6.4", 6)):
            g = _wd4_game(["WD4", "B5", "B4"])
            act(g, "play WD4 blue")
            ev = act(g, answer)
            assert len(g.hands[1]) == 1 + drawn and g.current_player() == 2
            assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, rule)]

    @pytest.mark.rule("STD-7.4", "ruling", f"{CONTRACT} STD-7.4")
    def test_the_extra_turn_is_a_full_normal_turn(self) -> None:
        g = _two(["RS", "R5", "B4", "W"])
        act(g, "play RS")
        assert legal(g) == ["play R5", "play W red", "play W yellow", "play W green",
                            "play W blue", "draw"]


# =========================================================================== STD-8 calling Uno


class TestUno:
    @pytest.mark.rule("STD-8.1", "official", f"{CONTRACT} STD-8.1 call with the play")
    def test_calling_uno_with_the_play_is_safe(self) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        assert "play R3 uno" in legal(g)
        ev = act(g, "play R3 uno")
        assert "uno" in kinds(ev)
        assert g.uno_open == []
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("STD-8.1", "official", f"{CONTRACT} STD-8.1 uno_catch_penalty")
    @pytest.mark.parametrize(("penalty", "size"), [(2, 3), (4, 5)])
    def test_caught_without_a_call_draws_the_penalty(self, penalty: int, size: int) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4", "Y5"], options={"uno_catch_penalty": penalty})
        act(g, "play R3")
        assert "catch 0" in legal(g, 2)
        act(g, "catch 0", seat=2)
        assert len(g.hands[0]) == size
        assert len(g.hands[2]) == 1

    @pytest.mark.rule("STD-8.1", "official", f"{CONTRACT} STD-8.1 next-to-last card")
    def test_uno_is_called_only_with_the_next_to_last_card(self) -> None:
        g = std([["R3", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R7")
        assert legal(g) == ["play R3", "draw"]
        act(g, "play R3")
        assert g.uno_open == []

    @pytest.mark.rule("STD-8.2", "official", f"{CONTRACT} STD-8.2 self-catch")
    def test_a_player_who_catches_himself_is_safe(self) -> None:
        g = std([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        act(g, "play R3")
        act(g, "uno", seat=0)
        assert g.uno_open == []
        assert "catch 0" not in legal(g, 2)
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B5"]

    @pytest.mark.rule("STD-8.2", "official", f"{CONTRACT} STD-8.2 too early")
    def test_no_catch_before_the_second_to_last_card_is_played(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4"], ["G2"], ["G3"]], "R7")
        assert "catch 0" not in legal(g, 2)
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B5", "R3"]

    @pytest.mark.rule("STD-8.2", "official", f"{CONTRACT} STD-8.2 too late")
    def test_no_catch_after_the_next_player_has_begun(self) -> None:
        g = std([["R3", "B5"], ["R1", "G4"], ["G2"], ["G3"]], "R7", draw=["Y1"])
        act(g, "play R3")
        act(g, "draw")
        assert "catch 0" not in legal(g, 2)
        assert g.uno_open == []

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 (c)")
    def test_window_closes_on_another_players_play(self) -> None:
        g = std([["R3", "B5"], ["R1", "G4"], ["G2"], ["G3"]], "R7")
        act(g, "play R3")
        assert "catch 0" in legal(g, 3)
        act(g, "play R1")
        assert "catch 0" not in legal(g, 3)

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 (c) by any other player")
    def test_the_holders_own_turn_action_keeps_his_window_open(self) -> None:
        # a turn action by ANY OTHER player closes the window, not the holder's own: a
        # one-card victim who has not called Uno challenges a bluffed Wild Draw Four; the
        # challenge is his own turn action, so he can still be caught (a hand-made position)
        def challenged() -> GameState:
            g = std([["G5", "R2"], ["B4"], ["R1", "Y2"]], "WD4", color="blue", turn=1,
                    uno_open=[1], draw=["Y1", "Y3", "Y4", "Y5", "Y6", "Y7"],
                    pending={"type": "pot", "victim": 1, "sender": 0, "count": 4,
                             "wd4_legal": False})
            assert "catch 1" in legal(g, 2)
            ev = act(g, "challenge")
            assert [e.n for e in ev if e.kind == "challenge_result"] == [1]  # guilty
            assert len(g.hands[0]) == 6 and hand(g, 1) == ["B4"] and g.current_player() == 1
            return g

        g = challenged()
        assert g.uno_open == [1] and "catch 1" in legal(g, 2) and "catch 1" in legal(g, 0)
        ev = act(g, "catch 1", seat=2)
        assert hand(g, 1) == ["B4", "Y6", "Y7"] and "catch" in kinds(ev)
        g = challenged()
        act(g, "play B4")  # he goes out without having called: allowed (STD-8.5)
        assert g.last_hand is not None and g.last_hand.winner == 1

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 automatic draws")
    def test_an_automatic_draw_two_does_not_close_the_window(self) -> None:
        g = std([["R+2", "B5"], ["G1"], ["R2", "G2"], ["G3"]], "R7", draw=["Y1", "Y2"])
        act(g, "play R+2")
        assert g.current_player() == 2
        assert len(g.hands[1]) == 3
        assert "catch 0" in legal(g, 1)
        assert "catch 0" in legal(g, 3)
        act(g, "play R2")
        assert "catch 0" not in legal(g, 3)

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 automatic draws")
    def test_an_automatic_wild_draw_four_does_not_close_the_window(self) -> None:
        g = std([["WD4", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4"], options={"wild_draw_four_rule": "free"})
        act(g, "play WD4 blue")
        assert len(g.hands[1]) == 5
        assert "catch 0" in legal(g, 2)

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 (c) accept")
    def test_accepting_a_wild_draw_four_closes_the_window(self) -> None:
        g = std([["WD4", "B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["Y1", "Y2", "Y3", "Y4"])
        act(g, "play WD4 blue")
        assert "catch 0" in legal(g, 1)
        act(g, "accept")
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 (c) jump_in")
    def test_a_jump_in_closes_the_window(self) -> None:
        g = std([["R5", "B5"], ["G1", "G4"], ["R5", "G2", "G5"], ["G3"]], "R7",
                options={"jump_in": True})
        act(g, "play R5")
        assert "catch 0" in legal(g, 3)
        act(g, "jump R5", seat=2)
        assert "catch 0" not in legal(g, 3)
        assert hand(g, 0) == ["B5"]

    @pytest.mark.rule("STD-8.3", "ruling", f"{CONTRACT} STD-8.3 (c) challenge")
    def test_a_challenge_closes_the_window(self) -> None:
        g = std([["WD4", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
        act(g, "play WD4 blue")
        act(g, "challenge")
        assert len(g.hands[1]) == 7
        assert "catch 0" not in legal(g, 2)
        assert hand(g, 0) == ["B5"]

    @pytest.mark.rule("STD-8.4", "ruling", f"{CONTRACT} STD-8.4 false_uno_call_penalty=0")
    def test_false_calls_are_refused_without_penalty(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4"], ["G2"], ["G3"]], "R7")
        before = pos(g)
        assert "catch 1" not in legal(g, 0)
        assert "uno" not in legal(g, 0)
        with pytest.raises(IllegalActionError):
            act(g, "catch 1", seat=0)
        with pytest.raises(IllegalActionError):
            act(g, "uno", seat=0)
        assert pos(g) == before

    @pytest.mark.rule("STD-8.4", "ruling", f"{CONTRACT} STD-8.4, §4 false_uno_call_penalty")
    def test_a_false_catch_charges_the_caller_with_a_penalty(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4"], ["G2"], ["G3"]], "R7", draw=["Y1", "Y2"],
                options={"false_uno_call_penalty": 2})
        assert "catch 1" in legal(g, 2)
        act(g, "catch 1", seat=2)
        assert hand(g, 2) == ["G2", "Y1", "Y2"]
        assert hand(g, 1) == ["G1", "G4"]

    @pytest.mark.rule("STD-8.4", "ruling", f"{CONTRACT} STD-8.4, §4 false_uno_call_penalty")
    def test_a_false_uno_declaration_charges_the_caller(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4"], ["G2"], ["G3"]], "R7", draw=["Y1", "Y2"],
                options={"false_uno_call_penalty": 1})
        act(g, "uno", seat=1)
        assert hand(g, 1) == ["G1", "G4", "Y1"]

    @pytest.mark.rule("STD-8.5", "official", f"{CONTRACT} STD-8.5")
    def test_going_out_without_calling_uno(self) -> None:
        g = std([["R3"], ["G1"], ["G2"], ["G3"]], "R7")
        act(g, "play R3")
        assert g.last_hand is not None
        assert g.last_hand.winner == 0
        assert seat_points(g, 0) == 6


# =========================================================================== STD-9 scoring


class TestGoingOutAndScoring:
    @pytest.mark.rule("STD-9.1", "official", f"{CONTRACT} STD-9.1")
    def test_the_hand_ends_when_the_last_card_is_played(self) -> None:
        g = std([["R3"], ["G1", "G5"], ["G2"], ["G3"]], "R7")
        ev = act(g, "play R3")
        assert "hand_end" in kinds(ev)
        assert g.hand_no == 2
        assert not g.is_terminal()
        assert all(len(h) >= 7 for h in g.hands)

    @pytest.mark.rule("STD-9.1", "official", f"{CONTRACT} STD-9.1")
    def test_a_position_in_play_with_a_player_out_is_refused(self) -> None:
        # the hand ends as the last card is played, so no hand in play has anyone out
        with pytest.raises(PositionError, match=r"STD-9\.1"):
            std([["R3", "G4"], [], ["G2"], ["G3"]], "R7")
        with pytest.raises(PositionError, match=r"STD-9\.1"):
            std([["R3", "G4"], ["G1"], ["G2"], ["G3"]], "R7", out_order=[1])
        with pytest.raises(PositionError, match=r"CT-7\.1"):
            position(variant="cutthroat", hands=[["R3", "G4"], [], ["G2"]], top="R7")

    @pytest.mark.rule("STD-9.2", "official", f"{CONTRACT} STD-9.2")
    def test_a_last_card_draw_two_is_still_drawn_and_scored(self) -> None:
        g = std([["R+2"], ["B5"], ["G2"], ["G3"]], "R7", draw=["R9", "Y1"])
        act(g, "play R+2")
        assert seat_value(g, 1) == 5 + 9 + 1
        assert seat_points(g, 0) == 15 + 2 + 3

    @pytest.mark.rule("STD-9.3", "official", f"{CONTRACT} STD-9.3 card values")
    def test_winner_scores_the_opponents_cards(self) -> None:
        g = std([["R3"], ["R5", "RS", "W"], ["B+2", "BR", "WD4"], ["G0", "Y9"]], "R7")
        act(g, "play R3")
        assert [seat_value(g, s) for s in range(4)] == [0, 75, 90, 9]
        assert g.scores == [174, 0, 0, 0]

    @pytest.mark.rule("STD-9.4", "official", f"{CONTRACT} STD-9.4")
    def test_below_the_target_a_new_hand_is_dealt(self) -> None:
        g = std([["R3"], ["G1"], ["G2"], ["G3"]], "R7", scores=[400, 0, 0, 0])
        act(g, "play R3")
        assert g.scores[0] == 406
        assert not g.is_terminal()
        assert g.hand_no == 2

    @pytest.mark.rule("STD-9.4", "official", f"{CONTRACT} STD-9.4 target_score")
    @pytest.mark.parametrize(("target", "over"), [(500, False), (50, True)])
    def test_target_score(self, target: int, over: bool) -> None:
        g = std([["R3"], ["G9", "B9"], ["W"], ["G3"]], "R7",
                options={"target_score": target})
        act(g, "play R3")
        assert g.scores[0] == 71
        assert g.is_terminal() is over
        assert g.winners == ([0] if over else [])

    @pytest.mark.rule("STD-9.4", "official", f"{CONTRACT} STD-9.4 \"reaches 500 or more\"")
    def test_reaching_the_target_exactly_ends_the_game(self) -> None:
        # a total of exactly 500 reaches the target: the game ends (one point short does not)
        for before, over in ((429, True), (428, False)):
            g = std([["R3"], ["G9", "B9"], ["W"], ["G3"]], "R7", scores=[before, 0, 0, 0])
            ev = act(g, "play R3")
            assert g.scores[0] == before + 71
            assert g.is_terminal() is over and g.winners == ([0] if over else [])
            assert ("game_end" in kinds(ev)) is over

    @pytest.mark.rule("STD-9.4", "official", f"{CONTRACT} §4 rounds")
    @pytest.mark.parametrize(("rounds", "over"), [(0, False), (1, True)])
    def test_rounds(self, rounds: int, over: bool) -> None:
        g = std([["R3"], ["G1"], ["G2"], ["G3"]], "R7", options={"rounds": rounds})
        act(g, "play R3")
        assert g.is_terminal() is over
        assert g.winners == ([0] if over else [])

    @pytest.mark.rule("STD-9.4", "ruling", f"{CONTRACT} §4 max_turns")
    @pytest.mark.parametrize(("max_turns", "over"), [(0, False), (2, True)])
    def test_max_turns(self, max_turns: int, over: bool) -> None:
        g = std([["R3", "R4", "R5"], ["R1", "G1", "G5"], ["G2", "B2"], ["G3", "B3"]], "R7",
                options={"max_turns": max_turns})
        act(g, "play R3")
        assert not g.is_terminal()
        act(g, "play R1")
        assert g.is_terminal() is over

    @pytest.mark.rule("STD-9.4", "ruling", f"{CONTRACT} §4 max_turns, TD-6.4 (no result)")
    @pytest.mark.parametrize(("scores", "winners"), [([0, 0, 0, 0], []),
                                                     ([0, 120, 40, 0], [1])])
    def test_a_stopped_game_is_won_by_the_best_total_only(self, scores: list[int],
                                                          winners: list[int]) -> None:
        g = std([["R3", "R4", "R5"], ["R1", "G1", "G5"], ["G2", "B2"], ["G3", "B3"]], "R7",
                scores=scores, options={"max_turns": 1})
        act(g, "play R3")
        assert g.is_terminal()
        assert g.scores == scores
        assert g.winners == winners
        assert g.returns() == [1.0 if s in winners else 0.0 for s in range(4)]

    @pytest.mark.rule("STD-9.5", "official", "ruling", f"{CONTRACT} STD-9.5 scoring")
    def test_penalty_points_each_player_scores_his_own_cards(self) -> None:
        g = std([["R3"], ["R5", "RS"], ["W"], ["G0", "Y9"]], "R7",
                options={"scoring": "penalty_points"})
        act(g, "play R3")
        assert g.scores == [0, 25, 50, 9]
        assert not g.is_terminal()

    @pytest.mark.rule("STD-9.5", "official", "ruling", f"{CONTRACT} STD-9.5 lowest wins")
    def test_penalty_points_lowest_total_wins_ties_share(self) -> None:
        g = std([["R3"], ["R5", "RS"], ["W"], ["G0", "Y9"]], "R7", scores=[40, 10, 480, 31],
                options={"scoring": "penalty_points"})
        act(g, "play R3")
        assert g.scores == [40, 35, 530, 40]
        assert g.is_terminal()
        assert g.winners == [1]

    @pytest.mark.rule("STD-9.5", "ruling", f"{CONTRACT} STD-9.5 equal lowest totals share")
    def test_penalty_points_equal_lowest_totals_share_the_win(self) -> None:
        g = std([["R3"], ["R5", "RS"], ["W"], ["G0", "Y9"]], "R7", scores=[40, 15, 480, 31],
                options={"scoring": "penalty_points"})
        act(g, "play R3")
        assert g.winners == [0, 1, 3]

    @pytest.mark.rule("STD-9.3", "official", f"{CONTRACT} STD-9.3/9.5 scoring option")
    @pytest.mark.parametrize(("scoring", "scores"), [("winner_takes", [84, 0, 0, 0]),
                                                     ("penalty_points", [0, 25, 50, 9])])
    def test_scoring_option(self, scoring: str, scores: list[int]) -> None:
        g = std([["R3"], ["R5", "RS"], ["W"], ["G0", "Y9"]], "R7", options={"scoring": scoring})
        act(g, "play R3")
        assert g.scores == scores


# =========================================================================== STD-10 reshuffle


class TestReshuffleAndIllegal:
    @pytest.mark.rule("STD-10.1", "official", f"{CONTRACT} STD-10.1")
    def test_a_draw_two_reshuffles_when_the_draw_pile_runs_out(self) -> None:
        g = std([["R+2", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                discard=["Y4", "Y6", "R7"], draw=["B1"])
        ev = act(g, "play R+2")
        assert "reshuffle" in kinds(ev)
        assert len(g.hands[1]) == 3
        assert "B1" in hand(g, 1)
        assert [card_code(c) for c in g.discard] == ["R+2"]
        assert sorted(hand(g, 1) + [card_code(c) for c in g.draw_pile]) == [
            "B1", "G1", "R7", "Y4", "Y6"]
        assert g.current_player() == 2

    @pytest.mark.rule("STD-10.2", "official", "ruling", f"{CONTRACT} STD-10.2, §0.3")
    def test_an_illegal_play_is_refused_and_costs_nothing(self) -> None:
        g = std([["B5", "Y2"], ["G1"], ["G2"], ["G3"]], "R7")
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "play B5")
        with pytest.raises(IllegalActionError):
            act(g, "play G1")
        with pytest.raises(IllegalActionError):
            act(g, "draw", seat=1)
        assert pos(g) == before


# =========================================================================== STD-11 partners


def _partners(p0: list[str] | None = None, **fields: Any) -> GameState:
    options = {"partners": True}
    options.update(fields.pop("options", {}))
    hands = [p0 or ["R3"], ["R5", "Y5"], ["W", "B4"], ["G0", "B1"]]
    return std(hands, "R7", options=options, **fields)


class TestPartners:
    @pytest.mark.rule("STD-11.1", "official", f"{CONTRACT} STD-11.1")
    def test_partners_sit_opposite(self) -> None:
        g = _partners()
        assert g.team_of(0) == (0, 2)
        assert g.team_of(3) == (1, 3)

    @pytest.mark.rule("STD-11.1", "official", f"{CONTRACT} STD-11.1, STD-11.4")
    @pytest.mark.parametrize(("players", "ok"), [(3, False), (4, True), (5, False), (6, True),
                                                 (7, False), (8, True), (10, True)])
    def test_partners_need_an_even_table_of_four_to_ten(self, players: int, ok: bool) -> None:
        if ok:
            g = hotdeath.new_game("standard", players=players, seed=1,
                                  options={"partners": True})
            assert g.num_players() == players
        else:
            with pytest.raises(OptionError) as err:
                hotdeath.new_game("standard", players=players, seed=1,
                                  options={"partners": True})
            assert err.value.code == "bad_option_combination"

    @pytest.mark.rule("STD-11.2", "official", f"{CONTRACT} STD-11.2")
    def test_effects_target_seats_not_teams(self) -> None:
        g = _partners(["R+2", "B9"], draw=["Y1", "Y2"])
        act(g, "play R+2")
        assert len(g.hands[1]) == 4
        assert len(g.hands[2]) == 2
        assert g.current_player() == 2

    @pytest.mark.rule("STD-11.3", "official", "ruling", f"{CONTRACT} STD-11.3")
    @pytest.mark.parametrize(("partners", "points"), [(True, 11), (False, 65)])
    def test_the_partners_hand_is_not_counted(self, partners: bool, points: int) -> None:
        g = _partners(options={"partners": partners})
        act(g, "play R3")
        assert seat_points(g, 0) == points

    @pytest.mark.rule("STD-11.3", "official", "ruling", f"{CONTRACT} STD-11.3 team totals")
    def test_a_team_wins_when_its_total_reaches_500(self) -> None:
        g = _partners(scores=[300, 0, 190, 0])
        act(g, "play R3")
        assert g.is_terminal()
        assert g.winners == [0, 2]

    @pytest.mark.rule("STD-11.3", "ruling", f"{CONTRACT} §4 partners_victory, CT-9.3")
    @pytest.mark.parametrize(("victory", "winners"), [("team", [0, 2]), ("individual", [0])])
    def test_partners_victory(self, victory: str, winners: list[int]) -> None:
        g = _partners(options={"partners_victory": victory, "rounds": 1})
        act(g, "play R3")
        assert g.is_terminal()
        assert g.winners == winners

    @pytest.mark.rule("STD-11.4", "ruling", f"{CONTRACT} STD-11.4")
    def test_six_player_partner_is_across_the_table(self) -> None:
        g = std([["G1"], ["R3"], ["G2"], ["G3"], ["W"], ["G4"]], "R7", turn=1,
                options={"partners": True})
        assert g.team_of(1) == (1, 4)
        act(g, "play R3")
        assert seat_points(g, 1) == 1 + 2 + 3 + 4


# =========================================================================== STD-12 house rules


def _stack(victim: list[str], options: dict[str, object], top: str = "R+2",
           **fields: Any) -> GameState:
    """P1 faces a pot of 2 from P0's Draw Two (or 4 from a Wild Draw Four)."""
    count = 4 if top == "WD4" else 2
    fields.setdefault("draw", ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G9"])
    if top == "WD4":
        fields.setdefault("color", "blue")
    return std([["B5", "B6"], victim, ["G+2", "G2", "G4"], ["G3", "B3", "B4"]], top,
               pot={"count": count, "last_card": top, "victim": 1}, top_player=0,
               options=options, **fields)


class TestStacking:
    @pytest.mark.rule("STD-12.1", "STD-5.4", "STD-5.6", "official", "docs/notation.md pending")
    @pytest.mark.parametrize(("top", "count"), [("R+2", 2), ("WD4", 4)])
    def test_a_hand_made_pot_counts_its_top_card(self, top: str, count: int) -> None:
        # a position's pot without a count holds what its top card makes draw: 2 for a
        # Draw Two (STD-5.4), 4 for a Wild Draw Four (STD-5.6)
        g = std([["B5", "B6"], ["G1", "G4"], ["G2"]], top, players=3, turn=1,
                **({"color": "blue"} if top == "WD4" else {}),
                pending={"type": "pot", "victim": 1}, options={"stacking": "flat"},
                draw=["Y1", "Y2", "Y3", "Y4", "Y5"])
        assert pos(g)["pending"]["count"] == count
        act(g, "accept")
        assert len(g.hands[1]) == 2 + count and g.current_player() == 2

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 stacking")
    @pytest.mark.parametrize(("stacking", "phase"), [("none", "turn"), ("flat", "response"),
                                                     ("escalating", "response")])
    def test_stacking_option_gives_the_victim_a_choice(self, stacking: str, phase: str) -> None:
        g = std([["R+2", "B5", "B6"], ["B+2", "G1", "G4"], ["G2"], ["G3"]], "R7",
                draw=["Y1", "Y2"], options={"stacking": stacking})
        act(g, "play R+2")
        assert pos(g)["phase"] == phase
        if phase == "response":
            assert legal(g) == ["play B+2", "accept"]
            assert g.current_player() == 1

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 pot passes on")
    def test_the_pot_passes_on_until_someone_draws_it(self) -> None:
        g = _stack(["B+2", "G1"], {"stacking": "flat"})
        act(g, "play B+2")
        assert pos(g)["pending"]["count"] == 4
        assert g.current_player() == 2
        act(g, "play G+2")
        assert pos(g)["pending"]["count"] == 6
        assert g.current_player() == 3
        assert legal(g) == ["accept"]
        act(g, "accept")
        assert len(g.hands[3]) == 9
        assert g.current_player() == 0

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 flat vs escalating")
    @pytest.mark.parametrize(("stacking", "wd4_on_draw_two"), [("flat", False),
                                                               ("escalating", True)])
    def test_wild_draw_four_on_a_draw_two(self, stacking: str, wd4_on_draw_two: bool) -> None:
        g = _stack(["WD4", "G1"], {"stacking": stacking})
        assert ("play WD4 red" in legal(g)) is wd4_on_draw_two
        assert "accept" in legal(g)

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 escalating")
    def test_escalating_wild_draw_four_on_draw_two_makes_six(self) -> None:
        g = _stack(["WD4", "G1"], {"stacking": "escalating"})
        act(g, "play WD4 green")
        assert pos(g)["pending"]["count"] == 6
        assert g.current_player() == 2

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 never +2 on +4")
    @pytest.mark.parametrize("stacking", ["flat", "escalating"])
    def test_no_draw_two_on_a_wild_draw_four(self, stacking: str) -> None:
        g = _stack(["B+2", "WD4"], {"stacking": stacking}, top="WD4")
        acts = legal(g)
        assert "play B+2" not in acts
        assert "play WD4 red" in acts
        assert "challenge" in acts

    @pytest.mark.rule("STD-12.1", "ruling", f"{CONTRACT} STD-12.1 challenge a WD4 pot")
    def test_guilty_challenge_of_a_pot_the_wd4_player_draws_it_all(self) -> None:
        g = std([["B5"], ["B6", "R6"], ["G2"], ["G3"]], "WD4", color="blue", turn=2,
                pot={"count": 8, "last_card": "WD4", "victim": 2},
                wd4={"player": 1, "legal": False}, top_player=1,
                draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G9"],
                options={"stacking": "flat"})
        act(g, "challenge")
        assert len(g.hands[1]) == 10
        assert hand(g, 2) == ["G2"]
        assert g.current_player() == 2
        assert pos(g)["phase"] == "turn"

    @pytest.mark.rule("STD-12.1", "ruling", f"{CONTRACT} STD-12.1 challenge a WD4 pot")
    def test_failed_challenge_of_a_pot_costs_pot_plus_two(self) -> None:
        g = std([["B5"], ["G6", "R6"], ["G2"], ["G3"]], "WD4", color="blue", turn=2,
                pot={"count": 8, "last_card": "WD4", "victim": 2},
                wd4={"player": 1, "legal": True}, top_player=1,
                draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G9"],
                options={"stacking": "flat"})
        act(g, "challenge")
        assert len(g.hands[2]) == 11
        assert len(g.hands[1]) == 2
        assert g.current_player() == 3


    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1 with no_bluffing")
    def test_strict_rule_refuses_an_illegal_stacked_wild_draw_four(self) -> None:
        g = _stack(["WD4", "B1", "G1"], {"stacking": "flat", "wild_draw_four_rule": "strict"},
                   top="WD4")
        assert legal(g) == ["accept"]
        honest = _stack(["WD4", "G1", "G7"],
                        {"stacking": "flat", "wild_draw_four_rule": "strict"}, top="WD4")
        assert "play WD4 red" in legal(honest)

    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} STD-12.1, STD-9.2")
    def test_going_out_on_a_stacked_card_the_next_player_draws_the_pot(self) -> None:
        g = _stack(["B+2"], {"stacking": "flat"})
        act(g, "play B+2")
        assert g.last_hand is not None
        assert g.last_hand.winner == 1
        assert len(g.last_hand.seats) == 4
        assert seat_value(g, 2) == 20 + 2 + 4 + 1 + 2 + 3 + 4


class TestSevenO:
    @pytest.mark.rule("STD-12.2", "official", f"{CONTRACT} STD-12.2 seven_o")
    @pytest.mark.parametrize(("on", "plays"), [
        (False, ["play R3"]), (True, ["play R3 @1", "play R3 @2", "play R3 @3"])])
    def test_seven_o_option(self, on: bool, plays: list[str]) -> None:
        g = std([["R7", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R3", options={"seven_o": on})
        sevens = [a for a in legal(g) if a.startswith("play R7")]
        assert sevens == [p.replace("R3", "R7") for p in plays]

    @pytest.mark.rule("STD-12.2", "official", f"{CONTRACT} STD-12.2 seven swaps")
    def test_a_seven_swaps_hands_with_the_chosen_player(self) -> None:
        g = std([["R7", "B1", "B2"], ["G1"], ["G2", "G4"], ["G3", "G5"]], "R3",
                options={"seven_o": True})
        act(g, "play R7 @2")
        assert hand(g, 0) == ["G2", "G4"]
        assert hand(g, 2) == ["B1", "B2"]
        assert g.current_player() == 1

    @pytest.mark.rule("STD-12.2", "official", f"{CONTRACT} STD-12.2 one-card hand received")
    def test_receiving_a_one_card_hand_starts_an_uno_episode(self) -> None:
        g = std([["R7", "B1", "B2"], ["G1"], ["G2", "G4"], ["G3", "G5"]], "R3",
                options={"seven_o": True})
        act(g, "play R7 @1")
        assert hand(g, 0) == ["G1"]
        assert g.uno_open == [0]
        assert "catch 0" in legal(g, 3)

    @pytest.mark.rule("STD-12.2", "official", f"{CONTRACT} STD-12.2 zero rotates")
    @pytest.mark.parametrize(("direction", "receivers"), [("cw", [3, 0, 1, 2]),
                                                          ("ccw", [1, 2, 3, 0])])
    def test_a_zero_passes_every_hand_in_the_direction_of_play(
        self, direction: str, receivers: list[int]
    ) -> None:
        start = [["R0", "R1", "R2"], ["Y1", "Y2"], ["G1", "G2"], ["B1", "B2"]]
        g = std(start, "R3", direction=direction, options={"seven_o": True})
        act(g, "play R0")
        after = [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"], ["B1", "B2"]]
        # receivers[s] is the seat whose (post-play) hand seat s now holds
        assert [hand(g, s) for s in range(4)] == [after[receivers[s]] for s in range(4)]

    @pytest.mark.rule("STD-12.2", "ruling", f"{CONTRACT} STD-12.2 last card")
    @pytest.mark.parametrize("play", ["play R7", "play R7 @1"])
    def test_a_last_card_seven_swaps_nothing(self, play: str) -> None:
        # the hand ends before any swap, so the last 7 needs nobody named (as a last-card
        # wild needs no colour, STD-4); naming somebody is still accepted and swaps nothing
        g = std([["R7"], ["G1", "G9"], ["G2"], ["G3"]], "R3", options={"seven_o": True})
        assert legal(g) == ["play R7 @1", "play R7 @2", "play R7 @3", "play R7", "draw"]
        ev = act(g, play)
        assert "swap" not in kinds(ev)
        assert g.last_hand is not None
        assert g.last_hand.winner == 0
        assert seat_value(g, 1) == 10
        assert seat_points(g, 0) == 15

    @pytest.mark.rule("STD-12.2", "ruling", f"{CONTRACT} STD-12.2 last card, STD-12.3")
    def test_a_last_card_seven_jumps_in_without_naming_anybody(self) -> None:
        g = std([["R5", "B1"], ["G1", "G9"], ["R7"], ["G3", "G4"]], "R7", top_player=3,
                options={"seven_o": True, "jump_in": True})
        assert legal(g, 2) == ["jump R7 @0", "jump R7 @1", "jump R7 @3", "jump R7"]
        ev = act(g, "jump R7", seat=2)
        assert "swap" not in kinds(ev)
        assert g.last_hand is not None and g.last_hand.winner == 2
        assert seat_value(g, 1) == 10


def _jump(**fields: Any) -> GameState:
    """P0 has just played R5; P1 is to act; P2 holds the other red 5."""
    options = {"jump_in": True}
    options.update(fields.pop("options", {}))
    return std([["B5", "G8"], ["B1", "B2"], ["R5", "G2", "G4"], ["W", "G3"]], "R5",
               top_player=0, options=options, **fields)


class TestJumpIn:
    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.3 jump_in")
    @pytest.mark.parametrize(("on", "can"), [(True, True), (False, False)])
    def test_jump_in_option(self, on: bool, can: bool) -> None:
        g = _jump(turn=1, options={"jump_in": on})
        assert ("jump R5" in legal(g, 2)) is can

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.3")
    def test_an_identical_card_is_played_out_of_turn_and_play_continues(self) -> None:
        g = _jump(turn=1)
        act(g, "jump R5", seat=2)
        assert hand(g, 2) == ["G2", "G4"]
        assert card_code(g.discard[-1]) == "R5"
        assert g.current_player() == 3

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.3 play continues from them")
    def test_a_jumped_in_skip_skips_the_player_after_the_jumper(self) -> None:
        g = std([["B5", "G8"], ["B1", "B2"], ["G2"], ["RS", "G3", "G4"]], "RS", top_player=0,
                turn=1, options={"jump_in": True})
        ev = act(g, "jump RS", seat=3)
        assert [e.seat for e in ev if e.kind == "skip"] == [0]
        assert g.current_player() == 1

    @pytest.mark.rule("STD-12.3", "ruling", f"{CONTRACT} STD-12.3 not on one's own card")
    def test_the_player_of_the_top_card_cannot_jump_in(self) -> None:
        g = std([["R5", "G8"], ["B1", "B2"], ["G2"], ["W", "G3"]], "R5", top_player=0,
                turn=1, options={"jump_in": True})
        assert "jump R5" not in legal(g, 0)
        with pytest.raises(IllegalActionError):
            act(g, "jump R5", seat=0)
        other = std([["B5", "G8"], ["B1", "B2"], ["R5", "G2"], ["W", "G3"]], "R5",
                    top_player=0, turn=1, options={"jump_in": True})
        assert "jump R5" in legal(other, 2)

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.3 identical only")
    def test_only_an_identical_card_may_jump_in(self) -> None:
        g = std([["B5", "B6"], ["B1", "B2"], ["Y5", "G2"], ["W", "G3"]], "R5", top_player=1,
                turn=1, options={"jump_in": True})
        assert not any(a.startswith("jump") for a in legal(g, 2))
        assert not any(a.startswith("jump") for a in legal(g, 3))

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.3 wilds never jump in")
    def test_wilds_never_jump_in(self) -> None:
        g = std([["R1", "B6"], ["B1", "B2"], ["W", "G2"], ["G3"]], "W", color="red",
                top_player=3, turn=0, options={"jump_in": True})
        assert not any(a.startswith("jump") for a in legal(g, 2))

    @pytest.mark.rule("STD-12.3", "ruling", f"{CONTRACT} STD-12.3 after automatic draws")
    def test_jump_in_after_a_draw_two_has_been_drawn(self) -> None:
        g = std([["R+2", "B5"], ["G1"], ["G2"], ["R+2", "G3"]], "R7",
                draw=["Y1", "Y2", "Y3", "Y4"], options={"jump_in": True})
        act(g, "play R+2")
        assert len(g.hands[1]) == 3
        assert "jump R+2" in legal(g, 3)
        act(g, "jump R+2", seat=3)
        assert len(g.hands[0]) == 3
        assert g.current_player() == 1

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-12.2, STD-12.3 a jumped-in 7")
    def test_a_jumped_in_seven_swaps_with_the_chosen_player(self) -> None:
        g = std([["B5", "G8"], ["B1", "B2"], ["R7", "G2", "G4"], ["Y3", "Y5", "Y6", "Y7"]],
                "R7", top_player=0, turn=1, options={"jump_in": True, "seven_o": True})
        assert [a for a in legal(g, 2) if a.startswith("jump")] == [
            "jump R7 @0", "jump R7 @1", "jump R7 @3"]
        with pytest.raises(IllegalActionError):
            act(g, "jump R7", seat=2)
        act(g, "jump R7 @1", seat=2)
        assert hand(g, 2) == ["B1", "B2"]
        assert hand(g, 1) == ["G2", "G4"]
        assert hand(g, 3) == ["Y3", "Y5", "Y6", "Y7"]
        assert g.current_player() == 3

    @pytest.mark.rule("STD-12.3", "official", f"{CONTRACT} STD-8.1 call with the play, STD-12.3")
    def test_a_jump_in_that_leaves_one_card_may_call_uno(self) -> None:
        g = _jump(turn=1)
        del g.hands[2][-1]  # P2 holds R5 and G2
        assert [a for a in legal(g, 2) if a.startswith("jump")] == ["jump R5", "jump R5 uno"]
        ev = act(g, "jump R5 uno", seat=2)
        assert "uno" in kinds(ev)
        assert g.uno_open == []
        assert not any(a.startswith("catch") for a in legal(g, 3))

    @pytest.mark.rule("STD-12.3", "ruling", f"{CONTRACT} STD-12.3 first in turn order")
    @pytest.mark.parametrize(("direction", "order"), [("cw", [2, 3]), ("ccw", [3, 2])])
    def test_claims_are_offered_in_turn_order_from_the_player_to_act(
            self, direction: str, order: list[int]) -> None:
        g = std([["B5", "G8"], ["B1", "B2"], ["R5", "G2"], ["R5", "G3"]], "R5", top_player=0,
                turn=1, direction=direction, options={"jump_in": True, "decks": 2})
        assert window_seats(g) == order

    @pytest.mark.rule("STD-12.3", "ruling", f"{CONTRACT} STD-12.3 window closes")
    def test_the_window_closes_with_the_next_turn_action(self) -> None:
        g = _jump(turn=1, draw=["Y1"])
        act(g, "draw")
        assert "jump R5" not in legal(g, 2)


class TestDrawRules:
    @pytest.mark.rule("STD-12.4", "official", f"{CONTRACT} STD-12.4 draw_rule")
    @pytest.mark.parametrize(("rule", "drawn"), [("one", ["B2"]),
                                                 ("until_playable", ["B2", "G4", "R9"])])
    def test_draw_rule(self, rule: str, drawn: list[str]) -> None:
        g = std([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", "G4", "R9", "Y1"],
                options={"draw_rule": rule})
        assert "pass" not in legal(g)
        ev = act(g, "draw")
        assert hand(g, 0) == sorted(["B5", *drawn])
        if rule == "until_playable":  # R9 is playable: P0 plays it or passes
            assert "pass" not in kinds(ev)
            assert g.current_player() == 0
            assert legal(g) == ["play R9", "pass"]
        else:  # B2 cannot be played: the turn passes at once
            assert kinds(ev) == ["draw", "pass"]
            assert (ev[-1].seat, ev[-1].rule) == (0, "STD-4")
            assert g.current_player() == 1

    @pytest.mark.rule("STD-12.4", "official", f"{CONTRACT} STD-12.4 force play")
    def test_draw_until_playable_with_force_play_must_play_it(self) -> None:
        g = std([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", "R9"],
                options={"draw_rule": "until_playable", "drawn_card_play": "must"})
        act(g, "draw")
        assert legal(g) == ["play R9"]
        act(g, "play R9")
        assert g.current_player() == 1


class TestColourMustChange:
    @pytest.mark.rule("STD-5.5", "official", f"{CONTRACT} §4 wild_color_must_change, CT-4.4")
    @pytest.mark.parametrize(("must", "colours"), [
        (False, ["red", "yellow", "green", "blue"]), (True, ["yellow", "green", "blue"])])
    def test_wild_color_must_change(self, must: bool, colours: list[str]) -> None:
        g = std([["W", "WD4", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                options={"wild_color_must_change": must})
        assert [a.split()[-1] for a in legal(g) if a.startswith("play W ")] == colours
        assert len([a for a in legal(g) if a.startswith("play WD4 ")]) == 4

    @pytest.mark.rule("STD-5.6", "official", f"{CONTRACT} §4 wd4_color_must_change, CT-4.3")
    @pytest.mark.parametrize(("must", "colours"), [
        (False, ["red", "yellow", "green", "blue"]), (True, ["yellow", "green", "blue"])])
    def test_wd4_color_must_change(self, must: bool, colours: list[str]) -> None:
        g = std([["W", "WD4", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
                options={"wd4_color_must_change": must})
        assert [a.split()[-1] for a in legal(g) if a.startswith("play WD4 ")] == colours
        assert len([a for a in legal(g) if a.startswith("play W ")]) == 4


class TestInitialDirection:
    @pytest.mark.rule("STD-2.2", "official", f"{CONTRACT} §4 initial_direction")
    @pytest.mark.parametrize(("direction", "first"), [(1, 1), (-1, 3)])
    def test_initial_direction(self, direction: int, first: int) -> None:
        seed, _ = first_game(NUMBER)
        g = hotdeath.new_game("standard", players=4, seed=seed,
                              options={"initial_direction": direction})
        assert g.direction == direction
        assert g.current_player() == first


# =========================================================================== presets and views


class TestPresetsAndViews:
    @pytest.mark.rule("STD-12.1", "official", f"{CONTRACT} §4 presets")
    @pytest.mark.parametrize(("preset", "changed"), [
        ("official", {}),
        ("house", {"stacking": "flat", "seven_o": True, "jump_in": True}),
        ("no_bluffing", {"wild_draw_four_rule": "strict"}),
    ])
    def test_presets_resolve_to_their_options(self, preset: str,
                                              changed: dict[str, object]) -> None:
        g = hotdeath.new_game("standard", players=4, seed=1, preset=preset)
        assert pos(g)["options"] == changed
        assert hotdeath.new_game("standard", players=4, seed=1).opts == \
            hotdeath.new_game("standard", players=4, seed=1, preset="official").opts

    @pytest.mark.rule("STD-6.2", "official", f"{CONTRACT} STD-6.2 preset no_bluffing")
    def test_no_bluffing_preset_refuses_an_illegal_wild_draw_four(self) -> None:
        g = position(variant="standard", preset="no_bluffing",
                     hands=[["WD4", "R3", "B5"], ["G1"], ["G2"], ["G3"]], top="R7")
        assert legal(g) == ["play R3", "draw"]

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} §0.6, views")
    def test_a_seat_view_holds_its_own_hand_only(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4", "Y9"], ["G2"], ["G3"]], "R7")
        v = g.view(1)
        assert v.hand is not None
        assert sorted(card_code(c) for c in v.hand) == ["G1", "G4", "Y9"]
        assert [s.hand_size for s in v.seats] == [2, 3, 1, 1]
        shown = v.to_json()
        assert "R3" not in str(shown["seats"]) and "B5" not in str(shown["hand"])
        assert v.legal_actions == ()

    @pytest.mark.rule("STD-1.1", "official", f"{CONTRACT} §0.6, views")
    def test_a_spectator_view_has_no_hand(self) -> None:
        g = std([["R3", "B5"], ["G1", "G4", "Y9"], ["G2"], ["G3"]], "R7")
        v = g.view(None)
        assert v.hand is None
        assert v.legal_actions == ()
        assert [s.hand_size for s in v.seats] == [2, 3, 1, 1]
        assert sorted(card_code(c) for c in v.known_cards()) == ["R7"]
