"""Blocked hands: nobody can play and nothing can be drawn (rulings under STD-0.4, HD-3.7.1)."""

from __future__ import annotations

import pytest

from hotdeath.state import GameState
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


@pytest.mark.rule("HD-3.7.1", "ruling", "STD-0.4's repetition: found by `hotdeath simulate`")
def test_the_third_time_a_dry_deck_comes_round_to_one_position_the_hand_is_blocked() -> None:
    """Game 64 of `simulate --variant hotdeath -o stack_draw_twos=true --bot basic --bot
    heuristic --seed 7`: from move 1,205 of hand 10 every card is in a hand, and two players
    trade Spreaders, Draw Twos, a Holy Defender and Big Brother, the cards wandering between
    their hands through the reshuffles (it ran to the 20,000-move cap). Once one position has
    come round a third time, the hand is blocked (move 4,750)."""
    from hotdeath.bots import make_bot
    from hotdeath.bots.arena import next_bot_move, seat_rngs
    from hotdeath.simulate import SimConfig, game_seed, seating
    from hotdeath.variants import get_variant

    cfg = SimConfig.make("hotdeath", bots=["basic", "heuristic"], seed=7,
                         options={"stack_draw_twos": True})
    seed, specs = game_seed(cfg.seed, 64), seating(cfg, 64)
    # dealt as simulate dealt it when the game was found (deal scheme 1)
    g = get_variant("hotdeath").new_game(cfg.players, seed, cfg.preset, dict(cfg.options),
                                         deal_scheme=1)
    bots = {s: make_bot(spec) for s, spec in enumerate(specs)}
    rngs = seat_rngs(seed, cfg.players)
    blocked = None
    for move in range(1, 6000):
        got = next_bot_move(g, bots, rngs)
        assert got is not None
        seat, action = got
        hand_no = g.hand_no
        ev = act(g, action, seat=seat)
        if "blocked" in kinds(ev):
            blocked = (move, hand_no, [e.rule for e in ev if e.kind == "blocked"])
            break
    assert blocked is not None, "the circle was never broken"
    move, hand_no, rules = blocked
    assert hand_no == 10 and 1205 < move < 6000 and rules == ["HD-3.7.1"]
    assert g.last_hand is not None and g.last_hand.hand == 10
    assert g.last_hand.end == "blocked" and g.last_hand.rule == "HD-3.7.1"
    assert g.last_hand.winner == -1  # blocked: no winner, everyone scores his hand


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "throwdown", "hotdeath"])
def test_a_position_is_counted_the_same_whatever_the_turn_counters_say(variant: str) -> None:
    """STD-0.4's repetition compares positions, not counters: the turns taken so far (which
    standard and Throwdown keep) are not part of what must come round again."""
    g = position(variant=variant, players=2, turn=0, top="B9", color="blue", draw=[],
                 hands=[["R1", "R3"], ["G5", "Y7"]])
    seen = []
    for _ in range(3):
        seen.append(g._repeats_dry())
        if hasattr(g, "turns"):
            g.turns += 1
    assert seen == [False, False, True]


def _circling_game(round_trip: bool) -> tuple[int, dict[str, int]]:
    """Game 64 of the circle above, to its blocking move.

    With ``round_trip`` the state is written as a position and read back once a position
    has come round twice. Returns the move that blocked the hand and the ``repeats``
    written then (empty without a trip).
    """
    from hotdeath.bots import make_bot
    from hotdeath.bots.arena import next_bot_move, seat_rngs
    from hotdeath.notation import from_position, to_position
    from hotdeath.simulate import SimConfig, game_seed, seating
    from hotdeath.variants import get_variant

    cfg = SimConfig.make("hotdeath", bots=["basic", "heuristic"], seed=7,
                         options={"stack_draw_twos": True})
    seed, specs = game_seed(cfg.seed, 64), seating(cfg, 64)
    g: GameState = get_variant("hotdeath").new_game(cfg.players, seed, cfg.preset,
                                                    dict(cfg.options), deal_scheme=1)
    bots = {s: make_bot(spec) for s, spec in enumerate(specs)}
    rngs = seat_rngs(seed, cfg.players)
    written: dict[str, int] = {}
    for move in range(1, 6000):
        got = next_bot_move(g, bots, rngs)
        assert got is not None
        seat, action = got
        ev = act(g, action, seat=seat)
        if "blocked" in kinds(ev):
            return move, written
        if round_trip and not written and 2 in pos(g).get("repeats", {}).values():
            written = dict(pos(g)["repeats"])
            g = from_position(to_position(g))
            assert pos(g)["repeats"] == written
    raise AssertionError("the circle was never broken")


@pytest.mark.rule("HD-3.7.1", "ruling", "STD-0.4's repetition, kept in the position notation")
def test_a_position_keeps_the_count_of_positions_come_round() -> None:
    """A position written in the middle of the circle and read back goes on to the same
    block: ``repeats`` carries how often each position came round this hand."""
    blocked, _ = _circling_game(round_trip=False)
    again, written = _circling_game(round_trip=True)
    assert written and 2 in written.values()
    assert again == blocked


@pytest.mark.parametrize(("repeats", "words"), [
    ([1, 2], "must be an object"),
    ({"zz": 1}, "is not a position digest"),
    ({"0123456789abcdef": 0}, "must be a positive integer"),
    ({"0123456789abcdef": True}, "must be a positive integer"),
])
def test_bad_repeats_are_refused_with_a_code(repeats: object, words: str) -> None:
    from hotdeath.errors import PositionError
    from hotdeath.notation import from_position

    data = pos(position(variant="standard", players=2, turn=0, top="B9",
                        hands=[["R1"], ["G5"]]))
    data["repeats"] = repeats
    with pytest.raises(PositionError) as e:
        from_position(data)
    assert e.value.code == "bad_position" and words in e.value.message
