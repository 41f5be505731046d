"""Hot Death scenario tests: deck, legality, every card's on-play effect, turn order.

Covers rules HD-1.2, HD-1.3, HD-2.3.1 to HD-2.3.24 (the parts that happen when a card is
played in a normal turn), HD-3.4, HD-3.5, HD-3.9, HD-3.10, HD-4.4 and HD-4.5.T1.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import pytest

import hotdeath
from hotdeath.cards import (
    BLUE,
    FACE_COLOR,
    FACE_KIND,
    KIND_IDS,
    NUMBER,
    card_code,
    hotdeath_deck,
    hotdeath_double_deck,
    parse_card,
)
from hotdeath.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    PositionError,
    WrongSeatError,
)
from hotdeath.state import GameState
from tests.support import act, hand, kinds, legal, pos, position

# --------------------------------------------------------------------------- helpers


def hd(**fields: Any) -> GameState:
    """A Hot Death position (4 players, P0 to play unless told otherwise)."""
    fields.setdefault("variant", "hotdeath")
    return position(**fields)


def plays(g: GameState, seat: int | None = None) -> list[str]:
    """The legal plays only (no draw/pass/accept, no Uno-calling variants)."""
    return [a for a in legal(g, seat) if a.startswith("play") and not a.endswith(" uno")]


def can_play(g: GameState, code: str) -> bool:
    """Whether any legal action plays the card ``code``."""
    return any(a.split()[:2] == ["play", code] for a in legal(g))


def kind_counts(deck: list[int]) -> Counter[str]:
    return Counter(KIND_IDS[FACE_KIND[f]] for f in deck)


def codes(deck: list[int]) -> Counter[str]:
    return Counter(card_code(f) for f in deck)


def all_cards(g: GameState) -> Counter[str]:
    cards = [c for h in g.hands for c in h] + g.draw_pile + g.discard
    return codes(cards)


SPECIAL_NUMBER_KINDS = (
    "holy_defender", "retaliation", "quitter", "big_brother", "glasnost", "magic_red_5",
    "virus", "luck_o_the_irish", "blue_shield", "mad", "sixty_nine",
)
SPECIAL_WILDS = ("hot_death", "delayed_blast", "harvester", "mystery_draw")
ACTION_KINDS = ("skip", "double_skip", "reverse", "reverse_skip", "draw_two", "spreader")


# =========================================================================== HD-1.2 / HD-1.3


class TestDeck:
    @pytest.mark.rule("HD-1.2", "app", "hot-death.md §1.2")
    def test_single_deck_counts_per_kind(self) -> None:
        deck = hotdeath_deck()
        c = kind_counts(deck)
        assert len(deck) == 108
        assert c["number"] == 65
        for k in ACTION_KINDS:
            assert c[k] == 4, k
        assert c["wild_draw_four"] == 4
        assert c["wild"] == 0
        for k in (*SPECIAL_NUMBER_KINDS, *SPECIAL_WILDS):
            assert c[k] == 1, k

    @pytest.mark.rule("HD-1.2", "app", "hot-death.md §1.2")
    def test_single_deck_has_no_plain_zero_and_numbers_per_colour(self) -> None:
        deck = hotdeath_deck()
        plain = [f for f in deck if FACE_KIND[f] == NUMBER]
        assert not [f for f in plain if card_code(f).endswith("0")]
        per_colour = Counter(card_code(f)[0] for f in plain)
        assert per_colour == {"R": 16, "G": 16, "B": 17, "Y": 16}

    @pytest.mark.rule("HD-1.2", "app", "hot-death.md §1.2")
    def test_single_deck_replaced_slots(self) -> None:
        c = codes(hotdeath_deck())
        for replaced in ("Y1", "R2", "B2", "G3", "G4", "R5", "Y6"):
            assert c[replaced] == 1, replaced
        for kept in ("R1", "G2", "Y2", "B3", "R4", "B5", "R6", "G9"):
            assert c[kept] == 2, kept
        for colour in "RYGB":
            for suffix in ("S", "SS", "R", "RS", "+2", "SP"):
                assert c[colour + suffix] == 1, colour + suffix

    @pytest.mark.rule("HD-1.3", "app", "hot-death.md §1.3")
    def test_double_deck_counts_per_kind(self) -> None:
        deck = hotdeath_double_deck()
        c = kind_counts(deck)
        assert len(deck) == 216
        assert c["number"] == 141  # 4 plain 0s + 137 plain 1-9
        zeros = codes(deck)
        assert sum(zeros[x + "0"] for x in "RYGB") == 4
        for k in ACTION_KINDS:
            assert c[k] == 8, k
        assert c["wild"] == 4
        assert c["wild_draw_four"] == 8
        for k in (*SPECIAL_NUMBER_KINDS, *SPECIAL_WILDS):
            assert c[k] == 1, k

    @pytest.mark.rule("HD-1.3", "app", "hot-death.md §1.3, §3.12 deck")
    def test_new_game_double_deck_holds_216_cards(self) -> None:
        g = hotdeath.new_game("hotdeath", players=4, seed=5, options={"deck": "double_216"})
        act(g, "deal 7")
        assert all(len(h) == 7 for h in g.hands)
        assert all_cards(g) == codes(hotdeath_double_deck())
        single = hotdeath.new_game("hotdeath", players=4, seed=5)
        act(single, "deal 7")
        assert all_cards(single) == codes(hotdeath_deck())
        assert sum(all_cards(single).values()) == 108

    @pytest.mark.rule("HD-1.3", "app", "hot-death.md §1.3, §3.1")
    def test_deck_option_changes_the_largest_deal_for_ten_players(self) -> None:
        single = hotdeath.new_game("hotdeath", players=10, seed=1, dealer=0)
        double = hotdeath.new_game(
            "hotdeath", players=10, seed=1, dealer=0, options={"deck": "double_216"}
        )
        assert legal(single)[-1] == "deal 10"  # 10 x 11 + 1 > 108
        assert legal(double)[-1] == "deal 15"

    @pytest.mark.rule("HD-1.3", "app", "hot-death.md §1.2, §1.3")
    def test_plain_wild_exists_only_in_the_double_deck(self) -> None:
        fields: dict[str, Any] = {
            "hands": [["W", "R1"], ["B2"], ["G1"], ["Y1"]], "top": "R7",
        }
        with pytest.raises(PositionError):
            hd(**fields)
        g = hd(options={"deck": "double_216"}, **fields)
        assert "play W green" in legal(g)

    @pytest.mark.rule("HD-1.2", "app", "hot-death.md §1.2")
    def test_a_special_card_exists_once(self) -> None:
        with pytest.raises(PositionError) as e:
            hd(hands=[["HOLY"], ["B2"], ["G1"], ["Y1"]], top="HOLY")
        assert e.value.code == "too_many_cards"
        with pytest.raises(PositionError):
            hd(options={"deck": "double_216"}, hands=[["HOLY"], ["B2"], ["G1"], ["Y1"]],
               top="HOLY")


# =========================================================================== HD-3.5 legality


class TestLegality:
    @pytest.mark.rule("HD-3.5", "seed 002", "app", "hot-death.md §3.5 rules 3-5")
    def test_colour_number_and_wild_any_time(self) -> None:
        g = hd(hands=[["R1", "B7", "G5", "WD4", "HOT"], ["B2"], ["G1"], ["Y1"]], top="R7")
        assert plays(g) == [
            "play R1", "play B7",
            "play WD4 red", "play WD4 yellow", "play WD4 green", "play WD4 blue",
            "play HOT red", "play HOT yellow", "play HOT green", "play HOT blue",
        ]

    @pytest.mark.rule("HD-3.5", "app", "ruling", "hot-death.md §3.5 rule 5")
    def test_special_number_cards_match_by_printed_number(self) -> None:
        g = hd(hands=[["GLAS", "VIR", "LOI", "MAD"], ["B1"], ["G1"], ["Y3"]], top="B2")
        assert plays(g) == [
            "play GLAS @1", "play GLAS @2", "play GLAS @3",
        ]
        g = hd(hands=[["GLAS", "VIR", "LOI", "MAD"], ["B1"], ["G1"], ["Y4"]], top="Y3")
        assert can_play(g, "VIR") and can_play(g, "MAD")
        assert not can_play(g, "LOI") and not can_play(g, "GLAS")

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 5")
    def test_bastard_zeros_match_each_other_by_number(self) -> None:
        g = hd(hands=[["HOLY", "QUIT", "G5"], ["B1"], ["G1"], ["Y3"]], top="RET")
        assert can_play(g, "HOLY") and can_play(g, "QUIT")
        assert not can_play(g, "G5")

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 6")
    def test_draw_two_and_spreader_are_one_family(self) -> None:
        g = hd(hands=[["BSP", "G5"], ["B1"], ["G1"], ["Y3"]], top="R+2")
        assert plays(g) == ["play BSP"]
        g = hd(hands=[["B+2", "G5"], ["B1"], ["G1"], ["Y3"]], top="RSP")
        assert plays(g) == ["play B+2"]

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 6")
    def test_skip_and_double_skip_are_one_family(self) -> None:
        g = hd(hands=[["BSS", "G5"], ["B1"], ["G1"], ["Y3"]], top="RS")
        assert plays(g) == ["play BSS"]
        g = hd(hands=[["BS", "G5"], ["B1"], ["G1"], ["Y3"]], top="RSS")
        assert plays(g) == ["play BS"]

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 6")
    def test_reverse_and_reverse_skip_are_one_family(self) -> None:
        g = hd(hands=[["BRS", "G5"], ["B1"], ["G1"], ["Y3"]], top="RR")
        assert plays(g) == ["play BRS"]
        g = hd(hands=[["BR", "G5"], ["B1"], ["G1"], ["Y3"]], top="RRS")
        assert plays(g) == ["play BR"]

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 6 (app 1.0.3)")
    def test_skip_and_reverse_skip_do_not_match(self) -> None:
        g = hd(hands=[["BRS", "GR", "G5"], ["B1"], ["G1"], ["Y3"]], top="RS")
        assert plays(g) == []
        g = hd(hands=[["BS", "GSS", "G5"], ["B1"], ["G1"], ["Y3"]], top="RRS")
        assert plays(g) == []

    @pytest.mark.rule("HD-3.5", "app", "hot-death.md §3.5 rule 5")
    def test_same_action_of_another_colour(self) -> None:
        g = hd(hands=[["GS", "GRS", "G+2"], ["B1"], ["G1"], ["Y3"]], top="BS")
        assert plays(g) == ["play GS"]

    @pytest.mark.rule("HD-2.3.18", "seed 001", "seed 002", "hot-death.md §2.3.18, §3.5 rule 2")
    def test_magic_red_5_on_any_card(self) -> None:
        for top, color in (("B+2", None), ("YSP", None), ("G7", None), ("HOT", "green"),
                           ("SHIELD", None), ("69", None)):
            fields: dict[str, Any] = {"hands": [["M5", "B1"], ["B3"], ["G1"], ["Y3"]], "top": top}
            if color:
                fields["color"] = color
            g = hd(**fields)
            assert can_play(g, "M5"), top

    @pytest.mark.rule("HD-3.5", "seed 002", "hot-death.md §3.5 (after a wild)")
    def test_only_the_named_colour_follows_a_wild(self) -> None:
        g = hd(hands=[["R8", "G2", "M5", "Y8", "DB"], ["B3"], ["G1"], ["Y3"]],
               discard=["R8", "WD4"], color="green")
        assert plays(g) == [
            "play G2", "play DB red", "play DB yellow", "play DB green", "play DB blue",
            "play M5",
        ]

    @pytest.mark.rule("HD-3.5", "seed 002", "hot-death.md §3.5 (after a wild)")
    def test_number_does_not_follow_a_wild_played_on_it(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["G8", "Y3", "B5", "BS"], ["G2"], ["Y1"]], top="GS")
        act(g, "play MYS yellow")
        assert g.current_player() == 1
        assert plays(g) == ["play Y3"]

    @pytest.mark.rule("HD-2.3.20", "seed 001", "seed 002", "app", "hot-death.md §2.3.20")
    def test_sixty_nine_plays_on_any_6_9_or_yellow(self) -> None:
        for top in ("R6", "B9", "G6", "Y2"):
            g = hd(hands=[["69", "B1"], ["B3"], ["G1"], ["Y3"]], top=top)
            assert can_play(g, "69"), top
        g = hd(hands=[["69", "B1"], ["B3"], ["G1"], ["Y3"]], top="R5")
        assert not can_play(g, "69")

    @pytest.mark.rule("HD-2.3.20", "app", "ruling", "hot-death.md §2.3.20, §4.9 ruling 11")
    def test_any_6_or_9_plays_on_the_69(self) -> None:
        g = hd(hands=[["B6", "G9", "R5", "Y5"], ["B3"], ["G1"], ["Y3"]], top="69")
        assert plays(g) == ["play Y5", "play G9", "play B6"]

    @pytest.mark.rule("HD-3.5", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §3.5 rule 8")
    def test_holder_of_69_may_play_6_on_9_and_9_on_6(self) -> None:
        g = hd(hands=[["B6", "69", "G1"], ["B3"], ["G2"], ["Y3"]], top="R9")
        assert can_play(g, "B6")
        g = hd(hands=[["B9", "69", "G1"], ["B3"], ["G2"], ["Y3"]], top="R6")
        assert can_play(g, "B9")

    @pytest.mark.rule("HD-3.5", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §3.5 rule 8")
    def test_without_the_69_no_6_on_9(self) -> None:
        g = hd(hands=[["B6", "G1"], ["69", "B3"], ["G2"], ["Y3"]], top="R9")
        assert plays(g) == []
        g = hd(hands=[["B9", "G1"], ["69", "B3"], ["G2"], ["Y3"]], top="R6")
        assert plays(g) == []

    @pytest.mark.rule("HD-3.5", "seed 000", "app", "hot-death.md §3.5 rule 8")
    def test_privilege_play_passes_the_turn_normally(self) -> None:
        g = hd(hands=[["B6", "69", "G1"], ["B3"], ["G2"], ["Y3"]], top="R9")
        act(g, "play B6")
        assert g.top == parse_card("B6")
        assert g.color == BLUE
        assert g.current_player() == 1
        assert pos(g)["sixty_nine_window"] == 0

    @pytest.mark.rule("HD-2.3.20", "app", "ruling", "hot-death.md §3.5 rule 5/7")
    def test_6_or_9_on_the_69_is_not_a_privilege_play(self) -> None:
        g = hd(hands=[["B6", "G1", "R1"], ["B3"], ["G2"], ["Y3"]], top="69")
        act(g, "play B6")
        assert pos(g)["sixty_nine_window"] is None
        g = hd(hands=[["69", "G1", "R1"], ["B3"], ["G2"], ["Y3"]], top="R9")
        act(g, "play 69")
        assert pos(g)["sixty_nine_window"] is None

    @pytest.mark.rule("HD-2.3.24", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.24, §3.5 rule 1")
    def test_big_brother_on_holy_defender_and_magic_5(self) -> None:
        for top in ("HOLY", "M5"):
            g = hd(hands=[["BB", "G2", "B3"], ["B4"], ["G1"], ["Y3"]], top=top)
            assert can_play(g, "BB"), top

    @pytest.mark.rule("HD-2.3.24", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.24, §3.5 rule 1")
    def test_big_brother_never_by_colour_or_number(self) -> None:
        for top in ("Y7", "RET", "QUIT", "YS"):
            g = hd(hands=[["BB", "G2", "B3"], ["B4"], ["G1"], ["Y3"]], top=top)
            assert not can_play(g, "BB"), top

    @pytest.mark.rule("HD-2.3.24", "app", "ruling", "hot-death.md §2.3.24, §3.12")
    def test_big_brother_as_last_card_default_needs_no_match(self) -> None:
        g = hd(hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="R7")
        assert legal(g) == ["play BB", "draw"]
        g = hd(hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="HOT", color="blue")
        assert legal(g) == ["play BB", "draw"]

    @pytest.mark.rule("HD-2.3.24", "app", "ruling", "hot-death.md §2.3.24, §3.12")
    def test_big_brother_last_card_needs_match_option(self) -> None:
        opts = {"shitter_last_card_needs_match": True}
        g = hd(options=opts, hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="R7")
        assert legal(g) == ["draw"]
        g = hd(options=opts, hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="Y7")
        assert legal(g) == ["play BB", "draw"]
        g = hd(options=opts, hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="HOT", color="yellow")
        assert legal(g) == ["play BB", "draw"]

    @pytest.mark.rule("HD-3.5", "HD-2.3.24", "seed 000", "app", "ruling",
                      "hot-death.md §3.5, §3.12 shitter_last_card_needs_match")
    def test_big_brother_as_last_card_matches_a_zero_of_any_colour(self) -> None:
        # the Big Brother is a yellow 0: needing a match as the last card, it goes on a 0 of
        # another colour by its number (the other 0s are the green Quitter and the blue
        # Retaliation), and still not on a card of another colour and number
        opts = {"shitter_last_card_needs_match": True}
        for top, ok in (("QUIT", True), ("RET", True), ("G7", False), ("B3", False)):
            g = hd(options=opts, hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top=top)
            assert ("play BB" in legal(g)) is ok, top
        g = hd(options=opts, hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="QUIT")
        ev = act(g, "play BB")
        assert g.hand_winner == 0 and "hand_end" in kinds(ev)  # type: ignore[attr-defined]

    @pytest.mark.rule("HD-2.3.24", "app", "hot-death.md §2.3.24")
    def test_big_brother_as_last_card_wins_the_hand(self) -> None:
        g = hd(hands=[["BB"], ["B4"], ["G1"], ["Y3"]], top="R7")
        act(g, "play BB")
        assert g.hand_winner == 0  # type: ignore[attr-defined]
        assert hand(g, 0) == []

    @pytest.mark.rule("HD-3.5", "seed 000", "hot-death.md §3.5")
    def test_card_not_in_hand_is_not_legal(self) -> None:
        g = hd(hands=[["R1", "B2"], ["R3"], ["G1"], ["Y1"]], top="R7")
        assert plays(g) == ["play R1"]
        with pytest.raises(IllegalActionError):
            act(g, "play R3")

    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.13 (never as a response)")
    def test_mystery_draw_cannot_answer_an_attack(self) -> None:
        g = hd(hands=[["WD4", "R1"], ["MYS", "HOT", "B2"], ["G1"], ["Y1"]], top="R7")
        act(g, "play WD4 red")
        assert g.current_player() == 1
        assert not any(a.startswith("play MYS") for a in legal(g))
        assert "play HOT red" in legal(g)


# =========================================================================== on-play effects


class TestSkips:
    @pytest.mark.rule("HD-2.3.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.2")
    def test_skip_four_players(self) -> None:
        g = hd(hands=[["RS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        ev = act(g, "play RS")
        assert g.current_player() == 2
        assert [(e.kind, e.seat) for e in ev if e.kind == "skip"] == [("skip", 1)]

    @pytest.mark.rule("HD-2.3.2", "app", "hot-death.md §2.3.2, §3.10")
    def test_skip_two_active_plays_again(self) -> None:
        g = hd(players=2, hands=[["RS", "G1"], ["R3"]], top="R7")
        act(g, "play RS")
        assert g.current_player() == 0
        assert not g.drew

    @pytest.mark.rule("HD-2.3.2", "seed 000", "app", "hot-death.md §2.3.2, §0.2 next()")
    def test_skip_counter_clockwise(self) -> None:
        g = hd(hands=[["RS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7", direction="ccw")
        act(g, "play RS")
        assert g.current_player() == 2  # P3 skipped

    @pytest.mark.rule("HD-2.3.3", "seed 001", "seed 002", "app", "hot-death.md §2.3.3")
    def test_double_skip_four_active(self) -> None:
        g = hd(hands=[["RSS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        ev = act(g, "play RSS")
        assert g.current_player() == 3
        assert [e.seat for e in ev if e.kind == "skip"] == [1, 2]

    @pytest.mark.rule("HD-2.3.3", "app", "hot-death.md §2.3.3")
    def test_double_skip_three_active_returns_to_player(self) -> None:
        g = hd(players=3, hands=[["RSS", "G1"], ["R3"], ["G2"]], top="R7")
        act(g, "play RSS")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.3", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.3, §3.10")
    def test_double_skip_two_active_plays_again(self) -> None:
        g = hd(players=2, hands=[["RSS", "G1"], ["R3"]], top="R7")
        act(g, "play RSS")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.3", "app", "hot-death.md §2.3.3, §3.9")
    def test_double_skip_passes_over_ejected_seats(self) -> None:
        g = hd(players=5, hands=[["RSS", "G1"], ["R3"], ["G2"], ["Y1"], ["B4"]], top="R7",
               active=[True, True, False, True, True])
        act(g, "play RSS")
        assert g.current_player() == 4  # P1 and P3 skipped, P2 ejected


class TestReverses:
    @pytest.mark.rule("HD-2.3.4", "seed 000", "app", "hot-death.md §2.3.4")
    def test_reverse_four_active(self) -> None:
        g = hd(hands=[["RR", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play RR")
        assert g.direction == -1
        assert g.current_player() == 3

    @pytest.mark.rule("HD-2.3.4", "app", "hot-death.md §2.3.4")
    def test_reverse_three_active(self) -> None:
        g = hd(players=3, hands=[["RR", "G1"], ["R3"], ["G2"]], top="R7")
        act(g, "play RR")
        assert g.direction == -1
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.4", "seed 000", "app", "hot-death.md §2.3.4, §3.10")
    def test_reverse_two_active_acts_as_skip(self) -> None:
        g = hd(players=2, hands=[["RR", "G1"], ["R3"]], top="R7")
        act(g, "play RR")
        assert g.current_player() == 0
        assert g.direction == -1
        assert pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-2.3.4", "seed 000", "seed 002", "hot-death.md §3.10 (after ejections)")
    def test_reverse_two_active_of_four_seats(self) -> None:
        g = hd(hands=[["RR", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, False, True, False])
        act(g, "play RR")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.5", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.5 (4 players)")
    def test_reverse_skip_four_active(self) -> None:
        g = hd(hands=[["RRS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        ev = act(g, "play RRS")
        assert g.direction == -1
        assert [e.seat for e in ev if e.kind == "skip"] == [3]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.5", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.5 (3 players)")
    def test_reverse_skip_three_active(self) -> None:
        g = hd(players=3, hands=[["RRS", "G1"], ["R3"], ["G2"]], top="R7")
        act(g, "play RRS")
        assert g.direction == -1
        assert g.current_player() == 1

    @pytest.mark.rule("HD-2.3.5", "seed 002", "hot-death.md §2.3.5, §3.9")
    def test_reverse_skip_three_active_of_four_seats(self) -> None:
        g = hd(hands=[["RRS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, True, False, True])
        act(g, "play RRS")
        assert g.current_player() == 1  # P3 skipped, ejected P2 passed over

    @pytest.mark.rule("HD-2.3.5", "seed 001", "seed 002", "app", "hot-death.md §2.3.5 (2)")
    def test_reverse_skip_two_active_plays_again(self) -> None:
        g = hd(players=2, hands=[["RRS", "G1"], ["R3"]], top="R7")
        act(g, "play RRS")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.5", "seed 000", "app", "hot-death.md §2.3.5")
    def test_reverse_skip_from_counter_clockwise(self) -> None:
        g = hd(hands=[["RRS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7", direction="ccw")
        act(g, "play RRS")
        assert g.direction == 1
        assert g.current_player() == 2  # P1 skipped


class TestSpreader:
    DRAW: ClassVar[list[str]] = ["B1", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]

    @pytest.mark.rule("HD-2.3.7", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.7, §4.4")
    def test_every_other_active_player_draws_two(self) -> None:
        g = hd(hands=[["RSP", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7", draw=self.DRAW)
        act(g, "play RSP")
        assert hand(g, 1) == ["B1", "B3", "R3"]
        assert hand(g, 2) == ["B4", "B5", "G2"]
        assert hand(g, 3) == ["B6", "B7", "Y1"]
        assert hand(g, 0) == ["G1"]

    @pytest.mark.rule("HD-2.3.7", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.7, §4.4")
    def test_spreader_player_takes_a_fresh_turn(self) -> None:
        g = hd(hands=[["RSP", "G1", "R4", "B5"], ["R3"], ["G2"], ["Y1"]], top="R7",
               draw=self.DRAW)
        act(g, "play RSP")
        assert g.current_player() == 0
        assert pos(g)["phase"] == "turn"
        assert legal(g) == ["play R4", "draw"]

    @pytest.mark.rule("HD-2.3.7", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.7, §2.3.19")
    def test_blue_shield_holder_makes_spreader_player_draw(self) -> None:
        g = hd(hands=[["RSP", "G1"], ["R3"], ["SHIELD", "G2"], ["Y1"]], top="R7",
               draw=self.DRAW)
        act(g, "play RSP")
        assert hand(g, 1) == ["B1", "B3", "R3"]
        assert hand(g, 0) == ["B4", "B5", "G1"]
        assert hand(g, 3) == ["B6", "B7", "Y1"]
        assert hand(g, 2) == ["G2", "SHIELD"]

    @pytest.mark.rule("HD-4.4", "seed 000", "seed 002", "hot-death.md §4.4 (a fresh turn)")
    def test_drawn_spreader_gives_a_fresh_turn_with_a_draw(self) -> None:
        g = hd(hands=[["G1", "B9", "Y5"], ["R3"], ["G2"], ["Y1"]], top="R7",
               draw=["RSP", *self.DRAW])
        act(g, "draw")
        assert legal(g) == ["play RSP", "pass"]
        act(g, "play RSP")
        assert g.current_player() == 0
        assert pos(g)["drew"] is False
        assert legal(g) == ["draw"]
        act(g, "draw")
        assert hand(g, 0) == ["B8", "B9", "G1", "Y5"]

    @pytest.mark.rule("HD-2.3.19", "seed 000", "seed 002", "app", "hot-death.md §2.3.7, §3.11")
    def test_blue_shield_becomes_public_and_holder_plays_next(self) -> None:
        g = hd(hands=[["RSP", "G1"], ["R3"], ["SHIELD", "G2"], ["Y1"]], top="R7",
               draw=self.DRAW)
        ev = act(g, "play RSP")
        assert g.current_player() == 2
        assert pos(g)["revealed"][2] == ["SHIELD"]
        assert "shield" in kinds(ev)

    @pytest.mark.rule("HD-2.3.7", "ruling", "hot-death.md §2.3.7, §4.5 T-5")
    def test_spreader_as_last_card_with_blue_shield_does_not_go_out(self) -> None:
        g = hd(hands=[["RSP"], ["R3"], ["SHIELD", "G2"], ["Y1"]], top="R7", draw=self.DRAW)
        act(g, "play RSP")
        assert pos(g)["hand_winner"] is None
        assert hand(g, 0) == ["B4", "B5"]
        assert g.current_player() == 2
        assert pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-2.3.7", "seed 002", "hot-death.md §2.3.7, §3.7 check 4")
    def test_spreader_as_last_card_wins_after_the_draws(self) -> None:
        g = hd(hands=[["RSP"], ["R3"], ["G2"], ["Y1"]], top="R7", draw=self.DRAW)
        act(g, "play RSP")
        assert pos(g)["hand_winner"] == 0
        assert g.last_hand is not None
        assert [row.points for row in g.last_hand.seats] == [0, 7, 11, 14]

    @pytest.mark.rule("HD-3.9", "app", "hot-death.md §2.3.7, §3.9")
    def test_ejected_players_draw_nothing_from_a_spreader(self) -> None:
        g = hd(hands=[["RSP", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7", draw=self.DRAW,
               active=[True, False, True, True])
        act(g, "play RSP")
        assert hand(g, 1) == ["R3"]
        assert hand(g, 2) == ["B1", "B3", "G2"]
        assert hand(g, 3) == ["B4", "B5", "Y1"]
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.7", "seed 000", "app", "hot-death.md §2.3.7, §3.10")
    def test_spreader_with_two_active(self) -> None:
        g = hd(players=2, hands=[["RSP", "G1"], ["R3"]], top="R7", draw=self.DRAW)
        act(g, "play RSP")
        assert hand(g, 1) == ["B1", "B3", "R3"]
        assert g.current_player() == 0

    @pytest.mark.rule("HD-2.3.7", "seed 000", "app", "hot-death.md §2.3.7 (two players)")
    def test_blue_shield_works_with_two_active(self) -> None:
        g = hd(players=2, hands=[["RSP", "G1"], ["SHIELD", "R3"]], top="R7", draw=self.DRAW)
        act(g, "play RSP")
        assert hand(g, 0) == ["B1", "B3", "G1"]
        assert hand(g, 1) == ["R3", "SHIELD"]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-2.3.7", "seed 002", "hot-death.md §2.3.7 (no other defence)")
    def test_spreader_is_not_answerable_by_defenders(self) -> None:
        g = hd(hands=[["RSP", "G1"], ["RET", "HOLY", "VIR"], ["G2"], ["Y1"]], top="R7",
               draw=self.DRAW)
        act(g, "play RSP")
        assert hand(g, 1) == ["B1", "B3", "HOLY", "RET", "VIR"]
        assert "pending" not in pos(g)
        assert g.current_player() == 0


class TestAttackCards:
    @pytest.mark.rule("HD-2.3.6", "seed 000", "seed 002", "app", "hot-death.md §2.3.6, §4.2")
    def test_draw_two_attacks_the_next_player(self) -> None:
        g = hd(hands=[["R+2", "G1", "B9"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play R+2")
        a = pos(g)["pending"]
        assert (a["type"], a["family"], a["count"], a["victim"]) == ("draw", "draw_two", 2, 1)
        assert g.current_player() == 1
        assert legal(g) == ["accept"]

    @pytest.mark.rule("HD-2.3.9", "seed 002", "app", "hot-death.md §2.3.9, §4.2")
    def test_wild_draw_four_sets_colour_and_attacks(self) -> None:
        g = hd(hands=[["WD4", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play WD4 blue")
        a = pos(g)["pending"]
        assert (a["type"], a["family"], a["count"], a["victim"]) == ("draw", "wild_draw", 4, 1)
        assert pos(g)["color"] == "blue"

    @pytest.mark.rule("HD-2.3.10", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.10")
    def test_hot_death_draws_eight(self) -> None:
        g = hd(hands=[["HOT", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play HOT green")
        a = pos(g)["pending"]
        assert (a["count"], a["victim"], a["last_card"]) == (8, 1, "HOT")

    @pytest.mark.rule("HD-2.3.12", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.12")
    def test_harvester_locks_a_four_card_attack(self) -> None:
        g = hd(hands=[["HOS", "G1"], ["R3", "RET", "HOLY"], ["G2"], ["Y1"]], top="R7",
               draw=["B1", "B3", "B4", "B5"])
        act(g, "play HOS red")
        # nothing answers a Harvester: the victim draws at once and loses his turn
        assert hand(g, 1) == ["B1", "B3", "B4", "B5", "HOLY", "R3", "RET"]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.11", "seed 002", "app", "hot-death.md §2.3.11, §4.2")
    def test_delayed_blast_skips_then_attacks_with_three_or_more(self) -> None:
        g = hd(hands=[["DB", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        ev = act(g, "play DB yellow")
        assert [e.seat for e in ev if e.kind == "skip"] == [1]
        a = pos(g)["pending"]
        assert (a["count"], a["victim"]) == (4, 2)
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.11", "seed 000", "seed 002", "app", "hot-death.md §2.3.11, §3.10")
    def test_delayed_blast_no_skip_with_two_active(self) -> None:
        g = hd(players=2, hands=[["DB", "G1"], ["R3"]], top="R7")
        ev = act(g, "play DB yellow")
        assert "skip" not in kinds(ev)
        assert pos(g)["pending"]["victim"] == 1

    @pytest.mark.rule("HD-2.3.11", "seed 002", "app", "hot-death.md §3.12 "
                      "delayed_blast_min_active_for_skip")
    def test_delayed_blast_min_active_option(self) -> None:
        fields: dict[str, Any] = {
            "players": 3, "hands": [["DB", "G1"], ["R3"], ["G2"]], "top": "R7",
        }
        default = hd(**fields)
        act(default, "play DB red")
        assert pos(default)["pending"]["victim"] == 2
        strict = hd(options={"delayed_blast_min_active_for_skip": 4}, **fields)
        act(strict, "play DB red")
        assert pos(strict)["pending"]["victim"] == 1

    @pytest.mark.rule("HD-2.3.11", "seed 002", "hot-death.md §3.12 "
                      "delayed_blast_min_active_for_skip")
    def test_delayed_blast_min_active_option_counts_active_not_seats(self) -> None:
        g = hd(hands=[["DB", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, True, False, True])
        act(g, "play DB red")
        assert pos(g)["pending"]["victim"] == 3  # P1 skipped, ejected P2 passed over
        g = hd(hands=[["DB", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, True, False, True],
               options={"delayed_blast_min_active_for_skip": 4})
        act(g, "play DB red")
        assert pos(g)["pending"]["victim"] == 1


class TestMystery:
    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.13")
    def test_mystery_on_a_number_draws_that_many(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play MYS green")
        a = pos(g)["pending"]
        assert (a["type"], a["family"], a["count"], a["victim"]) == ("draw", "mystery", 7, 1)
        assert pos(g)["color"] == "green"

    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.13 (on the 69)")
    def test_mystery_on_the_69_draws_69(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top="69")
        act(g, "play MYS red")
        assert pos(g)["pending"]["count"] == 69

    @pytest.mark.rule("HD-2.3.13", "app", "hot-death.md §2.3.13 (special numbers)")
    def test_mystery_on_special_number_cards_uses_printed_number(self) -> None:
        for top, n in (("M5", 5), ("GLAS", 2), ("SHIELD", 2), ("MAD", 1), ("LOI", 4)):
            g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top=top)
            act(g, "play MYS red")
            assert pos(g)["pending"]["count"] == n, top

    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 002", "app", "hot-death.md §2.3.13 (0)")
    def test_mystery_on_a_zero_is_a_plain_wild(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top="HOLY")
        act(g, "play MYS blue")
        assert "pending" not in pos(g)
        assert g.current_player() == 1
        assert pos(g)["color"] == "blue"

    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 002", "app",
                      "hot-death.md §2.3.13 (non-number)")
    def test_mystery_on_an_action_card_does_not_skip(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top="RS")
        act(g, "play MYS yellow")
        assert "pending" not in pos(g)
        assert g.current_player() == 1
        assert hand(g, 1) == ["R3"]

    @pytest.mark.rule("HD-2.3.13", "seed 000", "seed 002", "hot-death.md §2.3.13 (on a wild)")
    def test_mystery_on_a_wild_draws_nothing(self) -> None:
        g = hd(hands=[["MYS", "G1"], ["R3"], ["G2"], ["Y1"]], top="WD4", color="green")
        act(g, "play MYS red")
        assert "pending" not in pos(g)
        assert g.current_player() == 1


class TestNumberFaceSpecials:
    @pytest.mark.rule("HD-2.3.18", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.18, §4.4")
    def test_magic_red_5_sets_red_and_passes_the_turn(self) -> None:
        g = hd(hands=[["M5", "G1"], ["R3", "G4"], ["G2"], ["Y1"]], top="HOT", color="green")
        act(g, "play M5")
        assert pos(g)["color"] == "red"
        assert g.current_player() == 1
        assert plays(g) == ["play R3"]

    @pytest.mark.rule("HD-2.3.23", "seed 002", "hot-death.md §2.2 (no on-play effect)")
    def test_retaliation_as_a_normal_play_does_not_reverse(self) -> None:
        g = hd(hands=[["RET", "G1"], ["R3"], ["G2"], ["Y1"]], top="B7")
        act(g, "play RET")
        assert g.direction == 1
        assert g.current_player() == 1
        assert pos(g)["color"] == "blue"

    @pytest.mark.rule("HD-2.3.22", "seed 002", "hot-death.md §2.2 (no on-play effect)")
    def test_holy_defender_as_a_normal_play(self) -> None:
        g = hd(hands=[["HOLY", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play HOLY")
        assert g.current_player() == 1
        assert "pending" not in pos(g)

    @pytest.mark.rule("HD-2.3.21", "seed 002", "hot-death.md §2.2 (no on-play effect)")
    def test_virus_as_a_normal_play(self) -> None:
        g = hd(hands=[["VIR", "G1"], ["R3"], ["G2"], ["Y1"]], top="G7")
        act(g, "play VIR")
        assert g.current_player() == 1
        assert pos(g)["color"] == "green"
        assert pos(g)["infections"] == [0, 0, 0, 0]

    @pytest.mark.rule("HD-2.3.17", "seed 001", "seed 002", "hot-death.md §2.3.17 (passive)")
    def test_luck_o_the_irish_as_a_normal_play(self) -> None:
        g = hd(hands=[["LOI", "G1"], ["R3"], ["G2"], ["Y1"]], top="B4")
        act(g, "play LOI")
        assert g.current_player() == 1
        assert pos(g)["color"] == "green"

    @pytest.mark.rule("HD-2.3.19", "seed 002", "hot-death.md §2.3.19 (passive)")
    def test_blue_shield_as_a_normal_play(self) -> None:
        g = hd(hands=[["SHIELD", "G1"], ["R3"], ["G2"], ["Y1"]], top="B9")
        act(g, "play SHIELD")
        assert g.current_player() == 1
        assert pos(g)["color"] == "blue"

    @pytest.mark.rule("HD-2.3.20", "seed 002", "hot-death.md §2.3.20 (passive)")
    def test_sixty_nine_as_a_normal_play(self) -> None:
        g = hd(hands=[["69", "G1"], ["R3"], ["G2"], ["Y1"]], top="Y2")
        act(g, "play 69")
        assert g.current_player() == 1
        assert pos(g)["color"] == "yellow"
        assert "pending" not in pos(g)

    @pytest.mark.rule("HD-2.3.1", "seed 000", "seed 002", "hot-death.md §2.3.1, §4.5 T-1")
    def test_plain_number_passes_to_next(self) -> None:
        g = hd(hands=[["B7", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7")
        act(g, "play B7")
        assert g.current_player() == 1
        assert pos(g)["color"] == "blue"
        assert pos(g)["discard"] == ["R7", "B7"]

    @pytest.mark.rule("HD-2.3.8", "app", "hot-death.md §2.3.8")
    def test_plain_wild_in_two_deck_game(self) -> None:
        g = hd(options={"deck": "double_216"}, hands=[["W", "G1"], ["R3"], ["G2"], ["Y1"]],
               top="B7")
        act(g, "play W yellow")
        assert pos(g)["color"] == "yellow"
        assert g.current_player() == 1
        assert "pending" not in pos(g)


class TestMad:
    @pytest.mark.rule("HD-2.3.16", "seed 001", "seed 002", "app", "hot-death.md §2.3.16, §4.4")
    def test_mad_ejects_player_and_victim(self) -> None:
        g = hd(hands=[["MAD", "G1"], ["R3"], ["G2"], ["Y1"]], top="Y7")
        assert plays(g) == ["play MAD @1", "play MAD @2", "play MAD @3"]
        act(g, "play MAD @2")
        assert g.active == [False, True, False, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-2.3.16", "ruling", "hot-death.md §4.9 ruling 6")
    def test_mad_next_turn_after_ejecting_next_player(self) -> None:
        g = hd(hands=[["MAD", "G1"], ["R3"], ["G2"], ["Y1"]], top="Y7")
        act(g, "play MAD @1")
        assert g.active == [False, False, True, True]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.16", "ruling", "hot-death.md §4.9 ruling 18")
    def test_mad_as_last_card_still_goes_out(self) -> None:
        g = hd(hands=[["MAD"], ["R3"], ["G2"], ["Y1"]], top="Y7")
        act(g, "play MAD @2")
        assert pos(g)["hand_winner"] == 0
        assert g.scores == [0, 3, 2, 1]

    @pytest.mark.rule("HD-2.3.16", "seed 001", "seed 002", "app", "hot-death.md §2.3.16")
    def test_mad_no_effect_with_three_active(self) -> None:
        g = hd(hands=[["MAD", "G1"], ["R3"], ["G2"], ["Y1"]], top="Y7",
               active=[True, True, False, True])
        assert plays(g) == ["play MAD"]
        ev = act(g, "play MAD")
        assert "no_effect" in kinds(ev)
        assert g.active == [True, True, False, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-2.3.16", "seed 000", "hot-death.md §3.12 mad_min_active_players")
    def test_mad_min_active_option(self) -> None:
        fields: dict[str, Any] = {
            "players": 3, "hands": [["MAD", "G1"], ["R3"], ["G2"]], "top": "Y7",
        }
        default = hd(**fields)
        act(default, "play MAD")
        assert default.active == [True, True, True]
        low = hd(options={"mad_min_active_players": 3}, **fields)
        assert plays(low) == ["play MAD @1", "play MAD @2"]
        act(low, "play MAD @2")
        assert low.active == [False, True, False]

    @pytest.mark.rule("HD-3.9", "seed 000", "hot-death.md §3.9 (000 values), §3.7 check 2")
    def test_mad_low_minimum_can_leave_one_player_who_wins(self) -> None:
        g = hd(players=3, options={"mad_min_active_players": 2},
               hands=[["MAD", "G1", "B9"], ["R3"], ["G2"]], top="Y7")
        act(g, "play MAD @1")
        assert g.active == [False, False, True]
        assert pos(g)["hand_winner"] == 2
        assert g.scores == [10, 3, 0]

    @pytest.mark.rule("HD-3.10", "seed 000", "hot-death.md §3.10 (000: all eliminated)")
    def test_mad_two_active_option_two_eliminates_everyone(self) -> None:
        fields: dict[str, Any] = {
            "players": 2, "hands": [["MAD", "G1", "B9"], ["R3"]], "top": "Y7",
        }
        g = hd(options={"mad_min_active_players": 2}, **fields)
        act(g, "play MAD @1")
        assert g.active == [False, False]
        assert pos(g)["hand_winner"] is None
        assert g.scores == [10, 3]
        default = hd(**fields)
        act(default, "play MAD")
        assert default.active == [True, True]
        assert default.scores == [0, 0]

    @pytest.mark.rule("HD-3.9", "seed 002", "hot-death.md §3.9")
    def test_mad_cannot_choose_an_ejected_victim(self) -> None:
        g = hd(players=5, hands=[["MAD", "G1"], ["R3"], ["G2"], ["Y1"], ["B4"]], top="Y7",
               active=[True, True, False, True, True])
        assert plays(g) == ["play MAD @1", "play MAD @3", "play MAD @4"]
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "play MAD @2")
        assert pos(g) == before


class TestQuitter:
    @pytest.mark.rule("HD-2.3.15", "seed 001", "seed 002", "app", "hot-death.md §2.3.15, §4.2")
    def test_quitter_attacks_next_player_with_three_or_more(self) -> None:
        g = hd(hands=[["QUIT", "G1", "B9"], ["R3", "HOLY", "Y5"], ["G2"], ["Y1"]], top="G7")
        act(g, "play QUIT")
        a = pos(g)["pending"]
        assert (a["type"], a["victim"], a["sender"]) == ("eject", 1, 0)
        assert g.current_player() == 1
        assert legal(g) == ["play HOLY", "accept"]

    @pytest.mark.rule("HD-2.3.15", "seed 002", "hot-death.md §2.3.15")
    def test_quitter_accepted_ejects_victim(self) -> None:
        g = hd(hands=[["QUIT", "G1", "B9"], ["R3"], ["G2"], ["Y1"]], top="G7")
        act(g, "play QUIT")
        assert legal(g) == ["accept"]
        act(g, "accept")
        assert g.active == [True, False, True, True]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-2.3.15", "seed 002", "hot-death.md §2.3.15 (3 active)")
    def test_quitter_with_three_active_of_four(self) -> None:
        g = hd(hands=[["QUIT", "G1", "B9"], ["R3"], ["G2"], ["Y1"]], top="G7",
               active=[True, True, False, True])
        act(g, "play QUIT")
        assert pos(g)["pending"]["type"] == "eject"
        assert pos(g)["pending"]["victim"] == 1

    @pytest.mark.rule("HD-3.10", "seed 001", "seed 002", "app", "hot-death.md §2.3.15, §3.10")
    def test_quitter_two_active_no_effect(self) -> None:
        g = hd(players=2, hands=[["QUIT", "G1"], ["R3"]], top="G7")
        ev = act(g, "play QUIT")
        assert "no_effect" in kinds(ev)
        assert "pending" not in pos(g)
        assert g.active == [True, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-2.3.15", "seed 000", "hot-death.md §3.12 quitter_with_two_active")
    def test_quitter_two_active_player_wins_option_creates_attack(self) -> None:
        fields: dict[str, Any] = {"players": 2, "hands": [["QUIT", "G1"], ["R3"]], "top": "G7"}
        g = hd(options={"quitter_with_two_active": "player_wins"}, **fields)
        act(g, "play QUIT")
        a = pos(g)["pending"]
        assert (a["type"], a["victim"], a["two_active"]) == ("eject", 1, True)
        default = hd(**fields)
        act(default, "play QUIT")
        assert "attack" not in pos(default)

    @pytest.mark.rule("HD-3.10", "seed 002", "hot-death.md §3.10 (after ejections)")
    def test_quitter_no_effect_when_two_of_four_active(self) -> None:
        g = hd(hands=[["QUIT", "G1"], ["R3"], ["G2"], ["Y1"]], top="G7",
               active=[True, False, True, False])
        act(g, "play QUIT")
        assert "pending" not in pos(g)
        assert g.current_player() == 2
        assert g.active == [True, False, True, False]


class TestGlasnost:
    @pytest.mark.rule("HD-2.3.14", "seed 001", "seed 002", "app", "hot-death.md §2.3.14, §4.6")
    def test_glasnost_creates_reveal_attack_on_chosen_victim(self) -> None:
        g = hd(hands=[["GLAS", "G1", "B9"], ["R3"], ["G2", "B5"], ["Y1"]], top="R7")
        act(g, "play GLAS @2")
        a = pos(g)["pending"]
        assert (a["type"], a["victim"], a["sender"], a["anchor"]) == ("reveal", 2, 0, 0)
        assert g.current_player() == 2
        assert legal(g) == ["accept"]

    @pytest.mark.rule("HD-2.3.14", "seed 001", "seed 002", "hot-death.md §2.3.14")
    def test_glasnost_accept_reveals_hand(self) -> None:
        g = hd(hands=[["GLAS", "G1"], ["R3"], ["G2", "B5"], ["Y1"]], top="R7")
        act(g, "play GLAS @2", "accept")
        assert sorted(pos(g)["revealed"][2]) == ["B5", "G2"]
        assert pos(g)["revealed"][0] == []

    @pytest.mark.rule("HD-3.9", "seed 002", "hot-death.md §3.9")
    def test_glasnost_cannot_choose_self_or_ejected(self) -> None:
        g = hd(hands=[["GLAS", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, True, False, True])
        assert plays(g) == ["play GLAS @1", "play GLAS @3"]
        before = pos(g)
        for bad in ("play GLAS @2", "play GLAS @0", "play GLAS"):
            with pytest.raises(IllegalActionError):
                act(g, bad)
            assert pos(g) == before


# =========================================================================== HD-3.9 ejection


class TestEjection:
    @pytest.mark.rule("HD-3.9", "seed 002", "app", "hot-death.md §3.9, §4.5 T-1")
    def test_ejected_player_is_passed_over(self) -> None:
        g = hd(hands=[["R1", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, False, True, True])
        act(g, "play R1")
        assert g.current_player() == 2

    @pytest.mark.rule("HD-3.9", "seed 002", "app", "hot-death.md §3.9")
    def test_ejected_player_has_no_actions(self) -> None:
        g = hd(hands=[["R1", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, False, True, True])
        assert legal(g, 1) == []
        before = pos(g)
        with pytest.raises(WrongSeatError):
            act(g, "play R3", seat=1)
        assert pos(g) == before

    @pytest.mark.rule("HD-3.9", "ruling", "hot-death.md §3.9, §4.9 ruling 17")
    def test_revealed_hand_is_turned_face_down_on_ejection(self) -> None:
        g = hd(hands=[["MAD", "G1"], ["R3"], ["G2", "B5"], ["Y1"]], top="Y7",
               revealed=[[], [], ["G2", "B5"], []])
        act(g, "play MAD @2")
        assert pos(g)["revealed"][2] == []
        assert sorted(pos(g)["hands"][2]) == ["B5", "G2"]  # kept, not shuffled back

    @pytest.mark.rule("HD-3.9", "seed 002", "hot-death.md §3.9 (active player may yell)")
    def test_ejected_player_cannot_catch_uno(self) -> None:
        g = hd(hands=[["R1", "R2"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, True, False, True])
        act(g, "play R1")
        assert "catch 0" in legal(g, 3)
        assert "catch 0" not in legal(g, 2)

    @pytest.mark.rule("HD-3.9", "seed 002", "hot-death.md §3.9")
    def test_quitter_victim_is_next_active(self) -> None:
        g = hd(hands=[["QUIT", "G1"], ["R3"], ["G2"], ["Y1"]], top="G7",
               active=[True, False, True, True])
        act(g, "play QUIT")
        assert pos(g)["pending"]["victim"] == 2


# =========================================================================== HD-3.10


class TestTwoActive:
    @pytest.mark.rule("HD-3.10", "seed 000", "seed 001", "seed 002", "app", "hot-death.md §3.10")
    def test_double_skip_and_reverse_skip_after_ejections(self) -> None:
        for card in ("RSS", "RRS", "RR", "RS"):
            g = hd(hands=[[card, "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
                   active=[True, False, False, True])
            act(g, f"play {card}")
            assert g.current_player() == 0, card

    @pytest.mark.rule("HD-3.10", "seed 002", "hot-death.md §3.10 (M.A.D. no effect)")
    def test_mad_no_effect_with_two_active(self) -> None:
        g = hd(players=2, hands=[["MAD", "G1"], ["R3"]], top="Y7")
        assert plays(g) == ["play MAD"]
        act(g, "play MAD")
        assert g.active == [True, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.10", "seed 000", "seed 002", "hot-death.md §3.10 (Delayed Blast)")
    def test_delayed_blast_two_of_four_active_no_skip(self) -> None:
        g = hd(hands=[["DB", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7",
               active=[True, False, True, False])
        act(g, "play DB red")
        assert pos(g)["pending"]["victim"] == 2


# =========================================================================== HD-4.5 T-1


class TestTurnOrder:
    @pytest.mark.rule("HD-4.5.T1", "seed 000", "seed 002", "app", "hot-death.md §4.5 T-1")
    def test_counter_clockwise_next_player(self) -> None:
        g = hd(hands=[["R1", "G1"], ["R3"], ["G2"], ["Y1"]], top="R7", direction="ccw")
        act(g, "play R1")
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.5.T1", "seed 002", "hot-death.md §4.5 T-1, §0.2 next()")
    def test_next_counts_from_seat_wrapping_round(self) -> None:
        g = hd(hands=[["R1", "G1"], ["R3"], ["G2"], ["R4", "Y1"]], top="R7", turn=3)
        act(g, "play R4")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-4.4", "seed 002", "app", "hot-death.md §4.4")
    def test_skips_cannot_be_answered(self) -> None:
        g = hd(hands=[["RS", "G1", "B9"], ["RET", "HOLY", "VIR"], ["G2"], ["Y1"]], top="R7")
        act(g, "play RS")
        assert "pending" not in pos(g)
        assert g.current_player() == 2
        assert legal(g, 1) == []


# =========================================================================== HD-3.4 normal turn


class TestNormalTurn:
    @pytest.mark.rule("HD-3.4", "seed 002", "hot-death.md §3.4")
    def test_may_draw_while_holding_a_playable_card(self) -> None:
        g = hd(hands=[["R1", "B3", "G7"], ["B2"], ["G1"], ["Y1"]], top="R7")
        assert legal(g) == ["play R1", "play G7", "draw"]
        assert "pass" not in legal(g)

    @pytest.mark.rule("HD-3.4", "seed 000", "seed 002", "hot-death.md §3.4")
    def test_after_draw_play_the_drawn_card_or_pass(self) -> None:
        g = hd(hands=[["R1", "B3", "G7"], ["B2"], ["G1"], ["Y1"]], top="R7",
               draw=["R3", "B4"])
        act(g, "draw")
        assert hand(g, 0) == ["B3", "G7", "R1", "R3"]
        assert legal(g) == ["play R3", "pass"]
        assert pos(g)["drew"] is True and pos(g)["drawn"] == "R3"

    @pytest.mark.rule("HD-3.4", "seed 002", "hot-death.md §3.4")
    def test_unplayable_drawn_card_ends_the_turn(self) -> None:
        # after_draw_play=drawn_card_only (the default): R1 would match, but only the drawn
        # G3 may be played and it does not, so the engine passes for P0 at once
        g = hd(hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["G3", "B4"])
        assert "pass" not in legal(g)
        ev = act(g, "draw")
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (0, "HD-3.4")
        assert g.current_player() == 1
        assert legal(g, 0) == []
        assert legal(g) == ["draw"]
        assert hand(g, 0) == ["B3", "G3", "R1"]
        assert pos(g)["drew"] is False and pos(g)["drawn"] is None

    @pytest.mark.rule("HD-3.4", "app", "hot-death.md §3.12 after_draw_play")
    def test_any_legal_card_ends_the_turn_only_when_no_card_is_legal(self) -> None:
        opts = {"after_draw_play": "any_legal_card"}
        g = hd(options=opts, hands=[["B3", "G5"], ["B2"], ["G1"], ["Y1"]], top="R7",
               draw=["G3", "B4"])
        assert "pass" not in legal(g)
        ev = act(g, "draw")
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (0, "HD-3.4")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B3", "G3", "G5"]
        # an unplayable drawn card with a legal card in hand: P0 still chooses
        g = hd(options=opts, hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7",
               draw=["G3", "B4"])
        assert kinds(act(g, "draw")) == ["draw"]
        assert g.current_player() == 0
        assert legal(g) == ["play R1", "pass"]

    @pytest.mark.rule("HD-3.4", "seed 002", "hot-death.md §3.4")
    def test_playing_the_drawn_card(self) -> None:
        g = hd(hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["R3", "B4"])
        act(g, "draw", "play R3")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B3", "R1"]
        assert g.top == parse_card("R3")

    @pytest.mark.rule("HD-3.4", "seed 002", "hot-death.md §3.4 (one draw only)")
    def test_cannot_draw_twice(self) -> None:
        g = hd(hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["R3", "B4"])
        assert "pass" not in legal(g)
        assert kinds(act(g, "draw")) == ["draw"]
        assert g.current_player() == 0
        assert legal(g) == ["play R3", "pass"]
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "draw")
        assert pos(g) == before
        assert hand(g, 0) == ["B3", "R1", "R3"]

    @pytest.mark.rule("HD-3.4", "seed 000", "seed 002", "hot-death.md §3.4")
    def test_cannot_pass_before_drawing(self) -> None:
        g = hd(hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7")
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "pass")
        assert pos(g) == before

    @pytest.mark.rule("HD-3.4", "seed 000", "seed 002", "hot-death.md §3.4 "
                      "after_draw_play=drawn_card_only")
    def test_drawn_card_only_forbids_other_cards(self) -> None:
        g = hd(hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["R3", "B4"])
        act(g, "draw")
        assert g.current_player() == 0
        assert legal(g) == ["play R3", "pass"]
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "play R1")
        assert pos(g) == before

    @pytest.mark.rule("HD-3.4", "app", "hot-death.md §3.12 after_draw_play")
    def test_after_draw_play_any_legal_card(self) -> None:
        g = hd(options={"after_draw_play": "any_legal_card"},
               hands=[["R1", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["G3", "B4"])
        act(g, "draw")
        assert legal(g) == ["play R1", "pass"]
        act(g, "play R1")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B3", "G3"]

    @pytest.mark.rule("HD-3.4", "seed 001", "hot-death.md §3.12 draw_rule")
    def test_draw_until_playable(self) -> None:
        fields: dict[str, Any] = {
            "hands": [["B3", "G5"], ["B2"], ["G1"], ["Y1"]], "top": "R7",
            "draw": ["B5", "G6", "R9", "Y4"],
        }
        g = hd(options={"draw_rule": "draw_until_playable"}, **fields)
        assert kinds(act(g, "draw")) == ["draw", "draw", "draw"]  # one per card, no pass
        assert hand(g, 0) == ["B3", "B5", "G5", "G6", "R9"]
        assert legal(g) == ["play R9", "pass"]
        assert g.current_player() == 0
        one = hd(**fields)
        assert "pass" not in legal(one)
        ev = act(one, "draw")
        assert hand(one, 0) == ["B3", "B5", "G5"]
        assert kinds(ev) == ["draw", "pass"]
        assert (ev[-1].seat, ev[-1].rule) == (0, "HD-3.4")
        assert one.current_player() == 1

    @pytest.mark.rule("HD-3.4", "seed 001", "hot-death.md §3.12 draw_rule")
    def test_draw_until_playable_stops_at_a_wild(self) -> None:
        g = hd(options={"draw_rule": "draw_until_playable"},
               hands=[["B3", "G5"], ["B2"], ["G1"], ["Y1"]], top="R7",
               draw=["B5", "WD4", "R9"])
        act(g, "draw")
        assert hand(g, 0) == ["B3", "B5", "G5", "WD4"]
        assert legal(g) == [
            "play WD4 red", "play WD4 yellow", "play WD4 green", "play WD4 blue", "pass",
        ]

    @pytest.mark.rule("HD-3.4", "seed 000", "hot-death.md §3.4 (turn draw not reduced)")
    def test_turn_draw_not_reduced_by_luck_o_the_irish(self) -> None:
        g = hd(hands=[["LOI", "B3"], ["B2"], ["G1"], ["Y1"]], top="R7", draw=["B5", "B6"])
        act(g, "draw")
        assert hand(g, 0) == ["B3", "B5", "LOI"]

    @pytest.mark.rule("HD-3.4", "app", "hot-death.md §3.4 (app 1.0.3)")
    def test_player_facing_attack_cannot_draw(self) -> None:
        g = hd(hands=[["WD4", "R1", "B9"], ["B2", "G9"], ["G1"], ["Y1"]], top="R7")
        act(g, "play WD4 red")
        assert g.current_player() == 1
        assert legal(g) == ["accept"]
        before = pos(g)
        with pytest.raises(IllegalActionError):
            act(g, "draw")
        assert pos(g) == before

    @pytest.mark.rule("HD-3.4", "app", "hot-death.md §3.4")
    def test_attack_position_has_no_draw_or_pass(self) -> None:
        g = hd(hands=[["R1"], ["B2", "HOLY", "G9"], ["G1"], ["Y1"]], top="WD4", color="red",
               attack={"kind": "draw", "count": 4, "victim": 1, "sender": 0})
        assert legal(g) == ["play HOLY", "accept"]


# =========================================================================== bad input


class TestBadInput:
    def base(self) -> GameState:
        return hd(hands=[["R1", "B3", "WD4"], ["B2"], ["G1"], ["Y1"]], top="R7")

    @pytest.mark.rule("HD-3.5", "hot-death.md §3.5")
    def test_illegal_play_changes_nothing(self) -> None:
        g = self.base()
        before = pos(g)
        with pytest.raises(IllegalActionError) as e:
            act(g, "play B3")
        assert e.value.code == "illegal_action"
        assert pos(g) == before

    @pytest.mark.rule("HD-3.5", "hot-death.md §3.5")
    def test_wild_without_colour_is_illegal(self) -> None:
        g = self.base()
        before = pos(g)
        for bad in ("play WD4", "play R1 blue", "play R1 @2"):
            with pytest.raises(IllegalActionError):
                act(g, bad)
            assert pos(g) == before

    @pytest.mark.rule("HD-3.5", "hot-death.md §3.5 (no play out of turn)")
    def test_wrong_seat_changes_nothing(self) -> None:
        g = self.base()
        before = pos(g)
        with pytest.raises(WrongSeatError) as e:
            act(g, "play B2", seat=1)
        assert e.value.code == "wrong_seat"
        assert pos(g) == before
        with pytest.raises(WrongSeatError) as e2:
            act(g, "draw", seat=7)
        assert e2.value.code == "wrong_seat"
        assert pos(g) == before

    @pytest.mark.rule("HD-3.4", "hot-death.md §3.4")
    def test_game_over_changes_nothing(self) -> None:
        g = hd(hands=[["R1"], ["B2"], ["G1"], ["Y1"]], top="R7", phase="game_over",
               scores=[1200, 300, 400, 500], winners=[1])
        before = pos(g)
        assert legal(g) == []
        with pytest.raises(GameOverError) as e:
            act(g, "play R1")
        assert e.value.code == "game_over"
        assert pos(g) == before

    @pytest.mark.rule("HD-3.5", "hot-death.md §3.5")
    def test_unknown_card_syntax_changes_nothing(self) -> None:
        g = self.base()
        before = pos(g)
        for text in ("play XYZ", "play R10", "fly R1", "play", "draw 2"):
            with pytest.raises(NotationError) as e:
                act(g, text)
            assert e.value.code == "bad_syntax", text
            assert pos(g) == before

    @pytest.mark.rule("HD-3.5", "hot-death.md §3.5")
    def test_legal_play_after_rejections_still_works(self) -> None:
        g = self.base()
        for bad in ("play B3", "pass", "accept"):
            with pytest.raises(IllegalActionError):
                act(g, bad)
        act(g, "play R1")
        assert g.current_player() == 1
        assert hand(g, 0) == ["B3", "WD4"]


@pytest.mark.rule("HD-1.2", "app", "hot-death.md §1.2")
def test_every_face_colour_known() -> None:
    """Sanity: the cards used above have the colours the tests assume."""
    from hotdeath.cards import GREEN, RED, YELLOW

    expect = {"GLAS": RED, "SHIELD": BLUE, "VIR": GREEN, "LOI": GREEN, "MAD": YELLOW,
              "69": YELLOW, "M5": RED, "BB": YELLOW, "HOLY": RED, "RET": BLUE, "QUIT": GREEN}
    assert {k: FACE_COLOR[parse_card(k)] for k in expect} == expect
