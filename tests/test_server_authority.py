"""The game authority on its own: versioned apply and per-seat messages, no server around it.

:class:`hotdeath.server.authority.GameRun` knows no table, socket, event loop or
database (docs/architecture.md, "The server as small rooms"), so these tests drive it as
boardgame.io's tests drive its ``Master``: start a game, check and apply actions, read
each seat's ``state`` message, rebuild the game from its record.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hotdeath.cards import card_code
from hotdeath.errors import HotDeathError
from hotdeath.server.authority import GameRun, StaleVersion
from hotdeath.server.commitment import seed_digest
from hotdeath.server.messages import dumps
from hotdeath.server.protocol import ProtocolError
from hotdeath.server.store import GameRows

NAMES = ["Ann", "Bo", "Cy"]


def _start(variant: str = "standard", seed: int = 11) -> GameRun:
    return GameRun.start(variant, 3, "official" if variant == "standard" else "canonical",
                         {}, None, list(NAMES), {}, "family", seed)


def _play(run: GameRun, moves: int, seed: int = 1) -> None:
    """``moves`` random legal actions of the current player, through the authority."""
    rng = random.Random(seed)
    for _ in range(moves):
        if run.state.is_terminal():
            return
        seat = run.state.current_player()
        run.apply(seat, rng.choice(run.state.legal_actions(seat)))


def _record(run: GameRun) -> GameRows:
    """What the store would give back for ``run``: its row, actions and deal commitments."""
    state = run.state
    row: dict[str, Any] = {
        "id": run.game_id, "variant": state.variant.name, "players": state.n,
        "seed": run.seed, "preset": run.preset, "options": {}, "dealer": None,
        "deal_scheme": run.state.deal_scheme,
        "seed_salt": run.seed_salt, "names": list(run.names), "bots": {}, "hints": [],
    }
    actions = [(seat, str(action)) for seat, action in state.history]
    return row, actions, dict(run.deals)


def test_a_new_game_is_version_zero_with_its_opening_events_and_commitments() -> None:
    run = _start()
    assert run.version == 0 and run.saved == 0 and run.last_action is None
    assert run.log == [(0, e) for e in run.state.opening_events]
    msg = run.state_message(0)
    assert msg["type"] == "state" and msg["version"] == 0 and msg["names"] == NAMES
    assert msg["seed_commitment"] == seed_digest(run.seed_salt, run.seed)
    assert msg["seed_reveal"] is None  # the seed is told only once the game is over
    assert msg["clock"] is None and msg["auto"] is False
    assert msg["commitment"] == (
        {"hand_no": 1, "digest": run.deals[1].digest} if 1 in run.deals else None)


def test_apply_counts_a_version_and_returns_the_move_to_write() -> None:
    run = _start()
    seat = run.state.current_player()
    action = run.state.legal_actions(seat)[0]
    move = run.apply(seat, action)
    assert (move.version, move.seat, move.text) == (1, seat, str(action))
    assert run.version == 1 and run.saved == 0  # saved only once the room says so
    assert run.last_action == (seat, str(action)) and move.result is None
    assert run.events_now == move.events and run.log[-len(move.events):] == [
        (1, e) for e in move.events]
    msg = run.state_message(None)
    assert msg["version"] == 1 and msg["last_action"]["action"] == str(action)
    assert msg["last_action"]["text"].startswith(f"{NAMES[seat]}: ")


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    run = _start()
    seat = run.state.current_player()
    other = (seat + 1) % 3
    before = run.state_text(None)
    with pytest.raises(HotDeathError):
        run.apply(other, run.state.legal_actions(seat)[0])
    assert run.version == 0 and run.state_text(None) == before
    assert run.state.history == []


def test_check_refuses_stale_versions_replayed_ids_and_a_finished_game() -> None:
    run = _start()
    seat = run.state.current_player()
    run.check(seat, "m1", 0)  # fresh: no error
    with pytest.raises(StaleVersion) as ahead:
        run.check(seat, "m1", 5)
    assert ahead.value.code == "stale" and ahead.value.ahead and ahead.value.msg_id == "m1"
    run.apply(seat, run.state.legal_actions(seat)[0])
    run.remember(seat, "m1")
    with pytest.raises(StaleVersion) as behind:
        run.check(seat, "m2", 0)
    assert not behind.value.ahead
    with pytest.raises(ProtocolError) as replayed:
        run.check(seat, "m1", 1)
    assert replayed.value.code == "replayed"
    run.check((seat + 1) % 3, "m1", 1)  # message ids are per seat
    _play(run, 20_000)
    assert run.state.is_terminal()
    with pytest.raises(ProtocolError) as over:
        run.check(0, "late", run.version)
    assert over.value.code == "game_over"


def test_each_seat_sees_its_own_cards_and_a_spectator_none() -> None:
    run = _start()
    for seat in (0, 1, 2):
        msg = run.state_message(seat)
        assert msg["view"]["hand"] == [card_code(c) for c in run.state.hands[seat]]
        assert all(set(s) >= {"hand_size"} and "hand" not in s for s in msg["view"]["seats"])
        legal = [a["text"] for a in msg["actions"]]
        assert legal == [str(a) for a in run.state.legal_actions(seat)]
    spectator = run.state_message(None)
    assert spectator["view"]["hand"] is None and spectator["actions"] == []


def test_state_text_is_built_once_per_seat_and_version() -> None:
    run = _start()
    asked: list[int] = []

    def clock() -> dict[str, Any] | None:
        asked.append(run.version)
        return {"seat": 0, "seconds": 30.0, "left": 30.0}

    first = run.state_text(1, clock)
    assert run.state_text(1, clock) is first and asked == [0]  # cached: not asked again
    assert json.loads(first)["clock"] == {"seat": 0, "seconds": 30.0, "left": 30.0}
    assert run.state_text(2, clock) != first and asked == [0, 0]
    assert json.loads(first) == run.state_message(1, clock)
    _play(run, 1)
    assert json.loads(run.state_text(1, clock))["version"] == 1 and asked[-1] == 1


def test_a_game_rebuilt_from_its_record_says_what_the_live_one_says() -> None:
    run = _start("hotdeath")
    _play(run, 150, seed=4)
    rebuilt = GameRun.rebuild(_record(run), "family")
    assert rebuilt.version == run.version == rebuilt.saved
    assert rebuilt.revealed == run.revealed and rebuilt.deals == run.deals
    for seat in (0, 1, 2, None):
        assert rebuilt.state_message(seat, with_log=True) == run.state_message(
            seat, with_log=True)


def test_a_finished_game_reveals_the_seed_and_its_result_is_in_the_last_move() -> None:
    run = _start(seed=12)
    rng = random.Random(2)
    move = None
    while not run.state.is_terminal():
        seat = run.state.current_player()
        move = run.apply(seat, rng.choice(run.state.legal_actions(seat)))
    assert move is not None and move.result == (list(run.state.scores),
                                                list(run.state.winners))
    msg = run.state_message(0)
    assert msg["seed_reveal"] == {"seed": run.seed, "salt": run.seed_salt}
    assert msg["results"] is not None and msg["results"]["game"] is not None
    assert run.revealed == set(run.deals)  # every deal commitment is opened at the end


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "throwdown"])
def test_the_cached_text_is_exactly_the_message_serialised(variant: str) -> None:
    """``state_text`` serialises what every seat shares once per version; the text is the
    same, byte for byte, as :func:`dumps` of :meth:`GameRun.state_message`."""
    preset = {"standard": "official", "hotdeath": "canonical", "throwdown": "seed_004"}
    rng = random.Random(7)
    checked = 0
    results = False
    for game in range(3):
        run = GameRun.start(variant, 3, preset[variant], {}, None, list(NAMES), {},
                            "original" if game else "family", 300 + game)

        def clock(run: GameRun = run) -> dict[str, Any]:  # per version, as a turn timer's
            return {"seat": 1, "seconds": 30.0, "left": float(run.version % 7)}

        while True:
            for seat in (0, 1, 2, None):
                text = run.state_text(seat, clock)
                assert text == dumps(run.state_message(seat, clock))
                checked += 1
                results = results or json.loads(text)["results"] is not None
            if run.state.is_terminal() or run.version >= 500:
                break
            seat = run.state.current_player()
            run.apply(seat, rng.choice(run.state.legal_actions(seat)))
    assert checked >= 100 and results  # hands ended: their results were in the texts
