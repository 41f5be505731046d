"""The coach at a server table: the hints setting, a hint over the WebSocket, the record."""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from hotdeath.server import create_app
from tests.test_server import FAST, Msg, full_replay, hello, join, new_table, recv, start

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession


@pytest.fixture
def quick(db_url: str) -> Iterator[TestClient]:
    """A server whose coach thinks 0.05 s a hint (the bots' cap)."""
    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST,
                               max_bot_seconds=0.05)) as c:
        yield c


def _next(ws: WebSocketTestSession, *kinds: str) -> Msg:
    for _ in range(5000):
        m: Msg = ws.receive_json()
        if m["type"] in kinds:
            return m
    raise AssertionError(f"no {kinds} message")  # pragma: no cover


def _my_turn(ws: WebSocketTestSession, seat: int, m: Msg | None = None) -> Msg:
    """The first state where ``seat`` is to act with more than one move.

    A turn of ``seat`` with a single move (a draw, say) is played here: the server waits
    for the person, so waiting for the next state instead would wait for ever.
    """
    m = m or _next(ws, "state")
    for n in range(2000):
        mine = m["view"]["current_player"] == seat
        if mine and len(m["view"]["legal_actions"]) > 1:
            return m
        if mine and m["view"]["legal_actions"]:
            ws.send_json({"type": "action", "action": m["view"]["legal_actions"][0],
                          "version": m["version"], "id": f"only{n}"})
        m = _next(ws, "state")
    raise AssertionError(f"seat {seat} never had a choice")  # pragma: no cover


def test_hints_are_on_with_bots_off_for_people_only_and_the_host_changes_it(
        quick: TestClient) -> None:
    with_bot = new_table(quick, variant="standard", seats=2, bots={"1": "basic"})
    people = new_table(quick, variant="standard", seats=2)
    assert with_bot["table"]["hints"] is True and with_bot["table"]["hints_setting"] is None
    assert people["table"]["hints"] is False
    tid = people["table_id"]
    host = {"X-Token": people["host_token"]}
    r = quick.patch(f"/api/tables/{tid}", json={"hints": True}, headers=host)
    assert r.status_code == 200 and r.json()["hints"] is True
    assert quick.get(f"/api/tables/{tid}").json()["hints_setting"] is True
    r = quick.patch(f"/api/tables/{tid}", json={"hints": None}, headers=host)
    assert r.json()["hints"] is False and r.json()["hints_setting"] is None
    off = new_table(quick, variant="standard", seats=2, bots={"1": "basic"}, hints=False)
    assert off["table"]["hints"] is False
    assert quick.patch(f"/api/tables/{tid}", json={"hints": True}).status_code == 403


def test_a_hint_over_the_websocket_is_the_seats_own_and_recorded(quick: TestClient) -> None:
    table = new_table(quick, variant="standard", seats=2, bots={"1": "basic"},
                      options={"target_score": 1})
    tid = table["table_id"]
    ann = join(quick, tid, "Ann", 0)
    room = quick.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    with quick.websocket_connect(f"/ws/{tid}") as a, \
            quick.websocket_connect(f"/ws/{tid}") as watcher:
        hello(a, ann["token"])
        hello(watcher, None)
        start(quick, table)
        m = _my_turn(a, 0)
        watcher.send_json({"type": "hint", "id": "w1"})
        assert _next(watcher, "error")["code"] == "spectator"
        a.send_json({"type": "hint", "id": "h1"})
        got = _next(a, "hint")
        assert got["id"] == "h1" and got["version"] == m["version"] and got["fresh"] is True
        moves = got["hint"]["moves"]
        assert 1 <= len(moves) <= 3
        assert all(mv["action"] in m["view"]["legal_actions"] for mv in moves)
        assert got["lines"][0].startswith("Best: ") and got["used"] == 1
        index = len(room.run.state.history) + 1
        assert room.run.hints == [[0, index]]
        # the hint is stored with the game
        quick.app.state.hub.store.barrier().result()  # type: ignore[attr-defined]
        row = quick.app.state.hub.store.load_game(room.run.game_id)  # type: ignore[attr-defined]
        assert row is not None and row[0]["hints"] == [[0, index]]
        # play the game out: Ann takes the coach's move, then at random
        rng = random.Random(3)
        sent = 0
        while m["view"]["phase"] != "game_over":
            view = m["view"]
            if view["current_player"] == 0 and view["legal_actions"]:
                move = moves[0]["action"] if sent == 0 else rng.choice(view["legal_actions"])
                sent += 1
                a.send_json({"type": "action", "action": move, "version": m["version"],
                             "id": f"a{sent}"})
            m = _next(a, "state")
        assert m["hints_used"] == [1, 0]
        assert m["hints_line"] == "Ann used 1 hint."
        a.send_json({"type": "hint", "id": "late"})
        assert _next(a, "error")["code"] == "not_started"
    replay = full_replay(quick, m["game_id"])
    assert replay["hints"] == [[0, index]] and replay["hints_line"] == "Ann used 1 hint."
    assert replay["record"]["hints"] == [[0, index]]
    assert replay["record"]["names"][0] == "Ann" and replay["record"]["people"] == [0]
    # the coach's review of the hand, computed once and stored with the game
    r = quick.get(f"/api/games/{m['game_id']}/review?hand=1&seat=0")
    assert r.status_code == 200, r.text
    review = r.json()["review"]
    assert review["lines"][0].startswith("Hand 1, Ann:")
    assert review["seats"] == [0] and review["hand_no"] == 1
    assert {d["index"] for d in review["decisions"]} <= set(range(1, len(replay["steps"])))
    assert all(d["seat"] == 0 for d in review["decisions"])
    assert len(review["mistakes"]) <= 3
    hub = quick.app.state.hub  # type: ignore[attr-defined]
    hub.store.barrier().result()
    stored = hub.store.load_game(m["game_id"])[0]["reviews"]
    assert stored == {"1:0": review}
    # computed in a process of its own, never on the event loop's interpreter
    assert hub.reviews.worker().submit(os.getpid).result() != os.getpid()
    hub.reviews.cache.clear()  # from the database now, not recomputed
    again = quick.get(f"/api/games/{m['game_id']}/review?hand=1&seat=0").json()["review"]
    assert again == review and not hub.reviews.cache
    assert quick.get(f"/api/games/{m['game_id']}/review?hand=9&seat=0").json()["code"] == (
        "no_hand")
    assert quick.get(f"/api/games/{m['game_id']}/review?hand=1&seat=5").json()["code"] == (
        "bad_seat")


