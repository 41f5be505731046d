"""Duplicate deals: every hand's deal follows from the game's seed and the hand's number.

Deal scheme 2 (``hotdeath.rng.DEAL_SCHEME``, docs/architecture.md "Duplicate deals"): what
was played before never changes a later deal, each seat's cards are the same whoever deals,
and a deal size the Hot Death dealer chooses is the only choice that changes a deal.  Games
recorded before it (scheme 1, ``tests/data/old_scheme_games.json``) replay as they were played.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import hotdeath
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs
from hotdeath.errors import OptionError, PositionError
from hotdeath.events import Event
from hotdeath.notation import dumps, from_position, loads, record, replay, to_position
from hotdeath.rng import DEAL_SCHEME, DEAL_STREAM, stream_seed
from hotdeath.state import GameState

OLD_GAMES = Path(__file__).parent / "data" / "old_scheme_games.json"

Deal = tuple[int, int, list[list[int]], list[int]]
"""One deal of a game: the hand's number, the cards dealt to each seat (how many), each
seat's cards as dealt, and the cards turned up before the first turn."""


def _deal_of(state: GameState, events: Sequence[Event]) -> Deal | None:
    """The deal among ``events`` (the last one), read back from the state after them.

    The hands as dealt are the hands now less what each seat drew after the deal (an
    up-card's draw); the up-cards are the cards turned up after it.
    """
    at = [i for i, e in enumerate(events) if e.kind == "deal"]
    if not at:
        return None
    hands = [list(h) for h in state.hands]
    ups: list[int] = []
    for e in events[at[-1] + 1:]:
        if e.kind == "draw":
            for card in e.cards:
                hands[e.seat].remove(card)
        elif e.kind == "up_card":
            ups.append(e.cards[0])
    return state.hand_no, events[at[-1]].n, hands, ups


def _deals(variant: str, seed: int, specs: Sequence[str], options: Mapping[str, Any],
           deal_scheme: int = DEAL_SCHEME) -> list[Deal]:
    """Every deal of a game of ``variant`` played to its end by the bots ``specs``."""
    state = hotdeath.new_game(variant, len(specs), seed, options=options,
                              deal_scheme=deal_scheme)
    bots = {s: make_bot(spec) for s, spec in enumerate(specs)}
    rngs = seat_rngs(seed, len(specs))
    out: list[Deal] = []
    first = _deal_of(state, state.opening_events)
    if first is not None:
        out.append(first)
    for _ in range(100_000):
        move = next_bot_move(state, bots, rngs)
        if move is None:
            return out
        deal = _deal_of(state, state.apply_action(move[1], move[0]))
        if deal is not None:
            out.append(deal)
    raise AssertionError("the game did not end")


