"""Scenario tests of Cutthroat Uno (seed 003; uno-variants.md §2 and the Cutthroat column of §4).

Every test builds a position (or a seeded new game for the first card and the deal),
applies actions and checks the outcome.  Rule ids are those of ``hotdeath.rulebook``
(CT-…).  Cutthroat is Standard Uno except where the seed changes it, so these tests
concentrate on the differences, and on every option of the Cutthroat column with two of
its values on the same position.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

import hotdeath
from hotdeath import actions as A
from hotdeath.cards import DRAW_TWO, FACE_KIND, NUMBER, REVERSE, SKIP, WILD, card_code
from hotdeath.cards import WD4 as WD4_FACE
from hotdeath.cli import app
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.notation import from_position, to_position
from hotdeath.options import specs as option_specs
from hotdeath.pending import Pot
from hotdeath.results import HandResult
from hotdeath.rulebook import RULES
from hotdeath.state import GameState
from hotdeath.variants.cutthroat import CutthroatOptions
from hotdeath.variants.standard import StandardOptions
from tests.support import act, hand, kinds, legal, pos, position

CONTRACT = "uno-variants.md"
SEED = "seed 003"
Y = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]


def ct(hands: list[list[str]], top: str, **fields: Any) -> GameState:
    """A Cutthroat position (turn 0 and clockwise unless given)."""
    return position(variant="cutthroat", hands=hands, top=top, **fields)


def first_game(
    test: Callable[[int], bool],
    players: int = 4,
    options: dict[str, object] | None = None,
    dealer: int | None = None,
) -> tuple[int, GameState]:
    """The first seed whose first up-card (the bottom of the discard pile) passes ``test``."""
    for seed in range(3000):
        g = hotdeath.new_game("cutthroat", players=players, seed=seed, options=options,
                              dealer=dealer)
        if test(g.discard[0]):
            return seed, g
    raise AssertionError("no seed turns up such a card")


def kind_is(kind: int) -> Callable[[int], bool]:
    return lambda f: FACE_KIND[f] == kind and f != WD4_FACE


def all_cards(g: GameState) -> Counter[str]:
    cards = [c for h in g.hands for c in h] + g.draw_pile + g.discard
    return Counter(card_code(c) for c in cards)


def refused(option: str, value: object) -> None:
    with pytest.raises(OptionError) as err:
        hotdeath.new_game("cutthroat", players=4, seed=1, options={option: value})
    assert err.value.code == "bad_option_value"


# =========================================================================== CT-1 setup


class TestSetup:
    @pytest.mark.rule("CT-1.1", SEED, f"{CONTRACT} CT-1.1, §4 decks")
    @pytest.mark.parametrize(("decks", "total"), [(1, 108), (2, 216)])
    def test_the_standard_deck(self, decks: int, total: int) -> None:
        g = hotdeath.new_game("cutthroat", players=4, seed=1, options={"decks": decks})
        cards = all_cards(g)
        assert sum(cards.values()) == total
        assert cards["WD4"] == 4 * decks
        assert cards["W"] == 4 * decks
        assert cards["R0"] == decks
        assert cards["B9"] == 2 * decks
        assert not any(FACE_KIND[f] > WILD and f != WD4_FACE for h in g.hands for f in h)

    @pytest.mark.rule("CT-1.2", SEED, "ruling", f"{CONTRACT} CT-1.2, §4 max_players")
    @pytest.mark.parametrize(("max_players", "players", "ok"), [
        (10, 2, True), (10, 10, True), (10, 11, False), (15, 15, True), (4, 5, False)])
    def test_players_irrelevant_but_at_most_max_players(
        self, max_players: int, players: int, ok: bool
    ) -> None:
        options = {"max_players": max_players}
        if ok:
            g = hotdeath.new_game("cutthroat", players=players, seed=2, options=options)
            assert g.num_players() == players
            assert sum(len(h) for h in g.hands) >= 7 * players
        else:
            with pytest.raises(OptionError) as err:
                hotdeath.new_game("cutthroat", players=players, seed=2, options=options)
            assert err.value.code == "bad_option_combination"

    @pytest.mark.rule("CT-1.3", SEED, "ruling", f"{CONTRACT} CT-1.3 dealer_selection=given")
    def test_whoever_deals_is_given(self) -> None:
        seed, _ = first_game(kind_is(NUMBER))
        g = hotdeath.new_game("cutthroat", players=4, seed=seed, dealer=2)
        assert g.dealer == 2
        assert g.current_player() == 3
        assert hotdeath.new_game("cutthroat", players=4, seed=seed).dealer == 0

    @pytest.mark.rule("CT-1.3", "ruling", f"{CONTRACT} §4 dealer_selection")
    @pytest.mark.parametrize(("selection", "several"), [
        ("given", False), ("draw_high", True), ("rotate_left", False)])
    def test_dealer_selection(self, selection: str, several: bool) -> None:
        # rotate_left has nothing to rotate: a Cutthroat game is a single hand (CT-7.1)
        dealers = {
            hotdeath.new_game("cutthroat", players=4, seed=s,
                              options={"dealer_selection": selection}).dealer
            for s in range(30)
        }
        assert (len(dealers) > 1) is several
        assert dealers <= {0, 1, 2, 3}

    @pytest.mark.rule("CT-1.4", SEED, f"{CONTRACT} CT-1.4")
    def test_seven_cards_each_the_rest_is_the_draw_pile_and_one_card_turned(self) -> None:
        _, g = first_game(kind_is(NUMBER), players=5)
        assert [len(h) for h in g.hands] == [7] * 5
        assert len(g.discard) == 1
        assert len(g.draw_pile) == 108 - 35 - 1
        assert g.current_player() == 1

    @pytest.mark.rule("CT-1.4", "official", f"{CONTRACT} §4 initial_direction")
    @pytest.mark.parametrize(("direction", "first"), [(1, 1), (-1, 3)])
    def test_initial_direction(self, direction: int, first: int) -> None:
        seed, _ = first_game(kind_is(NUMBER))
        g = hotdeath.new_game("cutthroat", players=4, seed=seed,
                              options={"initial_direction": direction})
        assert g.direction == direction
        assert g.current_player() == first


# =========================================================================== CT-2 first card


class TestFirstCard:
    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 number")
    def test_a_number_has_no_effect(self) -> None:
        _, g = first_game(kind_is(NUMBER))
        assert g.current_player() == 1
        assert [len(h) for h in g.hands] == [7, 7, 7, 7]

    @pytest.mark.rule("CT-2", SEED, "ruling", f"{CONTRACT} CT-2 Wild Draw Four")
    def test_wild_draw_four_left_of_dealer_draws_four_dealer_names_any_colour(self) -> None:
        _, g = first_game(lambda f: f == WD4_FACE)
        assert [card_code(c) for c in g.discard] == ["WD4"]  # not returned and redrawn
        assert [len(h) for h in g.hands] == [7, 11, 7, 7]
        assert pos(g)["phase"] == "choose_color"
        assert g.current_player() == 0  # the dealer calls out a colour
        assert legal(g) == ["color red", "color yellow", "color green", "color blue"]
        assert legal(g, 1) == []
        ev = act(g, "color green")
        assert [(e.kind, e.rule) for e in ev] == [("color", "CT-2")]
        assert pos(g)["color"] == "green"
        assert pos(g)["phase"] == "turn"
        assert g.current_player() == 2
        skips = [e for e in g.opening_events if e.kind == "skip"]
        assert [(e.seat, e.rule) for e in skips] == [(1, "CT-2")]

    @pytest.mark.rule("CT-2", "ruling", f"{CONTRACT} CT-2, §4 first_card_wd4_victim_loses_turn")
    @pytest.mark.parametrize(("loses", "first"), [(True, 2), (False, 1)])
    def test_first_card_wd4_victim_loses_turn(self, loses: bool, first: int) -> None:
        g = ct([["R3", "B5"], ["G1", "Y1", "Y2", "Y3", "Y4"], ["G2"], ["G3"]], "WD4",
               phase="choose_color", turn=0, dealer=0,
               options={"first_card_wd4_victim_loses_turn": loses})
        act(g, "color blue")
        assert g.current_player() == first
        seed, _ = first_game(lambda f: f == WD4_FACE)
        new = hotdeath.new_game("cutthroat", players=4, seed=seed,
                                options={"first_card_wd4_victim_loses_turn": loses})
        act(new, "color red")
        assert new.current_player() == first
        assert len(new.hands[1]) == 11

    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 two players, CT-8.3")
    def test_two_players_first_card_wd4_the_dealer_names_and_plays(self) -> None:
        _, g = first_game(lambda f: f == WD4_FACE, players=2)
        assert [len(h) for h in g.hands] == [7, 11]
        act(g, "color yellow")
        assert g.current_player() == 0

    @pytest.mark.rule("CT-2", SEED, "ruling", f"{CONTRACT} CT-2 Wild, §4 first_card_wild")
    def test_wild_left_of_dealer_names_any_of_four_colours_then_plays(self) -> None:
        _, g = first_game(kind_is(WILD))
        assert pos(g)["phase"] == "choose_color"
        assert g.current_player() == 1
        assert legal(g) == ["color red", "color yellow", "color green", "color blue"]
        act(g, "color green")
        assert g.current_player() == 1
        assert pos(g)["phase"] == "turn"
        assert pos(g)["color"] == "green"
        refused("first_card_wild", "redraw")
        assert g.opts.first_card_wild == "first_player_names"

    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 Draw Two, first_card_draw_two_loses_turn")
    def test_draw_two_left_of_dealer_draws_two_and_the_next_player_goes(self) -> None:
        _, g = first_game(kind_is(DRAW_TWO))
        assert [len(h) for h in g.hands] == [7, 9, 7, 7]
        assert g.current_player() == 2
        refused("first_card_draw_two_loses_turn", False)
        same = hotdeath.new_game("cutthroat", players=4, seed=1,
                                 options={"first_card_draw_two_loses_turn": "true"})
        assert same.opts.first_card_draw_two_loses_turn is True

    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 Reverse, first_card_reverse")
    def test_reverse_dealer_plays_first_then_to_the_right(self) -> None:
        _, g = first_game(kind_is(REVERSE), dealer=1)
        assert g.direction == -1
        assert g.current_player() == 1
        assert g.next_seat(1) == 0  # then play goes to the dealer's right
        refused("first_card_reverse", "dealer_right_first")

    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 (two players)")
    @pytest.mark.parametrize("kind", [REVERSE, SKIP, DRAW_TWO])
    def test_two_players_word_card_the_dealer_starts(self, kind: int) -> None:
        _, g = first_game(kind_is(kind), players=2)
        assert g.current_player() == 0

    @pytest.mark.rule("CT-2", SEED, f"{CONTRACT} CT-2 Skip")
    def test_skip_left_of_dealer_does_not_start(self) -> None:
        _, g = first_game(kind_is(SKIP))
        assert g.current_player() == 2
        assert [e.seat for e in g.opening_events if e.kind == "skip"] == [1]


# =========================================================================== CT-3 a turn


class TestTurn:
    @pytest.mark.rule("CT-3.1", SEED, f"{CONTRACT} CT-3.1 (the seed's red 7)")
    def test_on_a_red_seven_a_red_card_or_any_seven(self) -> None:
        g = ct([["R3", "Y7", "B2", "G+2", "B7"], ["G1"], ["G2"], ["G3"]], "R7")
        assert legal(g) == ["play R3", "play Y7", "play B7"]

    @pytest.mark.rule("CT-3.1", "ruling", f"{CONTRACT} CT-3.1 symbol matching, one card")
    def test_symbols_match_and_one_card_is_played_per_turn(self) -> None:
        g = ct([["BS", "BR", "B5"], ["G1"], ["G2"], ["G3"]], "RS")
        assert legal(g) == ["play BS"]
        act(g, "play BS")
        assert hand(g, 0) == ["B5", "BR"]
        assert g.current_player() == 2

    @pytest.mark.rule("CT-3.2", "ruling", f"{CONTRACT} CT-3.2, §4 may_draw_with_playable")
    @pytest.mark.parametrize(("may", "can_draw"), [(False, False), (True, True)])
    def test_may_draw_with_playable(self, may: bool, can_draw: bool) -> None:
        g = ct([["R3", "B5"], ["G1"], ["G2"], ["G3"]], "R7",
               options={"may_draw_with_playable": may})
        assert ("draw" in legal(g)) is can_draw
        assert "play R3" in legal(g)

    @pytest.mark.rule("CT-3.2", "ruling", f"{CONTRACT} CT-3.2 wilds are always playable")
    @pytest.mark.parametrize("wild", ["W", "WD4"])
    def test_a_wild_holder_never_draws(self, wild: str) -> None:
        g = ct([[wild, "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        assert "draw" not in legal(g)
        assert all(a.startswith(f"play {wild} ") for a in legal(g))
        with pytest.raises(IllegalActionError):
            act(g, "draw")

    @pytest.mark.rule("CT-3.2", "ruling", f"{CONTRACT} CT-3.2")
    def test_with_nothing_to_match_the_only_action_is_to_draw(self) -> None:
        g = ct([["Y3", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        assert legal(g) == ["draw"]

    @pytest.mark.rule("CT-3.3", SEED, "official", "ruling", f"{CONTRACT} CT-3.3 keep")
    def test_draw_until_a_match_keep_it_and_play_moves_on(self) -> None:
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", "G4", "R9", "Y1"])
        ev = act(g, "draw")
        assert kinds(ev) == ["draw", "draw", "draw", "pass"]
        assert {e.rule for e in ev} == {"CT-3.3"}
        assert hand(g, 0) == ["B2", "B5", "G4", "R9"]  # "shucks": R9 stays in the hand
        assert g.current_player() == 1
        assert [card_code(c) for c in g.discard] == ["R7"]
        assert pos(g)["drew"] is False

    @pytest.mark.rule("CT-3.3", "ruling", f"{CONTRACT} CT-3.3, §4 draw_until_match_then")
    @pytest.mark.parametrize(("then", "after"), [
        ("keep", []), ("may_play", ["play R9", "pass"]), ("must_play", ["play R9"])])
    def test_draw_until_match_then(self, then: str, after: list[str]) -> None:
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", "G4", "R9", "Y1"],
               options={"draw_until_match_then": then})
        act(g, "draw")
        assert hand(g, 0) == ["B2", "B5", "G4", "R9"]
        assert legal(g, 0) == after
        assert g.current_player() == (1 if then == "keep" else 0)
        if after:
            act(g, "play R9")
            assert hand(g, 0) == ["B2", "B5", "G4"]
            assert g.current_player() == 1

    @pytest.mark.rule("CT-3.3", "ruling", f"{CONTRACT} CT-3.3 a drawn wild is a match")
    @pytest.mark.parametrize("wild", ["W", "WD4"])
    def test_a_drawn_wild_stops_the_drawing(self, wild: str) -> None:
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", wild, "R9"])
        act(g, "draw")
        assert hand(g, 0) == sorted(["B2", "B5", wild])
        assert g.current_player() == 1

    @pytest.mark.rule("CT-3.3", "ruling", f"{CONTRACT} CT-3.3 the pile runs out")
    def test_the_pile_is_rebuilt_during_the_drawing(self) -> None:
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", discard=["R1", "R7"], draw=["B2"])
        ev = act(g, "draw")
        assert "reshuffle" in kinds(ev)
        assert hand(g, 0) == ["B2", "B5", "R1"]
        assert g.current_player() == 1

    @pytest.mark.rule("CT-3.3", "ruling", f"{CONTRACT} CT-3.3 no card can be drawn")
    def test_no_card_left_to_draw_the_turn_passes(self) -> None:
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=[])
        ev = act(g, "draw")
        assert kinds(ev) == ["forgiven", "pass"]  # no "draws 0 cards" line
        assert hand(g, 0) == ["B5"]
        assert g.current_player() == 1

    @pytest.mark.rule("CT-3.4", SEED, "ruling", f"{CONTRACT} CT-3.4")
    @pytest.mark.parametrize("standard_option", ["draw_rule", "drawn_card_play"])
    def test_there_is_no_single_card_draw(self, standard_option: str) -> None:
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("cutthroat", players=4, seed=1, options={standard_option: "one"})
        assert err.value.code == "unknown_option"
        g = ct([["B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=["B2", "Y1", "G4", "R9"])
        act(g, "draw")
        assert len(g.hands[0]) == 5


# =========================================================================== CT-4 card effects


class TestCardEffects:
    @pytest.mark.rule("CT-4.1", SEED, f"{CONTRACT} CT-4.1 Skip")
    def test_skip(self) -> None:
        g = ct([["RS", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        ev = act(g, "play RS")
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "CT-4.1")]
        assert g.current_player() == 2

    @pytest.mark.rule("CT-4.1", SEED, f"{CONTRACT} CT-4.1 Reverse")
    def test_reverse(self) -> None:
        g = ct([["RR", "B5"], ["G1"], ["G2"], ["G3"]], "R7")
        act(g, "play RR")
        assert g.direction == -1
        assert g.current_player() == 3

    @pytest.mark.rule("CT-4.1", SEED, f"{CONTRACT} CT-4.1 Draw Two")
    def test_draw_two(self) -> None:
        g = ct([["R+2", "B5"], ["G1"], ["G2"], ["G3"]], "R7", draw=Y)
        act(g, "play R+2")
        assert hand(g, 1) == ["G1", "Y1", "Y2"]
        assert g.current_player() == 2

    @pytest.mark.rule("CT-4.2", SEED, "official", f"{CONTRACT} CT-4.2, §4 stacking (fixed)")
    def test_no_stacking(self) -> None:
        g = ct([["R+2", "B5"], ["B+2", "WD4", "G1"], ["G2"], ["G3"]], "R7", draw=Y)
        act(g, "play R+2")
        assert pos(g)["phase"] == "turn"
        assert hand(g, 1) == ["B+2", "G1", "WD4", "Y1", "Y2"]
        assert g.current_player() == 2
        refused("stacking", "flat")
        assert hotdeath.new_game("cutthroat", players=4, seed=1,
                                 options={"stacking": "none"}).opts.stacking == "none"

    @pytest.mark.rule("CT-4.3", SEED, "ruling", f"{CONTRACT} CT-4.3")
    def test_wild_draw_four_next_player_draws_four_and_forfeits(self) -> None:
        g = ct([["WD4", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R7", draw=Y)
        act(g, "play WD4 red")  # the current colour may be named
        assert legal(g) == ["question", "accept"]
        act(g, "accept")
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert g.current_player() == 2
        assert pos(g)["color"] == "red"

    @pytest.mark.rule("CT-4.3", "ruling", f"{CONTRACT} CT-4.3, §4 wd4_color_must_change")
    @pytest.mark.parametrize(("must", "colours"), [
        (False, ["red", "yellow", "green", "blue"]), (True, ["yellow", "green", "blue"])])
    def test_wd4_color_must_change(self, must: bool, colours: list[str]) -> None:
        g = ct([["WD4", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R7",
               options={"wd4_color_must_change": must})
        assert [a.split()[-1] for a in legal(g)] == colours

    @pytest.mark.rule("CT-4.4", SEED, "ruling", f"{CONTRACT} CT-4.4 (the seed's three colours)")
    def test_a_wild_names_one_of_the_three_colours_not_in_play(self) -> None:
        g = ct([["W", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "W", color="green")
        assert legal(g) == ["play W red", "play W yellow", "play W blue"]
        with pytest.raises(IllegalActionError):
            act(g, "play W green")
        act(g, "play W red")
        assert pos(g)["color"] == "red"

    @pytest.mark.rule("CT-4.4", "ruling", f"{CONTRACT} CT-4.4, §4 wild_color_must_change")
    @pytest.mark.parametrize(("must", "colours"), [
        (True, ["yellow", "green", "blue"]), (False, ["red", "yellow", "green", "blue"])])
    def test_wild_color_must_change(self, must: bool, colours: list[str]) -> None:
        g = ct([["W", "B5", "B6"], ["G1"], ["G2"], ["G3"]], "R7",
               options={"wild_color_must_change": must})
        assert [a.split()[-1] for a in legal(g)] == colours

    @pytest.mark.rule("CT-4.4", "ruling", f"{CONTRACT} CT-4.4, STD-4 last card")
    def test_a_wild_played_as_the_last_card_needs_no_colour(self) -> None:
        g = ct([["W"], ["G1"], ["G2"], ["G3"]], "R7")
        assert "play W" in legal(g)
        act(g, "play W")
        assert g.winners == [0]


# =========================================================================== CT-5 illegal WD4


def _wd4(p0: list[str], options: dict[str, object] | None = None,
         **fields: Any) -> GameState:
    """P0 to play a Wild Draw Four on a red 7 (P1 answers it)."""
    fields.setdefault("draw", ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"])
    return ct([p0, ["G1"], ["G2", "G4"], ["G3", "G5"]], "R7", options=options or {},
              **fields)


def _pending(legal_wd4: bool, options: dict[str, object] | None = None,
             **fields: Any) -> GameState:
    """P1 faces a Wild Draw Four from P0 (blue named), written with ``pot`` and ``wd4``."""
    return ct([["B5", "R3"], ["G1"], ["G2", "G4"], ["G3", "G5"]], "WD4", color="blue",
              pot={"count": 4, "last_card": "WD4", "victim": 1},
              wd4={"player": 0, "legal": legal_wd4}, top_player=0,
              draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"],
              options=options or {}, **fields)


class TestIllegalWildDrawFour:
    @pytest.mark.rule("CT-5.1", SEED, "ruling", f"{CONTRACT} CT-5.1")
    def test_an_illegal_wild_draw_four_is_accepted_and_recorded(self) -> None:
        g = _wd4(["WD4", "R3", "B5"])
        assert "play WD4 blue" in legal(g)
        act(g, "play WD4 blue")
        assert (pos(g)["pending"]["sender"], pos(g)["pending"]["wd4_legal"]) == (0, False)
        honest = _wd4(["WD4", "G3", "B5"])
        act(honest, "play WD4 blue")
        assert (pos(honest)["pending"]["sender"], pos(honest)["pending"]["wd4_legal"]) == (0, True)

    @pytest.mark.rule("CT-5.1", SEED, "ruling", f"{CONTRACT} CT-5.1 (the seed's special "
                      "situations: next player in UNO)")
    def test_seed_special_situation_the_next_player_is_in_uno(self) -> None:
        # P1 is down to one card; P0 holds a red card and plays the Wild Draw Four anyway.
        g = ct([["WD4", "R3", "B5"], ["G1"], ["G2", "G4"], ["G3", "G5"]], "R7", draw=Y)
        act(g, "play WD4 green")
        ev = act(g, "question")
        assert [(e.kind, e.n, e.target) for e in ev if e.kind == "question"] == [
            ("question", 0, 0)]
        assert "illegal" in hotdeath.describe(ev[0])
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert hand(g, 0) == ["B5", "R3"]
        assert g.current_player() == 2

    @pytest.mark.rule("CT-5.1", SEED, "ruling", f"{CONTRACT} CT-5.1 (not only special cases)")
    def test_the_special_situations_are_not_enforced(self) -> None:
        g = ct([["WD4", "R3", "B5"], ["G1", "G6", "G7"], ["G2"], ["G3"]], "R7")
        assert [a for a in legal(g) if a.startswith("play WD4")] == [
            "play WD4 red", "play WD4 yellow", "play WD4 green", "play WD4 blue"]

    @pytest.mark.rule("CT-5.2", SEED, "ruling", f"{CONTRACT} CT-5.2 question")
    @pytest.mark.parametrize("was_legal", [True, False])
    def test_question_reveals_the_truth_and_changes_nothing(self, was_legal: bool) -> None:
        g = _pending(was_legal)
        assert legal(g) == ["question", "accept"]
        ev = act(g, "question")
        q = [e for e in ev if e.kind == "question"]
        assert len(q) == 1
        assert (q[0].seat, q[0].target, q[0].n, q[0].rule) == (1, 0, int(was_legal), "CT-5.2")
        assert not q[0].hidden  # a public announcement
        assert q[0].for_seat(3) == q[0]
        assert "reveal" not in kinds(ev)
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert hand(g, 0) == ["B5", "R3"]
        assert g.current_player() == 2
        assert pos(g)["color"] == "blue"
        accepted = _pending(was_legal)
        act(accepted, "accept")
        assert hand(accepted, 1) == hand(g, 1)
        assert accepted.current_player() == 2

    @pytest.mark.rule("CT-5.2", "ruling", f"{CONTRACT} CT-5.2 only the victim (B6)")
    def test_only_the_victim_may_question(self) -> None:
        g = _pending(False)
        assert "question" not in legal(g, 2)
        with pytest.raises(IllegalActionError):
            act(g, "question", seat=2)
        attack = g.view(2).attack
        assert isinstance(attack, Pot)
        assert (attack.victim, attack.wd4_legal) == (1, None)
        assert "question" in legal(g, 1) and "challenge" not in legal(g, 1)

    @pytest.mark.rule("CT-5.2", "ruling", f"{CONTRACT} CT-5.2, §4 wd4_challenge")
    @pytest.mark.parametrize(("mode", "answers", "p0", "p1", "turn"), [
        ("question", ["question", "accept"], 2, 5, 2),
        ("official", ["challenge", "accept"], 6, 1, 1),
        ("none", [], 2, 5, 2),
    ])
    def test_wd4_challenge(self, mode: str, answers: list[str], p0: int, p1: int,
                           turn: int) -> None:
        # the same illegal Wild Draw Four under each mode, answered as sharply as allowed
        g = _wd4(["WD4", "R3", "B5"], options={"wd4_challenge": mode})
        act(g, "play WD4 blue")
        assert legal(g, 1) == answers
        if answers:
            act(g, answers[0])
        assert (len(g.hands[0]), len(g.hands[1])) == (p0, p1)
        assert g.current_player() == turn

    @pytest.mark.rule("CT-5.2", "official", f"{CONTRACT} CT-5.2 official = STD-6.4")
    def test_official_challenge_of_a_legal_wild_draw_four_costs_six(self) -> None:
        g = _pending(True, options={"wd4_challenge": "official"})
        ev = act(g, "challenge")
        assert {e.rule for e in ev if e.kind in ("challenge", "reveal")} == {"STD-6.4"}
        assert len(g.hands[1]) == 7
        assert g.current_player() == 2

    @pytest.mark.rule("CT-5.2", "official", f"{CONTRACT} §4 wd4_guilty_challenger_turn")
    @pytest.mark.parametrize(("option", "next_player"), [("plays", 1), ("skipped", 2)])
    def test_wd4_guilty_challenger_turn(self, option: str, next_player: int) -> None:
        g = _pending(False, options={"wd4_challenge": "official",
                                     "wd4_guilty_challenger_turn": option})
        act(g, "challenge")
        assert len(g.hands[0]) == 6
        assert g.current_player() == next_player

    @pytest.mark.rule("CT-5.2", "official", f"{CONTRACT} §4 preset official_challenge")
    def test_official_challenge_preset(self) -> None:
        g = position(variant="cutthroat", preset="official_challenge",
                     hands=[["B5", "R3"], ["G1"], ["G2"], ["G3"]], top="WD4", color="blue",
                     pot={"count": 4, "last_card": "WD4", "victim": 1},
                     wd4={"player": 0, "legal": False}, top_player=0)
        assert legal(g) == ["challenge", "accept"]
        assert g.opts.wd4_challenge == "official"

    @pytest.mark.rule("CT-5.3", SEED, "ruling", f"{CONTRACT} CT-5.3 first card")
    def test_a_first_card_wild_draw_four_cannot_be_questioned(self) -> None:
        _, g = first_game(lambda f: f == WD4_FACE)
        assert "question" not in legal(g) and "question" not in legal(g, 1)
        act(g, "color red")
        assert "question" not in legal(g)
        assert g.view(1).attack is None

    @pytest.mark.rule("CT-5.3", "ruling", f"{CONTRACT} CT-5.3, CT-7.3 last card")
    @pytest.mark.parametrize("mode", ["question", "official"])
    def test_a_last_card_wild_draw_four_cannot_be_questioned(self, mode: str) -> None:
        g = _wd4(["WD4"], options={"wd4_challenge": mode})
        ev = act(g, "play WD4 red")
        assert "attack" not in kinds(ev)
        assert hand(g, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
        assert g.is_terminal()
        assert g.winners == [0]


# =========================================================================== CT-6 Uno


class TestUno:
    @pytest.mark.rule("CT-6.1", SEED, "ruling", f"{CONTRACT} CT-6.1, §4 uno_catch_penalty")
    @pytest.mark.parametrize(("penalty", "size"), [(2, 3), (4, 5)])
    def test_caught_without_a_call(self, penalty: int, size: int) -> None:
        g = ct([["R3", "B5"], ["G1", "G6"], ["G2"], ["G3"]], "R7", draw=Y,
               options={"uno_catch_penalty": penalty})
        act(g, "play R3")
        ev = act(g, "catch 0", seat=3)
        assert {e.rule for e in ev} == {"CT-6.1"}
        assert len(g.hands[0]) == size

    @pytest.mark.rule("CT-6.1", SEED, f"{CONTRACT} CT-6.1 call with the play")
    def test_calling_uno_is_safe(self) -> None:
        g = ct([["R3", "B5"], ["G1", "G6"], ["G2"], ["G3"]], "R7")
        act(g, "play R3 uno")
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("CT-6.2", SEED, "official", f"{CONTRACT} CT-6.2 self-catch")
    def test_a_player_who_catches_himself_is_safe(self) -> None:
        g = ct([["R3", "B5"], ["G1", "G6"], ["G2"], ["G3"]], "R7")
        act(g, "play R3")
        act(g, "uno", seat=0)
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)

    @pytest.mark.rule("CT-6.2", SEED, "official", f"{CONTRACT} CT-6.2 too early, too late")
    def test_no_catch_before_the_card_or_after_the_next_turn_begins(self) -> None:
        g = ct([["R3", "B5"], ["G1", "G6"], ["G2"], ["G3"]], "R7", draw=["R1"])
        assert "catch 0" not in legal(g, 2)
        act(g, "play R3")
        assert "catch 0" in legal(g, 2)
        act(g, "draw")  # P1 begins his turn (and draws until a match)
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("CT-6.2", "ruling", f"{CONTRACT} CT-6.2, STD-8.3 question closes it")
    def test_questioning_is_a_turn_action(self) -> None:
        g = _wd4(["WD4", "B5"])
        act(g, "play WD4 green")
        assert "catch 0" in legal(g, 2)
        act(g, "question")
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("CT-6.3", "ruling", f"{CONTRACT} CT-6.3, §4 false_uno_call_penalty")
    @pytest.mark.parametrize(("penalty", "size"), [(0, 1), (2, 3)])
    def test_false_uno_call_penalty(self, penalty: int, size: int) -> None:
        g = ct([["R3", "B5"], ["G1", "G6"], ["G2"], ["G3"]], "R7", draw=Y,
               options={"false_uno_call_penalty": penalty})
        if penalty:
            act(g, "catch 1", seat=2)
        else:
            assert "catch 1" not in legal(g, 2)
            with pytest.raises(IllegalActionError):
                act(g, "catch 1", seat=2)
        assert len(g.hands[2]) == size
        assert len(g.hands[1]) == 2


# =========================================================================== CT-7 the end


class TestGoingOut:
    @pytest.mark.rule("CT-7.1", SEED, f"{CONTRACT} CT-7.1 (the seed's 'the game is over')")
    def test_the_first_player_out_wins_the_game(self) -> None:
        g = ct([["R3"], ["G1", "G5"], ["W", "WD4"], ["G3"]], "R7")
        ev = act(g, "play R3")
        assert kinds(ev)[-2:] == ["hand_end", "game_end"]
        assert {e.rule for e in ev[-2:]} == {"CT-7.1"}
        assert g.is_terminal()
        assert g.winners == [0]
        assert g.returns() == [1.0, 0.0, 0.0, 0.0]
        assert g.scores == [0, 0, 0, 0]
        assert g.last_hand == HandResult(hand=1, end="out", rule="CT-7.1", winners=(0,),
                                         out_order=(0,))
        assert g.last_hand.seats == () and not g.last_hand.scored  # CT-7.1: no scoring
        assert "score" not in kinds(ev)

    @pytest.mark.rule("CT-7.1", SEED, f"{CONTRACT} §4 scoring (fixed)")
    def test_no_scoring(self) -> None:
        refused("scoring", "winner_takes")
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("cutthroat", players=4, seed=1, options={"target_score": 500})
        assert err.value.code == "unknown_option"
        g = hotdeath.new_game("cutthroat", players=4, seed=1, options={"scoring": "none"})
        assert g.opts.scoring == "none"

    @pytest.mark.rule("CT-7.1", "ruling", f"{CONTRACT} §4 max_turns")
    @pytest.mark.parametrize(("max_turns", "over"), [(0, False), (2, True)])
    def test_max_turns(self, max_turns: int, over: bool) -> None:
        g = ct([["R3", "R4", "R5"], ["R1", "G1", "G5"], ["G2", "B2"], ["G3", "B3"]], "R7",
               options={"max_turns": max_turns})
        act(g, "play R3")
        act(g, "play R1")
        assert g.is_terminal() is over
        assert g.winners == []  # a stopped game has no winner: nobody scores

    @pytest.mark.rule("CT-7.2", SEED, "ruling", f"{CONTRACT} CT-7.2, §4 rounds (fixed)")
    def test_rounds_is_one_and_a_new_game_starts_afresh(self) -> None:
        refused("rounds", 2)
        g = hotdeath.new_game("cutthroat", players=3, seed=4, options={"rounds": 1})
        assert g.opts.rounds == 1
        rnd = random.Random(4)
        while not g.is_terminal():
            acts = g.legal_actions()
            act(g, rnd.choice(acts))
        assert g.hand_no == 1
        again = hotdeath.new_game("cutthroat", players=3, seed=5, dealer=g.winners[0])
        assert again.dealer == g.winners[0]
        assert again.hand_no == 1 and again.scores == [0, 0, 0] and not again.winners

    @pytest.mark.rule("CT-7.3", SEED, "ruling", f"{CONTRACT} CT-7.3 Draw Two")
    def test_a_last_card_draw_two_is_still_drawn(self) -> None:
        g = ct([["R+2"], ["B5"], ["G2"], ["G3"]], "R7", draw=["R9", "Y1"])
        ev = act(g, "play R+2")
        assert [(e.seat, e.n, e.rule) for e in ev if e.kind == "draw"] == [(1, 2, "CT-7.3")]
        assert hand(g, 1) == ["B5", "R9", "Y1"]
        assert g.winners == [0]

    @pytest.mark.rule("CT-7.4", SEED, f"{CONTRACT} CT-7.4, §4 shortfall")
    def test_the_discards_are_reshuffled_and_play_continues(self) -> None:
        g = ct([["R+2", "B5"], ["G1"], ["G2"], ["G3"]], "R7", discard=["Y4", "Y6", "R7"],
               draw=["B1"])
        ev = act(g, "play R+2")
        assert [e.rule for e in ev if e.kind == "reshuffle"] == ["CT-7.4"]
        assert len(g.hands[1]) == 3
        assert g.current_player() == 2
        refused("shortfall", "owe")
        assert hotdeath.new_game("cutthroat", players=4, seed=1,
                                 options={"shortfall": "forgive"}).opts.shortfall == "forgive"


# =========================================================================== CT-8 two players


def _two(p0: list[str], top: str = "R7", **fields: Any) -> GameState:
    fields.setdefault("draw", Y)
    return ct([p0, ["G1", "G2"]], top, players=2, **fields)


class TestTwoPlayers:
    @pytest.mark.rule("CT-8.0", SEED, f"{CONTRACT} CT-8.0, §4 two_player_rules")
    @pytest.mark.parametrize(("on", "next_player"), [(True, 0), (False, 1)])
    def test_two_player_rules(self, on: bool, next_player: int) -> None:
        g = _two(["RR", "B5", "R4"], options={"two_player_rules": on})
        act(g, "play RR")
        assert g.current_player() == next_player

    @pytest.mark.rule("CT-8.1", SEED, f"{CONTRACT} CT-8.1")
    def test_reverse_acts_like_a_skip(self) -> None:
        g = _two(["RR", "B5", "R4"])
        ev = act(g, "play RR")
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "CT-8.1")]
        assert g.current_player() == 0

    @pytest.mark.rule("CT-8.2", SEED, f"{CONTRACT} CT-8.2")
    def test_skip_player_plays_again(self) -> None:
        g = _two(["RS", "B5", "R4"])
        ev = act(g, "play RS")
        assert g.current_player() == 0
        assert legal(g) == ["play R4", "play R4 uno"]
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "CT-8.2")]

    @pytest.mark.rule("CT-8.3", SEED, f"{CONTRACT} CT-8.3 Draw Two")
    def test_draw_two_play_is_back_to_you(self) -> None:
        g = _two(["R+2", "B5", "R4"])
        ev = act(g, "play R+2")
        assert hand(g, 1) == ["G1", "G2", "Y1", "Y2"]
        assert g.current_player() == 0
        assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "CT-8.3")]

    @pytest.mark.rule("CT-8.3", SEED, f"{CONTRACT} CT-8.3 Wild Draw Four")
    @pytest.mark.parametrize("answer", ["question", "accept"])
    def test_wild_draw_four_play_is_back_to_you(self, answer: str) -> None:
        g = _two(["WD4", "B5", "B4"])
        act(g, "play WD4 blue")
        ev = act(g, answer)
        assert len(g.hands[1]) == 6
        assert g.current_player() == 0
        if answer == "question":  # an accepted one passes play back without a skip event
            assert [(e.seat, e.rule) for e in ev if e.kind == "skip"] == [(1, "CT-8.3")]

    @pytest.mark.rule("CT-8.3", "official", f"{CONTRACT} CT-8.3 wd4_challenge=official")
    @pytest.mark.parametrize(("p0", "sizes", "next_player"), [
        (["WD4", "R5", "B4"], (6, 2), 1),  # guilty: the challenger plays
        (["WD4", "G5", "B4"], (2, 8), 0),  # not guilty: six, and play returns
    ])
    def test_official_challenge_with_two_players(
        self, p0: list[str], sizes: tuple[int, int], next_player: int
    ) -> None:
        g = _two(p0, options={"wd4_challenge": "official"})
        act(g, "play WD4 blue")
        act(g, "challenge")
        assert (len(g.hands[0]), len(g.hands[1])) == sizes
        assert g.current_player() == next_player

    @pytest.mark.rule("CT-8.4", "ruling", f"{CONTRACT} CT-8.4 (B14)")
    def test_the_extra_turn_is_a_full_cutthroat_turn(self) -> None:
        g = _two(["RS", "R5", "B4", "B6"])
        act(g, "play RS")
        assert legal(g) == ["play R5"]  # must play: no draw
        stuck = _two(["RS", "B4", "Y9"], draw=["B1", "G7", "R2", "Y3"])
        act(stuck, "play RS")
        assert legal(stuck) == ["draw"]
        act(stuck, "draw")
        assert hand(stuck, 0) == ["B1", "B4", "G7", "R2", "Y9"]  # R2 kept ("shucks")
        assert stuck.current_player() == 1


# =========================================================================== CT-9 partners


def _partners(p0: list[str] | None = None, **fields: Any) -> GameState:
    options: dict[str, object] = {"partners": True}
    options.update(fields.pop("options", {}))
    return ct([p0 or ["R3"], ["R5", "Y5"], ["W", "B4"], ["G0", "B1"]], "R7", options=options,
              **fields)


class TestPartners:
    @pytest.mark.rule("CT-9.1", SEED, f"{CONTRACT} CT-9.1 catty corner, §4 partners")
    @pytest.mark.parametrize(("partners", "team"), [(True, (0, 2)), (False, (0,))])
    def test_partners_sit_catty_corner(self, partners: bool, team: tuple[int, ...]) -> None:
        g = _partners(options={"partners": partners})
        assert g.team_of(0) == team
        assert g.team_of(3) == ((1, 3) if partners else (3,))

    @pytest.mark.rule("CT-9.2", SEED, f"{CONTRACT} CT-9.2 effects hit seats")
    def test_effects_hit_seats_not_teams(self) -> None:
        g = _partners(["RS", "B9"])
        act(g, "play RS")
        assert g.current_player() == 2  # the opponent P1 is skipped, the partner plays
        g2 = _partners(["R+2", "B9"], draw=Y)
        act(g2, "play R+2")
        assert [len(h) for h in g2.hands] == [1, 4, 2, 2]

    @pytest.mark.rule("CT-9.3", SEED, "official", "ruling",
                      f"{CONTRACT} CT-9.3, §4 partners_victory")
    @pytest.mark.parametrize(("victory", "winners", "result"), [
        ("team", [0, 2], (0, 2)),
        ("individual", [0], (0,)),
    ])
    def test_partners_victory(self, victory: str, winners: list[int],
                              result: tuple[int, ...]) -> None:
        g = _partners(options={"partners_victory": victory})
        ev = act(g, "play R3")
        assert g.is_terminal()
        assert g.winners == winners
        assert g.last_hand is not None and g.last_hand.winners == result
        res = g.game_result()
        assert res is not None and res.winners == tuple(winners) and res.end == "out"
        assert ("team_win" in kinds(ev)) is (victory == "team")

    @pytest.mark.rule("CT-9.3", SEED, "ruling", f"{CONTRACT} CT-9.3 the partner goes out")
    def test_the_partner_going_out_wins_for_the_team(self) -> None:
        g2 = ct([["R3", "R4"], ["R5", "Y5"], ["R9"], ["G0", "B1"]], "R7", turn=2,
                options={"partners": True})
        act(g2, "play R9")
        assert g2.winners == [2, 0]  # the one who went out first, then the partner
        assert g2.last_hand is not None and g2.last_hand.winner == 2
        assert g2.last_hand.winners == (2, 0)
        # the standings too: the individual winner above his partner, then the others
        res = g2.game_result()
        assert res is not None and res.standings == (2, 0, 1, 3) and res.winners == (2, 0)

    @pytest.mark.rule("CT-9.4", SEED, f"{CONTRACT} CT-9.4")
    def test_no_team_points(self) -> None:
        g = _partners()
        ev = act(g, "play R3")
        assert g.scores == [0, 0, 0, 0]
        assert "score" not in kinds(ev)

    @pytest.mark.rule("CT-9.5", SEED, "ruling", f"{CONTRACT} CT-9.5")
    @pytest.mark.parametrize(("players", "ok"), [(3, False), (4, True), (5, False), (6, True),
                                                 (8, True), (10, True)])
    def test_partners_with_four_six_eight_or_ten(self, players: int, ok: bool) -> None:
        options = {"partners": True}
        if ok:
            g = hotdeath.new_game("cutthroat", players=players, seed=1, options=options)
            half = players // 2
            assert g.team_of(1) == (1, 1 + half)
        else:
            with pytest.raises(OptionError) as err:
                hotdeath.new_game("cutthroat", players=players, seed=1, options=options)
            assert err.value.code == "bad_option_combination"
        free = hotdeath.new_game("cutthroat", players=players, seed=1)
        assert free.team_of(1) == (1,)


# =========================================================================== the variant


class TestVariant:
    @pytest.mark.rule("CT-1.1", SEED, f"{CONTRACT} §4 Cutthroat column")
    def test_the_options_are_the_cutthroat_column(self) -> None:
        v = hotdeath.get_variant("ct")
        assert v.name == "cutthroat"
        specs = {s.name: s for s in v.option_specs()}
        assert list(specs) == [  # standard's order, then Cutthroat's own options
            "dealer_selection", "max_players", "decks", "initial_direction", "first_card_wild",
            "first_card_reverse", "first_card_draw_two_loses_turn",
            "wd4_guilty_challenger_turn", "wild_color_must_change", "wd4_color_must_change",
            "may_draw_with_playable", "stacking", "two_player_rules", "partners",
            "partners_victory", "uno_catch_penalty", "false_uno_call_penalty", "scoring",
            "rounds", "max_turns", "shortfall",
            "first_card_wd4_victim_loses_turn", "wd4_challenge", "draw_until_match_then",
        ]
        defaults = {name: s.default for name, s in specs.items()}
        assert defaults["wd4_challenge"] == "question"
        assert defaults["draw_until_match_then"] == "keep"
        assert defaults["wild_color_must_change"] is True
        assert defaults["may_draw_with_playable"] is False
        fixed = {name: s.values for name, s in specs.items() if len(s.values) == 1}
        assert fixed == {"first_card_wild": ("first_player_names",),
                         "first_card_reverse": ("dealer_first",),
                         "first_card_draw_two_loses_turn": (True,),
                         "stacking": ("none",), "scoring": ("none",), "rounds": (1,),
                         "shortfall": ("forgive",)}
        for s in specs.values():
            assert s.rule in RULES, s.rule

    @pytest.mark.rule("CT-1.1", SEED, f"{CONTRACT} §2 Cutthroat is Standard except")
    def test_the_options_follow_standards(self) -> None:
        # Cutthroat's options are standard's (a subclass, no copy): every standard option is
        # a Cutthroat option, with standard's words unless Cutthroat declares it again, or a
        # setting Cutthroat fixes; so an option added to standard is Cutthroat's too, and
        # the standard engine finds every option it reads in a Cutthroat game
        assert issubclass(CutthroatOptions, StandardOptions)
        ct_specs = {s.name: s for s in option_specs(CutthroatOptions)}
        std_fields = [f.name for f in dataclasses.fields(StandardOptions)]
        fixed = {"seven_o": False, "jump_in": False, "draw_rule": "until_playable",
                 "target_score": 0, "drawn_card_play": "may",
                 "wild_draw_four_rule": "challenge"}
        for spec in option_specs(StandardOptions):
            if spec.name in fixed:
                assert spec.name not in ct_specs
                assert getattr(CutthroatOptions(), spec.name) == fixed[spec.name]
            else:
                assert spec.name in ct_specs, spec.name
        assert [f.name for f in dataclasses.fields(CutthroatOptions)][:len(std_fields)] == \
            std_fields
        declared_here = {"dealer_selection", "max_players", "decks", "initial_direction",
                         "first_card_wild", "first_card_reverse",
                         "first_card_draw_two_loses_turn", "wd4_guilty_challenger_turn",
                         "wild_color_must_change", "wd4_color_must_change",
                         "may_draw_with_playable", "stacking", "two_player_rules", "partners",
                         "partners_victory", "uno_catch_penalty", "false_uno_call_penalty",
                         "scoring", "rounds", "max_turns", "shortfall"}
        for spec in option_specs(StandardOptions):
            if spec.name not in fixed and spec.name not in declared_here:
                assert ct_specs[spec.name] == spec  # inherited as it is
        # the two settings that follow from Cutthroat's own options (CT-3.3, CT-5.1)
        assert CutthroatOptions(draw_until_match_then="must_play").drawn_card_play == "must"
        assert CutthroatOptions(wd4_challenge="none").wild_draw_four_rule == "free"
        assert CutthroatOptions(wd4_challenge="official").wild_draw_four_rule == "challenge"
        g = hotdeath.new_game("cutthroat", players=3, seed=2,
                              options={"draw_until_match_then": "must_play"})
        assert g.opts.drawn_card_play == "must" and "drawn_card_play" not in pos(g)["options"]

    @pytest.mark.rule("CT-1.1", SEED, f"{CONTRACT} §4 presets")
    @pytest.mark.parametrize(("preset", "changed"), [
        ("seed_003", {}), ("official_challenge", {"wd4_challenge": "official"})])
    def test_presets(self, preset: str, changed: dict[str, object]) -> None:
        g = hotdeath.new_game("cutthroat", players=4, seed=1, preset=preset)
        assert pos(g)["options"] == changed
        assert hotdeath.get_variant("cutthroat").default_preset == "seed_003"

    @pytest.mark.rule("CT-1.1", "ruling", f"{CONTRACT} every event cites a rule")
    def test_every_event_cites_a_rule_of_the_rulebook(self) -> None:
        seen: set[str] = set()
        for options in ({}, {"wd4_challenge": "official"}, {"wd4_challenge": "none"},
                        {"draw_until_match_then": "may_play"}, {"partners": True}):
            for seed in range(12):
                players = 4 if options.get("partners") else 2 + seed % 4
                g = hotdeath.new_game("cutthroat", players=players, seed=seed,
                                      options=options)
                events = list(g.opening_events)
                rnd = random.Random(seed)
                while not g.is_terminal():
                    seat = rnd.choice(g.actors())
                    events += act(g, rnd.choice(g.legal_actions(seat)), seat=seat)
                for ev in events:
                    assert ev.rule in RULES, (ev.kind, ev.rule)
                    assert hotdeath.describe(ev).endswith(f"[{ev.rule}]")
                    seen.add(ev.rule)
        assert {"CT-3.3", "CT-4.3", "CT-5.2", "CT-7.1", "STD-6.4"} <= seen
        assert not {r for r in seen if r.startswith("STD-")} - {"STD-6.4"}

    @pytest.mark.rule("CT-1.1", "ruling", f"{CONTRACT} positions round-trip")
    def test_a_pending_question_round_trips_through_the_notation(self) -> None:
        g = _pending(False)
        data = json.loads(json.dumps(to_position(g)))
        assert data["variant"] == "cutthroat"
        assert data["phase"] == "response"
        copy = from_position(data)
        assert legal(copy) == legal(g) == ["question", "accept"]
        assert to_position(copy) == to_position(g)
        assert g.clone().legal_actions() == g.legal_actions()
        assert A.QUESTION_ACTION in g.view(1).legal_actions


class TestCommandLine:
    @pytest.mark.rule("CT-1.1", "ruling", "hotdeath variants --json")
    def test_variants_json_lists_cutthroat_with_every_option(self) -> None:
        result = CliRunner().invoke(app, ["variants", "--json"])
        assert result.exit_code == 0
        data = {v["name"]: v for v in json.loads(result.stdout)}
        ct_data = data["cutthroat"]
        assert ct_data["aliases"] == ["ct"]
        names = [o["name"] for o in ct_data["options"]]
        assert names == [s.name for s in hotdeath.get_variant("cutthroat").option_specs()]
        rounds = next(o for o in ct_data["options"] if o["name"] == "rounds")
        assert rounds["values"] == [1]
        assert list(ct_data["presets"]) == ["seed_003", "official_challenge"]

    @pytest.mark.rule("CT-5.2", "ruling", "hotdeath position")
    def test_position_command_questions_a_wild_draw_four(self, tmp_path: Any) -> None:
        data = to_position(_pending(False))
        path = tmp_path / "q.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = CliRunner().invoke(app, ["position", str(path), "--apply", "question",
                                          "--legal"],
                                    env={"COLUMNS": "100", "NO_COLOR": "1"})
        assert result.exit_code == 0, result.output
        assert "questions P0's Wild Draw Four: it was illegal  [CT-5.2]" in result.output
        as_json = CliRunner().invoke(app, ["position", str(path), "--apply", "accept",
                                           "--json"])
        assert json.loads(as_json.stdout)["turn"] == 2


def test_options_derive_from_standards() -> None:
    # Cutthroat's options are standard's (hotdeath.options.like) with Cutthroat rule ids:
    # what Cutthroat does not change is standard's, word for word
    from hotdeath.options import specs
    from hotdeath.variants.cutthroat import CutthroatOptions
    from hotdeath.variants.standard import StandardOptions

    std = {s.name: s for s in specs(StandardOptions)}
    ct = {s.name: s for s in specs(CutthroatOptions)}
    for name in ("decks", "max_players", "uno_catch_penalty", "two_player_rules"):
        assert ct[name].rule.startswith("CT-")
        assert (ct[name].default, ct[name].values, ct[name].description, ct[name].title,
                ct[name].group) == (std[name].default, std[name].values,
                                    std[name].description, std[name].title, std[name].group)
    assert ct["stacking"].values == ("none",) and ct["stacking"].title == std["stacking"].title
    assert ct["may_draw_with_playable"].default is False