def test_no_hint_out_of_turn_nor_at_a_table_with_hints_off(quick: TestClient) -> None:
    table = new_table(quick, variant="standard", seats=2)
    tid = table["table_id"]
    ann, bob = join(quick, tid, "Ann", 0), join(quick, tid, "Bob", 1)
    with quick.websocket_connect(f"/ws/{tid}") as a, quick.websocket_connect(f"/ws/{tid}") as b:
        hello(a, ann["token"])
        hello(b, bob["token"])
        start(quick, table)
        m = recv(a, "state")
        recv(b, "state")
        a.send_json({"type": "hint", "id": "x"})
        assert _next(a, "error")["code"] == "hints_off"
        r = quick.patch(f"/api/tables/{tid}", json={"hints": True},
                        headers={"X-Token": table["host_token"]})
        assert r.json()["hints"] is True
        waiting = b if m["view"]["current_player"] == 0 else a
        waiting.send_json({"type": "hint", "id": "y"})
        assert _next(waiting, "error")["code"] == "not_your_turn"


def test_a_running_games_hand_is_reviewed_for_its_own_seat_once_over(
        quick: TestClient) -> None:
    table = new_table(quick, variant="standard", seats=2, bots={"1": "basic"})
    tid = table["table_id"]
    ann = join(quick, tid, "Ann", 0)
    with quick.websocket_connect(f"/ws/{tid}") as a:
        hello(a, ann["token"])
        start(quick, table)
        m = _my_turn(a, 0)
        url = f"/api/games/{m['game_id']}/review?hand=1"
        assert quick.get(url).json()["code"] == "bad_token"
        mine = {"X-Token": ann["token"]}
        assert quick.get(url + "&seat=1", headers=mine).json()["code"] == "not_your_seat"
        r = quick.get(url, headers=mine)
        assert r.status_code == 409 and r.json()["code"] == "hand_not_over"


def test_reviews_are_bounded_and_a_dead_review_process_is_replaced(
        quick: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = new_table(quick, variant="standard", seats=2, bots={"1": "basic"},
                      options={"rounds": 1})
    tid = table["table_id"]
    ann = join(quick, tid, "Ann", 0)
    hub = quick.app.state.hub  # type: ignore[attr-defined]
    with quick.websocket_connect(f"/ws/{tid}") as a:
        hello(a, ann["token"])
        start(quick, table)
        m = _my_turn(a, 0)
        rng = random.Random(5)
        while m["view"]["phase"] != "game_over":
            view = m["view"]
            if view["current_player"] == 0 and view["legal_actions"]:
                a.send_json({"type": "action", "action": rng.choice(view["legal_actions"]),
                             "version": m["version"], "id": str(m["version"])})
            m = _next(a, "state")
    url = f"/api/games/{m['game_id']}/review?hand=1&seat=0"
    # a server that already has its share of reviews under way refuses one more, and
    # remembers nothing of it
    monkeypatch.setattr("hotdeath.server.coaching.REVIEWS_WAITING", 0)
    r = quick.get(url)
    assert r.status_code == 503 and r.json()["code"] == "coach_busy", r.text
    assert not hub.reviews.cache
    monkeypatch.undo()
    # nor does it take more than its share from one address (two: the replays' cap)
    monkeypatch.setattr("hotdeath.server.routes.deps.PER_ADDRESS", 0)
    r = quick.get(url)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    assert "reviews at once" in r.json()["message"] and not hub.reviews.cache
    monkeypatch.undo()
    # the review process killed: the next review gets a new one
    old = hub.reviews.worker()
    pid = old.submit(os.getpid).result()
    os.kill(pid, 9)
    with pytest.raises(BrokenProcessPool):
        old.submit(os.getpid).result(timeout=30)
    r = quick.get(url)
    assert r.status_code == 200, r.text
    assert r.json()["review"]["seats"] == [0]
    assert hub.reviews.worker() is not old
