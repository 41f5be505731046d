"""The common result shape (hotdeath.results): every variant builds it, one JSON form.

Each scenario runs twice, once through ``apply_action`` and once through ``step``, and the
two states must hold the same results.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import hotdeath
from hotdeath.actions import Action
from hotdeath.cli import app
from hotdeath.errors import NotationError, PositionError
from hotdeath.notation import from_position, record, to_position
from hotdeath.results import (
    END_CODES,
    GameResult,
    HandResult,
    ScoreLine,
    SeatScore,
    legacy_hand,
    standings,
)
from hotdeath.state import GameState
from hotdeath.variants import all_variants, get_variant
from hotdeath.words import (
    describe_action,
    describe_hand,
    describe_line,
    describe_pending,
    game_headline,
    hand_headline,
)
from tests.support import card


def play(fields: dict[str, Any], *actions: str) -> GameState:
    """Run ``actions`` on the position through ``apply_action`` and through ``step``;
    both must end with the same results.  Returns the ``apply_action`` state."""
    a = from_position(fields)
    b = from_position(fields)
    for x in actions:
        a.apply_action(x)
        b.step(x)
    assert a.last_hand == b.last_hand
    assert a.game_result() == b.game_result()
    return a


def round_trip(res: HandResult | GameResult) -> None:
    """The JSON form reads back to an equal value, also through real JSON text."""
    text = json.dumps(res.to_json())
    back = (HandResult.from_json(json.loads(text)) if isinstance(res, HandResult)
            else GameResult.from_json(json.loads(text)))
    assert back == res
    assert back.to_json() == res.to_json()


def check_shape(g: GameState, res: HandResult) -> None:
    """What every scored hand must satisfy: lines add up, totals are the game's."""
    declared = {x.key for x in g.variant.result_extras}
    assert set(res.extras) <= declared
    assert res.end in END_CODES
    if res.seats:
        assert [s.seat for s in res.seats] == list(range(g.n))
        for s in res.seats:
            assert sum(x.points for x in s.lines) == s.points
            assert s.lines, "every seat's points have a reason"


# ====================================================================== the values


class TestValues:
    def test_hand_result_round_trips(self) -> None:
        res = HandResult(
            hand=3, end="out", rule="HD-3.7.1", winners=(2,), out_order=(2,), loser=None,
            seats=(SeatScore(0, 60, (ScoreLine("HD-3.7.2", 30, "cards"),
                                     ScoreLine("HD-2.3.23", 30, "retaliation", card("RET"))),
                             60, (card("RET"), card("R5"))),
                   SeatScore(1, 0, (ScoreLine("STD-9.3", 0, "cards_to_winner", seat=2),), 4)),
            extras={"infections": (0, 1), "bastard": 1})
        round_trip(res)
        d = res.to_json()
        assert d["type"] == "hand_result" and d["seats"][0]["lines"][1]["card"] == "RET"
        assert d["extras"] == {"infections": [0, 1], "bastard": 1}
        assert res.winner == 2 and res.points() == [60, 0] and res.scored

    def test_game_result_round_trips(self) -> None:
        last = HandResult(hand=1, end="last_holder", rule="TD-6.3", winners=(0,),
                          out_order=(0, 1), loser=2, extras={"left": (3,)})
        res = GameResult(hands=1, end="last_holder", rule="TD-6.3", winners=(0,),
                         totals=(0, 0, 0, 0), lowest_wins=None, standings=(0, 1, 3, 2),
                         out_order=(0, 1), loser=2, last_hand=last, extras={"left": (3,)})
        round_trip(res)
        assert not res.scored and res.to_json()["last_hand"]["loser"] == 2

    def test_bad_json_is_a_coded_error(self) -> None:
        with pytest.raises(NotationError) as e:
            HandResult.from_json({"hand": 1})
        assert e.value.code == "bad_result"
        with pytest.raises(NotationError):
            HandResult.from_json({"hand": "one", "end": "out", "rule": "x"})
        with pytest.raises(NotationError):
            GameResult.from_json([])  # type: ignore[arg-type]

    def test_standings_follow_the_goal(self) -> None:
        assert standings([2], [10, 5, 0, 7], True) == (2, 1, 3, 0)
        assert standings([2], [10, 5, 0, 7], False) == (2, 0, 3, 1)
        assert standings([1], [0, 0, 0, 0], None, (0,)) == (1, 2, 3, 0)
        assert standings([], [3, 3], True) == (0, 1)  # ties in seat order

    def test_every_variant_declares_its_extras(self) -> None:
        for v in all_variants():
            d = v.to_json()["result_extras"]
            assert all(set(x) == {"key", "label", "kind", "where"} for x in d)
            assert all(x["label"] and x["label"] != x["key"] for x in d)


