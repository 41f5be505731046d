"""Hot Death attacks, answers and chains (rules HD-3.3 and HD-4.1 to HD-4.7).

Seats are P0..P3 clockwise; unless a test says otherwise P0 is to play and the discard
top is the red 7.  Hands are kept at three or more cards after each answer so that no
Uno call or going out interferes with the chain under test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hotdeath.errors import IllegalActionError
from hotdeath.events import Event
from hotdeath.state import GameState
from tests.support import act, card, hand, kinds, legal, pos, position

HD = "hotdeath"
WILDS = ("WD4", "HOT", "DB", "HOS", "MYS")
COLOURS = ("red", "yellow", "green", "blue")


def game(hands: list[list[str]], top: str = "R7", **fields: Any) -> GameState:
    """A Hot Death position with P0 to play (unless ``turn`` says otherwise)."""
    fields.setdefault("turn", 0)
    return position(variant=HD, players=len(hands), hands=hands, top=top, **fields)


def attack(g: GameState) -> dict[str, Any] | None:
    """The pending attack of the position, or None."""
    p = g.pending()
    return p.to_json() if p is not None else None


def sizes(g: GameState) -> list[int]:
    """Number of cards in each hand."""
    return [len(h) for h in g.hands]


def wild(code: str) -> list[str]:
    """The four colour choices of a wild play."""
    return [f"play {code} {c}" for c in COLOURS]


def same(actual: list[str], expected: list[str]) -> bool:
    """Whether two action lists hold exactly the same actions (order ignored)."""
    return sorted(actual) == sorted(expected)


def dealt(
    up: str | tuple[str, ...],
    *,
    players: int = 4,
    n: int = 15,
    options: dict[str, Any] | None = None,
    want: Callable[[GameState], bool] | None = None,
) -> tuple[GameState, list[Event]]:
    """Deal a fresh hand (dealer P0) whose first up-card is ``up`` and that satisfies ``want``.

    The deal shuffles the whole deck from the position's generator, so the test searches
    the generator states for a deal with the wanted up-card (deterministic).
    """
    ups = (up,) if isinstance(up, str) else up
    for r in range(1, 60000):
        g = position(variant=HD, players=players, phase="deal", dealer=0, turn=0, rng=r,
                     hands=[[] for _ in range(players)], options=options or {})
        ev = act(g, f"deal {n}")
        if pos(g)["discard"][0] in ups and (want is None or want(g)):
            return g, ev
    raise AssertionError(f"no deal with up-card {up} found")  # pragma: no cover


# ============================================================== HD-4.1 / HD-4.2


class TestAttackCreated:
    @pytest.mark.rule("HD-4.2", "seed 002", "app", "hot-death.md §4.2")
    def test_draw_two_is_a_two_card_attack_on_the_next_player(self) -> None:
        g = game([["R+2", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play R+2")
        a = attack(g)
        assert a is not None
        assert (a["type"], a["family"], a["count"], a["victim"]) == ("draw", "draw_two", 2, 1)
        assert g.current_player() == 1 and pos(g)["phase"] == "response"

    @pytest.mark.rule("HD-4.2", "seed 002", "app", "hot-death.md §4.2")
    def test_wild_draw_four_is_a_four_card_attack_with_chosen_colour(self) -> None:
        g = game([["WD4", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 green")
        a = attack(g)
        assert a is not None
        assert (a["family"], a["count"], a["victim"], a["last_card"]) == ("wild_draw", 4, 1, "WD4")
        assert pos(g)["color"] == "green" and g.current_player() == 1

    @pytest.mark.rule("HD-4.2", "seed 000", "seed 002", "hot-death.md §4.2")
    def test_hot_death_is_an_eight_card_attack(self) -> None:
        g = game([["HOT", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play HOT blue")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["last_card"]) == (8, 1, "HOT")

    @pytest.mark.rule("HD-4.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.12")
    def test_harvester_victim_draws_at_once_without_a_decision(self) -> None:
        g = game([["HOS", "B8", "B9"], ["RET", "HOLY", "VIR", "WD4"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        ev = act(g, "play HOS red")
        assert sizes(g)[1] == 8
        assert attack(g) is None and pos(g)["phase"] == "turn"
        assert g.current_player() == 2
        assert "draw" in kinds(ev)

    @pytest.mark.rule("HD-4.2", "seed 000", "app", "hot-death.md §2.3.12")
    def test_harvester_draw_is_still_reduced_by_luck_o_the_irish(self) -> None:
        g = game([["HOS", "B8", "B9"], ["LOI", "Y8", "Y9"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play HOS red")
        assert sizes(g)[1] == 3 + 3
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.2", "seed 002", "app", "hot-death.md §2.3.11")
    def test_delayed_blast_skips_the_next_player_and_hits_the_one_after(self) -> None:
        g = game([["DB", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        ev = act(g, "play DB yellow")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["sender"]) == (4, 2, 0)
        assert g.current_player() == 2
        assert [e.seat for e in ev if e.kind == "skip"] == [1]

    @pytest.mark.rule("HD-4.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.13")
    def test_mystery_draw_count_is_the_number_under_it(self) -> None:
        g = game([["MYS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="Y7")
        act(g, "play MYS red")
        a = attack(g)
        assert a is not None
        assert (a["family"], a["count"], a["victim"]) == ("mystery", 7, 1)

    @pytest.mark.rule("HD-4.2", "seed 000", "app", "hot-death.md §2.3.13")
    def test_mystery_draw_on_the_69_is_sixty_nine_cards(self) -> None:
        g = game([["MYS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="69")
        act(g, "play MYS red")
        a = attack(g)
        assert a is not None
        assert (a["family"], a["count"], a["victim"]) == ("mystery", 69, 1)

    @pytest.mark.rule("HD-4.2", "app", "hot-death.md §2.3.13")
    def test_mystery_draw_on_a_special_number_card_uses_its_printed_number(self) -> None:
        g = game([["MYS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="VIR")
        act(g, "play MYS red")
        a = attack(g)
        assert a is not None
        assert a["count"] == 3

    @pytest.mark.rule("HD-4.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.13")
    def test_mystery_draw_on_a_zero_is_a_plain_wild_and_skips_nobody(self) -> None:
        g = game([["MYS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="HOLY")
        act(g, "play MYS blue")
        assert attack(g) is None
        assert g.current_player() == 1 and sizes(g)[1] == 3
        assert pos(g)["color"] == "blue"

    @pytest.mark.rule("HD-4.2", "seed 000", "app", "hot-death.md §2.3.13")
    def test_mystery_draw_on_an_action_card_is_a_plain_wild(self) -> None:
        g = game([["MYS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="RS")
        act(g, "play MYS green")
        assert attack(g) is None and g.current_player() == 1

    @pytest.mark.rule("HD-4.2", "seed 002", "app", "hot-death.md §2.3.15")
    def test_quitter_is_an_ejection_attack_on_the_next_player(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="G7")
        act(g, "play QUIT")
        a = attack(g)
        assert a is not None
        assert (a["type"], a["victim"], a["sender"]) == ("eject", 1, 0)
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.2", "seed 001", "seed 002", "hot-death.md §2.3.14")
    def test_glasnost_victim_is_any_other_active_seat(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 active=[True, True, False, True])
        assert [a for a in legal(g) if a.startswith("play GLAS")] == ["play GLAS @1",
                                                                       "play GLAS @3"]
        act(g, "play GLAS @3")
        a = attack(g)
        assert a is not None
        assert (a["type"], a["victim"], a["sender"]) == ("reveal", 3, 0)
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.1", "app", "hot-death.md §4.1")
    def test_new_attack_records_sender_attacker_and_latest_draw_card(self) -> None:
        g = game([["WD4", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        a = attack(g)
        assert a is not None
        assert (a["sender"], a["attacker"], a["last_card"]) == (0, 0, "WD4")
        assert (a["locked"], a["redirected"]) == (False, False)


# ============================================================== HD-4.3 legal answers


class TestLegalAnswers:
    @pytest.mark.rule("HD-4.3", "seed 002", "app", "hot-death.md §4.3")
    def test_wild_draw_answers_are_stacks_defenders_and_accept_only(self) -> None:
        g = game([["WD4", "B8", "B9"],
                  ["WD4", "DB", "HOS", "RET", "HOLY", "VIR", "M5", "MYS", "B+2", "R1"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert same(legal(g), [*wild("WD4"), *wild("DB"), *wild("HOS"),
                               "play RET", "play HOLY", "play VIR", "accept"])
        assert "draw" not in legal(g)

    @pytest.mark.rule("HD-4.3", "seed 002", "hot-death.md §4.3")
    def test_draw_two_answers_are_the_three_defenders_and_accept(self) -> None:
        g = game([["R+2", "B8", "B9"],
                  ["G+2", "GSP", "WD4", "HOT", "RET", "HOLY", "VIR", "M5", "R1"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play R+2")
        assert same(legal(g), ["play RET", "play HOLY", "play VIR", "accept"])

    @pytest.mark.rule("HD-4.3", "seed 002", "app", "hot-death.md §4.3")
    def test_mystery_answers_are_the_three_defenders_and_accept(self) -> None:
        g = game([["MYS", "B8", "B9"],
                  ["WD4", "HOT", "RET", "HOLY", "VIR", "M5", "Y+2", "Y1"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]], top="Y7")
        act(g, "play MYS yellow")
        assert same(legal(g), ["play RET", "play HOLY", "play VIR", "accept"])

    @pytest.mark.rule("HD-4.3", "seed 000", "seed 002", "app", "hot-death.md §4.3")
    def test_quitter_answers_are_the_three_defenders_and_accept(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["WD4", "HOT", "RET", "HOLY", "VIR", "M5", "G1"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "Y3"]], top="G7")
        act(g, "play QUIT")
        assert same(legal(g), ["play RET", "play HOLY", "play VIR", "accept"])

    @pytest.mark.rule("HD-4.3", "seed 000", "seed 002", "app", "hot-death.md §4.3")
    def test_glasnost_answers_are_the_three_defenders_and_accept(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["WD4", "HOT", "RET", "HOLY", "VIR", "M5", "R1"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play GLAS @1")
        assert same(legal(g), ["play RET", "play HOLY", "play VIR", "accept"])

    @pytest.mark.rule("HD-4.3", "app", "hot-death.md §4.3")
    def test_only_the_victim_may_act_while_an_attack_is_pending(self) -> None:
        g = game([["WD4", "B8", "B9"], ["Y8", "Y9", "G8"], ["RET", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert g.actors() == [1]
        assert legal(g, 2) == [] and legal(g, 0) == []
        with pytest.raises(IllegalActionError):
            act(g, "play RET", seat=2)

    @pytest.mark.rule("HD-4.3", "seed 000", "app", "hot-death.md §4.3")
    @pytest.mark.parametrize(("answer", "colour"),
                             [("RET", "blue"), ("HOLY", "red"), ("VIR", "green")])
    def test_answer_cards_need_no_match_and_set_their_colour(self, answer: str,
                                                             colour: str) -> None:
        g = game([["WD4", "B8", "B9"], [answer, "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 yellow", f"play {answer}")
        assert pos(g)["discard"][-1] == answer
        assert pos(g)["color"] == colour

    @pytest.mark.rule("HD-4.3", "seed 000", "hot-death.md §3.11")
    def test_an_answer_that_leaves_one_card_may_call_uno(self) -> None:
        g = game([["WD4", "B8", "B9"], ["RET", "Y8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert same(legal(g), ["play RET", "play RET uno", "accept"])
        act(g, "play RET")
        assert pos(g)["uno_open"] == [1]

    @pytest.mark.rule("HD-4.3", "seed 002", "hot-death.md §3.7")
    def test_an_answer_that_empties_the_hand_goes_out_once_the_attack_ends(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        ev = act(g, "play WD4 red", "play HOLY")
        assert "hand_end" not in kinds(ev) and g.current_player() == 2
        ev = act(g, "accept")
        assert "hand_end" in kinds(ev)
        assert g.last_hand is not None and g.last_hand.winner == 1

    @pytest.mark.rule("HD-4.3", "seed 000", "app", "hot-death.md §4.3")
    def test_magic_red_5_answer_sets_red(self) -> None:
        g = game([["HOT", "B8", "B9"], ["M5", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT blue", "play M5")
        assert pos(g)["color"] == "red"


# ============================================================== HD-4.3.1 stacking


class TestStacking:
    @pytest.mark.rule("HD-4.3.1", "seed 000", "seed 001", "app", "hot-death.md §4.3")
    def test_stacked_wild_draw_four_adds_four_and_moves_the_attack_on(self) -> None:
        g = game([["WD4", "B8", "B9"], ["WD4", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play WD4 blue")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["sender"], a["attacker"]) == (8, 2, 1, 1)
        assert pos(g)["color"] == "blue" and g.current_player() == 2

    @pytest.mark.rule("HD-4.3.1", "seed 000", "seed 001", "app", "hot-death.md §4.3")
    def test_stacked_hot_death_adds_eight_and_becomes_the_latest_draw_card(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOT", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOT green")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["last_card"]) == (12, 2, "HOT")

    @pytest.mark.rule("HD-4.3.1", "seed 002", "app", "hot-death.md §2.3.11")
    def test_stacked_delayed_blast_skips_a_player(self) -> None:
        g = game([["WD4", "B8", "B9"], ["DB", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        ev = act(g, "play WD4 red", "play DB green")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["sender"]) == (8, 3, 1)
        assert g.current_player() == 3
        assert [e.seat for e in ev if e.kind == "skip"] == [2]
        assert sizes(g)[2] == 3

    @pytest.mark.rule("HD-4.3.1", "seed 000", "app", "hot-death.md §2.3.12")
    def test_nothing_may_answer_a_harvester_locked_attack(self) -> None:
        g = game([["B8", "B9", "Y8"], ["G8", "G9", "Y9"],
                  ["WD4", "HOT", "RET", "HOLY", "VIR", "B7"], ["B1", "Y2", "G2"]],
                 top="HOS", color="red",
                 attack={"kind": "draw", "family": "wild_draw", "count": 8, "victim": 2,
                         "sender": 1, "attacker": 1, "last_card": "HOS", "locked": True},
                 turn=2)
        assert legal(g) == ["accept"]

    @pytest.mark.rule("HD-4.3.1", "seed 001", "app", "hot-death.md §4.3")
    def test_no_stacking_after_a_deflection_by_default(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["WD4", "VIR", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOLY")
        assert same(legal(g), ["play VIR", "accept"])

    @pytest.mark.rule("HD-4.3.1", "seed 000", "hot-death.md §3.12")
    def test_stack_after_deflection_option_allows_the_stack(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["WD4", "VIR", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_after_deflection": True})
        act(g, "play WD4 red", "play HOLY")
        assert same(legal(g), [*wild("WD4"), "play VIR", "accept"])
        act(g, "play WD4 blue")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"]) == (8, 3)

    @pytest.mark.rule("HD-4.3.1", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.13")
    def test_mystery_draw_is_never_stacked_on_a_draw_wild(self) -> None:
        g = game([["WD4", "B8", "B9"], ["MYS", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert legal(g) == ["accept"]

    @pytest.mark.rule("HD-4.3.1", "seed 001", "app", "hot-death.md §2.3.6")
    def test_draw_twos_do_not_stack_by_default(self) -> None:
        g = game([["R+2", "B8", "B9"], ["G+2", "GSP", "Y8", "Y9"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play R+2")
        assert legal(g) == ["accept"]

    @pytest.mark.rule("HD-4.3.1", "seed 001", "hot-death.md §2.3.6")
    def test_stack_draw_twos_option_stacks_a_draw_two(self) -> None:
        g = game([["R+2", "B8", "B9"], ["G+2", "GSP", "WD4", "Y8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_draw_twos": True})
        act(g, "play R+2")
        assert same(legal(g), ["play G+2", "play GSP", "accept"])
        act(g, "play G+2")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"], a["family"]) == (4, 2, "draw_two")

    @pytest.mark.rule("HD-4.3.1", "seed 001", "hot-death.md §2.3.6")
    def test_stacked_spreader_is_just_another_draw_two(self) -> None:
        g = game([["R+2", "B8", "B9"], ["GSP", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_draw_twos": True})
        act(g, "play R+2", "play GSP")
        a = attack(g)
        assert a is not None
        assert (a["count"], a["victim"]) == (4, 2)
        assert sizes(g) == [2, 3, 3, 3]
        act(g, "accept")
        assert sizes(g) == [2, 3, 7, 3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.3.1", "seed 001", "hot-death.md §2.3.7")
    def test_a_spreader_that_starts_cannot_be_stacked_on(self) -> None:
        g = game([["RSP", "B8", "B9"], ["G+2", "Y8", "Y9"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_draw_twos": True})
        act(g, "play RSP")
        assert attack(g) is None
        assert sizes(g) == [2, 5, 5, 5]
        assert g.current_player() == 0 and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-4.3.1", "seed 001", "app", "hot-death.md §4.3")
    @pytest.mark.parametrize(("after", "can_stack"), [(False, False), (True, True)])
    def test_draw_two_stack_after_a_holy_defender_needs_the_option(self, after: bool,
                                                                   can_stack: bool) -> None:
        g = game([["R+2", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G+2", "B7", "Y7"],
                  ["B1", "Y2", "G2"]],
                 options={"stack_draw_twos": True, "stack_after_deflection": after})
        act(g, "play R+2", "play HOLY")
        assert g.current_player() == 2
        assert ("play G+2" in legal(g)) is can_stack

    @pytest.mark.rule("HD-4.3.1", "seed 001", "app", "hot-death.md §4.3")
    def test_draw_wilds_and_draw_twos_never_stack_on_each_other(self) -> None:
        g = game([["R+2", "B8", "B9"], ["WD4", "HOT", "Y8", "Y9"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_draw_twos": True})
        act(g, "play R+2")
        assert legal(g) == ["accept"]
        h = game([["WD4", "B8", "B9"], ["G+2", "GSP", "Y8", "Y9"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"stack_draw_twos": True})
        act(h, "play WD4 green")
        assert legal(h) == ["accept"]


# ============================================================== HD-4.3.2 Retaliation


class TestRetaliation:
    @pytest.mark.rule("HD-4.3.2", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §4.3")
    def test_retaliation_sends_the_attack_back_and_reverses(self) -> None:
        g = game([["WD4", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play RET")
        a = attack(g)
        assert a is not None
        assert (a["victim"], a["sender"], a["count"], a["redirected"]) == (0, 1, 4, True)
        assert pos(g)["direction"] == "ccw" and g.current_player() == 0

    @pytest.mark.rule("HD-4.3.2", "seed 000", "seed 002", "app", "hot-death.md §4.3")
    def test_retaliation_against_a_draw_two(self) -> None:
        g = game([["R+2", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play R+2", "play RET", "accept")
        assert sizes(g) == [4, 3, 3, 3]
        assert g.current_player() == 3 and pos(g)["direction"] == "ccw"

    @pytest.mark.rule("HD-4.3.2", "seed 000", "seed 002", "app", "hot-death.md §2.3.15")
    def test_retaliation_against_a_quitter_ejects_the_quitter_player(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], top="G7")
        act(g, "play QUIT", "play RET", "accept")
        assert pos(g)["active"] == [False, True, True, True]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.3.2", "ruling", "hot-death.md §3.3", "hot-death.md §4.9")
    def test_retaliation_against_an_up_card_attack_cancels_it(self) -> None:
        g = game([["RET", "B8", "B9", "Y8"], ["G8", "Y9", "G9"], ["B7", "Y7", "B1"],
                  ["Y2", "G2", "B3"]], top="WD4", color="green", dealer=0,
                 attack={"kind": "draw", "family": "wild_draw", "count": 4, "victim": 0,
                         "sender": -1, "attacker": -1, "last_card": "WD4"})
        act(g, "play RET")
        assert attack(g) is None
        assert sizes(g) == [3, 3, 3, 3]
        assert pos(g)["direction"] == "ccw" and g.current_player() == 3

    @pytest.mark.rule("HD-4.3.2", "app", "hot-death.md §4.3", "hot-death.md §4.9")
    @pytest.mark.parametrize(("mode", "victim", "cards", "nxt"),
                             [("last_redirector", 1, 7, 0), ("original_attacker", 0, 6, 3)])
    def test_redirect_sender_decides_whom_retaliation_hits(self, mode: str, victim: int,
                                                           cards: int, nxt: int) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["RET", "B7", "Y7", "G9"],
                  ["B1", "Y2", "G2"]], options={"redirect_sender": mode})
        act(g, "play WD4 red", "play HOLY", "play RET")
        a = attack(g)
        assert a is not None
        assert a["victim"] == victim and g.current_player() == victim
        act(g, "accept")
        assert sizes(g)[victim] == cards
        assert g.current_player() == nxt

    @pytest.mark.rule("HD-4.3.2", "seed 000", "hot-death.md §3.10")
    def test_retaliation_with_two_players_returns_it_to_the_opponent(self) -> None:
        g = game([["WD4", "B8", "B9"], ["RET", "Y8", "Y9", "G8"]])
        act(g, "play WD4 red", "play RET")
        assert g.current_player() == 0
        act(g, "accept")
        assert sizes(g) == [6, 3] and g.current_player() == 1


# ============================================================== HD-4.3.3 Holy Defender


class TestHolyDefender:
    @pytest.mark.rule("HD-4.3.3", "seed 001", "seed 002", "app", "hot-death.md §4.3")
    def test_holy_defender_passes_the_attack_to_the_next_player(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOLY")
        a = attack(g)
        assert a is not None
        assert (a["victim"], a["sender"], a["count"], a["redirected"]) == (2, 1, 4, True)
        assert pos(g)["direction"] == "cw" and g.current_player() == 2
        act(g, "accept")
        assert sizes(g) == [2, 3, 7, 3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.3.3", "seed 000", "hot-death.md §4.3")
    def test_holy_defender_follows_the_current_direction(self) -> None:
        g = game([["WD4", "B8", "B9"], ["B1", "Y2", "G2"], ["G9", "B7", "Y7"],
                  ["HOLY", "Y8", "Y9", "G8"]], direction="ccw")
        act(g, "play WD4 red")
        assert g.current_player() == 3
        act(g, "play HOLY")
        assert g.current_player() == 2 and pos(g)["direction"] == "ccw"

    @pytest.mark.rule("HD-4.3.3", "app", "hot-death.md §3.9")
    def test_holy_defender_passes_over_ejected_players(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], active=[True, True, False, True])
        act(g, "play WD4 red", "play HOLY")
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.3.3", "hot-death.md §3.10")
    def test_holy_defender_with_two_players_passes_it_back_to_the_sender(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"]])
        act(g, "play WD4 red", "play HOLY")
        a = attack(g)
        assert a is not None
        assert a["victim"] == 0 and pos(g)["direction"] == "cw"
        act(g, "accept")
        assert sizes(g) == [6, 3] and g.current_player() == 1

    @pytest.mark.rule("HD-4.3.3", "seed 000", "seed 001", "hot-death.md §2.3.14")
    def test_holy_defender_passes_a_quitter_on(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], top="G7")
        act(g, "play QUIT", "play HOLY", "accept")
        assert pos(g)["active"] == [True, True, False, True]
        assert g.current_player() == 3


# ============================================================== HD-4.3.4 Virus


class TestVirus:
    @pytest.mark.rule("HD-4.3.4", "seed 000", "seed 001", "seed 002", "hot-death.md §4.3")
    def test_virus_splits_an_even_draw(self) -> None:
        g = game([["WD4", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play VIR")
        assert attack(g) is None
        assert sizes(g) == [2 + 2, 3 + 2, 3, 3]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.4", "ruling", "app", "hot-death.md §4.9")
    @pytest.mark.parametrize(("split", "p0", "p1"),
                             [("sender_extra", 4, 3), ("both_round_up", 4, 4),
                              ("victim_extra", 3, 4)])
    def test_virus_odd_split(self, split: str, p0: int, p1: int) -> None:
        g = game([["MYS", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "B6"],
                  ["B1", "Y2", "G2"]], top="Y7", options={"virus_odd_split": split})
        act(g, "play MYS red", "play VIR")
        assert sizes(g) == [2 + p0, 3 + p1, 3, 3]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.4", "seed 000", "app", "hot-death.md §2.3.17")
    def test_luck_o_the_irish_reduces_each_virus_share(self) -> None:
        g = game([["WD4", "LOI", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play VIR")
        assert sizes(g) == [2 + 1, 3 + 2, 3, 3]
        assert "LOI" in pos(g)["revealed"][0]

    @pytest.mark.rule("HD-4.3.4", "app", "hot-death.md §4.3", "hot-death.md §4.9")
    @pytest.mark.parametrize(("mode", "p0", "p1"),
                             [("last_redirector", 2, 5), ("original_attacker", 4, 3)])
    def test_virus_after_holy_defender_hits_per_redirect_sender(self, mode: str, p0: int,
                                                               p1: int) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["VIR", "B7", "Y7", "G9"],
                  ["B1", "Y2", "G2"]], options={"redirect_sender": mode})
        act(g, "play WD4 red", "play HOLY", "play VIR")
        assert sizes(g) == [p0, p1, 3 + 2, 3]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.3.4", "seed 000", "seed 002", "app", "hot-death.md §2.3.15")
    def test_virus_against_a_quitter_ejects_both(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], top="G7")
        act(g, "play QUIT", "play VIR")
        assert pos(g)["active"] == [False, False, True, True]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.4", "seed 002", "app", "hot-death.md §3.9")
    def test_virus_ejection_leaving_one_player_ends_the_hand(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7", "HOT"]],
                 top="G7")
        ev = act(g, "play QUIT", "play VIR")
        assert "hand_end" in kinds(ev)
        assert g.last_hand is not None and g.last_hand.winner == 2
        assert g.last_hand.seats[2].points == 0
        assert pos(g)["phase"] == "deal" and pos(g)["dealer"] == 2

    @pytest.mark.rule("HD-4.3.4", "seed 000", "seed 001", "seed 002", "hot-death.md §2.3.14")
    def test_virus_against_a_glasnost_reveals_both(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @1", "play VIR")
        rev = pos(g)["revealed"]
        assert sorted(rev[0]) == ["B8", "B9"] and sorted(rev[1]) == ["G8", "Y8", "Y9"]
        assert rev[2] == [] and rev[3] == []
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.4", "seed 000", "hot-death.md §3.3")
    def test_virus_against_an_up_card_attack_drops_the_other_share(self) -> None:
        g = game([["VIR", "B8", "B9", "Y8"], ["G8", "Y9", "G9"], ["B7", "Y7", "B1"],
                  ["Y2", "G2", "B3"]], top="HOT", color="green", dealer=0,
                 attack={"kind": "draw", "family": "wild_draw", "count": 8, "victim": 0,
                         "sender": -1, "attacker": -1, "last_card": "HOT"})
        act(g, "play VIR")
        assert attack(g) is None
        assert sizes(g) == [3 + 4, 3, 3, 3]
        assert g.current_player() == 1


# ============================================================== HD-4.3.5 Magic Red 5


class TestMagicRed5:
    @pytest.mark.rule("HD-4.3.5", "seed 000", "seed 001", "seed 002", "app",
                      "hot-death.md §2.3.10")
    def test_magic_red_5_cancels_a_hot_death(self) -> None:
        g = game([["HOT", "B8", "B9"], ["M5", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT blue")
        assert "play M5" in legal(g)
        act(g, "play M5")
        assert attack(g) is None and sizes(g) == [2, 3, 3, 3]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.5", "seed 000", "app", "hot-death.md §2.3.18")
    @pytest.mark.parametrize(("card", "top"),
                             [("WD4", "R7"), ("DB", "R7"), ("MYS", "Y7"), ("R+2", "R7")])
    def test_magic_red_5_answers_nothing_but_a_hot_death(self, card: str, top: str) -> None:
        g = game([[card, "B8", "B9"], ["M5", "Y8", "Y9", "G8"]], top=top)
        act(g, f"play {card} red" if card in WILDS else f"play {card}")
        assert g.current_player() == 1
        assert "play M5" not in legal(g)

    @pytest.mark.rule("HD-4.3.5", "seed 000", "app", "hot-death.md §3.12")
    @pytest.mark.parametrize(("effect", "p2_draws"),
                             [("cancel_all", 0), ("cancel_hot_death_only", 4)])
    def test_magic5_effect_option(self, effect: str, p2_draws: int) -> None:
        g = game([["WD4", "B8", "B9"], ["HOT", "Y8", "Y9", "G8"], ["M5", "B7", "Y7", "G9"],
                  ["B1", "Y2", "G2"]], options={"magic5_effect": effect})
        act(g, "play WD4 red", "play HOT green", "play M5")
        assert attack(g) is None
        assert sizes(g) == [2, 3, 3 + p2_draws, 3]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.3.5", "seed 000", "app", "hot-death.md §3.12")
    @pytest.mark.parametrize(("on_top", "allowed"), [(False, True), (True, False)])
    def test_magic5_requires_hot_death_on_top_option(self, on_top: bool, allowed: bool) -> None:
        g = game([["HOT", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["M5", "B7", "Y7", "G9"],
                  ["B1", "Y2", "G2"]], options={"magic5_requires_hot_death_on_top": on_top})
        act(g, "play HOT red", "play HOLY")
        assert g.current_player() == 2
        assert ("play M5" in legal(g)) is allowed

    @pytest.mark.rule("HD-4.3.5", "ruling", "hot-death.md §4.9")
    def test_magic_red_5_still_answers_a_hot_death_turned_back(self) -> None:
        g = game([["HOT", "M5", "B9", "B8"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT red", "play RET")
        assert g.current_player() == 0 and "play M5" in legal(g)
        act(g, "play M5")
        assert attack(g) is None and sizes(g) == [2, 3, 3, 3]
        assert g.current_player() == 3


# ============================================================== HD-4.3.6 accepting


class TestAccept:
    @pytest.mark.rule("HD-4.3.6", "seed 000", "seed 002", "app", "hot-death.md §4.3")
    def test_accepting_a_draw_takes_the_cards_and_loses_the_turn(self) -> None:
        g = game([["WD4", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 draw=["R1", "R3", "R4", "R6", "G5"])
        act(g, "play WD4 red", "accept")
        assert hand(g, 1) == ["G8", "R1", "R3", "R4", "R6", "Y8", "Y9"]
        assert attack(g) is None and g.current_player() == 2
        assert pos(g)["draw"] == ["G5"]

    @pytest.mark.rule("HD-4.3.6", "seed 002", "app", "hot-death.md §2.3.15")
    def test_accepting_a_quitter_ejects_the_victim(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="G7")
        act(g, "play QUIT", "accept")
        assert pos(g)["active"] == [True, False, True, True]
        assert hand(g, 1) == ["G8", "Y8", "Y9"]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.3.6", "seed 000", "seed 001", "seed 002", "hot-death.md §2.3.14")
    def test_accepting_a_glasnost_reveals_the_current_hand(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play GLAS @1", "accept")
        assert sorted(pos(g)["revealed"][1]) == ["G8", "Y8", "Y9"]
        assert pos(g)["revealed"][0] == []
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.3.6", "seed 000", "seed 002", "hot-death.md §2.3.17")
    def test_luck_o_the_irish_never_takes_the_draw_below_zero(self) -> None:
        g = game([["MYS", "B8", "B9"], ["LOI", "Y8", "Y9"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="MAD")
        act(g, "play MYS red")
        a = attack(g)
        assert a is not None and a["count"] == 1
        act(g, "accept")
        assert sizes(g)[1] == 3 and g.current_player() == 2


# ============================================================== option differences


class TestOptions:
    @pytest.mark.rule("HD-4.3", "seed 002", "seed 000", "app", "hot-death.md §2.3.6")
    @pytest.mark.parametrize(("defensible", "p1", "p2", "nxt"),
                             [(True, 3, 5, 3), (False, 6, 3, 2)])
    def test_draw_two_defensible(self, defensible: bool, p1: int, p2: int, nxt: int) -> None:
        g = game([["R+2", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"draw_two_defensible": defensible})
        act(g, "play R+2")
        if defensible:
            assert same(legal(g), ["play HOLY", "accept"])
            act(g, "play HOLY", "accept")
        assert sizes(g)[1:3] == [p1, p2]
        assert g.current_player() == nxt

    @pytest.mark.rule("HD-4.3", "seed 002", "seed 000", "app", "hot-death.md §2.3.13")
    @pytest.mark.parametrize("defensible", [True, False])
    def test_mystery_defensible(self, defensible: bool) -> None:
        g = game([["MYS", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y6"],
                  ["B1", "Y2", "G2"]], top="Y7", options={"mystery_defensible": defensible})
        act(g, "play MYS red")
        if defensible:
            assert g.current_player() == 1 and same(legal(g), ["play RET", "accept"])
        else:
            assert attack(g) is None
            assert sizes(g)[1] == 4 + 7 and g.current_player() == 2

    @pytest.mark.rule("HD-4.3.6", "seed 000", "app", "hot-death.md §2.3.17")
    @pytest.mark.parametrize(("scope", "drawn"),
                             [("all_punishment_draws", 1), ("attack_draws_only", 2)])
    def test_irish_scope_on_a_draw_two(self, scope: str, drawn: int) -> None:
        g = game([["R+2", "B8", "B9"], ["LOI", "Y8", "Y9"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 options={"irish_scope": scope})
        act(g, "play R+2", "accept")
        assert sizes(g)[1] == 3 + drawn

    @pytest.mark.rule("HD-4.3.6", "seed 000", "app", "hot-death.md §2.3.17")
    @pytest.mark.parametrize("scope", ["all_punishment_draws", "attack_draws_only"])
    def test_irish_scope_does_not_change_a_wild_draw(self, scope: str) -> None:
        g = game([["WD4", "B8", "B9"], ["LOI", "Y8", "Y9"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 options={"irish_scope": scope})
        act(g, "play WD4 red", "accept")
        assert sizes(g)[1] == 3 + 3

    @pytest.mark.rule("HD-2.3.17", "seed 000", "app", "hot-death.md §2.3.17")
    @pytest.mark.parametrize(("scope", "drawn"),
                             [("all_punishment_draws", 1), ("attack_draws_only", 2)])
    def test_irish_scope_on_a_spreader(self, scope: str, drawn: int) -> None:
        g = game([["RSP", "B8", "B9"], ["LOI", "Y8", "Y9"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 options={"irish_scope": scope})
        act(g, "play RSP")
        assert sizes(g) == [2, 3 + drawn, 5, 5]

    @pytest.mark.rule("HD-4.2", "seed 002", "app", "hot-death.md §3.12")
    @pytest.mark.parametrize(("minimum", "victim"), [(3, 2), (4, 1)])
    def test_delayed_blast_min_active_for_skip(self, minimum: int, victim: int) -> None:
        g = game([["DB", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"]],
                 options={"delayed_blast_min_active_for_skip": minimum})
        act(g, "play DB red")
        a = attack(g)
        assert a is not None and a["victim"] == victim
        assert g.current_player() == victim

    @pytest.mark.rule("HD-4.2", "seed 000", "seed 002", "app", "hot-death.md §3.10")
    def test_delayed_blast_with_two_players_does_not_skip(self) -> None:
        g = game([["DB", "B8", "B9"], ["Y8", "Y9", "G8"]])
        act(g, "play DB red")
        a = attack(g)
        assert a is not None and a["victim"] == 1


# ============================================================== Quitter, two active


class TestQuitterTwoActive:
    @pytest.mark.rule("HD-4.2", "seed 001", "seed 002", "app", "hot-death.md §2.3.15")
    def test_quitter_with_two_active_has_no_effect_by_default(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["Y8", "Y9", "G8"]], top="G7")
        act(g, "play QUIT")
        assert attack(g) is None and pos(g)["active"] == [True, True]
        assert g.current_player() == 1 and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-4.2", "seed 000", "hot-death.md §3.10")
    def test_quitter_player_wins_when_accepted(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["RET", "HOLY", "VIR", "G8"]], top="G7",
                 options={"quitter_with_two_active": "player_wins"})
        act(g, "play QUIT")
        assert same(legal(g), ["play RET", "play HOLY", "play VIR", "accept"])
        ev = act(g, "accept")
        assert [e.seat for e in ev if e.kind == "hand_end"] == [0]
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert g.last_hand.seats[0].points == 0

    @pytest.mark.rule("HD-4.2", "ruling", "hot-death.md §3.10")
    @pytest.mark.parametrize("answer", ["RET", "HOLY"])
    def test_quitter_turned_round_makes_the_answering_player_win(self, answer: str) -> None:
        g = game([["QUIT", "B8", "B9"], [answer, "Y8", "Y9", "G8"]], top="G7",
                 options={"quitter_with_two_active": "player_wins"})
        ev = act(g, "play QUIT", f"play {answer}")
        assert [e.seat for e in ev if e.kind == "hand_end"] == [1]
        assert g.last_hand is not None and g.last_hand.winner == 1

    @pytest.mark.rule("HD-4.3.4", "seed 000", "hot-death.md §3.10")
    def test_quitter_answered_by_virus_eliminates_both_with_no_winner(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"]], top="G7",
                 options={"quitter_with_two_active": "player_wins"})
        ev = act(g, "play QUIT", "play VIR")
        assert "hand_end" in kinds(ev)
        assert g.last_hand is not None and g.last_hand.winner not in (0, 1)
        assert all(row.points > 0 for row in g.last_hand.seats)


# ============================================================== HD-4.6 Glasnost window


class TestGlasnostWindow:
    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_non_adjacent_victim_answers_at_once_and_nobody_is_skipped(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @2")
        assert g.current_player() == 2 and same(legal(g), ["play RET", "accept"])
        act(g, "accept")
        assert sorted(pos(g)["revealed"][2]) == ["B7", "G9", "RET", "Y7"]
        assert g.current_player() == 1 and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_out_of_turn_holy_defender_keeps_the_anchor(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["HOLY", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @2", "play HOLY")
        a = attack(g)
        assert a is not None and a["victim"] == 3 and a["anchor"] == 0
        act(g, "accept")
        assert sorted(pos(g)["revealed"][3]) == ["B1", "G2", "Y2"]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_next_players_answer_counts_as_his_turn(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @1", "play HOLY")
        a = attack(g)
        assert a is not None and a["victim"] == 2 and a["anchor"] == 1
        act(g, "accept")
        assert sorted(pos(g)["revealed"][2]) == ["B7", "G9", "Y7"]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_next_players_retaliation_is_his_turn_and_play_returns_to_the_sender(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @1", "play RET")
        a = attack(g)
        assert a is not None and (a["victim"], a["anchor"]) == (0, 1)
        act(g, "accept")
        assert sorted(pos(g)["revealed"][0]) == ["B8", "B9"]
        assert pos(g)["direction"] == "ccw" and g.current_player() == 0

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_retaliation_from_across_the_table_reveals_the_glasnost_player(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @2", "play RET")
        assert g.current_player() == 0 and pos(g)["direction"] == "ccw"
        act(g, "accept")
        assert sorted(pos(g)["revealed"][0]) == ["B8", "B9"]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6")
    def test_virus_from_across_the_table_reveals_both_and_skips_nobody(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["VIR", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play GLAS @2", "play VIR")
        rev = pos(g)["revealed"]
        assert sorted(rev[0]) == ["B8", "B9"] and sorted(rev[2]) == ["B7", "G9", "Y7"]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.6", "app", "hot-death.md §4.6")
    @pytest.mark.parametrize(("mode", "actor"),
                             [("victim_any_seat", 2), ("next_player_only", 1)])
    def test_glasnost_response_option(self, mode: str, actor: int) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"glasnost_response": mode})
        act(g, "play GLAS @2")
        assert g.current_player() == actor
        if mode == "next_player_only":
            assert attack(g) is None and pos(g)["phase"] == "turn"
            assert sorted(pos(g)["revealed"][2]) == ["B7", "G9", "RET", "Y7"]
        else:
            assert pos(g)["revealed"][2] == []

    @pytest.mark.rule("HD-4.6", "app", "hot-death.md §4.6")
    def test_next_player_only_still_lets_the_next_player_answer(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], options={"glasnost_response": "next_player_only"})
        act(g, "play GLAS @1")
        assert g.current_player() == 1 and same(legal(g), ["play RET", "accept"])


# ============================================================== HD-4.5 turn order


class TestTurnOrder:
    @pytest.mark.rule("HD-4.5", "seed 000", "seed 002", "hot-death.md §4.5")
    def test_next_player_counts_from_an_ejected_seat(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="G7")
        act(g, "play QUIT", "accept")
        assert pos(g)["active"][1] is False and g.current_player() == 2

    @pytest.mark.rule("HD-4.5.T1", "seed 002", "app", "hot-death.md §4.5")
    def test_t1_ordinary_play_passes_to_the_next_player(self) -> None:
        g = game([["R1", "RS", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play R1")
        assert g.current_player() == 1
        h = game([["R1", "RS", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(h, "play RS")
        assert h.current_player() == 2

    @pytest.mark.rule("HD-4.5.T2", "seed 000", "app", "hot-death.md §4.5")
    def test_t2_turn_belongs_to_the_victim_and_passed_over_players_do_not_act(self) -> None:
        g = game([["WD4", "B8", "B9"], ["WD4", "Y8", "Y9", "G8"], ["HOLY", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert g.actors() == [1]
        act(g, "play WD4 blue")
        assert g.actors() == [2]
        act(g, "play HOLY")
        assert g.actors() == [3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.5.T3", "seed 000", "seed 002", "hot-death.md §4.5")
    @pytest.mark.parametrize(("answer", "nxt"), [("accept", 2), ("play VIR", 2)])
    def test_t3_accept_and_virus_pass_to_after_the_answering_player(self, answer: str,
                                                                  nxt: int) -> None:
        g = game([["WD4", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", answer)
        assert attack(g) is None and g.current_player() == nxt

    @pytest.mark.rule("HD-4.5.T3", "seed 000", "app", "hot-death.md §4.5")
    def test_t3_direction_after_a_retaliation_holds(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOLY", "play RET", "accept")
        assert pos(g)["direction"] == "ccw" and g.current_player() == 0

    @pytest.mark.rule("HD-4.5.T3", "seed 000", "app", "hot-death.md §4.5")
    def test_t3_magic_red_5_passes_to_after_the_answering_player(self) -> None:
        h = game([["HOT", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["M5", "B1", "Y2", "G2"]], direction="ccw")
        act(h, "play HOT red")
        assert h.current_player() == 3
        act(h, "play M5")
        assert h.current_player() == 2

    @pytest.mark.rule("HD-4.5.T4", "ruling", "hot-death.md §4.6")
    def test_t4_reveal_keeps_the_turn_order_of_the_glasnost_player(self) -> None:
        g = game([["GLAS", "B8", "B9"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play GLAS @3", "accept")
        assert g.current_player() == 1
        assert sizes(g) == [2, 3, 3, 3]

    @pytest.mark.rule("HD-4.5.T5", "seed 002", "app", "hot-death.md §4.5")
    def test_t5_hand_does_not_end_while_the_last_cards_attack_is_pending(self) -> None:
        g = game([["WD4"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        ev = act(g, "play WD4 red")
        assert "hand_end" not in kinds(ev) and g.current_player() == 1
        ev = act(g, "accept")
        assert "hand_end" in kinds(ev)
        assert g.last_hand is not None and g.last_hand.winner == 0
        assert sizes(g)[1] == 3 + 4

    @pytest.mark.rule("HD-4.5.T5", "seed 002", "seed 000", "hot-death.md §3.7")
    def test_t5_retaliation_gives_the_would_be_winner_cards_again(self) -> None:
        g = game([["WD4"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play RET")
        ev = act(g, "accept")
        assert "hand_end" not in kinds(ev)
        assert sizes(g)[0] == 4 and g.current_player() == 3
        assert pos(g)["phase"] == "turn"


# ============================================================== HD-4.7 worked patterns


class TestWorkedPatterns:
    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_df_hot_accept(self) -> None:
        g = game([["WD4", "B8", "B9"], ["WD4", "Y8", "Y9", "G8"], ["HOT", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play WD4 blue", "play HOT green")
        assert legal(g) == ["accept"]
        act(g, "accept")
        assert sizes(g) == [2, 3, 3, 3 + 16]
        assert g.current_player() == 0 and attack(g) is None

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_harvester(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOS", "Y8", "Y9", "G8"], ["RET", "VIR", "WD4", "G9"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOS blue")
        assert sizes(g) == [2, 3, 4 + 8, 3]
        assert "RET" in hand(g, 2) and attack(g) is None
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_retaliation(self) -> None:
        g = game([["WD4", "WD4", "HOLY", "VIR", "B9"], ["RET", "Y8", "Y9", "G8"],
                  ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play RET")
        assert pos(g)["direction"] == "ccw" and g.current_player() == 0
        assert same(legal(g), ["play HOLY", "play VIR", "accept"])
        act(g, "accept")
        assert sizes(g) == [4 + 4, 3, 3, 3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_holy_retaliation(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOLY", "play RET")
        a = attack(g)
        assert a is not None and a["victim"] == 1 and a["count"] == 4
        assert pos(g)["direction"] == "ccw"
        act(g, "accept")
        assert sizes(g) == [2, 3 + 4, 3, 3] and g.current_player() == 0

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_holy_virus(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["VIR", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOLY", "play VIR")
        assert sizes(g) == [2, 3 + 2, 3 + 2, 3]
        assert attack(g) is None and g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_df_retaliation_holy(self) -> None:
        g = game([["WD4", "B8", "B9"], ["WD4", "HOLY", "Y8", "Y9", "G8"],
                  ["RET", "G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play WD4 blue", "play RET")
        a = attack(g)
        assert a is not None and (a["victim"], a["count"]) == (1, 8)
        assert pos(g)["direction"] == "ccw"
        act(g, "play HOLY")
        assert g.current_player() == 0
        act(g, "accept")
        assert sizes(g) == [2 + 8, 3, 3, 3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_hot_magic5(self) -> None:
        g = game([["HOT", "B8", "B9"], ["M5", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT blue", "play M5")
        assert attack(g) is None and sizes(g) == [2, 3, 3, 3]
        assert pos(g)["color"] == "red" and g.current_player() == 2

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_df_hot_magic5_cancels_all_twelve(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOT", "Y8", "Y9", "G8"], ["M5", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play WD4 red", "play HOT green")
        a = attack(g)
        assert a is not None and a["count"] == 12
        act(g, "play M5")
        assert attack(g) is None and sizes(g) == [2, 3, 3, 3]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_hot_df_magic5_is_illegal(self) -> None:
        g = game([["HOT", "B8", "B9"], ["WD4", "Y8", "Y9", "G8"], ["M5", "VIR", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT red", "play WD4 blue")
        assert same(legal(g), ["play VIR", "accept"])
        with pytest.raises(IllegalActionError):
            act(g, "play M5")

    @pytest.mark.rule("HD-4.7", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_hot_holy_magic5_cancels(self) -> None:
        g = game([["HOT", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["M5", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play HOT red", "play HOLY", "play M5")
        assert attack(g) is None and sizes(g) == [2, 3, 3, 3]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "seed 000", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_delayed_blast_retaliation_jumps_to_the_sender(self) -> None:
        g = game([["DB", "B8", "B9"], ["Y8", "Y9", "G8"], ["RET", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]])
        act(g, "play DB red")
        assert g.current_player() == 2 and legal(g, 1) == []
        act(g, "play RET")
        assert pos(g)["direction"] == "ccw" and g.current_player() == 0
        act(g, "accept")
        assert sizes(g) == [2 + 4, 3, 3, 3] and g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_mystery_on_seven_virus(self) -> None:
        g = game([["MYS", "B8", "B9"], ["VIR", "Y8", "Y9", "G8"], ["G9", "B7", "B6"],
                  ["B1", "Y2", "G2"]], top="Y7")
        act(g, "play MYS red", "play VIR")
        assert sizes(g) == [2 + 4, 3 + 3, 3, 3]
        assert g.current_player() == 2

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_quitter_holy_virus(self) -> None:
        g = game([["QUIT", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["VIR", "G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], top="G7")
        act(g, "play QUIT", "play HOLY", "play VIR")
        assert pos(g)["active"] == [True, False, False, True]
        assert g.current_player() == 3

    @pytest.mark.rule("HD-4.7", "app", "ruling", "hot-death.md §4.7", "hot-death.md §4.5")
    def test_quitter_retaliation_holy(self) -> None:
        g = game([["QUIT", "HOLY", "B8", "B9"], ["RET", "Y8", "Y9", "G8"], ["G9", "B7", "Y7"],
                  ["B1", "Y2", "G2"]], top="G7")
        act(g, "play QUIT", "play RET")
        assert g.current_player() == 0 and pos(g)["direction"] == "ccw"
        act(g, "play HOLY")
        assert g.current_player() == 3
        act(g, "accept")
        assert pos(g)["active"] == [True, True, True, False]
        assert g.current_player() == 2


# ============================================================== HD-3.3 the up-card


class TestUpCard:
    @pytest.mark.rule("HD-3.3", "seed 002", "app", "hot-death.md §3.3")
    def test_number_up_card_has_no_effect(self) -> None:
        g, _ = dealt(("B7", "G7", "Y7", "R7"))
        assert pos(g)["phase"] == "turn" and g.current_player() == 1
        assert sizes(g) == [15, 15, 15, 15] and attack(g) is None

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.2")
    @pytest.mark.parametrize(("first", "seat"), [("left_of_dealer", 1), ("dealer", 0)])
    def test_first_player_option_with_a_number_up_card(self, first: str, seat: int) -> None:
        g, _ = dealt(("B7", "G7", "Y7", "R7"), options={"first_player": first})
        assert g.current_player() == seat and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_wild_up_card_dealer_names_the_colour(self) -> None:
        g, _ = dealt("MYS")
        assert pos(g)["phase"] == "choose_color" and g.current_player() == 0
        assert same(legal(g), [f"color {c}" for c in COLOURS])
        act(g, "color green")
        assert pos(g)["color"] == "green" and attack(g) is None
        assert g.current_player() == 1 and sizes(g) == [15, 15, 15, 15]

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_draw_two_up_card_attacks_the_dealer(self) -> None:
        g, _ = dealt(("R+2", "Y+2", "G+2", "B+2"))
        a = attack(g)
        assert a is not None
        assert (a["victim"], a["sender"], a["count"], a["family"]) == (0, -1, 2, "draw_two")
        assert g.current_player() == 0
        act(g, "accept")
        assert sizes(g) == [17, 15, 15, 15] and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    @pytest.mark.parametrize(("up", "count"), [("WD4", 4), ("HOT", 8)])
    def test_draw_wild_up_card_attacks_the_dealer_after_the_colour(self, up: str,
                                                                   count: int) -> None:
        g, _ = dealt(up, want=lambda s: "LOI" not in hand(s, 0))
        act(g, "color blue")
        a = attack(g)
        assert a is not None
        assert (a["victim"], a["sender"], a["count"]) == (0, -1, count)
        act(g, "accept")
        assert sizes(g) == [15 + count, 15, 15, 15] and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_delayed_blast_up_card_hits_the_dealer_without_a_skip(self) -> None:
        g, _ = dealt("DB", want=lambda s: "LOI" not in hand(s, 0))
        ev = act(g, "color red")
        a = attack(g)
        assert a is not None and (a["victim"], a["count"]) == (0, 4)
        assert "skip" not in kinds(ev)
        act(g, "accept")
        assert g.current_player() == 1 and sizes(g) == [19, 15, 15, 15]

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_harvester_up_card_dealer_draws_at_once(self) -> None:
        g, _ = dealt("HOS", want=lambda s: "LOI" not in hand(s, 0))
        act(g, "color yellow")
        assert attack(g) is None and sizes(g) == [19, 15, 15, 15]
        assert g.current_player() == 1 and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_spreader_up_card_only_the_dealer_draws(self) -> None:
        g, _ = dealt(("RSP", "YSP", "GSP", "BSP"),
                     want=lambda s: "LOI" not in hand(s, 0) and "SHIELD" not in hand(s, 0))
        assert sizes(g) == [17, 15, 15, 15] and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_spreader_up_card_blue_shield_protects_the_dealer(self) -> None:
        g, _ = dealt(("RSP", "YSP", "GSP", "BSP"), want=lambda s: "SHIELD" in hand(s, 0))
        assert sizes(g) == [15, 15, 15, 15] and g.current_player() == 1
        assert "SHIELD" in pos(g)["revealed"][0]

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_quitter_up_card_is_an_ejection_attack_on_the_dealer(self) -> None:
        g, _ = dealt("QUIT")
        a = attack(g)
        assert a is not None and (a["type"], a["victim"], a["sender"]) == ("eject", 0, -1)
        act(g, "accept")
        assert pos(g)["active"] == [False, True, True, True] and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_quitter_up_card_virus_ejects_only_the_dealer(self) -> None:
        g, _ = dealt("QUIT", want=lambda s: "VIR" in hand(s, 0))
        act(g, "play VIR")
        assert attack(g) is None
        assert pos(g)["active"] == [False, True, True, True] and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_quitter_up_card_holy_defender_passes_it_to_the_next_player(self) -> None:
        g, _ = dealt("QUIT", want=lambda s: "HOLY" in hand(s, 0))
        act(g, "play HOLY")
        a = attack(g)
        assert a is not None and (a["type"], a["victim"]) == ("eject", 1)
        act(g, "accept")
        assert pos(g)["active"] == [True, False, True, True] and g.current_player() == 2

    @pytest.mark.rule("HD-3.3", "seed 002", "hot-death.md §3.3")
    def test_quitter_up_card_with_two_players_has_no_effect(self) -> None:
        g, _ = dealt("QUIT", players=2)
        assert attack(g) is None and pos(g)["active"] == [True, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_glasnost_up_card_dealer_chooses_the_victim(self) -> None:
        g, _ = dealt("GLAS")
        assert pos(g)["phase"] == "choose_victim" and g.current_player() == 0
        assert same(legal(g), ["victim 1", "victim 2", "victim 3"])
        act(g, "victim 2")
        a = attack(g)
        assert a is not None and (a["type"], a["victim"], a["sender"]) == ("reveal", 2, -1)
        cards = hand(g, 2)
        act(g, "accept")
        assert sorted(pos(g)["revealed"][2]) == cards
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3", "hot-death.md §4.6")
    def test_glasnost_up_card_when_the_dealer_starts(self) -> None:
        g, _ = dealt("GLAS", options={"first_player": "dealer"})
        act(g, "victim 2", "accept")
        assert len(pos(g)["revealed"][2]) == 15
        assert g.current_player() == 0

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3", "hot-death.md §4.6")
    def test_glasnost_up_card_retaliation_cancels_and_reverses(self) -> None:
        g, _ = dealt("GLAS", want=lambda s: "RET" in hand(s, 2))
        act(g, "victim 2", "play RET")
        assert attack(g) is None and pos(g)["revealed"] == [[], [], [], []]
        assert pos(g)["direction"] == "ccw"
        assert g.current_player() == 3

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_glasnost_up_card_virus_reveals_only_the_victim(self) -> None:
        g, _ = dealt("GLAS", want=lambda s: "VIR" in hand(s, 2))
        act(g, "victim 2", "play VIR")
        rev = pos(g)["revealed"]
        assert rev[0] == [] and len(rev[2]) == 14
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_mad_up_card_ejects_only_the_chosen_victim(self) -> None:
        g, _ = dealt("MAD")
        assert pos(g)["phase"] == "choose_victim" and g.current_player() == 0
        act(g, "victim 1")
        assert pos(g)["active"] == [True, False, True, True]
        assert g.current_player() == 2 and pos(g)["phase"] == "turn"

    @pytest.mark.rule("HD-3.3", "seed 002", "hot-death.md §3.3")
    def test_mad_up_card_needs_enough_active_players(self) -> None:
        g, _ = dealt("MAD", players=3)
        assert pos(g)["phase"] == "turn" and pos(g)["active"] == [True, True, True]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_up_card_retaliation_cancels_the_attack(self) -> None:
        g, _ = dealt("WD4", want=lambda s: "RET" in hand(s, 0))
        act(g, "color red", "play RET")
        assert attack(g) is None and sizes(g) == [14, 15, 15, 15]
        assert pos(g)["direction"] == "ccw" and g.current_player() == 3

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_up_card_virus_sends_the_senders_half_to_nobody(self) -> None:
        g, _ = dealt("WD4", want=lambda s: "VIR" in hand(s, 0) and "LOI" not in hand(s, 0))
        act(g, "color red", "play VIR")
        assert attack(g) is None and sizes(g) == [14 + 2, 15, 15, 15]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_up_card_holy_defender_passes_it_to_the_next_player(self) -> None:
        g, _ = dealt("WD4", want=lambda s: "HOLY" in hand(s, 0) and "LOI" not in hand(s, 1))
        act(g, "color red", "play HOLY")
        a = attack(g)
        assert a is not None and (a["victim"], a["sender"]) == (1, 0)
        act(g, "accept")
        assert sizes(g) == [14, 19, 15, 15] and g.current_player() == 2

    @pytest.mark.rule("HD-3.3", "ruling", "hot-death.md §3.3")
    def test_up_card_stack_passes_it_to_the_next_player(self) -> None:
        g, _ = dealt("WD4", want=lambda s: "HOT" in hand(s, 0))
        act(g, "color red", "play HOT blue")
        a = attack(g)
        assert a is not None and (a["victim"], a["sender"], a["count"]) == (1, 0, 12)
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_up_card_hot_death_magic_red_5_cancels(self) -> None:
        g, _ = dealt("HOT", want=lambda s: "M5" in hand(s, 0))
        act(g, "color red", "play M5")
        assert attack(g) is None and sizes(g) == [14, 15, 15, 15]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "seed 000", "hot-death.md §3.3")
    def test_up_card_answer_is_the_dealers_first_turn_when_the_dealer_starts(self) -> None:
        g, _ = dealt(("R+2", "Y+2", "G+2", "B+2"), options={"first_player": "dealer"},
                     want=lambda s: "LOI" not in hand(s, 0))
        assert g.current_player() == 0
        act(g, "accept")
        assert sizes(g)[0] == 17 and g.current_player() == 1

    @pytest.mark.rule("HD-3.3", "app", "hot-death.md §3.3")
    def test_ignore_rule_buries_wild_up_cards(self) -> None:
        g, _ = dealt(WILDS, options={"up_card_rule": "ignore"})
        discard = pos(g)["discard"]
        assert len(discard) >= 2 and discard[-1] not in WILDS
        assert all(c in WILDS for c in discard[:-1])
        assert pos(g)["phase"] == "turn" and g.current_player() == 1
        assert attack(g) is None and sizes(g) == [15, 15, 15, 15]

    @pytest.mark.rule("HD-3.3", "app", "hot-death.md §3.3")
    @pytest.mark.parametrize(("rule", "phase", "actor"),
                             [("dealer_takes_attacks", "response", 0), ("ignore", "turn", 1)])
    def test_up_card_rule_option_on_a_draw_two(self, rule: str, phase: str,
                                               actor: int) -> None:
        g, _ = dealt(("R+2", "Y+2", "G+2", "B+2"), options={"up_card_rule": rule})
        assert pos(g)["phase"] == phase and g.current_player() == actor
        assert (attack(g) is None) is (rule == "ignore")

    @pytest.mark.rule("HD-3.3", "app", "hot-death.md §3.3")
    @pytest.mark.parametrize(("rule", "dealer_cards"), [("dealer_takes_attacks", 17),
                                                        ("ignore", 15)])
    def test_up_card_rule_option_on_a_spreader(self, rule: str, dealer_cards: int) -> None:
        g, _ = dealt(("RSP", "YSP", "GSP", "BSP"), options={"up_card_rule": rule},
                     want=lambda s: not {"LOI", "SHIELD"} & set(hand(s, 0)))
        assert sizes(g) == [dealer_cards, 15, 15, 15] and g.current_player() == 1


class TestUpCardDealerFirst:
    """Second-reading findings: up-cards under ``first_player=dealer`` (hot-death.md §3.3)."""

    @pytest.mark.rule("HD-4.6", "seed 000", "ruling", "hot-death.md §3.3, §4.6, §4.9 ruling 8")
    def test_glasnost_up_card_retaliation_still_lets_the_dealer_open(self) -> None:
        g = position(variant="hotdeath", players=4, phase="choose_victim", up_pending="GLAS",
                     dealer=0, turn=0, discard=["GLAS"],
                     hands=[["R1", "B1"], ["Y1", "Y2"], ["RET", "G1"], ["G3", "G4"]],
                     options={"first_player": "dealer"})
        act(g, "victim 2", "play RET")
        assert g.direction == -1
        assert g.current_player() == 0

    @pytest.mark.rule("HD-4.6", "seed 000", "ruling", "hot-death.md §3.3, §4.6")
    def test_glasnost_up_card_chain_ends_with_the_dealer_to_play(self) -> None:
        g = position(variant="hotdeath", players=4, phase="choose_victim", up_pending="GLAS",
                     dealer=0, turn=0, discard=["GLAS"],
                     hands=[["R1", "B1"], ["Y1", "Y2"], ["HOLY", "G1"], ["RET", "G4"]],
                     options={"first_player": "dealer"})
        act(g, "victim 2", "play HOLY", "play RET", "accept")
        assert g.current_player() == 0

    @pytest.mark.rule("HD-3.3", "seed 000", "ruling", "hot-death.md §3.3 (Spreader up-card)")
    def test_spreader_up_card_draw_costs_the_dealer_his_first_turn(self) -> None:
        for seed in range(500):
            g = position(variant="hotdeath", players=4, phase="deal", hand=0, dealer=0, turn=0,
                         rng=seed, options={"first_player": "dealer"})
            act(g, "deal 7")
            if g.discard and g.discard[0] == card("YSP") and len(g.discard) == 1:
                break
        else:
            pytest.fail("no seed turns up the yellow Spreader")
        assert len(g.hands[0]) in (8, 9)  # 2 drawn, or 1 with Luck o' the Irish
        assert g.current_player() == 1