GAMES = [
    pytest.param("standard", {"target_score": 250}, id="standard"),
    pytest.param("standard", {"dealer_selection": "draw_high", "target_score": 250},
                 id="standard-draw_high"),
    pytest.param("hotdeath", {}, id="hotdeath"),
    pytest.param("cutthroat", {}, id="cutthroat"),
    pytest.param("throwdown", {}, id="throwdown"),
]


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_changing_one_seats_bot_leaves_every_deal_of_the_game_unchanged(
        variant: str, options: dict[str, Any]) -> None:
    """Seat 0 random, then heuristic, the other seats the same bots: every hand both games
    reach is dealt the same (each seat's cards and the up-cards), hand after hand.

    The only difference allowed is the deal size a Hot Death dealer chooses (HD-3.2): then
    each seat's first cards are still the same.  Under scheme 1 the Hot Death games differ.
    """
    others = ["heuristic", "heuristic", "heuristic"]
    compared = later = 0
    old_differ = False
    for seed in range(3 if variant == "throwdown" else 6):  # Throwdown: a game is a hand
        a = _deals(variant, seed, ["random", *others], options)
        b = _deals(variant, seed, ["heuristic", *others], options)
        assert a[0] == b[0]
        for x, y in zip(a, b, strict=False):
            assert x[0] == y[0]
            if x[1] == y[1]:
                assert x == y, (seed, x[0])
                compared += 1
                later += x[0] > 1
            else:  # the dealer chose another size: each seat's first cards agree
                assert variant == "hotdeath"
                k = min(x[1], y[1])
                assert [h[:k] for h in x[2]] == [h[:k] for h in y[2]], (seed, x[0])
        if variant == "hotdeath" and not old_differ:
            old_a = _deals(variant, seed, ["random", *others], options, deal_scheme=1)
            old_b = _deals(variant, seed, ["heuristic", *others], options, deal_scheme=1)
            old_differ = any(x != y for x, y in zip(old_a, old_b, strict=False))
    assert compared >= 3
    if variant in ("standard", "hotdeath"):  # games of several hands
        assert later >= 6, later
    if variant == "hotdeath":
        assert old_differ, "scheme 1 should deal later hands from what was played"


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "throwdown", "hotdeath"])
def test_each_seat_gets_the_same_cards_whoever_deals(variant: str) -> None:
    """The dealer changes who plays first, not the cards: seat by seat the same hands and
    the same up-card with any dealer, dealt from his left (the deck as laid differs)."""
    seen = []
    for dealer in range(4):
        state = hotdeath.new_game(variant, 4, 99, dealer=dealer)
        if variant == "hotdeath":
            state.apply_action("deal 7", dealer)
        seen.append(([h[:] for h in state.hands], state.discard[:1]))
    assert all(s == seen[0] for s in seen)
    assert len({tuple(map(tuple, s[0])) for s in seen}) == 1


def test_a_smaller_hot_death_deal_gives_each_seat_the_first_cards_of_a_larger_one() -> None:
    """HD-3.2: the dealer chooses the size; each seat's cards are a prefix of a larger deal."""
    hands = {}
    for k in (5, 7, 9):
        state = hotdeath.new_game("hotdeath", 4, 5, dealer=1)
        state.apply_action(f"deal {k}", 1)
        hands[k] = [h[:] for h in state.hands]
    for k in (5, 7):
        assert [h[:k] for h in hands[9]] == hands[k]


def test_a_hands_deal_is_a_function_of_the_seed_and_its_number() -> None:
    """The deal's stream starts at ``stream_seed(seed, hand, DEAL_STREAM)``: a state whose
    generator went anywhere deals the same next hand (reshuffles never move a later deal)."""
    a = hotdeath.new_game("hotdeath", 3, 8, dealer=0)
    b = a.clone()
    b.rng.state = 12345  # as if this hand had reshuffled many times
    a.apply_action("deal 7", 0)
    b.apply_action("deal 7", 0)
    assert a.hands == b.hands and a.discard == b.discard
    old = hotdeath.new_game("hotdeath", 3, 8, dealer=0, deal_scheme=1)
    moved = old.clone()
    moved.rng.state = 12345
    old.apply_action("deal 7", 0)
    moved.apply_action("deal 7", 0)
    assert old.hands != moved.hands  # scheme 1: the one generator goes on
    assert stream_seed(8, 1, DEAL_STREAM) != stream_seed(8, 2, DEAL_STREAM)


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "cutthroat", "throwdown"])
def test_a_position_saved_mid_game_as_json_plays_on_identically(variant: str) -> None:
    """Through the hands' ends and new deals: a state restored from its JSON text at any
    moment goes on exactly as the state itself (the same moves give the same game)."""
    options = {"hotdeath": {"game_end_score": 300},
               "standard": {"target_score": 200}}.get(variant, {})
    state = hotdeath.new_game(variant, 3, 31, options=options)
    bots = {s: make_bot("heuristic") for s in range(3)}
    rngs = seat_rngs(31, 3)
    restored = 0
    moves = []
    while True:
        move = next_bot_move(state, bots, rngs)
        if move is None:
            break
        state.step(move[1], move[0])
        moves.append(move)
        if len(moves) % 7 == 0:
            twin = loads(dumps(state))
            assert twin.deal_scheme == DEAL_SCHEME
            assert to_position(twin) == to_position(state)
            state = twin
            restored += 1
    assert restored >= 2 and state.hand_no >= (3 if variant in ("standard", "hotdeath") else 1)
    straight = hotdeath.new_game(variant, 3, 31, options=options)
    for seat, action in moves:
        straight.step(action, seat)
    assert to_position(straight) == to_position(state)


