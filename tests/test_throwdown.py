"""Scenario tests of Uno Throwdown (uno-variants.md §0, §3 and the Throwdown column of §4).

Every test builds a position (or a seeded new game for the setup rules), applies actions and
checks the outcome.  Rule ids are those of ``hotdeath.rulebook`` (TD-…); the seed is
``004_6fa6394ff1566b2e.txt``.  Multi-card plays are written in the order the cards are laid,
the last card ending on top.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import (
    FACE_KIND,
    FACE_NUMBER,
    IS_WILD,
    NUMBER,
    card_code,
    parse_card,
    standard_deck,
)
from hotdeath.cli import app
from hotdeath.errors import IllegalActionError, OptionError, PositionError
from hotdeath.events import Event
from hotdeath.notation import from_position, record, replay, to_position
from hotdeath.results import HandResult
from hotdeath.rng import DEAL_STREAM, DEALER_STREAM, stream_seed
from hotdeath.rulebook import RULES, rules_for
from hotdeath.state import DEAL, RESPONSE, TURN, GameState
from hotdeath.variants.throwdown import MAX_LISTED_PLAYS, ThrowdownState
from tests.support import act, card, hand, kinds, legal, position

SEED = "seed 004"
CONTRACT = "uno-variants.md"


def td(hands: list[list[str]], top: str | None = None, **fields: Any) -> ThrowdownState:
    """A Throwdown position (seat 0 to act, clockwise, unless given)."""
    if top is not None:
        fields["top"] = top
    state = position(variant="throwdown", hands=hands, **fields)
    assert isinstance(state, ThrowdownState)
    return state


def plays(state: GameState, seat: int | None = None) -> list[str]:
    """The listed plays of ``seat`` (default: the player to act)."""
    return [str(a) for a in state.legal_actions(seat) if a.kind == A.PLAY]


def accepts(state: GameState, action: str, seat: int | None = None) -> bool:
    """Whether ``action`` is accepted now, tried on a copy through each apply path.

    Both paths must agree (the one path: ``step`` is ``apply_action`` without events).
    """
    answers = []
    for path in ("apply_action", "step"):
        try:
            getattr(state.clone(), path)(action, seat)
        except IllegalActionError:
            answers.append(False)
        else:
            answers.append(True)
    assert answers[0] == answers[1], (action, answers)
    return answers[0]


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


def drawn(events: list[Event], seat: int) -> int:
    """Cards ``seat`` drew in these events."""
    return sum(e.n for e in events if e.kind == "draw" and e.seat == seat)


def rules_of(events: list[Event]) -> list[str]:
    return [e.rule for e in events]



# =========================================================================== TD-1 setup


class TestSetup:
    @pytest.mark.rule("TD-1.1", SEED, f"{CONTRACT} TD-1.1 decks")
    def test_two_decks_by_default_one_as_an_option(self) -> None:
        def total(g: GameState) -> int:
            return sum(len(h) for h in g.hands) + len(g.draw_pile) + len(g.discard)

        two = hotdeath.new_game("throwdown", players=4, seed=3)
        one = hotdeath.new_game("throwdown", players=4, seed=3, options={"decks": 1})
        preset = hotdeath.new_game("throwdown", players=4, seed=3, preset="one_deck")
        assert total(two) == 216 and Counter(two.deck) == Counter(standard_deck() * 2)
        assert total(one) == total(preset) == 108
        # a position may hold four red 7s with two decks, not with one
        hands = [["R7", "R7", "R7", "R7"], ["G1"]]
        assert td(hands, "R1").hands[0] == [parse_card("R7")] * 4
        with pytest.raises(PositionError) as err:
            td(hands, "R1", options={"decks": 1})
        assert err.value.code == "too_many_cards"

    @pytest.mark.rule("TD-1.1", SEED, "standard reshuffle")
    def test_reshuffle_follows_standard_and_cites_throwdown(self) -> None:
        g = td([["B5"], ["G1", "Y1"], ["G2", "G3"]], "R7", discard=["B1", "Y3", "R7"], draw=[])
        ev = act(g, "draw")
        assert "reshuffle" in kinds(ev)
        assert [e.rule for e in ev if e.kind == "reshuffle"] == ["TD-1.1"]
        assert [card_code(c) for c in g.discard] == ["R7"]

    @pytest.mark.rule("TD-1.2", "ruling", f"{CONTRACT} TD-1.2 max_players")
    def test_two_to_ten_players(self) -> None:
        assert hotdeath.new_game("throwdown", players=10, seed=1).n == 10
        assert hotdeath.new_game("throwdown", players=2, seed=1).n == 2
        for bad in (1, 11):
            with pytest.raises(OptionError) as err:
                hotdeath.new_game("throwdown", players=bad, seed=1)
            assert err.value.code == "bad_players"
        with pytest.raises(OptionError) as err:
            hotdeath.new_game("throwdown", players=5, seed=1, options={"max_players": 4})
        assert err.value.code == "bad_option_combination"
        assert hotdeath.new_game("throwdown", players=4, seed=1,
                                 options={"max_players": 4}).n == 4

    @pytest.mark.rule("TD-1.3", SEED, f"{CONTRACT} TD-1.3 dealer_selection")
    def test_the_given_dealer_deals_seven_each_from_his_left(self) -> None:
        g = hotdeath.new_game("throwdown", players=3, seed=8, dealer=2)
        assert g.dealer == 2
        assert [len(h) for h in g.hands] == [7, 7, 7]
        assert [e.kind for e in g.opening_events[:2]] == ["dealer", "deal"]
        assert {e.rule for e in g.opening_events[:2]} == {"TD-1.3"}
        # the deck as laid: the first card dealt goes to the dealer's left (seat 0), one at
        # a time (deal scheme 1 deals the shuffle as it comes)
        old = hotdeath.new_game("throwdown", players=3, seed=8, dealer=2, deal_scheme=1)
        pile = list(old.deck)
        hotdeath.rng.Rng(8).shuffle(pile)
        assert old.hands[0][0] == pile[-1] and old.hands[1][0] == pile[-2]
        assert old.hands[2][0] == pile[-3]
        # deal scheme 2 lays the deck so that seat s gets the shuffle's cards s, s+3 … of
        # the hand's stream, whoever deals (docs/architecture.md "Duplicate deals")
        pile = list(g.deck)
        hotdeath.rng.Rng(stream_seed(8, 1, DEAL_STREAM)).shuffle(pile)
        top = pile[::-1]
        assert g.hands == [top[s:21:3] for s in range(3)]

    @pytest.mark.rule("TD-1.3", "ruling", "dealer_selection=draw_high")
    def test_draw_high_chooses_the_first_dealer(self) -> None:
        given = {hotdeath.new_game("throwdown", players=4, seed=s).dealer for s in range(6)}
        drawn_ = {hotdeath.new_game("throwdown", players=4, seed=s,
                                    options={"dealer_selection": "draw_high"}).dealer
                  for s in range(12)}
        assert given == {0}
        assert len(drawn_) > 1
        g = hotdeath.new_game("throwdown", players=4, seed=5, dealer=3,
                              options={"dealer_selection": "draw_high"})
        assert g.dealer == 3  # a given dealer wins over the draw

    @pytest.mark.rule("TD-1.3", SEED, "STD-2.1", "the highest card deals")
    def test_draw_high_the_highest_number_deals(self) -> None:
        # each player draws a card from the shuffled deck (the first shuffle of the first
        # hand's dealer stream), seat 0 first; the highest number deals (ties draw again
        # among the tied)
        for seed in range(16):
            g = hotdeath.new_game("throwdown", players=4, seed=seed,
                                  options={"dealer_selection": "draw_high"})
            pile = list(g.deck)
            hotdeath.rng.Rng(stream_seed(seed, 1, DEALER_STREAM)).shuffle(pile)
            drawn_ = [pile[-1 - s] for s in range(4)]
            values = [FACE_NUMBER[f] if FACE_KIND[f] == NUMBER else 0 for f in drawn_]
            assert values[g.dealer] == max(values), (seed, values, g.dealer)
            if values.count(max(values)) == 1:
                assert g.dealer == values.index(max(values))

    @pytest.mark.rule("TD-1.4", SEED, "ruling", f"{CONTRACT} TD-1.4")
    def test_specials_turned_up_stay_buried_under_the_first_number(self) -> None:
        seeds = []
        for seed in range(400):
            g = hotdeath.new_game("throwdown", players=4, seed=seed)
            if len(g.discard) > 1:
                seeds.append(seed)
                under, top = g.discard[:-1], g.discard[-1]
                assert all(hotdeath.cards.FACE_KIND[c] != hotdeath.cards.NUMBER for c in under)
                assert hotdeath.cards.FACE_KIND[top] == hotdeath.cards.NUMBER
                assert g.color == hotdeath.cards.FACE_COLOR[top]
                # nothing turned up had an effect: no draws, no skip, the dealer decides
                assert [len(h) for h in g.hands] == [7, 7, 7, 7]
                assert g.phase == DEAL and g.turn == g.dealer and g.direction == 1
                ups = [e for e in g.opening_events if e.kind == "up_card"]
                assert len(ups) == len(g.discard) and {e.rule for e in ups} == {"TD-1.4"}
        assert seeds

    @pytest.mark.rule("TD-1.4", "ruling", "2, 5, 0 and 4 turned up are numbers")
    def test_a_draw_number_turned_up_starts_no_throwdown(self) -> None:
        for seed in range(300):
            g = hotdeath.new_game("throwdown", players=3, seed=seed,
                                  options={"initial_direction": 1})
            if card_code(g.top)[1:] in ("2", "5", "0", "4"):
                assert g.phase == TURN and g.turn == 1 and g.pot == 0  # type: ignore[attr-defined]
                assert [len(h) for h in g.hands] == [7, 7, 7]
                break
        else:
            raise AssertionError("no seed turns up a 2, 5, 0 or 4")

    @pytest.mark.rule("TD-1.5", SEED, "ruling", f"{CONTRACT} TD-1.5 initial_direction")
    def test_the_dealer_chooses_the_direction(self) -> None:
        g = hotdeath.new_game("throwdown", players=4, seed=2, dealer=1)
        assert g.phase == DEAL and g.current_player() == 1
        assert legal(g) == ["direction cw", "direction ccw"]
        assert g.actors() == [1]  # nobody else acts before play starts
        ev = act(g, "direction ccw")
        assert kinds(ev) == ["direction"] and ev[0].rule == "TD-1.5"
        assert g.direction == -1 and g.phase == TURN and g.turn == 0
        g2 = hotdeath.new_game("throwdown", players=4, seed=2, dealer=1)
        act(g2, "direction cw")
        assert g2.turn == 2

    @pytest.mark.rule("TD-1.5", "ruling", "initial_direction as an input")
    def test_initial_direction_option_skips_the_decision(self) -> None:
        cw = hotdeath.new_game("throwdown", players=4, seed=2, dealer=1,
                               options={"initial_direction": 1})
        ccw = hotdeath.new_game("throwdown", players=4, seed=2, dealer=1,
                                options={"initial_direction": -1})
        assert (cw.phase, cw.turn, cw.direction) == (TURN, 2, 1)
        assert (ccw.phase, ccw.turn, ccw.direction) == (TURN, 0, -1)
        assert "direction" in [e.kind for e in cw.opening_events]
        with pytest.raises(PositionError):
            td([["R1"], ["R2"]], "R3", phase="deal", options={"initial_direction": 1})

    @pytest.mark.rule("TD-1.6", SEED, "the winner deals next even when called back")
    def test_winner_stays_winner_after_being_called_back(self) -> None:
        # P0 went out first; P1 on Uno calls him back; P0 goes out again, then P1
        g = td([[], ["R5", "B6"], ["R9", "Y1"]], "R1", turn=1, hand_winner=0, out_order=[0],
               draw=["R2", "B2", "G3", "G4"])
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        assert g.active[0] and hand(g, 0) == ["B2", "R2"]
        act(g, "play R9")
        act(g, "play R2 B2")  # P0 goes out a second time
        assert not g.is_terminal() and g.out_order == [0, 0]  # each exit recorded (TD-6.4)
        act(g, "play B6")  # P1 goes out
        assert g.is_terminal()
        assert g.winners == [0]  # the first out is the winner, and deals next
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert g.last_hand.out_order == (0, 0, 1) and g.last_hand.loser == 2
        assert g.next_game_dealer() == 0  # the called-back winner deals the next game

    @pytest.mark.rule("TD-1.6", SEED, "ruling", f"{CONTRACT} TD-1.6", "TD-6.2", "TD-6.6")
    def test_the_winner_deals_the_next_game(self) -> None:
        # P1 goes out first (the winner, TD-6.2); play goes on until P2 is the loser
        g = td([["R5", "B6"], ["R9"], ["Y1", "B9"]], "R1")
        assert g.next_game_dealer() is None  # nothing until the game is over
        act(g, "play R5")
        act(g, "play R9")
        assert not g.is_terminal() and g.winner == 1 and g.next_game_dealer() is None
        act(g, "play B9")
        act(g, "play B6")  # P0 goes out: P2 is the last holder, the loser
        assert g.is_terminal() and g.winners == [1] and g.last_hand is not None
        assert g.last_hand.loser == 2
        assert g.next_game_dealer() == 1
        # the next game at the table, whatever dealer_selection chose for the first (TD-1.3)
        for options in ({}, {"dealer_selection": "draw_high"}):
            nxt = hotdeath.new_game("throwdown", players=3, seed=9, options=options,
                                    dealer=g.next_game_dealer())
            assert nxt.dealer == 1 and nxt.opening_events[0].kind == "dealer"
            assert nxt.opening_events[0].seat == 1
        # without play-on the first player out ends the game and deals next (TD-6.3)
        g = td([["R5", "B6"], ["R9"], ["Y1", "Y2"]], "R1",
               options={"play_on_after_first_out": False})
        act(g, "play R5")
        act(g, "play R9")
        assert g.is_terminal() and g.next_game_dealer() == 1
        # a game ended by leaving before anyone went out: the one left holding cards wins
        g = td([["G3", "R1"], ["R5", "G1"]], "R7", turn=1)
        act(g, "leave")
        assert g.is_terminal() and g.winners == [0] and g.next_game_dealer() == 0
        # a blocked game has no winner: the next game's dealer is chosen as for a first game
        g = td([["G1", "G2"], ["Y1", "Y2"]], "R7", draw=[])
        act(g, "draw")
        act(g, "draw")
        assert g.is_terminal() and g.winners == [] and g.next_game_dealer() is None


# =========================================================================== TD-2 legal plays


class TestPlayGrammar:
    @pytest.mark.rule("TD-2.1", SEED, "ruling", "threes-units")
    def test_two_or_more_threes_form_one_unit(self) -> None:
        g = td([["G3", "B3", "Y3", "R8", "G1"], ["R1"]], "Y6")
        assert accepts(g, "play G3 B3 Y3 R8")  # 33 (three 3s) links 6, then 8
        assert accepts(g, "play G3 B3 R8")
        assert not accepts(g, "play G3 R8")  # a lone 3 is a 3: no link to 6 or to 8
        assert not accepts(g, "play G3")
        assert g.is_legal_play(0, cards("Y3"))  # but colour always matches

    @pytest.mark.rule("TD-2.2", SEED, "numbers are numbers in regular play")
    def test_two_five_and_four_are_plain_numbers_outside_a_throwdown(self) -> None:
        g = td([["B2", "B5", "B4", "G9"], ["G1", "G8"], ["Y1", "Y8"]], "R2")
        ev = act(g, "play B2")
        assert g.phase == TURN and g.turn == 1 and "throwdown" not in kinds(ev)
        g = td([["R5", "G9"], ["G1", "G8"], ["Y1", "Y8"]], "R1")
        act(g, "play R5")
        assert g.direction == 1 and g.turn == 1
        g = td([["R4", "G9"], ["G1", "G8"], ["Y1", "Y8"]], "R1")
        act(g, "play R4")
        assert g.phase == TURN and g.turn == 1 and [len(h) for h in g.hands] == [1, 2, 2]

    @pytest.mark.rule("TD-2.3", SEED, "ruling", "the link relation")
    def test_links_are_adjacent_only(self) -> None:
        g = td([["R6", "R9", "B9", "R8", "G8", "R3", "Y3", "G3", "RS", "BS", "RR", "R7"],
                ["G1"]], "R1")
        ok = ["play R6 B9", "play R9 R6", "play R6 Y3 G3", "play R3 G3 R6", "play R8 Y3 G3",
              "play R6 Y3 G3 G8", "play RS BS", "play R6 B9 R9", "play R3 Y3 G3 R8"]
        bad = ["play R9 G8", "play R8 R6", "play R3 G3 B9", "play R9 Y3 G3", "play R6 Y3",
               "play RS RR", "play R7 RS", "play R6 R7", "play R9 R6 G8", "play R6 R3 G8"]
        for text in ok:
            assert accepts(g, text), text
        for text in bad:
            assert not accepts(g, text), text

    @pytest.mark.rule("TD-2.4", SEED, "ruling", "the first unit against the top card")
    def test_first_unit_matches_by_colour_or_link(self) -> None:
        g = td([["B9", "Y9", "Y6", "G3", "Y3", "R8"], ["R1"]], "B7")
        assert accepts(g, "play B9") and accepts(g, "play B9 Y6")
        assert not accepts(g, "play Y9") and not accepts(g, "play Y9 Y6")
        assert not accepts(g, "play G3 Y3")  # 33 does not link 7
        g = td([["Y6", "G3", "Y3"], ["R1"]], "R8")
        assert accepts(g, "play G3 Y3 Y6")  # 33 links 8 on top, then 6
        # a wild on top: only its named colour (or a wild) matches
        g = td([["R5", "G5", "W"], ["R1"]], "W", color="green")
        assert {p.split()[1] for p in plays(g)} == {"G5"}
        assert "play G5 R5" in plays(g)

    @pytest.mark.rule("TD-2.4", "ruling", "top_three_pair_equivalence")
    def test_a_three_on_top_is_a_three_unless_the_option(self) -> None:
        for option, expected in ((False, False), (True, True)):
            g = td([["B6", "B1"], ["G1"]], "R3", discard=["G3", "R3"], pair_on_top=True,
                   options={"top_three_pair_equivalence": option})
            assert accepts(g, "play B6") is expected
        # the flag comes from the play: a run of threes ending the play sets it
        g = td([["G9", "G3", "Y3", "B1"], ["B6", "B2"]], "G1",
               options={"top_three_pair_equivalence": True})
        act(g, "play G3 Y3")
        assert g.pair_on_top and accepts(g, "play B6", seat=1)
        g = td([["G3", "B1"], ["B6", "B2"]], "G1", options={"top_three_pair_equivalence": True})
        act(g, "play G3")
        assert not g.pair_on_top and not accepts(g, "play B6", seat=1)

    @pytest.mark.rule("TD-2.5", SEED, "the seed's example and forbidden orders")
    def test_the_seeds_worked_example(self) -> None:
        g = td([["B9", "Y6", "G3", "Y3", "R8", "G1"], ["G8", "R1", "B3", "Y3", "B5", "Y7"]],
               "B7")
        # colour -> 9–6 -> 6–33 -> 33–8
        assert g.is_legal_play(0, cards("B9", "Y6", "G3", "Y3", "R8"))
        for bad in (("B9", "R8"), ("B9", "R8", "Y6"), ("R8", "Y6"), ("G3", "Y3", "B9"),
                    ("B9", "Y6", "G3", "R8"), ("Y6", "B9")):
            assert not g.is_legal_play(0, cards(*bad)), bad
        ev = act(g, "play B9 Y6 G3 Y3 R8")
        assert ev[0].cards == cards("B9", "Y6", "Y3", "G3", "R8")  # the canonical order
        assert card_code(g.top) == "R8" and g.color == hotdeath.cards.RED
        assert hand(g, 0) == ["G1"]
        # "the next player would then need to play either an 8 or any red card, or at least
        # two 3's of any color"
        assert accepts(g, "play G8") and accepts(g, "play R1") and accepts(g, "play B3 Y3")
        assert not accepts(g, "play B3") and not accepts(g, "play B5")
        assert not accepts(g, "play Y7")

    @pytest.mark.rule("TD-2.6", SEED, "ruling", "one kind per play")
    def test_plays_are_homogeneous(self) -> None:
        g = td([["RS", "GS", "RR", "R2", "R+2", "W", "WD4"], ["G1"]], "R1")
        assert accepts(g, "play RS GS")
        assert not accepts(g, "play RS RR")
        assert not accepts(g, "play R2 R+2")
        assert not accepts(g, "play R+2 R2")
        assert not accepts(g, "play W WD4 red")

    @pytest.mark.rule("TD-2.7", SEED, "ruling", "multi_play_same_color")
    def test_identical_cards_may_go_together(self) -> None:
        g = td([["R7", "R7", "B7", "G1"], ["G2"]], "R1")
        assert accepts(g, "play R7 R7") and accepts(g, "play R7 R7 B7")
        assert "play R7 B7 R7" in plays(g) and "play R7 R7 B7" in plays(g)
        g = td([["R7", "R7", "B7", "G1"], ["G2"]], "R1", options={"multi_play_same_color": False})
        assert not accepts(g, "play R7 R7") and accepts(g, "play R7 B7")
        assert not any(p.count("R7") > 1 for p in plays(g))
        # all cards of one number at once
        g = td([["R7", "B7", "G7", "Y9"], ["G2"]], "B7")
        act(g, "play R7 B7 G7")
        assert hand(g, 0) == ["Y9"]

    @pytest.mark.rule("TD-2.8", SEED, "ruling", "wilds only without another move")
    def test_wilds_are_a_last_resort(self) -> None:
        g = td([["W", "WD4", "B5", "G1"], ["G2"]], "B7")
        assert all(not p.startswith(("play W", "play WD4")) for p in plays(g))
        g = td([["W", "W", "WD4", "G1"], ["G2"]], "B7")
        ps = plays(g)
        assert "play W red" in ps and "play W blue" in ps  # any colour, the current too
        assert "play W W green" in ps and "play WD4 yellow" in ps
        assert len([p for p in ps if p.startswith("play W ")]) == 8
        ev = act(g, "play W W green")
        assert g.color == hotdeath.cards.GREEN and ev[0].rule == "TD-3.3"  # what it does
        assert g.turn == 1 and g.phase == TURN

    @pytest.mark.rule("TD-3.3", SEED, "a play of Wild Draw Fours starts a Throwdown")
    def test_a_play_of_wild_draw_fours_cites_what_it_does(self) -> None:
        # as a play of Draw Twos does: the play line cites TD-3.3 (they start a Throwdown at
        # level 4 with 4 a card), not TD-2.8, the restriction that let them be played
        for cards_, count in (("R+2 G+2", 4), ("WD4 WD4 green", 8)):
            g = td([["R+2", "G+2", "WD4", "WD4", "G1"] if "WD4" in cards_ else
                    ["R+2", "G+2", "G1"], ["B9", "B3"]], "R7" if "+2" in cards_ else "B7")
            ev = act(g, f"play {cards_}")
            assert [(e.kind, e.rule) for e in ev[:2]] == [("play", "TD-3.3"),
                                                           ("throwdown", "TD-4.1")]
            assert ev[1].n == count

    @pytest.mark.rule("TD-2.8", "ruling", "regular_wd4_restriction")
    def test_regular_wd4_restriction_values(self) -> None:
        def wd4(options: dict[str, object], hand_: list[str]) -> bool:
            g = td([hand_, ["G2"]], "B7", options=options)
            return any(p.startswith("play WD4") for p in plays(g))

        # R7 is playable (7 on 7); no blue card in hand
        assert not wd4({}, ["WD4", "R7"])
        assert wd4({"regular_wd4_restriction": "no_current_color"}, ["WD4", "R7"])
        assert not wd4({"regular_wd4_restriction": "no_current_color"}, ["WD4", "R7", "B1"])
        assert wd4({"regular_wd4_restriction": "none"}, ["WD4", "R7", "B1"])
        # the plain Wild keeps its own restriction under every value
        g = td([["W", "R7"], ["G2"]], "B7", options={"regular_wd4_restriction": "none"})
        assert plays(g) == ["play R7"]

    @pytest.mark.rule("TD-2.8", "ruling", "wild_color_must_change, wd4_color_must_change")
    def test_colour_must_change_options(self) -> None:
        g = td([["W", "WD4", "G1"], ["G2"]], "B7")
        assert len(plays(g)) == 8
        g = td([["W", "WD4", "G1"], ["G2"]], "B7", options={"wild_color_must_change": True})
        assert "play W blue" not in plays(g) and "play WD4 blue" in plays(g)
        g = td([["W", "WD4", "G1"], ["G2"]], "B7", options={"wd4_color_must_change": True})
        assert "play W blue" in plays(g) and "play WD4 blue" not in plays(g)
        assert not accepts(g, "play WD4 blue")

    @pytest.mark.rule("TD-2.9", SEED, "no going out on a wild")
    def test_a_wild_may_not_empty_the_hand(self) -> None:
        g = td([["W"], ["G2"]], "B7", draw=["R1"])
        assert plays(g) == [] and "draw" in legal(g)
        g = td([["W", "W"], ["G2"]], "B7")
        assert "play W red" in plays(g) and not any("W W" in p for p in plays(g))
        # in a Throwdown too
        g = td([["R+2", "G9"], ["WD4"], ["G3", "G4"]], "R1", draw=["Y1", "Y7"])
        act(g, "play R+2")
        assert hand(g, 1) == ["WD4", "Y1", "Y7"]  # could not defend: drew the pot
        assert g.turn == 2 and g.phase == TURN


# =========================================================================== TD-3 turns


class TestTurn:
    @pytest.mark.rule("TD-3.1", SEED, "ruling", "voluntary_draw")
    def test_must_play_when_able(self) -> None:
        g = td([["R5", "G1"], ["G2"]], "R7", draw=["Y1", "Y2"])
        assert "draw" not in legal(g)
        with pytest.raises(IllegalActionError):
            act(g, "draw")
        g = td([["R5", "G1"], ["G2"]], "R7", draw=["Y1", "Y2"], options={"voluntary_draw": True})
        assert "draw" in legal(g)
        act(g, "draw")
        # one card (a play already existed), then a play is compulsory
        assert hand(g, 0) == ["G1", "R5", "Y1"] and g.turn == 0 and g.drew
        assert "draw" not in legal(g) and plays(g)

    @pytest.mark.rule("TD-3.2", SEED, "ruling", "draw until able")
    def test_draw_until_a_legal_play_then_play(self) -> None:
        g = td([["G1"], ["G2"], ["B2"]], "R7", draw=["Y2", "B8", "R3", "Y4"])
        assert legal(g)[0] == "draw"
        ev = act(g, "draw")
        assert drawn(ev, 0) == 3 and set(rules_of(ev)) == {"TD-3.2"}
        assert hand(g, 0) == ["B8", "G1", "R3", "Y2"] and g.turn == 0 and g.drew
        assert "draw" not in legal(g) and plays(g) == ["play R3"]
        act(g, "play R3")
        assert g.turn == 1

    @pytest.mark.rule("TD-3.2", SEED, "ruling", "a drawn 3 completes a threes-unit")
    def test_a_drawn_three_makes_a_pair_with_one_in_hand(self) -> None:
        g = td([["B3"], ["G2"]], "G8", draw=["Y3", "G1"])
        act(g, "draw")
        assert hand(g, 0) == ["B3", "Y3"] and g.turn == 0
        assert plays(g) == ["play B3 Y3", "play Y3 B3"]

    @pytest.mark.rule("TD-3.2", SEED, "ruling", "a lone wild becomes playable")
    def test_a_lone_wild_draws_one_card_then_must_be_played(self) -> None:
        g = td([["W"], ["G2"]], "R5", draw=["B7", "G1"])
        act(g, "draw")
        assert hand(g, 0) == ["B7", "W"]
        assert plays(g) == ["play W red", "play W yellow", "play W green", "play W blue"]

    @pytest.mark.rule("TD-3.2", "ruling", "shortfall: nothing to draw ends the turn")
    def test_nothing_to_draw_ends_the_turn(self) -> None:
        g = td([["G1"], ["G2"], ["R2"]], "R7", draw=[])
        ev = act(g, "draw")
        assert "pass" in kinds(ev) and g.turn == 1 and hand(g, 0) == ["G1"]
        assert g.opts.shortfall == "forgive"
        with pytest.raises(OptionError):
            hotdeath.new_game("throwdown", players=3, options={"shortfall": "owe"})
        # owed cards are forgiven
        g = td([["R+2", "B5"], ["G1"], ["G2"]], "R7", draw=[])
        ev = act(g, "play R+2")
        # only the R7 under the top can be reshuffled and drawn; the second card is forgiven
        assert [(e.n, e.rule) for e in ev if e.kind == "forgiven"] == [(1, "TD-4.8")]
        assert hand(g, 1) == ["G1", "R7"] and g.turn == 2
        # any other draw's shortfall is this rule's (not TD-1.1's decks): a catch
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7", draw=["B1"])
        act(g, "play R5")
        ev = act(g, "catch 0", seat=1)
        assert [(e.n, e.rule) for e in ev if e.kind == "forgiven"] == [(2, "TD-3.2")]

    @pytest.mark.rule("TD-3.2", "ruling", "a blocked table ends the game")
    def test_nobody_can_move_ends_the_game(self) -> None:
        # every card left is out of play: nobody can play or draw
        g = td([["G1", "G2"], ["Y1", "Y2"]], "R7", draw=[])
        act(g, "draw")
        ev = act(g, "draw")
        assert "blocked" in kinds(ev) and g.is_terminal()
        assert g.winners == [] and g.last_hand is not None and g.last_hand.end == "blocked"

    @pytest.mark.rule("TD-3.3", SEED, "ruling", "effects of a play")
    def test_skips_count_around_the_table(self) -> None:
        g = td([["RS", "GS", "G9"], ["R1"], ["R2"], ["R3"]], "R7")
        ev = act(g, "play RS GS")
        assert [e.seat for e in ev if e.kind == "skip"] == [1, 2] and g.turn == 3
        # two skips with three players come back to the player, who plays again
        g = td([["RS", "GS", "G9"], ["R1"], ["R2"]], "R7")
        act(g, "play RS GS")
        assert g.turn == 0 and g.phase == TURN
        g = td([["RS", "GS", "BS", "G9"], ["R1"], ["R2"]], "R7")
        act(g, "play RS GS BS")
        assert g.turn == 1

    @pytest.mark.rule("TD-3.3", SEED, "reverses flip per card")
    def test_reverses_flip_once_per_card(self) -> None:
        g = td([["RR", "GR", "G9"], ["R1"], ["R2"], ["R3"]], "R7")
        act(g, "play RR GR")
        assert g.direction == 1 and g.turn == 1
        g = td([["RR", "G9"], ["R1"], ["R2"], ["R3"]], "R7")
        act(g, "play RR")
        assert g.direction == -1 and g.turn == 3

    @pytest.mark.rule("TD-3.3", SEED, "draw cards start a Throwdown")
    def test_draw_twos_and_wd4s_start_a_throwdown(self) -> None:
        g = td([["R+2", "G+2", "G9"], ["B1", "B+2"], ["R2", "R3"]], "R7")
        ev = act(g, "play R+2 G+2")
        assert g.phase == RESPONSE and g.pot == 4 and g.level == 2 and g.turn == 1
        assert "throwdown" in kinds(ev)
        g = td([["WD4", "WD4", "G9"], ["B1", "B4"], ["R2", "R3"]], "R7",
               options={"regular_wd4_restriction": "none"})
        act(g, "play WD4 WD4 blue")
        assert g.pot == 8 and g.level == 4 and g.color == hotdeath.cards.BLUE

    @pytest.mark.rule("TD-3.4", SEED, "ruling", "two_player_reverse_as_skip")
    def test_two_player_reverse(self) -> None:
        g = td([["RR", "G9"], ["R1", "R2"]], "R7")
        act(g, "play RR")
        assert g.turn == 1
        g = td([["RR", "G9"], ["R1", "R2"]], "R7", options={"two_player_reverse_as_skip": True})
        ev = act(g, "play RR")
        assert g.turn == 0 and "skip" in kinds(ev)
        g = td([["RR", "GR", "G9"], ["R1", "R2"]], "R7",
               options={"two_player_reverse_as_skip": True})
        act(g, "play RR GR")
        assert g.turn == 1
        # only with two players left
        g = td([["RR", "G9"], ["R1", "R2"], ["R3"]], "R7",
               options={"two_player_reverse_as_skip": True})
        act(g, "play RR")
        assert g.turn == 2

    @pytest.mark.rule("TD-3.5", SEED, "ruling", "a turn ends when the next player discards")
    def test_the_forced_draw_lasts_until_another_discard(self) -> None:
        g = td([["R5", "R6"], ["G1"], ["R2", "R3"], ["G7", "G8"]], "R7",
               draw=["Y1", "R1", "B3"])
        act(g, "play R5")
        assert "uno @2" in legal(g, 0)
        act(g, "draw")  # P1 only draws: the window stays open
        assert g.turn == 1 and "uno @2" in legal(g, 0)
        assert not accepts(g, "play R6", seat=0)  # P0 cannot add to his play
        act(g, "play R1")  # another discard: the window closes
        assert legal(g, 0)[0] == "uno" and "uno @2" not in legal(g, 0)


# =========================================================================== TD-4 the Throwdown


def pot(hands: list[list[str]], top: str, count: int = 2, level: int = 2,
        **fields: Any) -> ThrowdownState:
    """A Throwdown in progress: seat 0 defends by default."""
    return td(hands, top, pot={"count": count, "level": level}, **fields)


class TestThrowdown:
    @pytest.mark.rule("TD-4.1", SEED, "nobody draws on entry")
    def test_entering_a_throwdown(self) -> None:
        g = td([["R+2", "G9"], ["B+2", "B1"], ["R2", "R3"]], "R7")
        ev = act(g, "play R+2")
        assert [len(h) for h in g.hands] == [1, 2, 2] and drawn(ev, 1) == 0
        assert g.phase == RESPONSE and g.turn == 1 and g.pot == 2 and g.level == 2
        assert [e.rule for e in ev if e.kind == "throwdown"] == ["TD-4.1"]
        pos_ = to_position(g)
        assert pos_["pending"] == {"type": "pot", "count": 2, "level": 2, "victim": 1,
                                   "sender": 0, "last_card": "R+2", "wd4_legal": None}

    @pytest.mark.rule("TD-4.2", SEED, "Throwdown cards")
    def test_only_throwdown_cards_defend(self) -> None:
        g = pot([["R2", "R5", "R+2", "RS", "RR", "R0", "R4", "R7", "R3", "R9"], ["G1"]], "R+2")
        assert plays(g) and all(
            p.split()[1][1:] in ("2", "5", "+2", "S", "R", "0") for p in plays(g))
        assert "play R4" not in plays(g) and "play R7" not in plays(g)
        g = pot([["R2", "B2", "R4", "R7"], ["G1"]], "WD4", count=4, level=4, color="red")
        assert "play R4" in plays(g) and "play R7" not in plays(g)

    @pytest.mark.rule("TD-4.3", SEED, "ruling", "kind of the top card")
    def test_top_kind_decides_cross_colour_answers(self) -> None:
        # a Skip on top: any Skip answers it
        g = pot([["BS", "B2", "G1"], ["G1"]], "RS")
        assert plays(g) == ["play BS"]
        # a 5 on top counts as a draw card
        g = pot([["B2", "BS", "G1"], ["G1"]], "R5")
        assert plays(g) == ["play B2"]
        # a Wild on top: only its colour
        g = pot([["B2", "Y2", "G1"], ["G1"]], "W", color="yellow")
        assert plays(g) == ["play Y2", "play Y2 B2"]

    @pytest.mark.rule("TD-4.4", SEED, "ruling", "throwdown_match=color_or_kind")
    def test_first_card_colour_or_kind(self) -> None:
        g = pot([["B2", "BS", "RS", "B0", "R0", "G1"], ["G1"]], "R+2")
        assert {p.split()[1] for p in plays(g)} == {"B2", "RS", "R0"}
        assert "play RS BS" in plays(g) and "play BS RS" not in plays(g)
        # the seed: yellow named with a Wild -> a yellow Throwdown card or a wild
        g = pot([["Y+2", "Y2", "Y5", "YR", "YS", "Y0", "B2", "Y7", "W"], ["G1"]], "W",
                color="yellow")
        firsts = {p.split()[1] for p in plays(g) if not p.startswith("play W")}
        assert firsts == {"Y+2", "Y2", "Y5", "YR", "YS", "Y0"}

    @pytest.mark.rule("TD-4.4", "ruling", "throwdown_match=kind_free")
    def test_kind_free_first_card(self) -> None:
        opts = {"throwdown_match": "kind_free"}
        g = pot([["BS", "G0", "G1"], ["G1"]], "R+2", options=opts)
        assert set(plays(g)) == {"play BS", "play G0"}
        g = pot([["B2", "Y2", "G1"], ["G1"]], "W", color="yellow", options=opts)
        assert plays(g) == ["play Y2", "play Y2 B2"]
        g = pot([["B2", "BS", "YS", "G1"], ["G1"]], "WD4", count=4, level=4, color="yellow",
                options=opts)
        assert {p.split()[1] for p in plays(g)} == {"YS"}  # a lone 2 is no level-4 defence
        g = pot([["B2", "G2", "BS", "YS"], ["G1"]], "WD4", count=4, level=4, color="yellow",
                options=opts)
        assert "play B2 G2" in plays(g) and "play BS" not in plays(g)

    @pytest.mark.rule("TD-4.5", SEED, "ruling", "level2_mix_draw_family")
    def test_rest_of_a_defence_stays_in_the_family(self) -> None:
        g = pot([["R2", "B5", "G+2", "RS", "RR", "R0", "G1"], ["G1"], ["G2"]], "R+2")
        assert accepts(g, "play R2 B5 G+2") and accepts(g, "play G+2 B5 R2")
        assert not accepts(g, "play RS RR") and not accepts(g, "play R2 RS")
        assert not accepts(g, "play R0 R2")
        opts = {"level2_mix_draw_family": False}
        g = pot([["R2", "B2", "B5", "G1"], ["G1"], ["G2"]], "R+2", options=opts)
        assert accepts(g, "play R2 B2") and not accepts(g, "play R2 B5")
        g = pot([["R2", "B5", "G1"], ["G1"], ["G2"]], "WD4", count=4, level=4, color="red",
                options=opts)
        assert accepts(g, "play R2 B5")  # level 4 still mixes

    @pytest.mark.rule("TD-4.6", SEED, "ruling", "draw defences at level 2")
    def test_level_two_draws_and_reverse_draw_twos(self) -> None:
        # the seed's 5: adds two and reverses play to the previous player
        g = pot([["Y2", "G1"], ["B5", "G9"], ["G2", "G3"]], "R+2", turn=1)
        ev = act(g, "play B5")
        assert g.pot == 4 and g.direction == -1 and g.turn == 0 and "reverse" in kinds(ev)
        g = pot([["Y2", "G1"], ["B5", "R5", "G9"], ["G2", "G3"]], "R+2", turn=1)
        act(g, "play B5 R5")  # two 5s: reversed twice
        assert g.pot == 6 and g.direction == 1 and g.turn == 2
        g = pot([["Y2", "G1"], ["R2", "B+2", "G9"], ["G2", "G3"]], "R+2", turn=1)
        act(g, "play R2 B+2")
        assert g.pot == 6 and g.turn == 2 and g.level == 2

    @pytest.mark.rule("TD-4.6", SEED, "ruling", "level4_draw_rule, level4_mix_fours")
    def test_level_four_multiples_of_four(self) -> None:
        def level4(options: dict[str, object] | None = None) -> ThrowdownState:
            return pot([["R2", "B2", "G2", "R4", "B5", "Y5", "G9"], ["G4", "G1"], ["Y4", "G3"]],
                       "WD4", count=4, level=4, color="red", options=options or {})

        g = level4()
        assert not accepts(g, "play R2")  # a lone 2-valued card
        assert not accepts(g, "play R2 B2 G2")  # three: not a multiple of 4
        assert accepts(g, "play R4") and accepts(g, "play R2 B2")
        assert accepts(g, "play R4 R2 B2")  # 4s mix with pairs by default
        act(g, "play R4 R2 B2")
        assert g.pot == 4 + 4 + 4 and g.turn == 1
        g = level4()
        act(g, "play B5 Y5")  # "the two Reverse Draw Two cards cancel each other out"
        assert g.pot == 8 and g.direction == 1 and g.turn == 1
        g = level4()
        act(g, "play R2 B5")  # "if a single 5 is played in the pair ... the play is reversed"
        assert g.pot == 8 and g.direction == -1 and g.turn == 2
        g = level4({"level4_draw_rule": "at_least_two"})
        assert accepts(g, "play R2 B2 G2") and not accepts(g, "play R2")
        act(g, "play R2 B2 G2")
        assert g.pot == 10
        g = level4({"level4_mix_fours": False})
        assert not accepts(g, "play R4 R2 B2") and accepts(g, "play R2 B2")
        assert accepts(g, "play R4")

    @pytest.mark.rule("TD-4.6", SEED, "ruling", "skips, reverses and 0s in a Throwdown")
    def test_skip_reverse_and_zero(self) -> None:
        g = pot([["G1"], ["BS", "RS", "G9"], ["GS", "G2"], ["G3"]], "R+2", count=6, turn=1)
        ev = act(g, "play RS BS")  # the effect does not stack
        assert g.pot == 6 and g.turn == 2 and g.phase == RESPONSE and "redirect" in kinds(ev)
        g = pot([["GR", "G1"], ["RR", "G9"], ["G2"], ["G3"]], "R+2", count=6, turn=1)
        act(g, "play RR")  # turns the draw back to the previous player
        assert g.pot == 6 and g.turn == 0 and g.direction == -1
        g = pot([["G1"], ["RR", "BR", "G9"], ["BR", "G2"], ["G3"]], "R+2", count=6, turn=1)
        act(g, "play RR BR")
        assert g.turn == 2 and g.direction == 1
        # a 0 flushes the pot: nobody draws, regular play on the colour of the 0
        g = pot([["G1"], ["R0", "G9"], ["B0", "B7"], ["G3"]], "R+2", count=6, turn=1)
        ev = act(g, "play R0")
        assert g.phase == TURN and g.pot == 0 and g.turn == 2 and "cancel" in kinds(ev)
        assert [len(h) for h in g.hands] == [1, 1, 2, 1]
        assert plays(g) == ["play B0"]  # matches the last 0 by colour or as a 0

    @pytest.mark.rule("TD-4.7", SEED, "ruling", "wilds as a last resort")
    def test_wilds_in_a_throwdown(self) -> None:
        g = pot([["G1"], ["W", "WD4", "B2", "G9"], ["G2"]], "R+2", turn=1)
        assert plays(g) == ["play B2"]  # a real defence: no wilds
        g = pot([["G1"], ["W", "G9"], ["Y2", "G2"]], "R+2", turn=1)
        assert plays(g) == ["play W red", "play W yellow", "play W green", "play W blue"]
        ev = act(g, "play W yellow")
        assert g.pot == 2 and g.turn == 2 and g.color == hotdeath.cards.YELLOW
        assert ev[0].rule == "TD-4.7"
        # "the next player must play a yellow ..."
        assert plays(g) == ["play Y2", "play Y2 G2"]
        # a WD4 adds four and raises the Throwdown to level 4, which then persists
        g = pot([["G1", "R4"], ["WD4", "G9"], ["RS", "G2"]], "R+2", turn=1)
        act(g, "play WD4 red")
        assert g.pot == 6 and g.level == 4
        act(g, "play RS")
        assert g.level == 4 and g.turn == 0 and plays(g) == ["play R4"]
        # a wild may answer a wild
        g = pot([["G1"], ["WD4", "G9"], ["W", "G7"]], "W", color="blue", turn=1)
        act(g, "play WD4 blue")
        assert "play W red" in plays(g)

    @pytest.mark.rule("TD-4.7", SEED, "ruling", "k Wild Draw Fours add 4k")
    def test_wild_draw_fours_in_a_throwdown_add_four_each(self) -> None:
        # "a Wild Draw Four adds 4": a defence of k of them adds 4k (and sets level 4)
        for k in (1, 2, 3):
            g = pot([["G1"], ["WD4"] * k + ["G9"], ["Y2", "G2"]], "R+2", count=2, turn=1)
            ev = act(g, "play " + " ".join(["WD4"] * k) + " yellow")
            assert g.pot == 2 + 4 * k and g.level == 4 and g.turn == 2
            assert [(e.kind, e.n, e.rule) for e in ev if e.kind == "stack"] == [
                ("stack", 2 + 4 * k, "TD-4.7")]

    @pytest.mark.rule("TD-4.5", "TD-4.7", "TD-4.8", SEED, "ruling",
                      "a lone 2-valued card at level 4")
    def test_a_lone_two_at_level_four_is_no_defence(self) -> None:
        # at level 4 a 2-valued card needs a second beside it (TD-4.6): a lone one is no
        # defence, so a defender who also holds a Wild may play it (the last resort, TD-4.7)
        g = pot([["G1"], ["R2", "W", "G9"], ["Y7", "G7"]], "WD4", count=4, level=4,
                color="red", turn=1)
        assert plays(g) == ["play W red", "play W yellow", "play W green", "play W blue"]
        # and one with nothing else to answer must take the pot at once (TD-4.8)
        eight = ["B1", "B3", "B4", "B6", "B7", "B8", "B9", "Y1", "Y3"]
        g = pot([["G1", "R4"], ["G3", "G9"], ["R2", "G7"], ["Y7", "Y8"]], "WD4", count=4,
                level=4, color="red", turn=0, draw=eight)
        ev = act(g, "play R4")  # P0 adds four: P1, with nothing to answer, takes 8
        assert drawn(ev, 1) == 8 and g.turn == 2 and g.phase == TURN
        g = pot([["G1", "R4"], ["R2", "G9"], ["B2", "G7"], ["Y7", "Y8"]], "WD4", count=4,
                level=4, color="red", turn=0, draw=eight)
        ev = act(g, "play R4")  # P1's lone R2 is no defence: he takes the 8 at once
        assert [e.kind for e in ev if e.seat == 1][:2] == ["take_pot", "draw"]
        assert drawn(ev, 1) == 8 and g.turn == 2 and g.phase == TURN

    @pytest.mark.rule("TD-4.8", SEED, "ruling", "pot_drawer_loses_turn")
    def test_no_defence_draws_the_pot(self) -> None:
        g = pot([["G1"], ["R+2", "G9"], ["G7", "Y7"], ["B1", "B2"]], "R+2", count=4, turn=1,
                draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
        ev = act(g, "play R+2")
        # P2 had no defence: he drew the pot at once and lost his turn
        assert drawn(ev, 2) == 6 and g.pot == 0 and g.phase == TURN and g.turn == 3
        assert [e.rule for e in ev if e.kind == "take_pot"] == ["TD-4.8"]
        g = pot([["G1"], ["R+2", "G9"], ["G7", "Y7"], ["B1", "B2"]], "R+2", count=4, turn=1,
                draw=["Y1", "Y+2", "B2", "R5", "Y5", "Y6"],
                options={"pot_drawer_loses_turn": False})
        act(g, "play R+2")
        assert g.turn == 2 and g.phase == TURN
        # regular matching again: a Draw Two on top is matched by colour or symbol; a 2 is
        # no Draw Two any more
        assert set(plays(g)) == {"play R5", "play R5 Y5", "play Y+2"}

    @pytest.mark.rule("TD-4.8", SEED, "a new Throwdown after the pot is drawn")
    def test_matching_draw_two_starts_a_new_throwdown(self) -> None:
        g = td([["B+2", "G9"], ["G1", "G2"]], "R+2")
        act(g, "play B+2")
        assert g.phase == RESPONSE and g.pot == 2
        g = td([["B2", "G9"], ["G1", "G2"]], "R2")
        act(g, "play B2")
        assert g.phase == TURN

    @pytest.mark.rule("TD-4.9", SEED, "ruling", "voluntary_draw in a Throwdown")
    def test_must_defend_if_able(self) -> None:
        g = pot([["B2", "G1"], ["G1"]], "R+2")
        assert "accept" not in legal(g) and "draw" not in legal(g)
        g = pot([["B2", "G1"], ["G1"]], "R+2", options={"voluntary_draw": True},
                draw=["Y1", "Y2"])
        assert "accept" in legal(g)
        ev = act(g, "accept")
        assert drawn(ev, 0) == 2 and g.turn == 1 and g.phase == TURN

    @pytest.mark.rule("TD-4.10", SEED, "ruling", "round and round")
    def test_the_initiator_may_have_to_defend(self) -> None:
        g = td([["R+2", "B+2", "G9"], ["G+2", "G2", "G1"]], "R7")
        act(g, "play R+2")
        act(g, "play G+2")
        assert g.turn == 0 and g.pot == 4 and g.phase == RESPONSE
        act(g, "play B+2")
        assert g.turn == 1 and g.pot == 6


# =========================================================================== TD-5 Uno


class TestUno:
    @pytest.mark.rule("TD-5.1", SEED, "ruling", "when Uno may be called")
    def test_uno_only_after_the_penultimate_card(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7", draw=["B1", "B2", "B3"])
        # with two cards a call is erroneous (it costs two cards)
        ev = act(g, "uno", seat=0)
        assert kinds(ev)[0] == "false_call" and drawn(ev, 0) == 2
        # a multi-card play can bring a hand from many cards to one
        g = td([["R5", "B5", "G5", "Y5", "G1"], ["G1", "G2"], ["G3", "G4"]], "R7")
        act(g, "play R5 B5 G5 Y5")
        assert g.uno_open == [0] and legal(g, 0)[:2] == ["uno", "uno @1"]

    @pytest.mark.rule("TD-5.2", SEED, "ruling", "forced draw")
    def test_own_call_with_a_forced_draw(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7", draw=["Y1", "Y2", "Y3"])
        act(g, "play R5")
        assert legal(g, 0)[:3] == ["uno", "uno @1", "uno @2"]
        ev = act(g, "uno @2", seat=0)
        assert ev[0].kind == "uno" and ev[0].target == 2 and ev[0].rule == "TD-5.2"
        assert hand(g, 2) == ["G3", "G4", "Y1", "Y2"] and g.uno_open == []
        assert "uno" not in legal(g, 0)  # one call per episode
        assert "catch 0" not in legal(g, 1)

    @pytest.mark.rule("TD-5.2", "ruling", "uno_force_window=any_own_turn")
    def test_force_window_on_later_turns(self) -> None:
        def after_a_round(options: dict[str, object]) -> ThrowdownState:
            g = td([["R5", "R6"], ["R1", "G2"]], "R7", options=options, draw=["Y8"] * 0)
            act(g, "play R5")
            act(g, "play R1")
            return g

        g = after_a_round({})
        assert g.turn == 0 and legal(g, 0).count("uno") == 1 and "uno @1" not in legal(g, 0)
        g = after_a_round({"uno_force_window": "any_own_turn"})
        assert "uno @1" in legal(g, 0)

    @pytest.mark.rule("TD-5.2", "ruling", "the target may hold one card too")
    def test_target_on_uno_and_pot_untouched(self) -> None:
        g = pot([["G1"], ["B2", "R6"], ["G2"]], "R+2", turn=1, uno_open=[0, 2],
                draw=["Y1", "Y2", "Y3", "Y4"])
        act(g, "play B2")
        assert g.uno_open == [0, 2, 1] and g.turn == 2
        assert "uno @2" in legal(g, 1)
        act(g, "uno @2", seat=1)
        assert len(g.hands[2]) == 3 and g.pot == 4  # the forced draw never touches the pot

    @pytest.mark.rule("TD-5.3", SEED, "ruling", "late call")
    def test_late_call_without_a_forced_draw(self) -> None:
        g = td([["R5", "R6"], ["R1", "G2"], ["G3", "G4"]], "R7")
        act(g, "play R5")
        act(g, "play R1")  # another player discards: the window is closed
        assert "uno" in legal(g, 0) and "uno @2" not in legal(g, 0)
        with pytest.raises(IllegalActionError):
            act(g, "uno @2", seat=0)
        ev = act(g, "uno", seat=0)
        assert ev[0].rule == "TD-5.3" and 0 not in g.uno_open
        assert "catch 0" not in legal(g, 2)  # safe for the rest of the episode

    @pytest.mark.rule("TD-5.4", SEED, "ruling", "catch")
    def test_caught_draws_four(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7",
               draw=["B1", "B2", "B3", "B4", "B5", "B6"])
        act(g, "play R5")
        assert "catch 0" in legal(g, 2) and "catch 0" in legal(g, 1)
        ev = act(g, "catch 0", seat=2)
        assert ev[0].kind == "catch" and ev[0].rule == "TD-5.4" and drawn(ev, 0) == 4
        assert len(g.hands[0]) == 5 and g.uno_open == []
        assert "uno" in legal(g, 0)  # now an erroneous call (five cards)
        # players who went out may catch too, at any time
        g = td([[], ["R5", "R6"], ["G3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0])
        act(g, "play R5")
        assert "catch 1" in legal(g, 0)
        act(g, "catch 1", seat=0)
        assert len(g.hands[1]) == 5 and not g.active[0]  # a right catch: P0 stays out

    @pytest.mark.rule("TD-5.5", SEED, "ruling", "false_uno_call_penalty")
    def test_erroneous_calls_cost_the_caller(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4", "G5"]], "R7",
               draw=["B1", "B2", "B3", "B4"])
        ev = act(g, "catch 1", seat=2)  # P1 has "DOS"
        assert kinds(ev)[0] == "false_call" and ev[0].rule == "TD-5.5" and drawn(ev, 2) == 2
        ev = act(g, "uno", seat=1)  # own call with two cards
        assert drawn(ev, 1) == 2
        # redundant calls are not offered
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7")
        act(g, "play R5")
        act(g, "uno", seat=0)
        assert "uno" not in legal(g, 0) and "catch 0" not in legal(g, 2)
        # no penalty: erroneous calls are refused
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7",
               options={"false_uno_call_penalty": 0})
        assert legal(g, 1) == ["leave"]  # only leaving (TD-6.6)
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=1)

    @pytest.mark.rule("TD-5.5", "ruling", "catching a player who is out is erroneous")
    def test_catching_an_out_player_is_erroneous(self) -> None:
        g = td([[], ["R5", "R6"], ["G3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0],
               draw=["B1", "B2"])
        ev = act(g, "catch 0", seat=2)
        assert kinds(ev)[0] == "false_call" and drawn(ev, 2) == 2
        assert not g.active[0] and g.hands[0] == []  # the catch changed nothing for P0

    @pytest.mark.rule("TD-5.5", SEED, "ruling", "an erroneous call by a player who is out")
    def test_a_player_who_is_out_pays_for_an_erroneous_call_and_is_back_in(self) -> None:
        # 004: "If a player erroneously calls UNO ... the caller must draw two cards", with
        # no exception for a player who has gone out (TD-5.4 lets him call): he draws two
        # and, holding cards again, is back in play at his own seat, as after a call-back
        # (TD-6.4); his exit stays recorded and the winner stays the winner
        g = td([[], ["R5", "R6"], ["R3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0],
               draw=["B1", "B2", "B3", "B4"])
        assert legal(g, 0) == ["uno", "catch 1", "catch 2", "decline"]
        ev = act(g, "uno", seat=0)  # his own call with no card: erroneous
        assert [(e.kind, e.seat, e.rule) for e in ev] == [
            ("false_call", 0, "TD-5.5"), ("draw", 0, "TD-5.5"), ("rejoin", 0, "TD-5.5")]
        assert hand(g, 0) == ["B1", "B2"] and g.active[0] and g.n_active == 3
        assert g.out_order == [0] and g.winner == 0 and g.turn == 1
        act(g, "play R5")  # P1, then P2, then P0 at his own seat again
        assert g.turn == 2
        act(g, "play R3")
        assert g.turn == 0 and legal(g)[0] == "draw"

    @pytest.mark.rule("TD-5.5", SEED, "ruling", "an out player's erroneous catch")
    def test_an_erroneous_catch_by_a_player_who_is_out(self) -> None:
        # P0 won and P1 went out after him; P1 catches P2, who holds two cards ("DOS"): P1
        # draws two and is back in, so he can lose again; without extended play too
        for options in ({}, {"extended_play": False}):
            g = td([[], [], ["G3", "G4"], ["R1", "R2"]], "R7", turn=3, hand_winner=0,
                   out_order=[0, 1], draw=["B1", "B2", "B3"], options=options)
            assert "catch 2" in legal(g, 1)
            ev = act(g, "catch 2", seat=1)
            assert kinds(ev) == ["false_call", "draw", "rejoin"] and ev[0].target == 2
            assert hand(g, 1) == ["B1", "B2"] and g.active == [False, True, True, True]
            assert g.out_order == [0, 1] and g.winner == 0
            act(g, "play R2")  # P3 on, then P0 is skipped: P1 plays next
            assert g.turn == 1
        # with no penalty the calls are not offered (TD-5.5's false_uno_call_penalty=0)
        g = td([[], ["R5", "R6"], ["G3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0],
               options={"false_uno_call_penalty": 0})
        assert legal(g, 0) == ["decline"]

    @pytest.mark.rule("TD-5.5", "ruling", "a player who left cannot be called on")
    def test_a_player_who_left_cannot_be_called_on(self) -> None:
        # P2 leaves holding two cards: he is no longer in the game, so a catch on him is
        # refused without penalty, not erroneous as a catch on a two-card player would be
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"], ["B3", "B4"]], "R7",
               draw=["B1", "B2"])
        assert "catch 2" in legal(g, 1)
        act(g, "leave", seat=2)
        assert "catch 2" not in legal(g, 1) and "catch 2" not in legal(g, 0)
        with pytest.raises(IllegalActionError):
            act(g, "catch 2", seat=1)
        assert len(g.hands[1]) == 2

    @pytest.mark.rule("TD-5.6", "ruling", "going out without calling")
    def test_going_out_without_a_call(self) -> None:
        g = td([["R6"], ["G1", "G2"], ["G3", "G4"]], "R7", uno_open=[0])
        ev = act(g, "play R6")
        assert "out" in kinds(ev) and g.winner == 0 and not g.is_terminal()

    @pytest.mark.rule("TD-5.7", SEED, "ruling", "calls are serialized")
    def test_simultaneous_calls_are_handled_in_order(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7",
               draw=["B1", "B2", "B3", "B4", "B5", "B6"])
        act(g, "play R5")
        first = act(g, "catch 0", seat=1)
        second = act(g, "catch 0", seat=2)  # too late: P0 now holds five cards
        assert drawn(first, 0) == 4
        assert kinds(second)[0] == "false_call" and drawn(second, 2) == 2

    @pytest.mark.rule("TD-5.8", SEED, "uno_force_draw, uno_catch_penalty")
    def test_penalty_sizes(self) -> None:
        def episode(options: dict[str, object]) -> ThrowdownState:
            g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7", options=options,
                   draw=["B1", "B2", "B3", "B4", "B5", "B6"])
            act(g, "play R5")
            return g

        g = episode({})
        act(g, "uno @1", seat=0)
        assert len(g.hands[1]) == 4
        g = episode({"uno_force_draw": 3})
        act(g, "uno @1", seat=0)
        assert len(g.hands[1]) == 5
        g = episode({"uno_force_draw": 0})
        assert legal(g, 0)[0] == "uno" and "uno @1" not in legal(g, 0)
        g = episode({"uno_catch_penalty": 1})
        act(g, "catch 0", seat=2)
        assert len(g.hands[0]) == 2
        g = episode({"false_uno_call_penalty": 3})
        act(g, "catch 1", seat=2)
        assert len(g.hands[2]) == 5


# =========================================================================== TD-6 the end


class TestEnd:
    @pytest.mark.rule("TD-6.1", SEED, "going out, in a Throwdown too")
    def test_going_out_during_a_throwdown_passes_the_pot_on(self) -> None:
        g = pot([["B+2"], ["G2", "G7"], ["G3", "G+2"]], "R+2")
        ev = act(g, "play B+2")
        assert "out" in kinds(ev) and [e.rule for e in ev if e.kind == "out"] == ["TD-6.1"]
        assert g.winner == 0 and not g.active[0]
        assert g.phase == RESPONSE and g.pot == 4 and g.turn == 1
        # never on a wild: a defender holding only a Wild draws the pot
        g = td([["R+2", "G9"], ["W"], ["G3", "G4"]], "R1", draw=["B1", "B2"])
        act(g, "play R+2")
        assert hand(g, 1) == ["B1", "B2", "W"] and g.turn == 2

    @pytest.mark.rule("TD-6.2", SEED, "the winner")
    def test_first_out_wins(self) -> None:
        g = td([["R5"], ["R1", "R2"], ["R3", "R4"]], "R7")
        act(g, "play R5")
        assert g.winner == 0 and not g.is_terminal()
        act(g, "play R1")
        act(g, "play R3")
        act(g, "play R2")
        assert g.is_terminal() and g.winners == [0] and g.returns() == [1.0, 0.0, 0.0]

    @pytest.mark.rule("TD-6.2", SEED, "ruling", "a hand-made position's winner")
    def test_a_position_with_players_out_has_the_first_out_as_its_winner(self) -> None:
        # a position written by hand with out_order but no hand_winner: the first player
        # out is the winner (TD-6.2), as in any game that reached it; a different winner is
        # refused (no game reaches it)
        g = td([[], [], ["R5", "R6"], ["R3", "G4"]], "R7", turn=2, out_order=[1, 0])
        assert g.winner == 1 and to_position(g)["hand_winner"] == 1
        act(g, "play R5", "play R3", "play R6")  # P2 goes out: P3 is the loser
        assert g.is_terminal() and g.winners == [1] and g.next_game_dealer() == 1
        assert g.last_hand is not None and g.last_hand.loser == 3
        assert g.last_hand.out_order == (1, 0, 2)
        with pytest.raises(PositionError) as err:
            td([[], [], ["R5", "R6"], ["G3", "G4"]], "R7", turn=2, out_order=[1, 0],
               hand_winner=0)
        assert "first player in out_order" in err.value.message

    @pytest.mark.rule("TD-6.3", SEED, "ruling", "play_on_after_first_out")
    def test_play_on_until_one_holds_cards(self) -> None:
        g = td([["R5"], ["R1", "R2"], ["R3", "R4"]], "R7")
        act(g, "play R5")
        assert g.active == [False, True, True] and g.turn == 1
        act(g, "play R1")
        act(g, "play R3")
        ev = act(g, "play R2")
        assert g.out_order == [0, 1]
        assert g.is_terminal() and "loser" in kinds(ev)
        assert g.last_hand == HandResult(hand=1, end="last_holder", rule="TD-6.3",
                                         winners=(0,), out_order=(0, 1), loser=2)
        assert g.scores == [0, 0, 0]
        g = td([["R+2"], ["G1", "G2"], ["R3", "G4"]], "R7",
               options={"play_on_after_first_out": False})
        ev = act(g, "play R+2")
        assert g.is_terminal() and g.winners == [0] and g.pot == 0  # the pot is discarded
        assert g.last_hand is not None and g.last_hand.loser is None
        assert g.last_hand.end == "out"

    @pytest.mark.rule("TD-6.3", "ruling", "the pot continues after someone goes out")
    def test_a_pot_continues_past_the_player_out(self) -> None:
        g = td([["R+2"], ["G2", "G7"], ["R3", "G+2"]], "R7")
        act(g, "play R+2")
        assert g.winner == 0 and g.turn == 1 and g.pot == 2 and g.phase == RESPONSE
        act(g, "play G2")
        assert g.turn == 2 and g.pot == 4

    @pytest.mark.rule("TD-6.4", SEED, "ruling", "extended_play, call-backs")
    def test_call_back_an_out_player(self) -> None:
        g = td([[], ["R5", "R6"], ["G3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0],
               draw=["B1", "B2"])
        act(g, "play R5")
        assert "uno @0" in legal(g, 1)
        ev = act(g, "uno @0", seat=1)
        assert "rejoin" in kinds(ev) and [e.rule for e in ev if e.kind == "rejoin"] == ["TD-6.4"]
        assert g.active[0] and hand(g, 0) == ["B1", "B2"]
        assert g.out_order == [0]  # a record of exits: the call-back keeps it (TD-6.4)
        assert g.winner == 0  # still the winner
        g = td([[], ["R5", "R6"], ["G3", "G4"]], "R7", turn=1, hand_winner=0, out_order=[0],
               options={"extended_play": False})
        act(g, "play R5")
        assert "uno @0" not in legal(g, 1) and "uno @2" in legal(g, 1)
        assert "decline" not in legal(g, 0)

    @pytest.mark.rule("TD-6.4", "ruling", "a called-back winner is never the loser")
    def test_a_called_back_winner_cannot_be_the_loser(self) -> None:
        # P0 went out first and won; P1 on Uno calls him back; P1 then goes out, leaving
        # P0 (the winner) and P2 holding cards. The engine used to play on until P2 went out
        # and then named P0 both winner and loser; now the game ends when P1 goes out, with
        # P2, the last player besides the winner holding cards, the loser.
        g = td([[], ["R5", "G1"], ["R9", "G8"]], "R7", turn=1, hand_winner=0, out_order=[0],
               draw=["G9", "G3"])
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        assert g.active == [True, True, True] and hand(g, 0) == ["G3", "G9"]
        act(g, "play R9", "play G9")
        ev = act(g, "play G1")  # P1 goes out: P2 is the only one left who can lose
        assert kinds(ev) == ["play", "out", "hand_end", "loser", "game_end"]
        assert [(e.kind, e.seat, e.rule) for e in ev if e.kind in ("hand_end", "loser")] == [
            ("hand_end", 0, "TD-6.3"), ("loser", 2, "TD-6.3")]
        assert g.is_terminal() and g.winners == [0] and g.returns() == [1.0, 0.0, 0.0]
        assert g.last_hand == HandResult(hand=1, end="last_holder", rule="TD-6.3",
                                         winners=(0,), out_order=(0, 1), loser=2)
        assert hand(g, 0) == ["G3"]  # the winner still holds a card; it does not matter
        # the same by leaving the table: P1 leaves instead of going out
        g = td([["G3"], ["R5", "G1"], ["R9", "G8"]], "R7", turn=1, hand_winner=0)
        act(g, "leave")
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand is not None and g.last_hand.loser == 2
        assert g.last_hand.end == "left"
        # with two others still holding cards the called-back winner plays on
        g = td([["G3"], ["R5"], ["R9", "G8"], ["R1", "B2"]], "R7", turn=1, hand_winner=0)
        act(g, "play R5")
        assert not g.is_terminal() and g.turn == 2
        # a position in which the game would be over is refused
        with pytest.raises(PositionError) as err:
            td([["G3"], ["R5"]], "R7", turn=1, hand_winner=0)
        assert err.value.code == "bad_position" and "besides the winner" in err.value.message

    @pytest.mark.rule("TD-6.4", SEED, "ruling", "each exit is recorded again")
    def test_a_called_back_winner_who_goes_out_again_is_recorded_twice(self) -> None:
        # P0 won and is called back by P1's Uno; he goes out again, then P1 goes out: the
        # record of exits keeps both of P0's (TD-6.4: out_order records each exit again)
        g = td([[], ["R5", "R6"], ["R9", "B8", "B7"]], "R7", turn=1, hand_winner=0,
               out_order=[0], draw=["R1", "R1"])
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        assert g.active == [True, True, True] and hand(g, 0) == ["R1", "R1"]
        assert g.out_order == [0]  # the call-back does not erase the exit
        act(g, "play R9")
        act(g, "play R1 R1")  # the winner goes out a second time
        assert g.out_order == [0, 0] and not g.active[0] and not g.is_terminal()
        assert g.turn == 1
        act(g, "play R6")
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand == HandResult(hand=1, end="last_holder", rule="TD-6.3",
                                         winners=(0,), out_order=(0, 0, 1), loser=2)
        assert to_position(from_position(to_position(g))) == to_position(g)

    @pytest.mark.rule("TD-6.4", "ruling", "the record keeps a called-back winner")
    def test_the_result_keeps_a_called_back_winner_who_ends_holding_cards(self) -> None:
        # the winner is called back and still holds cards when the game ends: his exit stays
        # in the record (it was erased, and the result named P1 alone as having gone out)
        g = td([[], ["R5", "G1"], ["R9", "G8"]], "R7", turn=1, hand_winner=0, out_order=[0],
               draw=["G9", "G3"])
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        act(g, "play R9", "play G9", "play G1")
        assert g.is_terminal() and g.winners == [0] and hand(g, 0) == ["G3"]
        assert g.last_hand is not None and g.last_hand.out_order == (0, 1)
        assert g.last_hand.loser == 2
        # a called-back player who then leaves the table is not out: he left (TD-6.6)
        g = td([[], ["R5", "G1"], ["R9", "G8"], ["B1", "B2"]], "R7", turn=1, hand_winner=0,
               out_order=[0], draw=["G9", "G3"], options={"callback_decline": "any_out_player"})
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        act(g, "leave", seat=0)
        assert not g.active[0] and g.out_order == [0] and g.left == [0]
        assert legal(g, 0) == [] and 0 not in g.force_targets(1)
        assert to_position(from_position(to_position(g))) == to_position(g)

    @pytest.mark.rule("TD-6.4", SEED, "ruling", "callback_decline")
    def test_declining_a_call_back(self) -> None:
        g = td([[], [], ["R5", "R6"], ["G3", "G4"]], "R7", turn=2, hand_winner=0,
               out_order=[0, 1])
        assert "decline" in legal(g, 0)
        assert "decline" not in legal(g, 1)  # winner only
        ev = act(g, "decline", seat=0)
        assert ev[0].kind == "decline" and g.declined == [0]
        act(g, "play R5")
        assert "uno @0" not in legal(g, 2) and "uno @1" in legal(g, 2)
        assert "decline" not in legal(g, 0)
        g = td([[], [], ["R5", "R6"], ["G3", "G4"]], "R7", turn=2, hand_winner=0,
               out_order=[0, 1], options={"callback_decline": "any_out_player"})
        assert "decline" in legal(g, 1)
        assert to_position(g)["declined"] == []

    @pytest.mark.rule("TD-6.4", "ruling", "a winner refuses a call-back while he is out")
    def test_a_called_back_winner_refuses_once_out_again(self) -> None:
        # P0 won and did not refuse; P1 on Uno calls him back. Holding cards, P0 cannot be
        # called back, so there is nothing to refuse until he is out again; meanwhile a forced
        # draw may name him like any player holding cards
        g = td([[], ["R5", "R6"], ["G3", "G4", "G5"], ["Y3", "Y4"]], "R7", turn=1,
               hand_winner=0, out_order=[0], draw=["B1", "B2", "B3", "B4"])
        assert "decline" in legal(g, 0)
        act(g, "play R5")
        act(g, "uno @0", seat=1)
        assert hand(g, 0) == ["B1", "B2"] and "decline" not in legal(g, 0)
        with pytest.raises(IllegalActionError):
            act(g, "decline", seat=0)
        assert g.declined == []

    @pytest.mark.rule("TD-6.4", "ruling", "max_turns")
    def test_max_turns_stops_the_game_without_a_loser(self) -> None:
        g = td([["R5", "R6", "R1"], ["G1", "G2", "R2"]], "R7", options={"max_turns": 2})
        act(g, "play R5")
        assert not g.is_terminal()
        act(g, "play R2")
        assert g.is_terminal() and g.winners == []
        assert g.last_hand is not None and g.last_hand.end == "max_turns"
        assert g.last_hand.loser is None
        unlimited = hotdeath.new_game("throwdown", players=3, seed=1, options={"max_turns": 0})
        assert unlimited.opts.max_turns == 0

    @pytest.mark.rule("TD-6.5", SEED, "ruling", "two players left")
    def test_two_players_left_first_out_ends_it(self) -> None:
        g = td([["R5"], ["G1", "G2"]], "R7")
        ev = act(g, "play R5")
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand is not None and g.last_hand.loser == 1
        assert kinds(ev)[-2:] == ["loser", "game_end"]

    @pytest.mark.rule("TD-6.6", SEED, "ruling", "leaving the table")
    def test_leaving_puts_the_hand_under_the_discard_pile(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "G4"]], "R7", discard=["B9", "R7"])
        assert "leave" in legal(g)
        ev = act(g, "leave")
        assert ev[0].kind == "leave" and ev[0].rule == "TD-6.6"
        assert [card_code(c) for c in g.discard] == ["R5", "R6", "B9", "R7"]
        assert g.hands[0] == [] and not g.active[0] and g.turn == 1 and 0 not in g.out_order
        assert "leave" not in legal(g, 0) and legal(g, 0) == []
        # a defender who leaves passes the pot on
        g = pot([["G1"], ["B2", "G9"], ["G2", "G3"], ["R2", "R3"]], "R+2", turn=1)
        act(g, "leave")
        assert g.turn == 2 and g.phase == RESPONSE and g.pot == 2

    @pytest.mark.rule("TD-6.6", SEED, "ruling", "leaving at any time")
    def test_any_player_still_in_the_game_may_leave_out_of_turn(self) -> None:
        # TD-6.6: "If, during the game, a player leaves the table for any reason": not only
        # on his turn. P2 leaves while P0 is to act; the turn order then skips him.
        g = td([["R5", "R6"], ["R1", "G2"], ["G3", "R4"]], "R7", discard=["B9", "R7"])
        assert legal(g, 2)[-1] == "leave" and 2 in g.actors()
        ev = act(g, "leave", seat=2)
        assert [(e.kind, e.seat, e.rule, e.n) for e in ev] == [("leave", 2, "TD-6.6", 2)]
        assert g.hands[2] == [] and not g.active[2] and g.left == [2] and g.turn == 0
        assert len(g.discard) == 4 and g.discard[-1] == card("R7")
        assert legal(g, 2) == [] and 2 not in g.actors()
        act(g, "play R5")
        assert g.turn == 1  # P2 is skipped
        act(g, "play R1")
        assert g.turn == 0
        # a holder of an open Uno leaves: nobody can catch him any more
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "R4"]], "R7")
        act(g, "play R5")
        assert "catch 0" in legal(g, 1)
        act(g, "leave", seat=0)
        assert g.uno_open == [] and "catch 0" not in legal(g, 1) and g.turn == 1
        # during a Throwdown: a seat other than the defender leaves, the pot stays on him
        g = pot([["G2", "G1"], ["B2", "G9"], ["G7", "G3"], ["R2", "R3"]], "R+2")
        act(g, "leave", seat=1)
        assert g.phase == RESPONSE and g.turn == 0 and g.pot == 2
        act(g, "play G2")
        # the pot skips the seat that left: P2, without a defence, draws it and loses the turn
        assert g.phase == TURN and len(g.hands[2]) == 6 and g.turn == 3
        # the defender himself leaves: the pot goes on to the next seat
        g = pot([["G1", "G4"], ["B2", "G9"], ["G2", "G3"], ["R2", "R3"]], "R+2", turn=1)
        act(g, "leave", seat=1)
        assert g.turn == 2 and g.phase == RESPONSE and g.pot == 2
        # an out-of-turn leave can end the game (TD-6.6 ruling)
        g = td([["R5", "R6"], ["G1", "G2"]], "R7")
        act(g, "leave", seat=1)
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand is not None and g.last_hand.extras["left"] == (1,)
        g = td([[], ["R5", "R6"], ["G1", "G2"]], "R7", turn=1, hand_winner=0, out_order=[0])
        assert "leave" not in legal(g, 0)  # a player who is out has no cards to leave with
        act(g, "leave", seat=2)
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand is not None and g.last_hand.loser == 1
        # no leaving while the dealer chooses the direction (play has not started)
        g = td([["R5", "R6"], ["G1", "G2"], ["G3", "R4"]], "R7", phase="deal", dealer=0,
               turn=0)
        assert legal(g, 1) == [] and "leave" not in legal(g, 0)

    @pytest.mark.rule("TD-6.6", SEED, "ruling", "the leaver's cards lie face down")
    def test_the_cards_of_a_player_who_leaves_are_seen_by_nobody(self) -> None:
        # P1 leaves out of turn holding Y9 and B4, cards nobody else holds or has seen
        g = td([["R5", "R6", "G8"], ["Y9", "B4"], ["G3", "R4"]], "R7", discard=["B9", "R7"],
               draw=["G1", "G2", "R1", "R2"])
        secret = {"Y9", "B4"}

        def in_play() -> Counter[int]:
            return Counter(g.draw_pile) + Counter(g.discard) + Counter(
                c for h in g.hands for c in h)

        before = in_play()
        ev = act(g, "leave", seat=1)
        assert [e.n for e in ev if e.kind == "leave"] == [2]
        for e in ev:
            for s in (None, 0, 1, 2):
                assert not secret & {card_code(c) for c in e.for_seat(s).cards}

        def check_views() -> None:
            for seat in (None, 0, 1, 2):
                v = g.view(seat)
                assert v.buried == g.buried == 2
                assert len(v.discard) + v.buried == len(g.discard)
                text = json.dumps(v.to_json())
                assert not any(f'"{c}"' in text for c in secret), (seat, text)
                assert '"buried": 2' in text

        check_views()
        assert [card_code(c) for c in g.view(None).discard] == ["B9", "R7"]
        # the cards stay in the game: in the state, under the pile, and in its position
        assert [card_code(c) for c in g.discard] == ["Y9", "B4", "B9", "R7"]
        assert in_play() == before
        data = to_position(g)
        assert data["buried"] == 2 and data["discard"][:2] == ["Y9", "B4"]
        assert to_position(from_position(json.loads(json.dumps(data)))) == data
        act(g, "play R5")
        act(g, "play R4")
        check_views()  # plays on top do not uncover them
        # a reshuffle takes them into the draw pile with the rest: nothing lies face down
        g = td([["R5", "R6", "G8"], ["Y9", "B4"], ["G3", "G4"]], "R7", discard=["B9", "R7"],
               draw=[])
        act(g, "leave", seat=1)
        act(g, "play R5")
        act(g, "draw")  # P2 has nothing to play: the pile below the top is shuffled in
        assert g.buried == 0 and g.view(None).buried == 0 and len(g.discard) == 1
        assert {"Y9", "B4"} <= {card_code(c) for c in g.hands[2] + g.draw_pile}
        # a position may not bury more than lies under the top card
        with pytest.raises(PositionError):
            td([["R5"], ["G1"]], "R7", discard=["B9", "R7"], buried=2)

    @pytest.mark.rule("TD-6.6", "ruling", "search samples the face-down cards")
    def test_a_search_bot_does_not_see_the_buried_cards(self) -> None:
        from hotdeath.bots.ismcts import Sampler

        g = td([["R5", "R6", "G8"], ["Y9", "B4"], ["G3", "R4"]], "R7", discard=["B9", "R7"],
               options={"decks": 1})
        act(g, "leave", seat=1)
        sampler = Sampler(g.view(0))
        assert parse_card("Y9") in sampler.pool and parse_card("B4") in sampler.pool
        rnd = random.Random(3)
        for _ in range(5):
            d = sampler.sample(rnd)
            assert d.buried_cards() == 2 and len(d.discard) == 4
            assert d.discard[2:] == g.discard[2:] and len(d.draw_pile) == len(g.draw_pile)
            conservation(d)

    @pytest.mark.rule("TD-6.6", "ruling", "the game ends when one holds cards")
    def test_leaving_can_end_the_game(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"]], "R7")
        act(g, "leave")
        assert g.is_terminal() and g.winners == [1]
        assert g.last_hand is not None and g.last_hand.loser is None
        assert g.last_hand.extras == {"left": (0,)} and g.last_hand.end == "left"
        g = td([[], ["R5", "R6"], ["G1", "G2"]], "R7", turn=1, hand_winner=0, out_order=[0])
        act(g, "leave")
        assert g.is_terminal() and g.winners == [0]
        assert g.last_hand is not None and g.last_hand.loser == 2

    @pytest.mark.rule("TD-6.7", SEED, "teasing is flavour")
    def test_misplays_cost_nothing_and_there_is_no_teasing(self) -> None:
        g = td([["R5", "R6"], ["G1", "G2"]], "R7")
        before = to_position(g)
        for bad in ("play G1", "play R5 R6 G1", "draw"):
            with pytest.raises(IllegalActionError):
                act(g, bad)
        assert to_position(g) == before
        assert not {"taunt", "tease"} & set(A.KIND_WORDS)


# =========================================================================== options


class TestOptions:
    @pytest.mark.rule("TD-6.3", "ruling", "scoring and rounds are fixed")
    def test_fixed_options(self) -> None:
        g = hotdeath.new_game("throwdown", players=3, seed=1,
                              options={"scoring": "none", "rounds": 1})
        assert (g.opts.scoring, g.opts.rounds) == ("none", 1)
        for bad in ({"scoring": "winner_takes"}, {"rounds": 2}, {"decks": 3},
                    {"initial_direction": 2}, {"callback_decline": "nobody"}):
            with pytest.raises(OptionError) as err:
                hotdeath.new_game("throwdown", players=3, seed=1, options=bad)
            assert err.value.code == "bad_option_value"

    def test_every_option_of_the_contract_column(self) -> None:
        names = {s.name for s in hotdeath.get_variant("throwdown").option_specs()}
        assert names == {
            "dealer_selection", "max_players", "decks", "initial_direction",
            "wild_color_must_change", "wd4_color_must_change", "voluntary_draw",
            "two_player_reverse_as_skip", "uno_catch_penalty", "false_uno_call_penalty",
            "uno_force_draw", "uno_force_window", "scoring", "rounds", "multi_play_same_color",
            "top_three_pair_equivalence", "regular_wd4_restriction", "throwdown_match",
            "level2_mix_draw_family", "level4_draw_rule", "level4_mix_fours",
            "pot_drawer_loses_turn", "play_on_after_first_out", "extended_play",
            "callback_decline", "max_turns", "shortfall",
        }
        v = hotdeath.get_variant("td")
        assert v.name == "throwdown" and v.rule_prefix == "TD"
        assert list(v.presets) == ["seed_004", "one_deck"]
        defaults = v.resolve_options()
        assert (defaults.decks, defaults.uno_catch_penalty, defaults.false_uno_call_penalty,
                defaults.uno_force_draw, defaults.initial_direction) == (2, 4, 2, 2, 0)
        for spec in v.option_specs():
            assert spec.rule in RULES and spec.rule.startswith("TD-"), spec.name


# =========================================================================== multi-card plays


def brute_force_plays(state: ThrowdownState, seat: int) -> set[tuple[tuple[int, ...], int]]:
    """Every (sorted cards, last card) of a valid non-wild order, by trying every order."""
    out: set[tuple[tuple[int, ...], int]] = set()
    hand_ = state.hands[seat]
    for size in range(1, len(hand_) + 1):
        for perm in set(itertools.permutations(hand_, size)):
            if not IS_WILD[perm[0]] and state.is_legal_play(seat, perm):
                out.add((tuple(sorted(perm)), perm[-1]))
    return out


def random_position(rnd: random.Random, response: bool) -> ThrowdownState | None:
    deck = [c for c in standard_deck() * 2 if not IS_WILD[c]]
    wanted = ("2", "5", "4", "+2", "S", "R", "0") if response else ("9", "6", "3", "8", "7")
    pool = [c for c in deck if card_code(c)[1:] in wanted or rnd.random() < 0.08]
    held = rnd.sample(pool, rnd.randint(1, 6))
    options: dict[str, object] = {"multi_play_same_color": rnd.random() < 0.7}
    fields: dict[str, Any] = {"color": rnd.choice(["red", "yellow", "green", "blue"])}
    if response:
        options.update(level4_draw_rule=rnd.choice(["even", "at_least_two"]),
                       level4_mix_fours=rnd.random() < 0.5,
                       level2_mix_draw_family=rnd.random() < 0.5,
                       throwdown_match=rnd.choice(["color_or_kind", "kind_free"]))
        fields["pot"] = {"count": 4, "level": rnd.choice([2, 4])}
    else:
        options["top_three_pair_equivalence"] = rnd.random() < 0.5
        fields["pair_on_top"] = rnd.random() < 0.5
    top = rnd.choice([*deck, parse_card("W"), parse_card("WD4")])
    try:
        return td([[card_code(c) for c in held], ["G1", "G1"]], card_code(top),
                  options=options, **fields)
    except PositionError:
        return None  # e.g. a defender without a defence


# An independent statement of TD-2.1 to TD-2.7 for non-wild regular plays (the reference of
# the property test below; the engine's own grammar lives in hotdeath.variants.throwdown).
_REF_LINKS = {frozenset(p) for p in ((6, 9), (6, "33"), (8, "33"), (3, "33"))}


def _ref_value(face: int) -> int | str:
    code = card_code(face)[1:]
    return int(code) if code.isdigit() else code


def _ref_units(order: tuple[int, ...]) -> list[int | str]:
    units: list[int | str] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and _ref_value(order[j]) == 3:
            j += 1
        if j - i >= 2:
            units.append("33")
            i = j
        else:
            units.append(_ref_value(order[i]))
            i += 1
    return units


def _ref_link(a: int | str, b: int | str) -> bool:
    return a == b or frozenset((a, b)) in _REF_LINKS


def _ref_legal(order: tuple[int, ...], top: int | str | None, colour: str, cap: bool) -> bool:
    if cap and len(set(order)) < len(order):
        return False
    units = _ref_units(order)
    first_ok = card_code(order[0])[0] == colour or (top is not None and _ref_link(top, units[0]))
    return first_ok and all(_ref_link(a, b) for a, b in itertools.pairwise(units))


_NON_WILD = sorted({c for c in standard_deck() if not IS_WILD[c]})


class TestMultiCardPlays:
    @pytest.mark.rule("TD-2.5", "ruling", "one action per outcome, checked by brute force")
    @pytest.mark.parametrize("response", [False, True], ids=["regular", "throwdown"])
    def test_listing_equals_brute_force(self, response: bool) -> None:
        rnd = random.Random(4 + response)
        checked = 0
        while checked < 150:
            g = random_position(rnd, response)
            if g is None:
                continue
            listed = [a for a in g.legal_actions(0) if a.kind == A.PLAY and not IS_WILD[a.card]]
            keys = [(tuple(sorted(a.cards)), a.cards[-1]) for a in listed]
            assert len(keys) == len(set(keys)), "one action per outcome"
            assert set(keys) == brute_force_plays(g, 0)
            for a in listed:
                assert g.is_legal_play(0, a.cards)
            checked += 1

    @pytest.mark.rule("TD-2.5", "ruling", "the listing is a brute-force search of every order")
    @given(held=st.lists(st.sampled_from(_NON_WILD), min_size=1, max_size=6),
           top=st.sampled_from([*_NON_WILD, parse_card("W"), parse_card("WD4")]),
           colour=st.sampled_from("RYGB"), same=st.booleans(), pair=st.booleans())
    @settings(max_examples=150, deadline=None)
    def test_listing_matches_a_brute_force_reference(self, held: list[int], top: int,
                                                     colour: str, same: bool,
                                                     pair: bool) -> None:
        # every order of every sub-multiset of the hand, judged by an independent statement
        # of TD-2 (above): the listing holds exactly one action per legal outcome (cards,
        # last card), each a legal order of its cards, through both apply paths
        assume(all(n <= 2 for n in Counter(held).values()))
        names = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
        fields: dict[str, Any] = {"color": names[colour]}
        if pair and _ref_value(top) == 3:
            fields["pair_on_top"] = True
        try:
            g = td([[card_code(c) for c in held], ["G1", "G1"]], card_code(top),
                   options={"multi_play_same_color": same,
                            "top_three_pair_equivalence": True}, **fields)
        except PositionError:
            assume(False)
            return
        top_value: int | str | None = None if IS_WILD[top] else _ref_value(top)
        if fields.get("pair_on_top"):
            top_value = "33"
        expected = {
            (tuple(sorted(order)), order[-1])
            for size in range(1, len(held) + 1)
            for order in set(itertools.permutations(held, size))
            if _ref_legal(order, top_value, colour, not same)
        }
        listed = [a for a in g.legal_actions(0) if a.kind == A.PLAY and not IS_WILD[a.card]]
        keys = [(tuple(sorted(a.cards)), a.cards[-1]) for a in listed]
        assert len(keys) == len(set(keys)), "one action per outcome"
        assert set(keys) == expected
        for a in listed:
            assert _ref_legal(a.cards, top_value, colour, not same)
            assert accepts(g, str(a))

    @pytest.mark.rule("TD-3.2", "ruling", "after each card drawn, only that card is judged")
    def test_drawn_card_check_equals_the_whole_hand_check(self) -> None:
        # drawing until able (TD-3.2) asks after each card whether a play exists; knowing
        # there was none before, the engine judges only the new card: that must agree with
        # the whole-hand check, whatever the card (wilds, a second 3, a card beside a wild)
        rnd = random.Random(11)
        every = standard_deck()
        checked = 0
        while checked < 400:
            g = random_position(rnd, False)
            if g is None or g._has_play(0):
                continue
            if rnd.random() < 0.3:
                g.hands[0][:] = [rnd.choice([parse_card("W"), parse_card("WD4")])]
                assert not g._has_play(0)
            threes = [c for c in every if card_code(c)[1:] == "3"]
            for _ in range(3):
                held_3s = [c for c in g.hands[0] if card_code(c)[1:] == "3"]
                pick = rnd.random()
                g.hands[0].append(rnd.choice(held_3s) if held_3s and pick < 0.3
                                  else rnd.choice(threes) if pick < 0.5 else rnd.choice(every))
                assert g._drawn_makes_play(0) == g._has_play(0), g.hands[0]
                if g._has_play(0):
                    break
            checked += 1
        # the same 3 drawn twice is a threes-unit only when a play may repeat a card (TD-2.7)
        for same in (False, True):
            g = td([["G3", "B1"], ["G1", "G1"]], "R6", options={"multi_play_same_color": same})
            assert not g._has_play(0)
            g.hands[0].append(parse_card("G3"))
            assert g._drawn_makes_play(0) == g._has_play(0) == same

    @pytest.mark.rule("TD-2.5", "ruling", "the listing by memoised parts is the enumeration")
    def test_listing_by_parts_equals_the_whole_hand_enumeration(self) -> None:
        # the fast listing (memoised per value and per chain, issue 13) gives the very same
        # actions in the very same order as the whole-hand enumeration, for every top card
        # and colour, also when its memo already holds parts from other hands and tops
        from hotdeath.variants.throwdown import state as T

        rnd = random.Random(11)
        deck = [f for f in standard_deck() * 2 if not IS_WILD[f]]
        checked = 0
        for _ in range(120):
            cards_ = rnd.sample(deck, rnd.choice((3, 5, 7, 9, 12)))
            counts = Counter(cards_)
            items = tuple(sorted(counts.items()))
            for top in (0, 3, 6, 8, 9, T.V33, T.VSKIP):
                for cc in (0, 1, 2, 3):
                    for cap in (False, True):
                        sink = T._Sink()
                        T._regular_run(items, top, cc, cap, sink, T.ALL)
                        whole = tuple(Action(A.PLAY, q) for q in sink.seqs)
                        fast = T._regular_by_parts(cards_, top, cc, cap, 0)
                        assert fast is not None and tuple(fast) == whole, (items, top, cc, cap)
                        limited = T._regular_by_parts(cards_, top, cc, cap, MAX_LISTED_PLAYS)
                        assert (None if limited is None else tuple(limited)) == (
                            whole if len(whole) <= MAX_LISTED_PLAYS else None)
                        checked += 1
        assert checked == 120 * 7 * 4 * 2

    @pytest.mark.rule("TD-4.2", "ruling", "the defences by memoised families are the enumeration")
    def test_defences_by_parts_equal_the_whole_hand_enumeration(self) -> None:
        # the same for the Throwdown defences (TD-4.2 to TD-4.6), memoised per family: the
        # very same actions in the very same order, under each count rule and match option
        from hotdeath.variants.throwdown import state as T

        rnd = random.Random(12)
        deck = [f for f in standard_deck() * 2 if not IS_WILD[f]]
        family = [f for f in deck if T.FAM[4][f] >= 0]
        tops = [parse_card(c) for c in ("R+2", "G4", "BS", "YR", "WD4", "W", "R7")]
        checked = 0
        for _ in range(150):
            cards_ = rnd.sample(family, rnd.choice((2, 4, 6))) + rnd.sample(deck, 3)
            items = tuple(sorted(Counter(cards_).items()))
            for top in tops:
                level = 4 if top == parse_card("WD4") else rnd.choice((2, 4))
                cc = rnd.choice((0, 1, 2, 3))
                match = rnd.choice(("color_or_kind", "kind_free"))
                mix2, mix4, cap = (rnd.random() < 0.5 for _ in range(3))
                rule4 = rnd.choice(("even", "at_least_two"))
                sink = T._Sink()
                T._defence_run(items, level, top, cc, match, mix2, rule4, mix4, cap, sink, T.ALL)
                whole = tuple(Action(A.PLAY, q) for q in sink.seqs)
                fast = T._defence_plays(cards_, level, top, cc, match, mix2, rule4, mix4, cap, 0)
                assert tuple(fast) == whole, (items, top, level, cc, match)
                checked += 1
        assert checked == 150 * len(tops)

    @pytest.mark.rule("TD-2.5", "ruling", "other orders of a listed play are accepted")
    def test_every_valid_order_is_accepted_and_recorded_canonically(self) -> None:
        g = td([["B9", "Y6", "G3", "Y3", "R8", "G1"], ["G2"]], "B7")
        listed = {a.cards: a for a in g.legal_actions() if a.kind == A.PLAY}
        for perm in itertools.permutations(cards("B9", "Y6", "G3", "Y3", "R8")):
            copy = g.clone()
            text = "play " + " ".join(card_code(c) for c in perm)
            if g.is_legal_play(0, perm):
                act(copy, text)
                _, done = copy.history[-1]
                assert done.cards in listed and done.cards[-1] == perm[-1]
            else:
                with pytest.raises(IllegalActionError):
                    act(copy, text)

    @pytest.mark.rule("TD-2.3", "ruling", "card-by-card building of a throw")
    def test_play_extensions(self) -> None:
        g = td([["B9", "Y6", "G3", "Y3", "R8", "G1"], ["G2"]], "B7")
        ext = g.play_extensions

        def codes(prefix: tuple[str, ...]) -> list[str]:
            return sorted(card_code(c) for c in ext(0, cards(*prefix)))

        assert codes(()) == ["B9"]
        assert codes(("B9",)) == ["Y6"]
        assert codes(("B9", "Y6")) == ["G3", "Y3"]
        assert codes(("B9", "Y6", "G3")) == ["Y3"]
        assert codes(("B9", "Y6", "G3", "Y3")) == ["R8"]
        assert codes(("B9", "R8")) == []
        assert ext(1, []) == []  # not his turn
        # a lone 3 may start a play only when another 3 can follow it
        g = td([["G3", "B1"], ["G2"]], "R6")
        assert g.play_extensions(0, []) == []
        g = td([["G3", "Y3", "B1"], ["G2"]], "R6")
        assert sorted(card_code(c) for c in g.play_extensions(0, [])) == ["G3", "Y3"]

    @pytest.mark.rule("TD-2.5", "ruling", "a 30-card hand lists a bounded set of plays")
    def test_big_hands_list_a_bounded_set_of_legal_plays(self) -> None:
        # How fast the listing is belongs to benchmarks/engine.py; here: it stays bounded
        # (MAX_LISTED_PLAYS) and every play it lists is legal.
        rnd = random.Random(30)
        deck = standard_deck() * 2
        for _ in range(20):
            held = [card_code(c) for c in rnd.sample(deck, 30)]
            g = td([held, ["G1"]], "R7")
            plays = [a for a in g.legal_actions(0) if a.kind == A.PLAY]
            assert 0 < len(plays) <= MAX_LISTED_PLAYS
            for a in plays[::25]:
                assert g.is_legal_play(0, a.cards)

    @pytest.mark.rule("TD-2.5", "ruling", "the reduced listing of huge hands")
    def test_huge_hands_get_a_reduced_listing(self) -> None:
        chain = [f"{c}{n}" for c in "RYGB" for n in (9, 6, 3, 8)] * 3
        g = td([[*chain, "G1"], ["G2"]], "R9")
        listed = g.legal_actions(0)
        ps = [a for a in listed if a.kind == A.PLAY]
        assert 0 < len(ps) <= 3 * MAX_LISTED_PLAYS
        for a in ps:
            assert g.is_legal_play(0, a.cards)
        assert "play R9" in [str(a) for a in ps]
        biggest = max(ps, key=lambda a: len(a.cards))
        assert len(biggest.cards) == len(chain)  # every chain card at once
        # a legal play the reduced list leaves out is still accepted, in canonical order
        text = "play R9 Y9 G9 Y6 R3 Y3"
        assert text not in [str(a) for a in ps]
        ev = act(g, text)
        assert sorted(ev[0].cards) == sorted(cards("R9", "Y9", "G9", "Y6", "R3", "Y3"))
        assert ev[0].cards[-1] == parse_card("Y3")
        # with the limit lifted the listing is complete (and bigger)
        g2 = td([[*chain[:12], "G1"], ["G2"]], "R9")  # 6,613 plays; 20 cards: 1.6 million
        g2.max_listed_plays = 0
        assert len(g2.legal_actions(0)) > MAX_LISTED_PLAYS


    @pytest.mark.rule("TD-2.5", "ruling", "throws built card by card are accepted")
    @pytest.mark.parametrize("size", [8, 30, 70])
    def test_throws_built_with_play_extensions_are_legal(self, size: int) -> None:
        rnd = random.Random(size)
        deck = [c for c in standard_deck() * 2 if card_code(c) not in ("G1", "R7")]
        for _ in range(25):
            held = [card_code(c) for c in rnd.sample(deck, size)]
            g = td([held, ["G1"]], "R7", options={"regular_wd4_restriction": "none"})
            if not plays(g):
                continue
            prefix: list[int] = []
            while True:
                ext = g.play_extensions(0, prefix)
                if prefix and g.is_legal_play(0, prefix) and (not ext or rnd.random() < 0.3):
                    break
                assert ext, [card_code(c) for c in prefix]
                prefix.append(rnd.choice(ext))
            text = "play " + " ".join(card_code(c) for c in prefix)
            if IS_WILD[prefix[0]]:
                text += " " + rnd.choice(["red", "yellow", "green", "blue"])
            copy = g.clone()
            act(copy, text)
            played = copy.history[-1][1]
            assert sorted(played.cards) == sorted(prefix) and played.cards[-1] == prefix[-1]


# =========================================================================== notation, CLI


class TestNotation:
    def test_positions_round_trip(self) -> None:
        g = pot([["G1"], ["B2", "G2", "R6"], ["G3", "G4"]], "WD4", count=8, level=4,
                color="green",
                turn=1, declined=[], pair_on_top=False)
        data = to_position(g)
        assert data["pending"] == {"type": "pot", "count": 8, "level": 4, "victim": 1,
                                   "sender": -1, "last_card": "WD4", "wd4_legal": None}
        assert data["variant"] == "throwdown"
        assert to_position(from_position(json.loads(json.dumps(data)))) == data

    @pytest.mark.rule("TD-4.8", "ruling", "a position may hold a pot nobody can answer")
    def test_a_defenceless_pot_in_a_position_has_accept_as_its_only_answer(self) -> None:
        # the engine never stops there (a defender without a defence draws at once), but a
        # puzzle or a bug report may write such a pot: it loads as written, and the defender
        # accepts it (tests/data/notation-examples.md, "Throwdown: a pot nobody can answer")
        g = pot([["G7", "B1", "R4"], ["G1", "G2"], ["B3", "Y5"]], "R+2", count=4,
                draw=["Y1", "Y2", "Y3", "Y4"])
        assert g.phase == RESPONSE and g.pot == 4 and g.turn == 0
        assert [a for a in legal(g) if a != "uno"][:2] == ["accept", "leave"]
        assert not plays(g) and not accepts(g, "draw")
        data = to_position(g)
        assert data["pending"] == {"type": "pot", "count": 4, "level": 2, "victim": 0,
                                   "sender": -1, "last_card": "R+2", "wd4_legal": None}
        assert to_position(from_position(json.loads(json.dumps(data)))) == data
        ev = act(g, "accept")
        assert [(e.kind, e.rule) for e in ev][:3] == [
            ("take_pot", "TD-4.8"), ("draw", "TD-4.8"), ("skip", "TD-4.8")]
        assert hand(g, 0) == ["B1", "G7", "R4", "Y1", "Y2", "Y3", "Y4"]
        assert g.phase == TURN and g.turn == 1 and g.pot == 0
        # with a defence, accept stays a choice of voluntary_draw only
        g = pot([["G2", "B1"], ["G1", "G2"], ["B3", "Y5"]], "R+2")
        assert "accept" not in legal(g) and plays(g) == ["play G2"]

    def test_bad_positions_are_refused(self) -> None:
        bad: list[dict[str, Any]] = [
            {"pot": {"count": 2, "level": 3}},
            {"declined": [7]},
            {"uno_open": [0]},
            {"phase": "choose_color"},
            {"active": [False, True]},
            {"hands": [[], ["G1"]]},
        ]
        for extra in bad:
            data: dict[str, Any] = {"variant": "throwdown", "hands": [["R+2", "G1"], ["G1"]],
                                    "top": "R+2", **extra}
            with pytest.raises(PositionError):
                from_position(data)

    def test_records_replay_multi_card_plays(self) -> None:
        g = hotdeath.new_game("throwdown", players=3, seed=7)
        rnd = random.Random(7)
        for _ in range(80):
            if g.is_terminal():
                break
            seat, action = purposeful(g, rnd)
            g.apply_action(action, seat)
        rec = json.loads(json.dumps(record(g)))
        assert to_position(replay(rec)) == to_position(g)

    def test_variants_json_and_position_command(self, tmp_path: Path) -> None:
        runner = CliRunner()
        result = runner.invoke(app, ["variants", "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        td_json = next(v for v in data if v["name"] == "throwdown")
        assert td_json["aliases"] == ["td"] and td_json["default_preset"] == "seed_004"
        assert {o["name"] for o in td_json["options"]} >= {"throwdown_match", "level4_draw_rule"}
        pos_file = tmp_path / "td.json"
        pos_file.write_text(json.dumps({
            "variant": "throwdown", "hands": [["B9", "Y6", "G3", "Y3", "R8", "G1"],
                                              ["R+2", "G8"], ["B2", "B7"]],
            "top": "B7"}), encoding="utf-8")
        env = {"COLUMNS": "120", "NO_COLOR": "1"}
        result = runner.invoke(app, ["position", str(pos_file), "--legal"], env=env)
        assert result.exit_code == 0, result.output
        assert "play B9 Y6 Y3 G3 R8" in result.stdout
        result = runner.invoke(app, ["position", str(pos_file), "-a", "play B9 Y6 G3 Y3 R8",
                                     "-a", "play R+2", "--legal"], env=env)
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "P0 plays Blue 9, Yellow 6, Yellow 3, Green 3, Red 8  [TD-2.5]" in out
        assert "Throwdown! P2 must answer a draw pot of 2  [TD-4.1]" in out
        assert "P2 must answer: draw 2 cards (Red Draw Two from P1, level 2)" in out
        assert "P2 (to act): play B2" in out
        result = runner.invoke(app, ["position", str(pos_file), "-a", "play R8 Y6"], env=env)
        assert result.exit_code != 0 and "illegal_action" in result.output
        result = runner.invoke(app, ["position", str(pos_file), "--json", "-a",
                                     "play B9 Y6 G3 Y3 R8"])
        assert json.loads(result.stdout)["discard"][-5:] == ["B9", "Y6", "Y3", "G3", "R8"]
        new = runner.invoke(app, ["new", "--variant", "td", "--players", "3", "--seed", "4"])
        assert new.exit_code == 0 and json.loads(new.stdout)["phase"] == "deal"


# =========================================================================== random games


def purposeful(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """A random player that never leaves and calls Uno only when the call is right (except
    now and then), so that games end by players going out."""
    actors = [s for s in state.actors()
              if s == state.turn or any(a.kind != A.LEAVE for a in state.legal_actions(s))]
    seat = actors[0]
    if len(actors) > 1 and rnd.random() < 0.3:
        seat = rnd.choice(actors[1:])
    acts = [a for a in state.legal_actions(seat) if seat == state.turn or a.kind != A.LEAVE]
    uno_open = state.uno_open
    good = [a for a in acts if not (
        a.kind == A.LEAVE or (a.kind == A.CATCH and a.target not in uno_open)
        or (a.kind == A.UNO and seat not in uno_open))]
    if rnd.random() < 0.01 or not good:
        good = list(acts)
    if not good or (seat != state.turn and not [a for a in good if a.kind != A.DECLINE]):
        seat = state.turn
        good = list(state.legal_actions(seat))
    ps = [a for a in good if a.kind == A.PLAY]
    if seat == state.turn and ps and rnd.random() < 0.9:
        return seat, rnd.choice(ps)
    return seat, rnd.choice(good)


def conservation(state: GameState) -> None:
    held = Counter(state.draw_pile) + Counter(state.discard)
    for h in state.hands:
        held.update(h)
    assert held == Counter(state.deck)


def play_random(seed: int) -> str:
    """A purposeful random game, checked as it goes (notation, rule ids, cards); its end."""
    g = hotdeath.new_game("throwdown", players=2 + seed % 5, seed=seed)
    rnd = random.Random(seed)
    steps = 0
    while not g.is_terminal():
        seat, action = purposeful(g, rnd)
        if steps % 11 == 0:
            data = to_position(g)
            copy = from_position(json.loads(json.dumps(data)))
            assert to_position(copy) == data
            assert copy.legal_actions(seat) == g.legal_actions(seat)
        for e in g.apply_action(action, seat):
            assert e.rule in RULES and e.rule.startswith("TD-"), (e.kind, e.rule)
            assert hotdeath.describe(e).endswith(f"[{e.rule}]")
        if steps % 17 == 0:
            conservation(g)
        steps += 1
        assert steps < 60_000
    conservation(g)
    assert g.winners and g.last_hand is not None
    return g.last_hand.end


@pytest.mark.rule("TD-6.3", "ruling", "random games end by going out")
def test_random_games_keep_invariants() -> None:
    """Six games in every run (the slow test below plays 24 and counts how they end)."""
    for seed in range(6):
        play_random(seed)


@pytest.mark.slow
@pytest.mark.rule("TD-6.3", "ruling", "random games end by going out")
def test_random_games_keep_invariants_and_end() -> None:
    ends = Counter(play_random(seed) for seed in range(24))
    assert ends["last_holder"] >= 12, ends


def test_every_rule_is_cited_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [r.id for r in rules_for("throwdown") if f'"{r.id}"' not in source]
    assert missing == []


def test_bots_play_whole_games_in_the_terminal() -> None:
    import io

    from rich.console import Console

    from hotdeath.play import play

    for seed in range(3):
        buf = io.StringIO()
        state = play("throwdown", players=3, seed=seed, human=False, delay=0,
                     console=Console(file=buf, width=120, color_system=None))
        assert state.is_terminal() and state.winners
        assert state.last_hand is not None and state.last_hand.end == "last_holder"
        assert "calls Uno wrongly" not in buf.getvalue()


# =========================================================================== why not a throw


def why(g: ThrowdownState, *codes: str, seat: int = 0) -> tuple[str, str] | None:
    """The engine's reason that no order of the cards ``codes`` is a throw, checked against
    the apply paths: no reason exactly when some order is accepted (through both paths)."""
    reason = g.why_not_play(seat, cards(*codes))
    colours = " red" if any(c.startswith("W") for c in codes) else ""
    some = any(accepts(g, f"play {' '.join(order)}{colours}", seat)
               for order in set(itertools.permutations(codes)))
    assert (reason is None) == some, (codes, reason)
    return reason


class TestWhyNotPlay:
    """``why_not_play``: the rule a selection of cards breaks, in words (the browser's
    Throw button says it; the page derives no rule)."""

    @pytest.mark.rule("TD-2.3", SEED, "ruling", "the reason a selection does not link")
    def test_a_card_that_links_to_none_of_the_others(self) -> None:
        g = td([["B9", "Y6", "G3", "Y3", "R8", "B7", "G1"], ["G1"]], "B7")
        assert why(g, "B9", "Y6") is None and why(g, "Y6", "B9") is None  # any order
        assert why(g, "B9", "Y6", "G3", "Y3", "R8") is None
        rule, words = why(g, "B9", "B7") or ("", "")
        assert rule == "TD-2.3" and words.startswith("a 7 links to none of the other cards")
        rule, words = why(g, "B9", "R8") or ("", "")
        assert rule == "TD-2.3" and "an 8 links to none" in words

    @pytest.mark.rule("TD-2.5", SEED, "ruling", "linked pairs that make no chain")
    def test_units_that_link_in_pairs_but_not_in_one_chain(self) -> None:
        # 9–6 and 8–33 link, but a lone 3 is no threes-unit: 9 6 3 8 has no order
        g = td([["B9", "Y6", "G3", "R8", "G1"], ["G1"]], "B7")
        rule, words = why(g, "B9", "Y6", "G3", "R8") or ("", "")
        assert rule in ("TD-2.3", "TD-2.5") and words

    @pytest.mark.rule("TD-2.4", SEED, "ruling", "the reason: nothing opens the play")
    def test_no_card_matches_the_colour_or_links_to_the_top(self) -> None:
        g = td([["Y9", "Y6", "G1"], ["G1"]], "B7")
        assert why(g, "Y9", "Y6") == ("TD-2.4", "the first card must be blue or link to the "
                                      "Blue 7 on the pile, and none of these does")

    @pytest.mark.rule("TD-2.6", SEED, "ruling", "the reason: a mixed play")
    def test_numbers_and_actions_or_two_actions_never_mix(self) -> None:
        g = td([["RS", "RR", "R7", "W", "WD4", "G1"], ["G1"]], "R1")
        assert (why(g, "RS", "RR") or ("",))[0] == "TD-2.6"
        assert (why(g, "R7", "RS") or ("",))[0] == "TD-2.6"
        g = td([["W", "WD4", "R7", "G1"], ["G1"]], "B1")
        assert (g.why_not_play(0, cards("W", "R7")) or ("",))[0] == "TD-2.6"

    @pytest.mark.rule("TD-2.7", SEED, "ruling", "the reason: identical cards at this table")
    def test_identical_cards_when_the_table_forbids_them(self) -> None:
        g = td([["R7", "R7", "B7", "G1"], ["G2"]], "R1", options={"multi_play_same_color": False})
        assert why(g, "R7", "R7") == ("TD-2.7", "two identical cards may not go down "
                                      "together at this table")
        assert why(g, "R7", "B7") is None

    @pytest.mark.rule("TD-2.8", SEED, "ruling", "the reason: a wild with another play")
    def test_a_wild_while_another_play_exists(self) -> None:
        g = td([["W", "B5", "G1"], ["G2"]], "B7")
        assert why(g, "W") == ("TD-2.8", "a Wild may be played only when nothing else in "
                               "your hand can be")

    @pytest.mark.rule("TD-2.9", SEED, "the reason: no going out on a wild")
    def test_a_wild_as_the_last_cards(self) -> None:
        g = td([["W", "W"], ["G2"]], "B7")
        assert why(g, "W", "W") == ("TD-2.9", "a play that empties your hand may not end "
                                    "with a wild")
        assert why(g, "W") is None

    @pytest.mark.rule("TD-4.2", SEED, "the reason: not a Throwdown card")
    def test_a_barred_card_in_a_throwdown(self) -> None:
        g = pot([["R2", "R4", "R7", "G1"], ["G1"]], "R+2")
        rule, words = why(g, "R4") or ("", "")
        assert rule == "TD-4.2" and words.endswith("not Red 4 (4s count only at level 4)")
        assert why(g, "R2") is None

    @pytest.mark.rule("TD-4.4", SEED, "ruling", "the reason: the first card of a defence")
    def test_a_defence_neither_in_colour_nor_of_the_kind_on_top(self) -> None:
        g = pot([["BS", "B0", "G1"], ["G1"]], "R+2")
        assert why(g, "BS") == ("TD-4.4", "the first card of a defence must be red or of "
                                "the kind of card on top (Red Draw Two)")

    @pytest.mark.rule("TD-4.5", SEED, "ruling", "the reason: families never mix")
    def test_families_never_mix_in_a_defence(self) -> None:
        g = pot([["R2", "RS", "RR", "G1"], ["G1"], ["G2"]], "R+2")
        assert (why(g, "R2", "RS") or ("",))[0] == "TD-4.5"
        g = pot([["R2", "B5", "G1"], ["G1"], ["G2"]], "R+2",
                options={"level2_mix_draw_family": False})
        assert why(g, "R2", "B5") == ("TD-4.5", "at this table a draw defence at level 2 "
                                      "uses one kind of card only")

    @pytest.mark.rule("TD-4.6", SEED, "ruling", "the reason: counts at level 4")
    def test_the_counts_of_a_level_four_defence(self) -> None:
        g = pot([["R2", "B2", "G2", "R4", "G9"], ["G4", "G1"], ["Y4", "G3"]],
                "WD4", count=4, level=4, color="red")
        assert (why(g, "R2") or ("",))[0] == "TD-4.6"
        assert why(g, "R2", "B2", "G2") == ("TD-4.6", "at level 4 the Draw Twos, 2s and 5s "
                                            "must come in an even number")
        assert why(g, "R2", "B2") is None
        g = pot([["R2", "B2", "R4", "G9"], ["G4", "G1"], ["Y4", "G3"]],
                "WD4", count=4, level=4, color="red", options={"level4_mix_fours": False})
        assert why(g, "R4", "R2", "B2") == ("TD-4.6", "at this table 4s may not share a "
                                            "defence with Draw Twos, 2s and 5s")

    @pytest.mark.rule("TD-4.7", SEED, "the reason: a wild with another defence")
    def test_a_wild_while_another_defence_exists(self) -> None:
        g = pot([["W", "R2", "G1"], ["G1"]], "R+2")
        assert why(g, "W") == ("TD-4.7", "in a Throwdown a wild may be played only when "
                               "you have no other defence")

    @pytest.mark.rule("TD-2.1", SEED, "ruling", "reasons for every selection of a hand")
    def test_every_selection_of_random_hands_has_a_reason_exactly_when_illegal(self) -> None:
        rnd = random.Random(27)
        deck = standard_deck() * 2
        for _ in range(12):
            faces = rnd.sample(deck, 6)
            g = td([[card_code(f) for f in faces], ["G1"]], card_code(rnd.choice(
                [f for f in deck if not IS_WILD[f]])))
            for size in (1, 2, 3):
                for combo in set(itertools.combinations(sorted(faces), size)):
                    reason = g.why_not_play(0, combo)
                    assert reason is None or reason[1], combo
                    legal = any(g.is_legal_play(0, p) for p in itertools.permutations(combo))
                    assert (reason is None) == legal, (combo, reason)
        assert g.why_not_play(1, cards("G1")) == ("", "it is not your turn to play")