# ====================================================================== Hot Death


class TestHotDeath:
    @pytest.mark.rule("HD-3.7.2", "hot-death.md §3.7")
    def test_each_step_of_the_count_is_a_line_with_its_card(self) -> None:
        g = play({"variant": "hotdeath", "players": 3, "turn": 0, "top": "R7",
                  "hands": [["R1"], ["RET", "R5"], ["VIR", "G2"]]}, "play R1")
        res = g.last_hand
        assert res is not None and res.hand == 1
        assert (res.end, res.rule, res.winners, res.out_order) == ("out", "HD-3.7.1", (0,), (0,))
        check_shape(g, res)
        assert res.seats[0].lines == (ScoreLine("HD-3.7.2", 0, "went_out"),)
        ret = res.seats[1]
        # Retaliation 0 + R5 = 5, doubled by Retaliation: 10
        assert ret.lines == (ScoreLine("HD-3.7.2", 5, "cards"),
                             ScoreLine("HD-2.3.23", 5, "retaliation", card("RET")))
        assert ret.points == 10 and ret.total == g.scores[1]
        assert ret.cards == (card("RET"), card("R5"))
        vir = res.seats[2]
        assert vir.lines[-1] == ScoreLine("HD-2.3.21", 10, "virus", card("VIR"))
        assert res.extras == {"infections": (0, 0, 1)}
        round_trip(res)

    @pytest.mark.rule("HD-3.8", "hot-death.md §3.8")
    def test_game_result_orders_the_lowest_total_first(self) -> None:
        g = play({"variant": "hotdeath", "players": 3, "turn": 0, "top": "R7",
                  "options": {"game_end_score": 50}, "scores": [40, 10, 49],
                  "hands": [["R1"], ["R9", "B5"], ["G2"]]}, "play R1")
        res = g.game_result()
        assert res is not None and g.is_terminal()
        assert (res.end, res.rule, res.lowest_wins) == ("target", "HD-3.8", True)
        assert res.totals == (40, 24, 51) and res.winners == (1,)
        assert res.standings == (1, 0, 2)
        assert res.last_hand == g.last_hand and res.hands == 1
        assert res.extras == {"infections": (0, 0, 0)}
        round_trip(res)

    @pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7")
    def test_a_blocked_hand_has_no_winner(self) -> None:
        g = play({"variant": "hotdeath", "players": 2, "turn": 0, "top": "HOS",
                  "color": "blue", "draw": [], "hands": [["R1", "R3"], ["G5", "Y7"]]},
                 "draw", "draw")
        res = g.last_hand
        assert res is not None and res.end == "blocked" and res.winners == ()
        assert res.points() == [4, 12]
        check_shape(g, res)

    def test_no_game_result_while_the_game_goes_on(self) -> None:
        g = hotdeath.new_game("hotdeath", players=3, seed=1)
        assert g.game_result() is None and g.last_hand is None
        assert g.view(0).to_json()["game_result"] is None


# ====================================================================== standard


