"""Hot Death: hand end, scoring, game end, Uno, the 69 challenge, dealing and presets.

Rules HD-1.4, HD-3.1, HD-3.2, HD-3.7 (HD-3.7.1 to HD-3.7.4), HD-3.8, HD-3.11,
HD-3.11.1, HD-3.11.2 and HD-3.13 of the rulebook (hot-death.md §1.4, §3.1, §3.2, §3.7,
§3.8, §3.11, §3.13).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import hotdeath
from hotdeath.cards import FACE_KIND, NUMBER, hotdeath_deck
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.options import as_dict
from hotdeath.rng import DEAL_STREAM, Rng, stream_seed
from hotdeath.state import TERMINAL, GameState
from hotdeath.variants import get_variant
from hotdeath.variants.hotdeath import HotDeathOptions, card_values, hand_values
from tests.support import act, card, hand, kinds, legal, pos, position

HD = get_variant("hotdeath")
DEAL_5_TO_15 = [f"deal {k}" for k in range(5, 16)]


# ---------------------------------------------------------------------- helpers


def opts(preset: str = "canonical", options: dict[str, object] | None = None) -> HotDeathOptions:
    """Resolved Hot Death options (a preset plus overrides)."""
    resolved: HotDeathOptions = HD.resolve_options(preset, options or {})
    return resolved


def faces(codes: list[str]) -> list[int]:
    return [card(c) for c in codes]


def values(
    hands: list[list[str]],
    winner: int = 0,
    bastard: int = -1,
    dealt: int | None = None,
    preset: str = "canonical",
    options: dict[str, object] | None = None,
) -> list[int]:
    """Hand value of every seat (Virus penalty not included)."""
    n = len(hands) if dealt is None else dealt
    out = hand_values(
        [faces(h) for h in hands], winner, bastard, [True] * len(hands), opts(preset, options), n
    )
    return [v for v, _ in out]


def value(
    codes: list[str],
    dealt: int = 4,
    preset: str = "canonical",
    options: dict[str, object] | None = None,
) -> int:
    """Value of one losing hand (seat 1; seat 0 went out; the other seats hold nothing)."""
    hands: list[list[str]] = [[], codes] + [[] for _ in range(dealt - 2)]
    return values(hands, 0, -1, dealt, preset, options)[1]


def hd(**fields: Any) -> GameState:
    """A Hot Death position."""
    return position(variant="hotdeath", **fields)


def seat_row(g: GameState, seat: int) -> dict[str, Any]:
    """One seat's score in the hand that just ended: its points, the hand value (the points
    before the Virus penalty) and the penalty, read from the score lines."""
    assert g.last_hand is not None
    row = g.last_hand.seats[seat]
    assert row.seat == seat and sum(x.points for x in row.lines) == row.points
    penalty = sum(x.points for x in row.lines if x.words == "virus")
    return {"points": row.points, "penalty": penalty, "hand_value": row.points - penalty,
            "total": row.total, "lines": row.lines}


def phase(g: GameState) -> str:
    name: str = pos(g)["phase"]
    return name


# ====================================================================== HD-1.4 card values


class TestCardValues:
    @pytest.mark.rule("HD-1.4", "seed 000", "seed 002", "app", "hot-death.md §1.4")
    def test_number_cards_count_face_value(self) -> None:
        assert value(["R1", "Y2", "G9", "B5", "R7"]) == 24

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 002", "app", "hot-death.md §1.4")
    @pytest.mark.parametrize("code", ["RS", "GR", "B+2", "YS", "BR", "R+2"])
    def test_skip_reverse_draw_two_are_20(self, code: str) -> None:
        assert value([code]) == 20

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 001", "seed 002", "hot-death.md §1.4")
    @pytest.mark.parametrize("code", ["RSS", "GSS", "BRS", "YRS"])
    def test_double_skip_and_reverse_skip_are_40(self, code: str) -> None:
        assert value([code]) == 40

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 001", "seed 002", "hot-death.md §2.3.7")
    @pytest.mark.parametrize(
        ("dealt", "expected"), [(2, 20), (3, 40), (4, 60), (6, 100), (10, 180)]
    )
    def test_spreader_is_20_per_other_player_dealt_in(self, dealt: int, expected: int) -> None:
        assert value(["GSP"], dealt=dealt) == expected

    @pytest.mark.rule("HD-1.4", "app", "hot-death.md §3.12 spreader_value")
    def test_spreader_value_fixed_60(self) -> None:
        assert value(["GSP"], dealt=6) == 100
        assert value(["GSP"], dealt=6, options={"spreader_value": "fixed_60"}) == 60
        assert value(["GSP"], dealt=3, options={"spreader_value": "fixed_60"}) == 60

    @pytest.mark.rule("HD-1.4", "seed 000", "app", "hot-death.md §3.12 plain_wild_points")
    def test_plain_wild_points(self) -> None:
        assert value(["W"]) == 50
        assert value(["W"], options={"plain_wild_points": 40}) == 40

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §1.4")
    @pytest.mark.parametrize(
        ("code", "expected"),
        [
            ("WD4", 50),
            ("HOT", 100),
            ("DB", 100),
            ("HOS", 0),
            ("GLAS", 75),
            ("QUIT", 100),
            ("MAD", 100),
            ("LOI", 75),
            ("VIR", 3),
            ("M5", -5),
        ],
    )
    def test_fixed_card_values(self, code: str, expected: int) -> None:
        assert value([code]) == expected

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 002", "hot-death.md §3.12 mad_points")
    def test_mad_points_option(self) -> None:
        assert value(["MAD", "R2"]) == 102
        assert value(["MAD", "R2"], options={"mad_points": 75}) == 77
        assert value(["MAD", "R2"], preset="source_000") == 77

    @pytest.mark.rule("HD-1.4", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §1.4")
    def test_magic_red_5_subtracts(self) -> None:
        assert value(["M5", "R9", "B+2"]) == 24
        assert value(["M5"]) == -5

    @pytest.mark.rule("HD-1.4", "app", "hot-death.md §3.7 step 3")
    def test_card_values_skips_the_cards_without_a_value(self) -> None:
        got = card_values(faces(["RET", "HOLY", "69", "R7", "BB", "HOS"]), opts(), 4)
        assert sorted(got) == [0, 0, 7]


# ====================================================================== HD-3.7.2 formula cards


class TestMystery:
    @pytest.mark.rule("HD-3.7.2", "seed 001", "seed 002", "hot-death.md §2.3.13")
    def test_ten_times_the_highest_number(self) -> None:
        assert value(["MYS", "R7", "B3"]) == 70 + 7 + 3

    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "seed 002", "hot-death.md §2.3.13")
    def test_ten_without_a_number_card(self) -> None:
        assert value(["MYS", "WD4"]) == 10 + 50
        assert value(["MYS"]) == 10

    @pytest.mark.rule("HD-3.7.2", "app", "ruling", "hot-death.md §2.3.13")
    def test_zeros_count_as_no_number(self) -> None:
        assert value(["MYS", "QUIT"]) == 10 + 100

    @pytest.mark.rule(
        "HD-3.7.2", "seed 000", "seed 001", "app", "hot-death.md §3.12 mystery_number_mode"
    )
    def test_mystery_number_mode_with_magic_red_5(self) -> None:
        hand_ = ["MYS", "M5", "R3"]
        assert value(hand_) == 50 - 5 + 3  # printed: the Magic 5 counts as 5
        assert value(hand_, options={"mystery_number_mode": "app"}) == 30 - 5 + 3  # app ignores it
        points_000: dict[str, object] = {"mystery_number_mode": "points_000"}
        assert value(hand_, options=points_000) == -50 - 5 + 3  # 000: -50

    @pytest.mark.rule("HD-2.3.13", "seed 000", "ruling", "mystery_number_mode=points_000")
    def test_points_000_counts_the_points_of_the_highest_number_card(self) -> None:
        # 000: "ten times the number of points of your highest number card" (a Magic 5 there
        # making it -50): the card with the highest printed number, at its points
        p: dict[str, object] = {"mystery_number_mode": "points_000"}
        assert value(["MYS", "GLAS", "R1"], options=p) == 750 + 75 + 1
        assert value(["MYS", "MAD"], options={**p, "mad_points": 100}) == 1000 + 100
        assert value(["MYS", "MAD"], options={**p, "mad_points": 75}) == 750 + 75
        assert value(["MYS", "LOI", "G3"], options=p) == 750 + 75 + 3
        assert value(["MYS", "VIR", "G2"], options=p) == 30 + 3 + 2
        assert value(["MYS", "R7", "LOI"], options=p) == 70 + 7 + 75  # 7 beats the 4
        assert value(["MYS", "M5", "R3"], options=p) == -50 - 5 + 3
        # a tie of numbers: the card worth most (a plain 5 before the Magic 5, a Glasnost
        # before a plain 2)
        assert value(["MYS", "M5", "G5"], options=p) == 50 - 5 + 5
        assert value(["MYS", "B2", "GLAS"], options=p) == 750 + 2 + 75
        # no number of 1 or more: 10, as in every mode
        assert value(["MYS", "QUIT"], options=p) == 10 + 100
        # a Blue Shield (2) as the highest number card counts its value among the other
        # cards (the Mystery left out, or each would be worth the other); it is then worth
        # the highest card, the Mystery included (HD-2.3.19)
        assert value(["MYS", "SHIELD", "R1", "WD4"], options=p) == 500 + 500 + 1 + 50
        # 000's lowest hand, "(negative) 120 points": 2 × (−50 − 5 − 5)
        assert value(["MYS", "M5", "SHIELD", "RET"], options=p) == -120

    @pytest.mark.rule("HD-2.3.13", "seed 000", "ruling", "mystery_number_mode=points_000")
    def test_points_000_scores_a_hand_that_ends_in_play(self) -> None:
        # the ruling through a played hand: P0 goes out, P1 holds Mystery, Glasnost and R1
        for options, mystery in (({"mystery_number_mode": "points_000"}, 750),
                                 ({}, 20)):  # printed: 10 × the Glasnost's 2
            g = hd(players=3, turn=0, hands=[["R9"], ["MYS", "GLAS", "R1"], ["B4"]], top="R7",
                   options=options)
            act(g, "play R9")
            assert seat_row(g, 1)["hand_value"] == mystery + 75 + 1
            assert g.scores[1] == mystery + 75 + 1

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §2.3.13")
    def test_app_mode_ignores_blue_shield_number(self) -> None:
        assert value(["MYS", "SHIELD"]) == 20 + 20
        assert value(["MYS", "SHIELD"], options={"mystery_number_mode": "app"}) == 10 + 10

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §2.3.13")
    def test_special_numbers_count_with_their_number(self) -> None:
        assert value(["MYS", "GLAS"]) == 20 + 75
        assert value(["MYS", "LOI"], options={"mystery_number_mode": "app"}) == 40 + 75


class TestBlueShield:
    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "seed 002", "hot-death.md §2.3.19")
    def test_copies_the_highest_valued_card(self) -> None:
        assert value(["SHIELD", "R7", "WD4"]) == 50 + 7 + 50

    @pytest.mark.rule("HD-3.7.2", "ruling", "hot-death.md §2.3.19")
    def test_alone_is_zero(self) -> None:
        assert value(["SHIELD"]) == 0

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §3.7 step 4")
    def test_mystery_is_worked_out_first(self) -> None:
        assert value(["SHIELD", "MYS", "R8"]) == 80 + 80 + 8

    @pytest.mark.rule("HD-3.7.2", "ruling", "hot-death.md §3.7 step 3")
    def test_spreader_is_worked_out_first(self) -> None:
        assert value(["SHIELD", "BSP"], dealt=5) == 80 + 80

    @pytest.mark.rule("HD-3.7.2", "ruling", "hot-death.md §2.3.19")
    def test_ignores_retaliation_holy_defender_and_69(self) -> None:
        assert value(["SHIELD", "RET", "R3"]) == (3 + 3) * 2

    @pytest.mark.rule("HD-3.7.2", "seed 000", "app", "hot-death.md §3.12 blue_shield_floor_zero")
    def test_may_be_negative_unless_floor_zero(self) -> None:
        assert value(["SHIELD", "M5"]) == -10
        assert value(["SHIELD", "M5"], options={"blue_shield_floor_zero": True}) == -5
        floor = opts(options={"blue_shield_floor_zero": True})
        assert card_values(faces(["SHIELD", "M5"]), floor, 4) == [-5, 0]


class TestSixtyNine:
    @pytest.mark.rule("HD-3.7.2", "seed 002", "app", "hot-death.md §2.3.20")
    def test_hand_worth_69(self) -> None:
        assert value(["69", "R9", "WD4", "HOT"]) == 69
        assert value(["69"]) == 69

    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "app", "hot-death.md §3.7 step 5")
    def test_magic_red_5_takes_off_5(self) -> None:
        assert value(["69", "M5", "R9"]) == 64

    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "app", "hot-death.md §3.7 step 6")
    def test_retaliation_doubles(self) -> None:
        assert value(["69", "RET"]) == 138

    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "app", "hot-death.md §3.7 step 7")
    def test_holy_defender_halves_rounding_up(self) -> None:
        assert value(["69", "HOLY"]) == 35
        assert value(["69", "HOLY"], options={"halving_rounding": "down"}) == 34

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §3.7 steps 5-7")
    def test_all_modifiers_in_order(self) -> None:
        assert value(["69", "M5", "RET", "HOLY"]) == 64

    @pytest.mark.rule("HD-3.7.2", "seed 002", "hot-death.md §3.12 sixty_nine_modifiers")
    def test_sixty_nine_modifiers_false(self) -> None:
        assert value(["69", "M5", "RET"]) == 128
        assert value(["69", "M5", "RET"], options={"sixty_nine_modifiers": False}) == 69
        assert value(["69", "HOLY"], options={"sixty_nine_modifiers": False}) == 69


class TestDoublingAndHalving:
    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §2.3.23")
    def test_retaliation_doubles(self) -> None:
        assert value(["RET", "R7", "B+2"]) == 54

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §3.12 halving_rounding")
    def test_holy_defender_halves(self) -> None:
        assert value(["HOLY", "R7"]) == 4
        assert value(["HOLY", "R7"], options={"halving_rounding": "down"}) == 3
        assert value(["HOLY", "R8"], options={"halving_rounding": "down"}) == 4

    @pytest.mark.rule("HD-3.7.2", "seed 000", "app", "hot-death.md §2.3.22")
    def test_halving_a_negative_hand(self) -> None:
        assert value(["HOLY", "M5"]) == -2
        assert value(["HOLY", "M5"], options={"halving_rounding": "down"}) == -3

    @pytest.mark.rule("HD-3.7.2", "app", "hot-death.md §4.9 ruling 13")
    def test_doubling_before_halving(self) -> None:
        assert value(["RET", "HOLY", "R3"]) == 3


class TestBigBrother:
    @pytest.mark.rule("HD-3.7.2", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §2.3.24")
    def test_takes_the_highest_hand(self) -> None:
        assert values([[], ["BB", "R1"], ["WD4", "R9"], ["R2"]]) == [0, 59, 59, 2]

    @pytest.mark.rule("HD-3.7.2", "seed 000", "hot-death.md §2.3.24")
    def test_no_effect_when_own_hand_is_highest(self) -> None:
        assert values([[], ["BB", "HOT"], ["R2"]]) == [0, 100, 2]

    @pytest.mark.rule("HD-3.7.2", "ruling", "hot-death.md §3.7 step 8")
    def test_winner_zero_counts(self) -> None:
        assert values([[], ["BB", "M5", "HOLY"], ["HOS"]]) == [0, 0, 0]

    @pytest.mark.rule("HD-3.7.2", "ruling", "hot-death.md §3.7 step 8")
    def test_last_standing_winner_counts_as_zero(self) -> None:
        # seat 0 won as the last active player, still holding cards
        assert values([["HOT", "DB"], ["BB", "M5", "HOLY"], ["HOS"]]) == [0, 0, 0]

    @pytest.mark.rule("HD-3.7.2", "seed 002", "hot-death.md §3.7 step 8")
    def test_includes_ejected_players(self) -> None:
        g = hd(
            players=4,
            turn=0,
            active=[True, True, False, True],
            hands=[["R1"], ["BB", "R2"], ["HOT", "R3"], ["Y4"]],
            top="R7",
        )
        act(g, "play R1")
        assert [seat_row(g, s)["hand_value"] for s in range(4)] == [0, 103, 103, 4]


class TestCombo1000:
    @pytest.mark.rule("HD-3.7.3", "seed 002", "hot-death.md §3.7 step 2")
    def test_exact_1000(self) -> None:
        assert value(["QUIT", "RET", "R9", "HOT"]) == 1000

    @pytest.mark.rule("HD-3.7.3", "seed 002", "hot-death.md §3.7 step 2")
    def test_exact_ignores_modifiers(self) -> None:
        assert value(["QUIT", "RET", "HOLY"]) == 1000
        assert value(["QUIT", "RET", "M5"]) == 1000
        assert value(["QUIT", "RET", "69"]) == 1000

    @pytest.mark.rule("HD-3.7.3", "seed 002", "hot-death.md §3.7 step 8")
    def test_big_brother_can_raise_it(self) -> None:
        big = ["HOT", "DB", "WD4", "WD4", "WD4", "WD4", "GLAS", "LOI", "MAD",
               "RSS", "GSS", "BSS", "YSS", "RRS", "GRS", "BRS", "YRS", "MYS", "R9"]
        assert value(big) == 1069
        assert values([[], ["QUIT", "RET", "BB"], big]) == [0, 1069, 1069]

    @pytest.mark.rule("HD-3.7.3", "seed 001", "app", "hot-death.md §3.12 combo_1000_cards")
    def test_three_card_combination(self) -> None:
        three: dict[str, object] = {"combo_1000_cards": "quitter_fuck_you_shitter"}
        assert value(["QUIT", "RET", "R5"], options=three) == 210
        assert value(["QUIT", "RET", "BB", "R5"], options=three) == 1000
        assert value(["QUIT", "RET", "R5"]) == 1000

    @pytest.mark.rule("HD-3.7.3", "seed 000", "hot-death.md §3.12 combo_1000_scoring")
    def test_pair_worth_1000_adds_the_rest(self) -> None:
        mode = "pair_worth_1000"
        assert value(["QUIT", "RET", "R5", "WD4"], options={"combo_1000_scoring": mode}) == 1055
        assert value(["QUIT", "RET", "69", "R5"], options={"combo_1000_scoring": mode}) == 1069
        assert value(["QUIT", "RET", "69", "M5"], options={"combo_1000_scoring": mode}) == 1064
        assert value(["QUIT", "RET", "HOLY", "R5"], options={"combo_1000_scoring": mode}) == 503

    @pytest.mark.rule("HD-3.7.3", "app", "hot-death.md §3.12 combo_1000_scoring")
    def test_app_scoring(self) -> None:
        mode = "app"
        assert value(["QUIT", "RET", "R5", "WD4"], options={"combo_1000_scoring": mode}) == 1055
        assert value(["QUIT", "RET", "69", "R5"], options={"combo_1000_scoring": mode}) == 69
        assert value(["QUIT", "RET", "69", "M5"], options={"combo_1000_scoring": mode}) == 64
        assert value(["QUIT", "RET", "M5", "R7"], options={"combo_1000_scoring": mode}) == 1002
        assert value(["QUIT", "RET", "HOLY", "R5"], options={"combo_1000_scoring": mode}) == 503

    @pytest.mark.rule("HD-3.7.3", "seed 002", "seed 000", "app", "hot-death.md §3.7 step 2")
    def test_three_modes_differ_on_the_same_hand(self) -> None:
        hand_ = ["QUIT", "RET", "69", "HOLY"]
        assert value(hand_) == 1000
        assert value(hand_, options={"combo_1000_scoring": "pair_worth_1000"}) == 535
        assert value(hand_, options={"combo_1000_scoring": "app"}) == 35


class TestSource000Minus120:
    @pytest.mark.rule("HD-3.7.2", "seed 000", "hot-death.md §1.4 last paragraph")
    def test_lowest_hand_is_minus_120(self) -> None:
        assert value(["MYS", "M5", "SHIELD", "RET"], preset="source_000") == -120

    @pytest.mark.rule("HD-3.7.2", "seed 000", "app", "hot-death.md §1.4 last paragraph")
    def test_same_hand_under_canonical_and_app(self) -> None:
        assert value(["MYS", "M5", "SHIELD", "RET"]) == (50 - 5 + 50) * 2
        assert value(["MYS", "M5", "SHIELD", "RET"], preset="app_compat") == (10 - 5 + 10) * 2


class TestWinnerScoresZero:
    @pytest.mark.rule("HD-3.7.2", "seed 002", "app", "hot-death.md §3.7 step 1")
    def test_winner_and_bastard_holder_score_zero(self) -> None:
        got = values([["HOT"], ["QUIT", "RET", "HOLY", "BB"], ["R4"]], winner=0, bastard=1)
        assert got == [0, 0, 4]


# ====================================================================== HD-3.7.1 hand-end checks


def _bastard_accept(options: dict[str, object] | None = None) -> GameState:
    """P1 accepts a Wild Draw Four and draws the Big Brother, his fourth bastard card."""
    return hd(
        players=4,
        turn=1,
        options=options or {},
        hands=[["R5", "G6"], ["QUIT", "RET", "HOLY", "VIR"], ["B3"], ["Y4"]],
        top="WD4",
        color="red",
        attack={"kind": "draw", "count": 4, "victim": 1, "sender": 0},
        draw=["BB", "R1", "R2", "R3", "G9"],
    )


class TestHandEndChecks:
    @pytest.mark.rule("HD-3.7.1", "seed 000", "seed 002", "app", "hot-death.md §3.7 check 1")
    def test_four_bastard_cards_end_the_hand(self) -> None:
        g = _bastard_accept()
        act(g, "accept")
        assert g.last_hand is not None and g.last_hand.winner == 1
        assert [seat_row(g, s)["points"] for s in range(4)] == [11, 0, 3, 4]
        assert g.dealer == 1 and phase(g) == "deal" and g.current_player() == 1

    @pytest.mark.rule("HD-3.7.1", "seed 000", "seed 002", "app", "hot-death.md §3.7 check 1")
    def test_three_bastard_cards_without_the_big_brother_do_not_end_the_hand(self) -> None:
        # all FOUR end it: the Quitter, Retaliation and the Holy Defender with a drawn
        # Virus are three, and the hand goes on
        g = hd(players=4, turn=1, hands=[["R5", "G6"], ["QUIT", "RET", "G2"], ["B3"], ["Y4"]],
               top="WD4", color="red",
               attack={"kind": "draw", "count": 4, "victim": 1, "sender": 0},
               draw=["HOLY", "VIR", "R1", "R2", "G9"])
        ev = act(g, "accept")
        assert sorted(hand(g, 1)) == sorted(["QUIT", "RET", "G2", "HOLY", "VIR", "R1", "R2"])
        assert "hand_end" not in kinds(ev) and g.last_hand is None
        assert phase(g) == "turn" and g.current_player() == 2

    @pytest.mark.rule("HD-3.7.1", "app", "ruling", "hot-death.md §3.7 check 1")
    def test_bastard_holder_is_not_infected(self) -> None:
        g = _bastard_accept()
        act(g, "accept")
        assert pos(g)["infections"] == [0, 0, 0, 0]
        assert seat_row(g, 1)["penalty"] == 0

    @pytest.mark.rule("HD-3.7.1", "seed 001", "hot-death.md §3.12 all_bastards_effect")
    def test_all_bastards_wins_game(self) -> None:
        g = _bastard_accept()
        act(g, "accept")
        assert g.winners == [] and phase(g) == "deal"
        g = _bastard_accept({"all_bastards_effect": "wins_game"})
        act(g, "accept")
        assert g.winners == [1] and g.is_terminal() and g.current_player() == TERMINAL

    @pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7 check 1 and step 9")
    def test_player_out_at_the_same_time_wins(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["WD4"], ["QUIT", "RET", "HOLY", "VIR"], ["B3"], ["Y4"]],
            top="R7",
            draw=["BB", "R1", "R2", "R3", "G9"],
        )
        act(g, "play WD4 red")
        assert g.last_hand is None
        act(g, "accept")
        assert g.last_hand is not None and g.last_hand.winner == 0
        # P1's hand is worth 0, but he did not win: his Virus infects him and costs 10
        # (HD-3.7.4; audit of 2026-12-02)
        assert [seat_row(g, s)["points"] for s in range(4)] == [0, 10, 3, 4]
        assert pos(g)["infections"] == [0, 1, 0, 0]
        assert g.dealer == 0

    @pytest.mark.rule("HD-3.7.1", "seed 002", "app", "hot-death.md §3.7 check 2")
    def test_last_active_player_wins_with_zero(self) -> None:
        g = hd(players=3, turn=0, hands=[["QUIT", "R5"], ["VIR", "B9"], ["HOT", "WD4"]], top="G3")
        act(g, "play QUIT", "play VIR")
        assert g.last_hand is not None and g.last_hand.winner == 2
        assert g.scores == [5, 9, 0]
        assert g.dealer == 2 and phase(g) == "deal"

    @pytest.mark.rule("HD-3.7.1", "seed 000", "hot-death.md §3.7 check 3")
    def test_no_active_player_no_winner(self) -> None:
        g = hd(preset="source_000", players=2, turn=0, hands=[["MAD", "R9"], ["R2", "B3"]],
               top="Y3")
        act(g, "play MAD @1")
        assert g.last_hand is not None and g.last_hand.winner < 0
        assert pos(g)["hand_winner"] is None
        assert g.scores == [9, 5]
        assert g.dealer == 1  # lowest score of the hand deals next

    @pytest.mark.rule("HD-3.7.1", "seed 002", "hot-death.md §3.12 mad_min_active_players")
    def test_mad_with_two_players_canonical_does_not_end_the_hand(self) -> None:
        g = hd(players=2, turn=0, hands=[["MAD", "R9"], ["R2", "B3"]], top="Y3")
        assert "play MAD" in legal(g) and "play MAD @1" not in legal(g)
        act(g, "play MAD")
        assert g.last_hand is None and phase(g) == "turn" and g.current_player() == 1
        assert g.active == [True, True]

    @pytest.mark.rule("HD-3.7.1", "seed 000", "hot-death.md §3.12 quitter_with_two_active")
    def test_two_player_quitter_answered_by_virus_has_no_winner(self) -> None:
        g = hd(preset="source_000", players=2, turn=0, hands=[["QUIT", "R9"], ["VIR", "B2"]],
               top="G5")
        act(g, "play QUIT", "play VIR")
        assert g.last_hand is not None and g.last_hand.winner < 0
        assert g.scores == [9, 2]

    @pytest.mark.rule("HD-3.7.1", "seed 000", "hot-death.md §3.12 quitter_with_two_active")
    def test_two_player_quitter_accepted(self) -> None:
        fields: dict[str, Any] = {
            "players": 2, "turn": 0, "hands": [["QUIT", "R9"], ["B2", "B4"]], "top": "G5",
        }
        g = hd(preset="source_000", **fields)
        act(g, "play QUIT", "accept")
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert g.scores == [0, 6]
        g = hd(**fields)
        act(g, "play QUIT")
        assert g.last_hand is None and g.current_player() == 1

    @pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7 check 4")
    def test_earliest_empty_hand_wins(self) -> None:
        g = hd(players=4, turn=3, hands=[["HOLY"], ["R1", "R2"], ["B5"], ["QUIT"]], top="G4")
        act(g, "play QUIT")  # P3 out; P0 is the victim
        act(g, "play HOLY")  # P0 out; P1 is the victim
        assert g.last_hand is None
        act(g, "accept")
        assert g.last_hand is not None and g.last_hand.winner == 3
        assert g.scores == [0, 3, 5, 0]
        assert g.dealer == 3

    @pytest.mark.rule("HD-3.7.1", "seed 002", "hot-death.md §3.7 check 4")
    def test_last_card_attack_waits_for_the_answer(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["WD4"], ["RET", "B1"], ["G2"], ["Y3"]],
            top="R7",
            draw=["R1", "R2", "R3", "R4", "R5"],
        )
        act(g, "play WD4 red")
        assert g.last_hand is None and phase(g) == "response" and g.current_player() == 1
        act(g, "play RET uno")
        assert legal(g) == ["accept"]
        act(g, "accept")
        assert hand(g, 0) == ["R1", "R2", "R3", "R4"]
        assert g.last_hand is None and phase(g) == "turn"
        assert g.current_player() == 3  # Retaliation turned play counter-clockwise

    @pytest.mark.rule("HD-3.7.1", "seed 002", "hot-death.md §3.7 check 4")
    def test_last_card_attack_accepted_ends_the_hand(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["WD4"], ["RET", "B1"], ["G2"], ["Y3"]],
            top="R7",
            draw=["R1", "R2", "R3", "R4", "R5"],
        )
        act(g, "play WD4 red", "accept")
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert g.scores == [0, (1 + 2 + 3 + 4 + 1) * 2, 2, 3]

    @pytest.mark.rule("HD-3.7.1", "seed 002", "hot-death.md §3.7 check 4")
    def test_last_card_attack_split_by_virus(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["WD4"], ["VIR", "B1"], ["G2"], ["Y3"]],
            top="R7",
            draw=["R1", "R2", "R3", "R4", "R5"],
        )
        act(g, "play WD4 red", "play VIR")
        assert len(g.hands[0]) == 2 and len(g.hands[1]) == 3
        assert g.last_hand is None and g.current_player() == 2

    @pytest.mark.rule("HD-3.7.1", "seed 000", "seed 002", "app", "hot-death.md §3.7 check 1")
    def test_bastard_set_held_already_ends_hand_after_next_action(self) -> None:
        g = hd(
            players=3,
            turn=0,
            hands=[["R1", "R2"], ["QUIT", "RET", "HOLY", "BB"], ["B3", "B4"]],
            top="R7",
        )
        act(g, "play R1 uno")
        assert g.last_hand is not None and g.last_hand.winner == 1
        assert g.scores == [2, 0, 7]


class TestHandEndEdges:
    @pytest.mark.rule("HD-3.7.1", "seed 002", "app", "hot-death.md §3.7 checks 2 and 4")
    def test_one_active_player_check_comes_before_the_empty_hand(self) -> None:
        g = hd(players=3, turn=0, hands=[["QUIT"], ["VIR", "B9"], ["HOT", "WD4"]], top="G3")
        act(g, "play QUIT", "play VIR uno")  # P0 went out, but only P2 is still active
        assert g.last_hand is not None and g.last_hand.winner == 2
        assert g.scores == [0, 9, 0] and g.dealer == 2

    @pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §4.9 ruling 18")
    def test_quitter_bounced_onto_an_empty_hand_still_wins(self) -> None:
        g = hd(players=4, turn=0, hands=[["QUIT"], ["RET", "B1"], ["G2"], ["Y3"]], top="G3")
        act(g, "play QUIT", "play RET uno")
        assert g.last_hand is None and legal(g) == ["accept"]
        act(g, "accept")
        assert g.active[0] is False
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert g.scores == [0, 1, 2, 3]

    @pytest.mark.rule("HD-3.7.1", "seed 000", "seed 002", "app", "hot-death.md §3.7 check 1")
    def test_fourth_bastard_from_a_turn_draw_ends_the_hand_at_once(self) -> None:
        g = hd(
            players=4,
            turn=1,
            hands=[["R5", "G6"], ["QUIT", "RET", "BB", "B4"], ["B3"], ["Y4"]],
            top="R7",
            draw=["HOLY", "R1"],
        )
        act(g, "draw")
        assert g.last_hand is not None and g.last_hand.winner == 1
        assert phase(g) == "deal" and g.dealer == 1
        assert g.scores == [11, 0, 3, 4]

    @pytest.mark.rule("HD-3.7.1", "seed 000", "seed 002", "ruling", "hot-death.md §3.7 check 1")
    def test_fourth_bastard_from_a_challenge_penalty_ends_the_hand(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["69", "R6", "Y1"], ["G3", "G4", "G5"], ["QUIT", "RET", "BB"], ["Y5"]],
            top="B9",
            draw=["HOLY", "R1"],
        )
        act(g, "play R6")
        act(g, "challenge 0", seat=2)
        assert g.last_hand is not None and g.last_hand.winner == 2
        assert seat_row(g, 2)["points"] == 0 and seat_row(g, 0)["points"] == 69

    @pytest.mark.rule("HD-3.2", "seed 000", "hot-death.md §3.2")
    def test_no_winner_tied_lowest_deals_at_random(self) -> None:
        dealers = set()
        for seed in range(16):
            g = hd(
                preset="source_000",
                seed=seed,
                players=2,
                turn=0,
                hands=[["MAD", "R5"], ["R2", "B3"]],
                top="Y3",
            )
            act(g, "play MAD @1")
            assert g.scores == [5, 5] and phase(g) == "deal"
            dealers.add(g.dealer)
        assert dealers == {0, 1}


# ====================================================================== HD-3.7 totals, dealer


def _go_out(**fields: Any) -> GameState:
    """P0 plays his last card R1 on R7; 4 players."""
    base: dict[str, Any] = {
        "players": 4,
        "turn": 0,
        "hands": [["R1"], ["R9", "B5"], ["WD4", "G2"], ["HOLY", "R3"]],
        "top": "R7",
    }
    base.update(fields)
    g = hd(**base)
    act(g, "play R1")
    return g


class TestHandTotals:
    @pytest.mark.rule("HD-3.7", "seed 002", "app", "hot-death.md §3.7")
    def test_values_added_to_totals(self) -> None:
        g = _go_out(scores=[10, 20, 30, 40])
        assert g.scores == [10, 34, 82, 42]
        assert [seat_row(g, s)["points"] for s in range(4)] == [0, 14, 52, 2]

    @pytest.mark.rule("HD-3.7", "seed 000", "seed 002", "app", "hot-death.md §3.2")
    def test_winner_deals_next(self) -> None:
        g = _go_out(dealer=2)
        assert g.dealer == 0 and g.current_player() == 0
        assert phase(g) == "deal" and legal(g) == DEAL_5_TO_15

    @pytest.mark.rule("HD-3.7", "seed 002", "hot-death.md §3.7")
    def test_ejected_players_are_scored(self) -> None:
        g = _go_out(active=[True, True, False, True])
        assert g.scores == [0, 14, 52, 2]

    @pytest.mark.rule("HD-3.7", "ruling", "hot-death.md §2.3.7")
    def test_spreader_counts_every_player_dealt_in_even_ejected(self) -> None:
        g = _go_out(hands=[["R1"], ["GSP"], ["G2"], ["Y3"]], active=[True, True, False, False])
        assert seat_row(g, 1)["hand_value"] == 60

    @pytest.mark.rule("HD-3.7", "seed 002", "hot-death.md §3.2")
    def test_next_hand_is_dealt_by_the_winner(self) -> None:
        g = _go_out()
        act(g, "deal 6")
        assert g.hand_no == 2 and g.dealer == 0
        assert [len(h) for h in g.hands] == [6, 6, 6, 6]
        assert g.scores == [0, 14, 52, 2]


class TestInfection:
    @pytest.mark.rule("HD-3.7.4", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §2.3.21")
    def test_virus_in_hand_infects(self) -> None:
        g = _go_out(hands=[["R1"], ["VIR", "R5"], ["G2"], ["Y3"]])
        assert pos(g)["infections"] == [0, 1, 0, 0]
        row = seat_row(g, 1)
        assert (row["hand_value"], row["penalty"], row["points"]) == (8, 10, 18)
        assert g.scores == [0, 18, 2, 3]

    @pytest.mark.rule("HD-3.7.4", "seed 002", "hot-death.md §3.7 step 9")
    def test_ejected_holder_is_infected_and_it_lasts(self) -> None:
        g = _go_out(hands=[["R1"], ["R5"], ["VIR", "G2"], ["Y3"]], active=[True, True, False, True])
        assert pos(g)["infections"] == [0, 0, 1, 0]
        assert g.scores == [0, 5, 5 + 10, 3]
        act(g, "deal 5")
        assert pos(g)["infections"] == [0, 0, 1, 0] and g.scores == [0, 5, 15, 3]

    @pytest.mark.rule("HD-3.7.4", "seed 000", "seed 001", "hot-death.md §3.7 step 9")
    def test_infections_are_cumulative(self) -> None:
        g = _go_out(hands=[["R1"], ["VIR", "R5"], ["G2"], ["Y3"]], infections=[0, 2, 0, 0])
        assert pos(g)["infections"] == [0, 3, 0, 0]
        assert seat_row(g, 1)["points"] == 8 + 30

    @pytest.mark.rule("HD-3.7.4", "seed 002", "hot-death.md §3.7 step 9")
    def test_penalty_every_hand_not_won(self) -> None:
        g = _go_out(hands=[["R1"], ["R5"], ["G2"], ["Y3"]], infections=[0, 1, 0, 2])
        assert g.scores == [0, 15, 2, 23]

    @pytest.mark.rule("HD-3.7.4", "seed 002", "app", "hot-death.md §3.7 step 9")
    def test_winner_pays_no_penalty(self) -> None:
        g = _go_out(hands=[["R1"], ["R5"], ["G2"], ["Y3"]], infections=[3, 0, 0, 0])
        assert g.scores == [0, 5, 2, 3]
        assert pos(g)["infections"] == [3, 0, 0, 0]

    @pytest.mark.rule("HD-3.7.4", "app", "hot-death.md §3.7 step 9")
    def test_penalty_is_not_doubled(self) -> None:
        g = _go_out(hands=[["R1"], ["VIR", "RET"], ["G2"], ["Y3"]])
        assert seat_row(g, 1)["hand_value"] == 6 and seat_row(g, 1)["points"] == 16

    @pytest.mark.rule("HD-3.7.4", "app", "hot-death.md §2.3.24")
    def test_penalty_not_compared_by_big_brother(self) -> None:
        g = _go_out(hands=[["R1"], ["BB", "R1"], ["VIR", "R9"], ["Y2"]], infections=[0, 0, 4, 0])
        assert seat_row(g, 2)["points"] == 12 + 50
        assert seat_row(g, 1)["points"] == 12


# ====================================================================== HD-3.8 end of the game


class TestGameEnd:
    @pytest.mark.rule("HD-3.8", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §3.8")
    def test_game_ends_at_1000_lowest_wins(self) -> None:
        g = _go_out(hands=[["R1"], ["R9", "R5"], ["G2"], ["Y3"]], scores=[0, 990, 500, 400])
        assert g.scores == [0, 1004, 502, 403]
        assert g.is_terminal() and g.winners == [0]
        assert g.current_player() == TERMINAL and legal(g) == []

    @pytest.mark.rule("HD-3.8", "seed 002", "hot-death.md §3.8")
    def test_exactly_1000_ends_the_game(self) -> None:
        g = _go_out(hands=[["R1"], ["R9", "R5"], ["G2"], ["Y3"]], scores=[0, 986, 0, 0])
        assert g.scores[1] == 1000 and g.is_terminal()
        g = _go_out(hands=[["R1"], ["R9", "R5"], ["G2"], ["Y3"]], scores=[0, 985, 0, 0])
        assert not g.is_terminal() and phase(g) == "deal"

    @pytest.mark.rule("HD-3.8", "seed 002", "hot-death.md §3.8")
    def test_lowest_total_wins_not_the_hand_winner(self) -> None:
        g = _go_out(hands=[["R1"], ["R9", "R5"], ["HOS"], ["Y3"]], scores=[500, 990, 10, 400])
        assert g.winners == [2]

    @pytest.mark.rule("HD-3.8", "seed 000", "seed 002", "hot-death.md §3.12 game_end_score")
    def test_game_end_score_option(self) -> None:
        fields: dict[str, Any] = {
            "hands": [["R1"], ["R9", "R5"], ["G2"], ["Y3"]], "scores": [0, 990, 500, 400],
        }
        g = _go_out(options={"game_end_score": 2000}, **fields)
        assert not g.is_terminal() and g.winners == [] and phase(g) == "deal"
        g = _go_out(options={"game_end_score": 500}, hands=fields["hands"], scores=[0, 0, 499, 0])
        assert g.is_terminal() and g.winners == [0]

    @pytest.mark.rule("HD-3.8", "ruling", "app", "hot-death.md §3.12 tie_break")
    def test_tie_break(self) -> None:
        fields: dict[str, Any] = {
            "hands": [["R1"], ["R9", "R5"], ["HOS"], ["Y3"]], "scores": [100, 990, 100, 400],
        }
        g = _go_out(**fields)
        assert g.winners == [0, 2]
        assert g.returns() == [1.0, 0.0, 1.0, 0.0]
        g = _go_out(options={"tie_break": "seat_order"}, **fields)
        assert g.winners == [0]


# ====================================================================== HD-3.1 / HD-3.2 dealing


def _plain_up_card_game(**options: object) -> tuple[GameState, int]:
    """A fresh 4-player game (dealer P1) whose first up-card is a plain number after `deal 7`."""
    for seed in range(200):
        g = hotdeath.new_game("hotdeath", players=4, seed=seed, dealer=1, options=options)
        act(g, "deal 7")
        if FACE_KIND[g.discard[-1]] == NUMBER and len(g.discard) == 1:
            return g, seed
    raise AssertionError("no seed with a plain up-card")


class TestDealing:
    @pytest.mark.rule("HD-3.2", "seed 000", "seed 002", "app", "hot-death.md §3.2")
    def test_game_starts_with_the_dealer_choosing(self) -> None:
        g = hotdeath.new_game("hotdeath", players=4, seed=3, dealer=2)
        assert phase(g) == "deal" and g.current_player() == 2 and g.dealer == 2
        assert legal(g) == DEAL_5_TO_15
        assert legal(g, 0) == []

    @pytest.mark.rule("HD-3.2", "app", "hot-death.md §3.2")
    def test_views_number_the_hand_whose_deal_is_being_chosen(self) -> None:
        g = hotdeath.new_game("hotdeath", players=4, seed=3, dealer=2)
        assert g.hand_no == 0  # no hand dealt yet, but the dealer is choosing hand 1
        for seat in (None, 0, 2):
            assert g.view(seat).hand_no == 1 and g.view(seat).to_json()["hand_no"] == 1
        act(g, "deal 7")
        assert g.view(0).hand_no == g.hand_no == 1
        g = _go_out()  # hand 1 is over: its winner chooses the deal of hand 2
        assert phase(g) == "deal" and g.last_hand is not None and g.last_hand.hand == 1
        assert g.view(0).hand_no == g.view(None).hand_no == 2
        act(g, "deal 6")
        assert g.view(0).hand_no == g.hand_no == 2

    @pytest.mark.rule("HD-3.2", "seed 002", "hot-death.md §3.2")
    def test_first_dealer_is_random(self) -> None:
        dealers = set()
        for seed in range(30):
            g = hotdeath.new_game("hotdeath", players=4, seed=seed)
            assert phase(g) == "deal" and g.current_player() == g.dealer
            dealers.add(g.dealer)
        assert dealers == {0, 1, 2, 3}

    @pytest.mark.rule("HD-3.2", "seed 000", "hot-death.md §3.12 min_deal max_deal")
    def test_min_and_max_deal(self) -> None:
        g = hotdeath.new_game("hotdeath", players=4, seed=1, dealer=0,
                              options={"min_deal": 7, "max_deal": 9})
        assert legal(g) == ["deal 7", "deal 8", "deal 9"]
        with pytest.raises(IllegalActionError):
            act(g, "deal 10")

    @pytest.mark.rule("HD-3.1", "ruling", "hot-death.md §3.1")
    def test_deal_capped_by_the_deck_for_ten_players(self) -> None:
        g = hotdeath.new_game("hotdeath", players=10, seed=1, dealer=0)
        assert legal(g) == [f"deal {k}" for k in range(5, 11)]
        g = hotdeath.new_game("hotdeath", players=10, seed=1, dealer=0,
                              options={"deck": "double_216"})
        assert legal(g) == DEAL_5_TO_15

    @pytest.mark.rule("HD-3.2", "app", "hot-death.md §3.2")
    def test_deal_gives_every_player_the_chosen_count(self) -> None:
        g, _ = _plain_up_card_game()
        assert [len(h) for h in g.hands] == [7, 7, 7, 7]
        assert len(g.discard) == 1 and len(g.draw_pile) == 108 - 28 - 1
        assert g.hand_no == 1 and g.direction == 1

    @pytest.mark.rule("HD-3.2", "app", "hot-death.md §3.2")
    def test_cards_dealt_one_at_a_time_from_the_dealers_left(self) -> None:
        # deal scheme 1 deals the shuffle as it comes
        g = hotdeath.new_game("hotdeath", players=4, seed=5, dealer=1, deal_scheme=1)
        pile = hotdeath_deck()
        Rng(g.rng.state).shuffle(pile)
        act(g, "deal 5")
        order = pile[::-1]  # the top of the shuffled pile is dealt first
        for i in range(4):
            seat = (1 + 1 + i) % 4
            assert g.hands[seat] == [order[i + 4 * j] for j in range(5)]
        assert g.discard[0] == order[20]
        # deal scheme 2 shuffles the hand's own stream and lays the deck (the server's
        # deck commitment) so that seat s gets the shuffle's cards s, s+4 …, whoever deals
        g = hotdeath.new_game("hotdeath", players=4, seed=5, dealer=1)
        pile = hotdeath_deck()
        Rng(stream_seed(5, 1, DEAL_STREAM)).shuffle(pile)
        g.rng.shuffles = []
        act(g, "deal 5")
        order = pile[::-1]
        laid = g.rng.shuffles[-1][::-1]
        for i in range(4):
            seat = (1 + 1 + i) % 4
            assert g.hands[seat] == [laid[i + 4 * j] for j in range(5)]
            assert g.hands[i] == [order[i + 4 * j] for j in range(5)]
        assert g.discard[0] == order[20] == laid[20]

    @pytest.mark.rule("HD-3.2", "seed 002", "seed 000", "app", "hot-death.md §3.12 first_player")
    def test_first_player(self) -> None:
        g, seed = _plain_up_card_game()
        assert phase(g) == "turn" and g.current_player() == 2
        g2 = hotdeath.new_game("hotdeath", players=4, seed=seed, dealer=1,
                               options={"first_player": "dealer"})
        act(g2, "deal 7")
        assert g2.discard == g.discard
        assert phase(g2) == "turn" and g2.current_player() == 1

    @pytest.mark.rule("HD-3.2", "seed 000", "hot-death.md §3.13")
    def test_source_000_dealer_starts(self) -> None:
        g, seed = _plain_up_card_game()
        g2 = hotdeath.new_game("hotdeath", players=4, seed=seed, dealer=1, preset="source_000")
        act(g2, "deal 7")
        assert g2.current_player() == 1 and g.current_player() == 2


class TestOptionErrors:
    @pytest.mark.rule("HD-3.2", "ruling", "hot-death.md §3.12 min_deal max_deal")
    def test_min_deal_larger_than_max_deal(self) -> None:
        with pytest.raises(OptionError) as e:
            hotdeath.new_game("hotdeath", players=4, options={"min_deal": 10, "max_deal": 8})
        assert e.value.code == "bad_option_combination"
        assert "min_deal" in e.value.message and "max_deal" in e.value.message

    @pytest.mark.rule("HD-3.1", "ruling", "hot-death.md §3.1")
    def test_too_many_players_for_min_deal(self) -> None:
        with pytest.raises(OptionError) as e:
            hotdeath.new_game("hotdeath", players=10, options={"min_deal": 11})
        assert e.value.code == "bad_option_combination"
        g = hotdeath.new_game("hotdeath", players=10, dealer=0,
                              options={"min_deal": 11, "deck": "double_216"})
        assert legal(g) == [f"deal {k}" for k in range(11, 16)]

    @pytest.mark.rule("HD-3.1", "ruling", "hot-death.md §3.1")
    def test_same_check_for_positions(self) -> None:
        with pytest.raises(OptionError) as e:
            hd(players=10, options={"min_deal": 11}, hands=[[] for _ in range(10)], top="R1")
        assert e.value.code == "bad_option_combination"

    @pytest.mark.rule("HD-3.1", "seed 002", "ruling", "hot-death.md §3.1")
    def test_player_count_range(self) -> None:
        for players in (1, 11):
            with pytest.raises(OptionError) as e:
                hotdeath.new_game("hotdeath", players=players)
            assert e.value.code == "bad_players"
        assert hotdeath.new_game("hotdeath", players=2).n == 2

    @pytest.mark.rule("HD-3.12", "ruling", "hot-death.md §3.12")
    def test_unknown_option(self) -> None:
        with pytest.raises(OptionError) as e:
            HD.resolve_options("canonical", {"deal_size": 7})
        assert e.value.code == "unknown_option"
        assert "deal_size" in e.value.message and "min_deal" in e.value.message

    @pytest.mark.rule("HD-3.12", "ruling", "hot-death.md §3.12")
    @pytest.mark.parametrize(
        ("name", "bad", "allowed"),
        [
            ("tie_break", "coin_toss", "shared, seat_order"),
            ("first_player", "right_of_dealer", "left_of_dealer, dealer"),
            ("combo_1000_scoring", "double", "exact, pair_worth_1000, app"),
            ("blue_shield_floor_zero", "maybe", "true, false"),
            ("min_deal", 0, "an integer from 1 to 30"),
        ],
    )
    def test_bad_option_value_names_option_and_values(
        self, name: str, bad: object, allowed: str
    ) -> None:
        with pytest.raises(OptionError) as e:
            HD.resolve_options("canonical", {name: bad})
        assert e.value.code == "bad_option_value"
        assert name in e.value.message and allowed in e.value.message

    @pytest.mark.rule("HD-3.13", "ruling", "hot-death.md §3.13")
    def test_unknown_preset(self) -> None:
        with pytest.raises(OptionError) as e:
            hotdeath.new_game("hotdeath", preset="house_rules")
        assert e.value.code == "unknown_preset"
        for name in ("canonical", "source_000", "app_compat", "homepage_001"):
            assert name in e.value.message


# ====================================================================== HD-3.11 Uno


def _uno(**fields: Any) -> GameState:
    """P0 holds two red cards on a red top; P1..P3 hold three cards each."""
    base: dict[str, Any] = {
        "players": 4,
        "turn": 0,
        "hands": [["R1", "R2"], ["R3", "B4", "B5"], ["G5", "G6", "G7"], ["Y7", "Y8", "Y9"]],
        "top": "R9",
        "draw": ["B1", "B2", "G1", "G2", "Y1"],
    }
    base.update(fields)
    return hd(**base)


class TestUno:
    @pytest.mark.rule("HD-3.11", "seed 000", "seed 002", "hot-death.md §3.11")
    def test_play_to_one_card_opens_a_catch_window(self) -> None:
        g = _uno()
        assert legal(g) == ["play R1", "play R1 uno", "play R2", "play R2 uno", "draw"]
        act(g, "play R1")
        assert g.uno_open == [0]
        assert legal(g, 2) == ["catch 0"] and legal(g, 3) == ["catch 0"]
        assert "catch 0" in legal(g)  # the current player too
        assert legal(g, 0) == ["uno"]
        assert g.view(2).seats[0].uno_catchable

    @pytest.mark.rule("HD-3.11", "seed 000", "hot-death.md §3.11")
    def test_play_with_uno_is_safe(self) -> None:
        g = _uno()
        act(g, "play R1 uno")
        assert g.uno_open == [] and legal(g, 2) == [] and "catch 0" not in legal(g)

    @pytest.mark.rule("HD-3.11", "seed 000", "hot-death.md §3.11")
    def test_uno_call_after_the_play_closes_the_window(self) -> None:
        g = _uno()
        act(g, "play R1")
        act(g, "uno", seat=0)
        assert g.uno_open == [] and legal(g, 2) == []
        assert hand(g, 0) == ["R2"] and g.current_player() == 1

    @pytest.mark.rule("HD-3.11", "seed 000", "seed 002", "hot-death.md §3.11")
    def test_catch_draws_two_without_changing_the_turn(self) -> None:
        g = _uno()
        act(g, "play R1")
        act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B1", "B2", "R2"]
        assert g.current_player() == 1 and phase(g) == "turn"
        assert g.uno_open == [] and legal(g, 3) == []
        assert len(g.hands[2]) == 3

    @pytest.mark.rule("HD-3.11", "seed 000", "hot-death.md §3.12 uno_penalty_cards")
    def test_uno_penalty_cards(self) -> None:
        g = _uno(options={"uno_penalty_cards": 4})
        act(g, "play R1")
        act(g, "catch 0", seat=3)
        assert hand(g, 0) == ["B1", "B2", "G1", "G2", "R2"]

    @pytest.mark.rule("HD-3.11", "seed 000", "app", "hot-death.md §3.12 irish_scope")
    def test_luck_o_the_irish_reduces_the_catch(self) -> None:
        g = _uno(hands=[["R1", "LOI"], ["R3", "B4", "B5"], ["G5", "G6", "G7"], ["Y7", "Y8", "Y9"]])
        act(g, "play R1")
        act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B1", "LOI"]
        assert g.revealed[0] == [card("LOI")]
        g = _uno(
            options={"irish_scope": "attack_draws_only"},
            hands=[["R1", "LOI"], ["R3", "B4", "B5"], ["G5", "G6", "G7"], ["Y7", "Y8", "Y9"]],
        )
        act(g, "play R1")
        act(g, "catch 0", seat=2)
        assert hand(g, 0) == ["B1", "B2", "LOI"] and g.revealed[0] == []

    @pytest.mark.rule("HD-3.11", "seed 000", "ruling", "hot-death.md §4.9 ruling 19")
    def test_window_closes_with_the_next_card_played(self) -> None:
        g = _uno()
        act(g, "play R1", "play R3")
        assert g.uno_open == [] and legal(g, 3) == [] and "catch 0" not in legal(g)

    @pytest.mark.rule("HD-3.11", "seed 000", "ruling", "hot-death.md §4.9 ruling 19")
    def test_window_closes_with_the_next_card_drawn(self) -> None:
        g = _uno()
        act(g, "play R1", "draw")
        assert g.uno_open == [] and legal(g, 3) == []

    @pytest.mark.rule("HD-3.11", "seed 000", "hot-death.md §3.11")
    def test_window_stays_open_until_a_card_moves(self) -> None:
        g = _uno()
        act(g, "play R1")
        act(g, "catch 0", seat=1)
        assert len(g.hands[0]) == 3

    @pytest.mark.rule("HD-3.11", "app", "hot-death.md §3.12 uno_rule")
    def test_uno_rule_off(self) -> None:
        g = _uno(options={"uno_rule": "off"})
        assert legal(g) == ["play R1", "play R2", "draw"]
        act(g, "play R1")
        assert g.uno_open == [] and legal(g, 2) == [] and legal(g, 0) == []
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)

    @pytest.mark.rule("HD-3.11", "seed 002", "hot-death.md §3.9")
    def test_ejected_players_cannot_catch(self) -> None:
        g = _uno(active=[True, True, False, True])
        act(g, "play R1")
        assert legal(g, 2) == [] and legal(g, 3) == ["catch 0"]
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)

    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §3.11")
    def test_catching_a_player_who_is_not_liable_is_not_possible(self) -> None:
        g = _uno()
        act(g, "play R1 uno")
        with pytest.raises(IllegalActionError):
            act(g, "catch 0", seat=2)
        assert [len(h) for h in g.hands] == [1, 3, 3, 3]

    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §4.3")
    def test_answer_to_an_attack_can_open_the_window(self) -> None:
        g = hd(
            players=4,
            turn=1,
            hands=[["R5", "G6"], ["RET", "B4"], ["B3", "B6"], ["Y4", "Y6"]],
            top="WD4",
            color="red",
            attack={"kind": "draw", "count": 4, "victim": 1, "sender": 0},
        )
        assert "play RET uno" in legal(g)
        act(g, "play RET")
        assert g.uno_open == [1] and legal(g, 3) == ["catch 1"]


# ====================================================================== HD-3.11.1 the 69


def _sixty_nine(p0: list[str] | None = None, top: str = "B9", **fields: Any) -> GameState:
    base: dict[str, Any] = {
        "players": 4,
        "turn": 0,
        "hands": [p0 or ["69", "R6", "Y1"], ["G3", "G4", "G5"], ["B2", "B3", "B4"],
                  ["Y5", "Y6", "Y7"]],
        "top": top,
        "draw": ["R1", "R2", "R3", "R4", "R5"],
    }
    base.update(fields)
    return hd(**base)


class TestSixtyNineChallenge:
    @pytest.mark.rule(
        "HD-3.11.1", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §3.5 rule 8"
    )
    def test_privilege_play_only_for_the_holder(self) -> None:
        assert "play R6" in legal(_sixty_nine())
        assert "play R6" not in legal(_sixty_nine(["Y2", "R6", "Y1"]))

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.11")
    def test_privilege_play_opens_a_challenge_window(self) -> None:
        g = _sixty_nine()
        act(g, "play R6")
        assert pos(g)["sixty_nine_window"] == 0 and g.view(2).sixty_nine_window == 0
        assert legal(g, 2) == ["challenge 0"] and legal(g, 3) == ["challenge 0"]
        assert "challenge 0" in legal(g)
        assert legal(g, 0) == []
        assert g.revealed[0] == []

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.11")
    def test_nine_on_six_is_a_privilege_play_too(self) -> None:
        g = _sixty_nine(["69", "R9", "Y1"], top="G6")
        act(g, "play R9")
        assert pos(g)["sixty_nine_window"] == 0

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.11")
    def test_challenge_fails_challenger_draws_and_69_is_public(self) -> None:
        g = _sixty_nine()
        act(g, "play R6")
        act(g, "challenge 0", seat=2)
        assert hand(g, 2) == ["B2", "B3", "B4", "R1", "R2"]
        assert g.revealed[0] == [card("69")]
        assert g.view(1).seats[0].revealed == (card("69"),)
        assert g.view(3).seats[0].revealed == (card("69"),)
        assert pos(g)["sixty_nine_window"] is None and legal(g, 3) == []
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.12 sixty_nine_challenge_penalty")
    def test_challenge_penalty_option(self) -> None:
        g = _sixty_nine(options={"sixty_nine_challenge_penalty": 3})
        act(g, "play R6")
        act(g, "challenge 0", seat=3)
        assert hand(g, 3) == ["R1", "R2", "R3", "Y5", "Y6", "Y7"]

    @pytest.mark.rule("HD-3.11.1", "seed 000", "ruling", "hot-death.md §4.9 ruling 20")
    def test_luck_o_the_irish_reduces_the_challenge_penalty(self) -> None:
        hands = [["69", "R6", "Y1"], ["G3", "G4", "G5"], ["B2", "LOI", "B4"], ["Y5", "Y6", "Y7"]]
        g = _sixty_nine(hands=hands)
        act(g, "play R6")
        act(g, "challenge 0", seat=2)
        assert hand(g, 2) == ["B2", "B4", "LOI", "R1"]
        g = _sixty_nine(hands=hands, options={"irish_scope": "attack_draws_only"})
        act(g, "play R6")
        act(g, "challenge 0", seat=2)
        assert hand(g, 2) == ["B2", "B4", "LOI", "R1", "R2"]

    @pytest.mark.rule("HD-3.11.1", "seed 001", "ruling", "hot-death.md §3.11")
    def test_window_closes_with_the_next_card(self) -> None:
        g = _sixty_nine()
        act(g, "play R6", "draw")
        assert pos(g)["sixty_nine_window"] is None
        assert legal(g, 2) == [] and "challenge 0" not in legal(g)

    @pytest.mark.rule("HD-3.11.1", "seed 002", "hot-death.md §3.9")
    def test_ejected_players_cannot_challenge(self) -> None:
        g = _sixty_nine(active=[True, True, False, True])
        act(g, "play R6")
        assert legal(g, 2) == [] and legal(g, 3) == ["challenge 0"]

    @pytest.mark.rule("HD-3.11.1", "seed 000", "hot-death.md §3.12 sixty_nine_proof")
    def test_reveal_on_use(self) -> None:
        g = _sixty_nine(options={"sixty_nine_proof": "reveal_on_use"})
        act(g, "play R6")
        assert pos(g)["sixty_nine_window"] is None and legal(g, 2) == []
        assert g.revealed[0] == [card("69")]
        assert g.view(2).seats[0].revealed == (card("69"),)

    @pytest.mark.rule("HD-3.11.1", "seed 002", "app", "hot-death.md §3.12 sixty_nine_proof")
    def test_no_proof(self) -> None:
        g = _sixty_nine(options={"sixty_nine_proof": "none"})
        act(g, "play R6")
        assert pos(g)["sixty_nine_window"] is None and legal(g, 2) == []
        assert g.revealed[0] == [] and g.view(2).seats[0].revealed == ()

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.5 rule 8")
    def test_colour_legal_six_on_nine_is_not_a_privilege_play(self) -> None:
        g = _sixty_nine(["69", "B6", "Y1"])
        act(g, "play B6")
        assert pos(g)["sixty_nine_window"] is None and legal(g, 2) == []

    @pytest.mark.rule("HD-3.11.1", "seed 001", "hot-death.md §3.5 rule 7")
    def test_playing_the_69_itself_opens_no_window(self) -> None:
        g = _sixty_nine()
        act(g, "play 69")
        assert pos(g)["sixty_nine_window"] is None and legal(g, 2) == []


# ====================================================================== HD-3.11.2 public cards


class TestPublicInformation:
    @pytest.mark.rule("HD-3.11.2", "seed 000", "seed 001", "seed 002", "hot-death.md §3.11")
    def test_glasnost_reveals_the_hand_at_that_time(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["GLAS", "R3"], ["R4", "B1", "B2"], ["Y5", "G7"], ["Y1", "Y2"]],
            top="R9",
            draw=["G1", "G2", "G3"],
        )
        act(g, "play GLAS @2 uno")
        assert g.current_player() == 2 and legal(g) == ["accept"]
        act(g, "accept")
        assert sorted(g.view(1).seats[2].revealed) == sorted(faces(["Y5", "G7"]))
        assert g.current_player() == 1
        assert "pass" not in legal(g)
        ev = act(g, "draw")  # P1's drawn G1 cannot be played: the turn passes at once
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (1, "HD-3.4")
        assert g.current_player() == 2 and "G1" in hand(g, 1)
        act(g, "draw")  # P2's later draw stays hidden
        assert g.current_player() == 2 and legal(g) == ["play G2", "pass"]
        assert hand(g, 2) == ["G2", "G7", "Y5"]
        assert sorted(g.view(3).seats[2].revealed) == sorted(faces(["Y5", "G7"]))
        assert g.view(3).seats[2].hand_size == 3

    @pytest.mark.rule("HD-3.11.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.7")
    def test_blue_shield_public_when_it_protects(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["RSP", "R3"], ["B1", "B3"], ["SHIELD", "G7"], ["Y1", "Y2"]],
            top="R9",
            draw=["G1", "G2", "G3", "G4", "G5", "G6", "B5", "B6"],
        )
        assert g.view(1).seats[2].revealed == ()
        act(g, "play RSP")
        assert g.view(1).seats[2].revealed == (card("SHIELD"),)
        assert g.view(1).seats[3].revealed == () and g.view(2).seats[1].revealed == ()
        assert len(g.hands[0]) == 3 and g.current_player() == 2

    @pytest.mark.rule("HD-3.11.2", "seed 000", "app", "hot-death.md §2.3.17")
    def test_luck_o_the_irish_public_when_used(self) -> None:
        g = hd(
            players=4,
            turn=1,
            hands=[["R5", "G6"], ["LOI", "B4"], ["B3", "B6"], ["Y4", "Y6"]],
            top="WD4",
            color="red",
            attack={"kind": "draw", "count": 4, "victim": 1, "sender": 0},
            draw=["R1", "R2", "R3", "R4"],
        )
        assert g.view(0).seats[1].revealed == ()
        act(g, "accept")
        assert len(g.hands[1]) == 5
        assert g.view(0).seats[1].revealed == (card("LOI"),)

    @pytest.mark.rule("HD-3.11.2", "seed 000", "hot-death.md §3.4")
    def test_luck_o_the_irish_stays_hidden_on_a_turn_draw(self) -> None:
        g = hd(players=4, turn=1, hands=[["R5"], ["LOI", "B4"], ["B3"], ["Y4"]], top="R7",
               draw=["Y9", "R1"])
        act(g, "draw")
        assert hand(g, 1) == ["B4", "LOI", "Y9"]
        assert g.revealed[1] == [] and g.view(0).seats[1].revealed == ()

    @pytest.mark.rule("HD-3.11.2", "seed 002", "ruling", "hot-death.md §3.9")
    def test_ejection_turns_a_revealed_hand_face_down(self) -> None:
        g = hd(
            players=4,
            turn=0,
            hands=[["QUIT", "G3"], ["B4", "Y4"], ["B3", "B6"], ["Y5", "Y6"]],
            revealed=[[], ["B4", "Y4"], [], []],
            top="G9",
        )
        assert g.view(2).seats[1].revealed != ()
        act(g, "play QUIT", "accept")
        assert g.active[1] is False
        assert g.revealed[1] == [] and g.view(2).seats[1].revealed == ()

    @pytest.mark.rule("HD-3.11.2", "ruling", "hot-death.md §3.11")
    def test_views_hold_no_hidden_cards_of_other_seats(self) -> None:
        hands = [["HOT", "QUIT"], ["GLAS", "MAD"], ["DB", "HOLY"], ["MYS", "SHIELD"]]
        g = hd(players=4, turn=0, hands=hands, top="R7")
        for seat in range(4):
            view = g.view(seat)
            assert sorted(view.hand or ()) == sorted(faces(hands[seat]))
            assert all(s.revealed == () for s in view.seats)
            text = json.dumps(view.to_json())
            for other in range(4):
                for code in hands[other]:
                    assert (f'"{code}"' in text) == (other == seat)
        spectator = json.dumps(g.view(None).to_json())
        assert not any(f'"{c}"' in spectator for h in hands for c in h)


# ====================================================================== HD-3.13 presets


PRESET_OPTIONS: dict[str, dict[str, object]] = {
    "canonical": {},
    "source_000": {
        "first_player": "dealer", "draw_two_defensible": False, "mystery_defensible": False,
        "stack_after_deflection": True, "quitter_with_two_active": "player_wins",
        "mad_min_active_players": 2, "mad_points": 75, "plain_wild_points": 40,
        "sixty_nine_proof": "reveal_on_use", "combo_1000_scoring": "pair_worth_1000",
        "mystery_number_mode": "points_000", "blue_shield_floor_zero": False,
        "magic5_requires_hot_death_on_top": True,
    },
    "homepage_001": {
        "draw_rule": "draw_until_playable", "draw_two_defensible": False,
        "stack_draw_twos": True, "all_bastards_effect": "wins_game",
        "sixty_nine_proof": "challenge", "combo_1000_cards": "quitter_fuck_you",
    },
    "app_compat": {
        "up_card_rule": "ignore", "after_draw_play": "any_legal_card", "uno_rule": "off",
        "draw_two_defensible": False, "irish_scope": "attack_draws_only",
        "virus_odd_split": "both_round_up", "magic5_requires_hot_death_on_top": True,
        "glasnost_response": "next_player_only", "sixty_nine_proof": "none",
        "combo_1000_scoring": "app", "mystery_number_mode": "app",
        "blue_shield_floor_zero": True, "spreader_value": "fixed_60",
        "tie_break": "seat_order",
    },
}  # fmt: skip


class TestPresets:
    @pytest.mark.rule("HD-3.13", "seed 000", "seed 001", "app", "hot-death.md §3.13")
    @pytest.mark.parametrize("preset", sorted(PRESET_OPTIONS))
    def test_preset_sets_exactly_the_listed_options(self, preset: str) -> None:
        expected = as_dict(HotDeathOptions())
        expected.update(PRESET_OPTIONS[preset])  # type: ignore[arg-type]
        assert as_dict(opts(preset)) == expected

    @pytest.mark.rule("HD-3.13", "ruling", "hot-death.md §3.13")
    def test_canonical_is_the_default_preset(self) -> None:
        assert HD.default_preset == "canonical"
        assert as_dict(HD.resolve_options()) == as_dict(HotDeathOptions())

    @pytest.mark.rule("HD-3.13", "ruling", "hot-death.md §3.13")
    def test_overrides_apply_on_top_of_a_preset(self) -> None:
        o = opts("app_compat", options={"uno_rule": "catch"})
        assert o.uno_rule == "catch" and o.spreader_value == "fixed_60"

    @pytest.mark.rule("HD-3.13", "app", "ruling", "hot-death.md §3.1, §3.13, §7 item 14")
    @pytest.mark.parametrize("players", [2, 3, 5, 10])
    def test_app_compat_describes_the_apps_four_seats_without_enforcing_them(
        self, players: int
    ) -> None:
        # §3.13's "4 players" is the app's table, not an option: presets set options only
        # and the engine seats 2 to 10 (§3.1), so the preset plays at any size
        g = hotdeath.new_game("hotdeath", players=players, seed=3, preset="app_compat")
        assert g.n == players and g.opts == opts("app_compat")
        act(g, "deal 7")
        assert [len(h) for h in g.hands] == [7] * players
        assert value(["GSP"], dealt=players, preset="app_compat") == 60  # the app's fixed 60
        assert "players" not in HD.presets["app_compat"]

    @pytest.mark.rule("HD-3.13", "app", "hot-death.md §3.13")
    def test_app_compat_in_play_has_no_uno_call(self) -> None:
        g = _uno(preset="app_compat")
        assert legal(g) == ["play R1", "play R2", "draw"]
        g = _uno(preset="homepage_001")
        assert "play R1 uno" in legal(g)
