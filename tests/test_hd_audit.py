"""Findings of the Hot Death audits of 2026-11-29 and 2026-12-02 (``docs/rules/hotdeath.md``,
"Audit").

Each test pins a place where the engine diverged from the rules contract
(``hot-death.md``) or where the contract has a hole that the audit closed with a ruling.
Seats are P0..P3 clockwise; P0 is to play on the red 7 unless a test says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from hotdeath.errors import OptionError
from hotdeath.state import GameState
from tests.support import act, legal, pos, position

HD = "hotdeath"


def game(hands: list[list[str]], top: str = "R7", **fields: Any) -> GameState:
    """A Hot Death position with P0 to play (unless ``turn`` says otherwise)."""
    fields.setdefault("turn", 0)
    return position(variant=HD, players=len(hands), hands=hands, top=top, **fields)


def sizes(g: GameState) -> list[int]:
    """Number of cards in each hand."""
    return [len(h) for h in g.hands]


def attack(g: GameState) -> dict[str, Any] | None:
    """The pending attack of the position, or None."""
    p = g.pending()
    return p.to_json() if p is not None else None


def glasnost_up_card(**options: Any) -> GameState:
    """Dealer P0 has turned up the Glasnost and must now choose its victim."""
    return position(variant=HD, players=4, phase="choose_victim", dealer=0, turn=0,
                    top="GLAS", up_pending="GLAS", options=options,
                    hands=[["R1", "R3"], ["B3", "B4"], ["Y3", "RET", "Y4"], ["G5", "G6"]])


# ============================================================== Glasnost up-card, next_player_only


class TestGlasnostUpCardNextPlayerOnly:
    @pytest.mark.rule("HD-4.6", "app", "hot-death.md §4.6", "hot-death.md §3.3")
    def test_a_victim_who_does_not_play_first_is_revealed_at_once(self) -> None:
        g = glasnost_up_card(glasnost_response="next_player_only")
        act(g, "victim 2")
        assert attack(g) is None and pos(g)["phase"] == "turn"
        assert sorted(pos(g)["revealed"][2]) == ["RET", "Y3", "Y4"]
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.6", "app", "hot-death.md §4.6", "hot-death.md §3.3")
    def test_the_first_player_may_still_answer(self) -> None:
        g = glasnost_up_card(glasnost_response="next_player_only")
        act(g, "victim 1")
        a = attack(g)
        assert a is not None and (a["type"], a["victim"]) == ("reveal", 1)
        assert g.current_player() == 1

    @pytest.mark.rule("HD-4.6", "seed 000", "app", "hot-death.md §4.6", "hot-death.md §3.2")
    def test_when_the_dealer_plays_first_no_victim_may_answer(self) -> None:
        g = glasnost_up_card(glasnost_response="next_player_only", first_player="dealer")
        act(g, "victim 1")
        assert attack(g) is None and len(pos(g)["revealed"][1]) == 2
        assert g.current_player() == 0

    @pytest.mark.rule("HD-4.6", "ruling", "hot-death.md §4.6", "hot-death.md §3.3")
    def test_canonical_victim_anywhere_still_answers(self) -> None:
        g = glasnost_up_card()
        act(g, "victim 2")
        assert g.current_player() == 2 and "play RET" in legal(g)


# ============================================================== redirect_sender = original_attacker


class TestOriginalAttackerAnswersHisOwnAttack:
    @pytest.mark.rule("HD-4.3.4", "ruling", "hot-death.md §4.3", "hot-death.md §4.9")
    def test_virus_of_the_original_attacker_shares_with_the_sender(self) -> None:
        g = game([["WD4", "VIR", "R2", "R3"], ["RET", "B5", "R4", "R6"], ["Y5", "Y6", "R8"],
                  ["G1", "G2", "G3"]], options={"redirect_sender": "original_attacker"})
        events = act(g, "play WD4 red", "play RET", "play VIR")
        virus = [e for e in events if e.kind == "virus"]
        assert len(virus) == 1 and virus[0].target == 1
        assert sizes(g) == [2 + 2, 3 + 2, 3, 3]

    @pytest.mark.rule("HD-4.3.2", "ruling", "hot-death.md §4.3", "hot-death.md §3.10")
    def test_retaliation_of_the_original_attacker_hits_the_sender(self) -> None:
        g = game([["WD4", "RET", "R2", "R3"], ["HOLY", "B5", "R4", "R6"]],
                 options={"redirect_sender": "original_attacker"})
        act(g, "play WD4 red", "play HOLY")
        assert g.current_player() == 0
        act(g, "play RET")
        a = attack(g)
        assert a is not None and a["victim"] == 1 and g.current_player() == 1
        act(g, "accept")
        assert sizes(g) == [2, 3 + 4]

    @pytest.mark.rule("HD-4.3.2", "app", "hot-death.md §4.3")
    def test_another_answering_player_still_hits_the_original_attacker(self) -> None:
        g = game([["WD4", "B8", "B9"], ["HOLY", "Y8", "Y9", "G8"], ["VIR", "B7", "Y7", "G9"],
                  ["B1", "Y2", "G2"]], options={"redirect_sender": "original_attacker"})
        act(g, "play WD4 red", "play HOLY", "play VIR")
        assert sizes(g) == [2 + 2, 3, 3 + 2, 3]


# ============================================================== Delayed Blast skip minimum


class TestDelayedBlastNeverHitsItsOwnPlayer:
    @pytest.mark.rule("HD-2.3.11", "ruling", "hot-death.md §2.3.11", "hot-death.md §3.10")
    def test_a_minimum_below_three_is_refused(self) -> None:
        with pytest.raises(OptionError) as err:
            game([["DB", "R1"], ["R3", "R4"]],
                 options={"delayed_blast_min_active_for_skip": 2})
        assert err.value.code == "bad_option_value"
        assert "delayed_blast_min_active_for_skip" in str(err.value)

    @pytest.mark.rule("HD-2.3.11", "seed 002", "hot-death.md §2.3.11")
    def test_three_is_the_smallest_minimum(self) -> None:
        g = game([["DB", "R1", "R2"], ["R3", "R4", "R6"], ["Y3", "Y4", "Y6"]],
                 options={"delayed_blast_min_active_for_skip": 3})
        act(g, "play DB red")
        a = attack(g)
        assert a is not None and a["victim"] == 2 and a["sender"] == 0


# ============================================================== blocked-hand counter


class TestBlockedCounterStartsAfresh:
    @pytest.mark.rule("HD-3.7.1", "ruling", "hot-death.md §3.7")
    def test_a_new_deal_resets_the_count_of_idle_turns(self) -> None:
        g = position(variant=HD, players=3, phase="deal", dealer=0, turn=0, rng=7,
                     hands=[[], [], []])
        g.idle = 3  # as a blocked hand leaves it
        act(g, "deal 5")
        assert g.idle == 0


# ============================================================== audit 2026-12-02


def _bastards_while_out(infections: list[int]) -> GameState:
    """P0 goes out with a Wild Draw Four; P1 accepts it and draws his fourth bastard card.

    P1 holds the Virus, so the hand ends with P0 as its winner (he went out at the same
    moment) and P1 as the holder of all four bastard cards (HD-3.7.1 check 1).
    """
    return game([["WD4"], ["QUIT", "RET", "HOLY", "VIR", "R3"], ["G9", "B7", "Y7"],
                 ["B1", "Y2", "G2"]], draw=["R1", "R2", "R4", "BB"], infections=infections)


class TestBastardHolderWhoDidNotWinPaysTheVirus:
    @pytest.mark.rule("HD-3.7.4", "ruling", "hot-death.md §3.7 check 1 and step 9",
                      "hot-death.md §4.9 ruling 9")
    def test_he_scores_zero_but_pays_his_infections(self) -> None:
        g = _bastards_while_out([0, 2, 0, 0])
        act(g, "play WD4 red", "accept")
        result = g.last_hand
        assert result is not None and result.end == "all_bastards" and result.winner == 0
        # hand value 0 (HD-3.7.2); not the winner, so infected once more (he holds the
        # Virus) and 10 per infection on top (HD-3.7.4)
        assert pos(g)["infections"] == [0, 3, 0, 0]
        assert result.points() == [0, 30, 7 + 9 + 7, 1 + 2 + 2]
        assert g.scores == [0, 30, 23, 5] and g.dealer == 0


class TestUnoCatchAfterDrawsThePlayCauses:
    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §3.11", "hot-death.md §4.9 ruling 19")
    def test_a_harvester_victims_forced_draw_leaves_the_catch_open(self) -> None:
        g = game([["HOS", "R1"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play HOS red")
        assert sizes(g)[1] == 3 + 4 and g.current_player() == 2
        assert "catch 0" in legal(g, 1) and "catch 0" in legal(g)
        act(g, "catch 0", seat=3)
        assert sizes(g)[0] == 1 + 2

    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §3.11", "hot-death.md §2.3.7")
    def test_a_spreaders_draws_leave_the_catch_open(self) -> None:
        g = game([["RSP", "R1"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play RSP")
        assert sizes(g) == [1, 5, 5, 5] and g.current_player() == 0
        assert legal(g, 2) == ["catch 0"]

    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §3.11", "hot-death.md §4.9 ruling 19")
    def test_the_victims_own_accept_ends_it(self) -> None:
        g = game([["WD4", "R1"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]])
        act(g, "play WD4 red")
        assert legal(g, 2) == ["catch 0"]
        act(g, "accept")
        assert g.uno_open == [] and legal(g, 3) == []

    @pytest.mark.rule("HD-3.11", "ruling", "hot-death.md §3.11", "hot-death.md §4.9 ruling 19")
    def test_accepting_an_ejection_draws_nothing_and_leaves_it_open(self) -> None:
        g = game([["QUIT", "R1"], ["Y8", "Y9", "G8"], ["G9", "B7", "Y7"], ["B1", "Y2", "G2"]],
                 top="G7")
        act(g, "play QUIT", "accept")
        assert g.active[1] is False and g.current_player() == 2
        assert legal(g, 3) == ["catch 0"]