class TestStandard:
    @pytest.mark.rule("STD-9.3", "official", "uno-variants.md STD-9.3")
    def test_the_winner_scores_each_opponents_cards(self) -> None:
        g = play({"variant": "standard", "players": 3, "turn": 0, "top": "R7",
                  "hands": [["R1"], ["R9", "B5"], ["WD4"]]}, "play R1")
        res = g.last_hand
        assert res is not None and (res.end, res.rule) == ("out", "STD-9.1")
        check_shape(g, res)
        win = res.seats[0]
        assert win.points == 64 and win.lines == (
            ScoreLine("STD-9.3", 14, "opponent_cards", seat=1),
            ScoreLine("STD-9.3", 50, "opponent_cards", seat=2))
        assert res.seats[1].lines == (ScoreLine("STD-9.3", 0, "cards_to_winner", seat=0),)
        assert res.seats[2].cards == (card("WD4"),)
        round_trip(res)

    @pytest.mark.rule("STD-9.5", "uno-variants.md STD-9.5")
    def test_penalty_points_each_seat_scores_its_own_cards(self) -> None:
        g = play({"variant": "standard", "players": 3, "turn": 0, "top": "R7",
                  "options": {"scoring": "penalty_points"},
                  "hands": [["R1"], ["R9", "B5"], ["G2"]]}, "play R1")
        res = g.last_hand
        assert res is not None and res.points() == [0, 14, 2]
        assert res.seats[0].lines == (ScoreLine("STD-9.3", 0, "went_out"),)
        assert res.seats[1].lines == (ScoreLine("STD-9.3", 14, "cards_in_hand"),)

    @pytest.mark.rule("STD-9.4", "official", "uno-variants.md STD-9.4")
    def test_game_result_orders_the_highest_total_first(self) -> None:
        g = play({"variant": "standard", "players": 3, "turn": 0, "top": "R7",
                  "scores": [490, 480, 0], "hands": [["R1"], ["R9", "B5"], ["G2"]]},
                 "play R1")
        res = g.game_result()
        assert res is not None and (res.end, res.rule, res.lowest_wins) == (
            "target", "STD-9.4", False)
        assert res.winners == (0,) and res.totals == (506, 480, 0)
        assert res.standings == (0, 1, 2)
        round_trip(res)

    @pytest.mark.rule("STD-11.3", "official", "uno-variants.md STD-11")
    def test_partners_win_the_hand_together(self) -> None:
        g = play({"variant": "standard", "players": 4, "turn": 2, "top": "R7",
                  "options": {"partners": True},
                  "hands": [["R3", "R4"], ["R5", "Y5"], ["R9"], ["G0", "B1"]]}, "play R9")
        res = g.last_hand
        assert res is not None and res.winners == (2, 0)
        assert res.seats[0].lines == (ScoreLine("STD-11.3", 0, "partner_won", seat=2),)
        assert res.extras == {"team_totals": (11, 0, 11, 0)}
        check_shape(g, res)

    @pytest.mark.rule("STD-0.4", "ruling", "uno-variants.md §0.4")
    def test_a_blocked_hand_ends_with_its_code(self) -> None:
        g = play({"variant": "standard", "players": 3, "turn": 0, "top": "B9", "draw": [],
                  "hands": [["R1", "R3"], ["G5", "YS"], ["R8", "Y7"]]}, "draw", "draw", "draw")
        res = g.last_hand
        assert res is not None and (res.end, res.rule, res.winners) == (
            "blocked", "STD-0.4", (0,))
        check_shape(g, res)

    @pytest.mark.rule("STD-9.4", "ruling", "uno-variants.md STD-9.4 max_turns")
    def test_the_turn_limit_ends_the_game_with_an_unscored_hand(self) -> None:
        g = play({"variant": "standard", "players": 2, "turn": 0, "top": "R7",
                  "options": {"max_turns": 1}, "hands": [["R1", "R2"], ["G5", "Y7"]]},
                 "play R1")
        res = g.game_result()
        assert res is not None and res.end == "max_turns" and res.winners == ()
        assert res.last_hand is not None and not res.last_hand.scored
        assert res.last_hand.end == "max_turns"


# ====================================================================== Cutthroat


class TestCutthroat:
    @pytest.mark.rule("CT-7.1", "seed 003", "uno-variants.md CT-7.1")
    def test_the_first_out_wins_and_nothing_is_scored(self) -> None:
        g = play({"variant": "cutthroat", "players": 3, "turn": 1, "top": "R7",
                  "hands": [["R2", "G4"], ["R1"], ["B5", "Y6"]]}, "play R1")
        res = g.game_result()
        assert res is not None and g.last_hand is not None
        assert (res.end, res.rule, res.winners, res.lowest_wins) == ("out", "CT-7.1", (1,), None)
        assert not res.scored and not g.last_hand.scored
        assert res.standings == (1, 0, 2)
        check_shape(g, g.last_hand)
        round_trip(res)

    @pytest.mark.rule("CT-7.1", "ruling", "uno-variants.md CT max_turns")
    def test_the_turn_limit_ends_without_a_winner(self) -> None:
        g = play({"variant": "cutthroat", "players": 2, "turn": 0, "top": "R7",
                  "options": {"max_turns": 1}, "hands": [["R1", "R2"], ["G5", "Y7"]]},
                 "play R1")
        res = g.game_result()
        assert res is not None and (res.end, res.winners) == ("max_turns", ())