def _without_scheme(position: dict[str, Any]) -> dict[str, Any]:
    out = dict(position)
    assert out.pop("deal_scheme") == 1
    return out


@pytest.mark.parametrize("index", range(4), ids=["standard", "hotdeath", "cutthroat",
                                                  "throwdown"])
def test_a_record_made_with_the_old_scheme_replays_identically(index: int) -> None:
    """A record and positions written before scheme 2 (no ``deal_scheme``) replay to the
    game as it was played: the same final position, several hands and reshuffles included;
    its record now names scheme 1 and replays the same again."""
    game = json.loads(OLD_GAMES.read_text())["games"][index]
    rec = game["record"]
    assert "deal_scheme" not in rec
    state = replay(rec)
    assert state.deal_scheme == 1
    assert _without_scheme(to_position(state)) == game["final"]
    again = record(state)
    assert again["deal_scheme"] == 1
    assert to_position(replay(json.dumps(again))) == to_position(state)
    # the position written mid-game plays on with the old scheme too
    mid = from_position(game["mid_position"])
    assert mid.deal_scheme == 1
    for seat, text in rec["actions"][game["mid_action"]:]:
        mid.apply_action(text, seat)
    assert _without_scheme(to_position(mid)) == game["final"]
    # the same record dealt with scheme 2 is another game
    assert to_position(hotdeath.new_game(rec["variant"], rec["players"], rec["seed"],
                                         options=rec["options"])) != to_position(
        replay({**rec, "actions": []}))


def test_the_old_games_cover_later_hands_and_reshuffles() -> None:
    """The fixture holds what a new scheme would change: later deals and reshuffles."""
    games = json.loads(OLD_GAMES.read_text())["games"]
    hands = {g["record"]["variant"]: g["final"]["hand"] for g in games}
    assert hands["standard"] >= 3 and hands["hotdeath"] >= 3
    for g in games:
        state = replay({**g["record"], "actions": []})
        kinds = [e.kind for seat, text in g["record"]["actions"]
                 for e in state.apply_action(text, seat)]
        assert "reshuffle" in kinds, g["record"]["variant"]


def test_a_bad_deal_scheme_is_refused_with_a_code() -> None:
    """new_game, positions and records accept scheme 1 or 2 and nothing else."""
    with pytest.raises(OptionError) as opt:
        hotdeath.new_game("standard", 2, 1, deal_scheme=3)
    assert opt.value.code == "bad_deal_scheme"
    position = to_position(hotdeath.new_game("standard", 2, 1))
    for bad in (0, 3, True, "2", None):
        with pytest.raises(PositionError) as pos:
            from_position({**position, "deal_scheme": bad})
        assert pos.value.code == "bad_position"
        with pytest.raises(PositionError) as rec:
            replay({**record(hotdeath.new_game("standard", 2, 1)), "deal_scheme": bad})
        assert rec.value.code == "bad_record"


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "throwdown"])
def test_no_seats_view_shows_the_seed_or_the_generator(variant: str) -> None:
    """The per-hand streams follow from the seed: a view (what bots, the server's seats
    and the RL observation see) holds neither the seed, nor the generator, nor a stream."""
    seed = 0x5EED_1234_5678_9ABC
    state = hotdeath.new_game(variant, 3, seed)
    if variant == "hotdeath":
        state.apply_action("deal 7", state.dealer)
    secrets_ = {str(seed), str(state.rng.state),
                *(str(stream_seed(seed, h, p)) for h in (1, 2, 3) for p in (1, 2))}
    assert json.dumps(to_position(state)).count(str(seed)) == 1  # the position holds it
    for seat in (None, 0, 1, 2):
        text = json.dumps(state.view(seat).to_json())
        assert not any(s in text for s in secrets_), seat
        assert "seed" not in text and "rng" not in text and "deal_scheme" not in text