# ====================================================================== Throwdown


class TestThrowdown:
    @pytest.mark.rule("TD-6.3", "seed 004", "uno-variants.md TD-6.3")
    def test_play_on_gives_a_loser_who_comes_last(self) -> None:
        g = play({"variant": "throwdown", "players": 3, "turn": 0, "top": "R7",
                  "hands": [["R1"], ["R3", "R4"], ["R2", "B4"]]},
                 "play R1", "play R3", "play R2", "play R4")
        res = g.game_result()
        assert res is not None and g.last_hand is not None
        assert (res.end, res.rule, res.winners, res.loser) == ("last_holder", "TD-6.3", (0,), 2)
        assert res.out_order == (0, 1) and res.standings == (0, 1, 2)
        assert g.last_hand.loser == 2 and g.last_hand.extras == {}
        round_trip(res)

    @pytest.mark.rule("TD-6.6", "seed 004", "uno-variants.md TD-6.6")
    def test_who_left_is_an_extra(self) -> None:
        g = play({"variant": "throwdown", "players": 2, "turn": 0, "top": "R7",
                  "hands": [["R5", "R6"], ["G1", "G2"]]}, "leave")
        res = g.game_result()
        assert res is not None and res.end == "left" and res.rule == "TD-6.6"
        assert res.extras == {"left": (0,)} and res.winners == (1,)
        assert g.last_hand is not None
        check_shape(g, g.last_hand)
        round_trip(res)


# ====================================================================== positions and views


class TestPositionsAndViews:
    def test_positions_keep_the_result(self) -> None:
        g = play({"variant": "hotdeath", "players": 3, "turn": 0, "top": "R7",
                  "hands": [["R1"], ["RET", "R5"], ["VIR", "G2"]]}, "play R1")
        d = json.loads(json.dumps(to_position(g)))
        assert d["last_hand"]["type"] == "hand_result"
        assert from_position(d).last_hand == g.last_hand

    def test_old_last_hand_dicts_still_load(self) -> None:
        old_hd = {"hand": 2, "winner": 0, "seats": [
            {"seat": 0, "hand_value": 0, "penalty": 0, "points": 0, "steps": [["winner", 0]],
             "total": 5},
            {"seat": 1, "hand_value": 50, "penalty": 10, "points": 60,
             "steps": [["cards", 25], ["retaliation", 50], ["virus", 10]], "total": 60}]}
        g = from_position({"variant": "hotdeath", "players": 2, "last_hand": old_hd,
                           "hands": [["R1"], ["R2"]], "top": "R7"})
        res = g.last_hand
        assert res is not None and res.hand == 2 and res.winners == (0,)
        assert [x.points for x in res.seats[1].lines] == [25, 25, 10]
        assert res.seats[1].lines[1].words == "retaliation" and res.rule == "HD-3.8"
        old_td = {"hand": 1, "winner": 0, "loser": 2, "out_order": [0, 1], "left": [3],
                  "end": "first_out"}
        res = legacy_hand(old_td, 4, "TD-6.2")
        assert (res.end, res.loser, res.out_order, res.extras) == ("out", 2, (0, 1),
                                                                   {"left": (3,)})
        res = legacy_hand({"hand": 1, "winner": 0, "winning_team": [0, 2]}, 4)
        assert res.winners == (0, 2)

    def test_a_bad_last_hand_is_a_position_error(self) -> None:
        with pytest.raises(PositionError):
            from_position({"variant": "standard", "players": 2, "hands": [["R1"], ["R2"]],
                           "top": "R7", "last_hand": {"type": "hand_result", "hand": 1}})

    def test_views_carry_both_results_for_seats_and_spectators(self) -> None:
        g = play({"variant": "throwdown", "players": 3, "turn": 0, "top": "R7",
                  "hands": [["R1"], ["R3", "R4"], ["R2", "B4"]]},
                 "play R1", "play R3", "play R2", "play R4")
        for seat in (None, 0, 2):
            v = g.view(seat)
            assert v.last_hand == g.last_hand and v.game_result == g.game_result()
            d = json.loads(json.dumps(v.to_json()))
            assert HandResult.from_json(d["last_hand"]) == g.last_hand
            assert GameResult.from_json(d["game_result"]) == g.game_result()


# ====================================================================== whole games


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_random_games_build_consistent_results(variant: str) -> None:
    """Whole games of every variant: each hand's and the game's result keep the shape."""
    v = get_variant(variant)
    rnd = random.Random(7)
    short = {"hotdeath": {"game_end_score": 150}, "standard": {"target_score": 150}}
    for seed in range(3):
        g = v.new_game(players=3, seed=seed, options=short.get(variant))
        seen = None
        for _ in range(20000):
            if g.is_terminal():
                break
            seat = g.current_player()
            g.step(rnd.choice(g.legal_actions(seat)), seat)
            if g.last_hand is not seen and g.last_hand is not None:
                seen = g.last_hand
                check_shape(g, seen)
                round_trip(seen)
                if seen.scored:
                    assert [s.total for s in seen.seats] == g.scores
        res = g.game_result()
        assert res is not None, "the game ended"
        round_trip(res)
        assert sorted(res.standings) == list(range(g.n))
        assert res.standings[: len(res.winners)] == tuple(dict.fromkeys(res.winners))
        assert set(res.extras) <= {x.key for x in v.result_extras}
        assert res.totals == tuple(g.scores)


# ====================================================================== hotdeath replay


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_replay_tells_every_hand_and_the_game(variant: str, tmp_path: Path) -> None:
    """``hotdeath replay`` prints each hand's result and the game's from the common shape."""
    short = {"hotdeath": {"game_end_score": 100}, "standard": {"target_score": 100}}
    g = hotdeath.new_game(variant, players=3, seed=11, options=short.get(variant))
    rnd = random.Random(3)
    hands: list[HandResult] = []
    while not g.is_terminal():
        seat = g.current_player()
        g.step(rnd.choice(g.legal_actions(seat)), seat)
        if g.last_hand is not None and (not hands or hands[-1] is not g.last_hand):
            hands.append(g.last_hand)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(g)))
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    text = out.output
    res = g.game_result()
    assert res is not None
    for h in hands:
        assert f"Hand {h.hand}: " in text
    assert ("Nobody wins the game" in text) == (not res.winners)
    assert "Final standings: 1. P" in text
    if res.scored:
        assert "points (" in text and "total" in text
    else:
        assert "No points are counted." in text
    assert not re.search(r"\b1 cards\b", text)


# ====================================================================== words


class TestWords:
    def test_lines_name_cards_in_the_theme_and_seats_by_name(self) -> None:
        line = ScoreLine("HD-2.3.23", 30, "retaliation", card("RET"))
        assert describe_line(line) == "Retaliation doubles +30"
        assert describe_line(line, theme="original") == "Fuck You doubles +30"
        assert describe_line(ScoreLine("HD-2.3.22", -15, "holy_defender", card("HOLY"))) == \
            "Holy Defender halves −15"
        assert describe_line(ScoreLine("STD-9.3", 0, "cards_to_winner", seat=1),
                             ["Ann", "Bo"]) == "cards count for Bo"

    def test_headlines_say_how_it_ended(self) -> None:
        names = ["Ann", "Bo", "Cy"]
        blocked = HandResult(hand=4, end="blocked", rule="HD-3.7.1", winners=())
        assert hand_headline(blocked, names) == (
            "Hand 4: nobody could play or draw any more; nobody wins the hand.")
        team = HandResult(hand=1, end="out", rule="STD-9.1", winners=(2, 0))
        assert hand_headline(team, names) == "Hand 1: Cy went out; Cy and Ann win the hand."
        game = GameResult(hands=1, end="max_turns", rule="CT-7.1", winners=(), totals=(0, 0),
                          lowest_wins=None, standings=(0, 1))
        assert game_headline(game, names) == "Nobody wins the game (the turn limit was reached)."

    def test_extras_read_by_their_declared_kind(self) -> None:
        res = HandResult(hand=1, end="left", rule="TD-6.6", winners=(1,), loser=2,
                         out_order=(1,), extras={"left": (0,)})
        told = describe_hand(res, ["Ann", "Bo", "Cy"],
                             extras=get_variant("throwdown").result_extras)
        assert "Left the table: Ann" in told.notes and "Loser: Cy" in told.notes
        assert told.rows == () and "No points are counted." in told.notes
        assert describe_action(Action.parse("deal 1")) == "deal 1 card to each player"
        assert describe_pending({"type": "draw", "count": 1, "victim": 0}, ["Ann"]) == (
            "Ann must answer: draw 1 card")
