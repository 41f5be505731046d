"""The server's side of the friends' table: rules for people, chat, the turn timer, public
tables and removing a player (the browser's side is tests/test_browser_table.py)."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Callable

from hotdeath.rulebook import RULES
from hotdeath.server import create_app
from hotdeath.server.rules_pages import card_help
from hotdeath.words import for_people
from tests.test_server import (
    FAST,
    Msg,
    client,
    hello,
    join,
    new_table,
    recv,
    start,
)

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

__all__ = ["client"]  # the fixture of tests/test_server.py

IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def test_card_rules_come_from_the_rulebook_in_the_theme(client: TestClient) -> None:
    r = client.get("/api/rules/hotdeath?theme=original")
    assert r.status_code == 200
    cards = r.json()["cards"]
    assert cards["RET"]["name"] == "Fuck You" and cards["RET"]["rule"] == "HD-2.3.23"
    assert "Retaliation" not in cards["RET"]["text"]
    assert set(card_help("standard")["cards"]) >= {"R7", "WD4", "W"}
    assert "HOT" not in card_help("standard")["cards"]  # only the cards of the deck
    assert client.get("/api/rules/nope").json()["code"] == "unknown_variant"
    assert client.get("/api/rules/hotdeath?theme=x").json()["code"] == "bad_theme"


def test_no_rule_text_people_read_names_an_option_by_its_identifier() -> None:
    for rule in RULES.values():
        text = for_people(rule.text, rule.game)
        assert "`" not in text and not IDENTIFIER.search(text), (rule.id, text)


def test_the_rules_page_marks_the_tables_house_rules(client: TestClient) -> None:
    table = new_table(client, variant="standard", options={"seven_o": True}, seats=2)
    page = client.get(f"/rules/standard?table={table['table_id']}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    marked = re.findall(r'<article class="rule changed" id="([^"]+)"', page.text)
    assert marked == ["STD-12.2"]
    assert "Sevens and zeros (7-0): yes" in page.text
    plain = client.get("/rules/cutthroat").text
    assert "Rules of Cutthroat Uno" in plain and "rule changed" not in plain
    assert client.get("/rules/nope").status_code == 404
    assert client.get("/rules/standard?table=nope").status_code == 404


# ---------------------------------------------------------------------------- chat


def test_chat_reaches_seats_and_spectators_as_stored_text(client: TestClient) -> None:
    table = new_table(client, variant="standard", seats=2)
    tid = table["table_id"]
    ann = join(client, tid, "Ann")
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as w:
        assert hello(a, ann["token"])["chat"] == []
        welcome = hello(w, None)
        assert welcome["watcher"] == 1 and "gg" in welcome["reactions"]
        a.send_json({"type": "chat", "text": "  <b>hi</b> Cafe\u0301 "})
        for ws in (a, w):
            line = recv(ws, "chat")["line"]
            assert line == {"idx": 1, "seat": 0, "name": "Ann", "kind": "text",
                            "text": "<b>hi</b> Café"}
        w.send_json({"type": "react", "reaction": "gg"})
        line = recv(a, "chat")["line"]
        assert (line["name"], line["kind"], line["text"]) == ("Watcher 1", "reaction",
                                                              "Good game!")
        recv(w, "chat")
        for bad in ("", "x" * 301, "a\u202eb", "a\u0007b", 5):
            a.send_json({"type": "chat", "text": bad})
            assert recv(a, "error")["code"] == "bad_chat"
        a.send_json({"type": "react", "reaction": "boo"})
        assert recv(a, "error")["code"] == "bad_chat"
    # stored with the table: a new connection gets the lines
    with client.websocket_connect(f"/ws/{tid}") as again:
        lines = hello(again, None)["chat"]
        assert [x["text"] for x in lines] == ["<b>hi</b> Café", "Good game!"]


def test_chat_is_rate_limited_per_connection(client: TestClient) -> None:
    table = new_table(client, variant="standard", seats=2)
    with client.websocket_connect(f"/ws/{table['table_id']}") as w:
        hello(w, None)
        codes = []
        for i in range(8):
            w.send_json({"type": "chat", "text": f"line {i}"})
            m = w.receive_json()
            while m["type"] == "table":
                m = w.receive_json()
            codes.append(m["type"] if m["type"] == "chat" else m["code"])
        assert codes[:5] == ["chat"] * 5 and "chat_limited" in codes[5:]


# ---------------------------------------------------------------------------- the timer


def _wait_state(ws: WebSocketTestSession, check: Callable[[Msg], bool]) -> Msg:
    for _ in range(500):
        m = recv_any(ws)
        if m["type"] == "state" and check(m):
            return m
    raise AssertionError("no such state")


def recv_any(ws: WebSocketTestSession) -> Msg:
    m: Msg = ws.receive_json()
    return m


def test_the_turn_timer_moves_for_a_person_whose_time_runs_out(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST)) as client:
        table = new_table(client, variant="standard", seats=2, bots={"1": "basic"},
                          turn_timer=15)
        assert table["table"]["turn_timer"] == 15
        tid = table["table_id"]
        ann = join(client, tid, "Ann", 0)
        room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{tid}") as a:
            hello(a, ann["token"])
            start(client, table)
            first = _wait_state(a, lambda m: m["view"]["current_player"] == 0
                                and bool(m["view"]["legal_actions"]))
            assert first["clock"]["seat"] == 0 and first["clock"]["seconds"] == 15
            version = first["version"]
            expected = room.driver.timer_move(room.run, 0)
            room.driver.clock = (0, time.monotonic() - 16)  # the time ran out
            room.driver.wake()
            moved = _wait_state(a, lambda m: m["version"] > version)
            assert moved["auto"] is True
            assert moved["last_action"]["seat"] == 0
            assert moved["last_action"]["action"] == str(expected)
        rows = client.app.state.hub.store.load_game(  # type: ignore[attr-defined]
            moved["game_id"])
        assert rows is not None and rows[1][version] == (0, str(expected))
        assert client.post("/api/tables", json={"turn_timer": 5}).json()["code"] == "bad_timer"


def test_a_searching_timer_bot_moves_off_the_event_loop(db_url: str) -> None:
    """With an ``ismcts`` takeover bot the timer's move is searched in the hub's threads.

    A second of search on the event loop would stall every table of the process; the move
    is computed on a clone in the bot threads and dropped if the person moved meanwhile.
    """
    import threading

    import hotdeath.server.driver as driver_module

    threads: list[str] = []
    choose = driver_module.timer_choice

    def spy(*args: object, **kw: object) -> object:
        threads.append(threading.current_thread().name)
        return choose(*args, **kw)  # type: ignore[arg-type]

    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST)) as client:
        table = new_table(client, variant="standard", seats=2, bots={"1": "basic"},
                          turn_timer=15, takeover_bot="ismcts:seconds=0.2")
        tid = table["table_id"]
        ann = join(client, tid, "Ann", 0)
        room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
        assert room.driver.takeover_thinks
        driver_module.timer_choice = spy  # type: ignore[assignment]
        try:
            with client.websocket_connect(f"/ws/{tid}") as a:
                hello(a, ann["token"])
                start(client, table)
                first = _wait_state(a, lambda m: m["view"]["current_player"] == 0
                                    and bool(m["view"]["legal_actions"]))
                version = first["version"]
                legal = set(first["view"]["legal_actions"])
                room.driver.clock = (0, time.monotonic() - 16)  # the time ran out
                room.driver.wake()
                moved = _wait_state(a, lambda m: m["version"] > version)
        finally:
            driver_module.timer_choice = choose
        assert moved["auto"] is True and moved["last_action"]["seat"] == 0
        assert moved["last_action"]["action"] in legal
        assert threads and all(t.startswith("hotdeath-bot") for t in threads), threads


def test_a_timer_move_searched_while_the_host_stops_the_timer_is_dropped(db_url: str) -> None:
    """The search runs off the loop; if the clock stopped meanwhile, its move is not made."""
    import threading

    import hotdeath.server.driver as driver_module

    searching, release = threading.Event(), threading.Event()
    choose = driver_module.timer_choice

    def slow(*args: object, **kw: object) -> object:
        searching.set()
        assert release.wait(60)
        return choose(*args, **kw)  # type: ignore[arg-type]

    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST)) as client:
        table = new_table(client, variant="standard", seats=2, bots={"1": "basic"},
                          turn_timer=15, takeover_bot="ismcts:seconds=0.2")
        tid = table["table_id"]
        ann = join(client, tid, "Ann", 0)
        room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
        driver_module.timer_choice = slow  # type: ignore[assignment]
        try:
            with client.websocket_connect(f"/ws/{tid}") as a:
                hello(a, ann["token"])
                start(client, table)
                first = _wait_state(a, lambda m: m["view"]["current_player"] == 0
                                    and bool(m["view"]["legal_actions"]))
                version = first["version"]
                room.driver.clock = (0, time.monotonic() - 16)  # the time ran out: a search starts
                room.driver.wake()  # (from this thread the loop may only see it at its own
                # next wake-up, the clock's deadline 15 s on, so the wait allows for that)
                assert searching.wait(40)
                r = client.patch(f"/api/tables/{tid}", json={"turn_timer": None},
                                 headers={"X-Token": table["host_token"]})
                assert r.status_code == 200, r.text
                release.set()
                deadline = time.monotonic() + 10
                while room.driver.stale_answers == 0 and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert room.driver.stale_answers == 1  # the searched move was dropped
                assert room.run.version == version  # nobody moved for Ann
                assert room.run.state.current_player() == 0
        finally:
            release.set()
            driver_module.timer_choice = choose


# ---------------------------------------------------------------------------- breather


def test_the_breather_holds_the_next_hand_until_everyone_is_ready(client: TestClient) -> None:
    table = new_table(client, variant="standard", seats=2, breather=60,
                      options={"target_score": 100000})
    tid = table["table_id"]
    ann, bob = join(client, tid, "Ann", 0), join(client, tid, "Bob", 1)
    room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, ann["token"])
        hello(b, bob["token"])
        start(client, table)
        recv(a, "state")
        recv(b, "state")
        sent = 0
        while room.driver.breather is None:  # play the hand out, both seats at random
            view = room.run.state
            seat = view.current_player()
            legal = view.legal_actions(seat)
            ws = a if seat == 0 else b
            sent += 1
            ws.send_json({"type": "action", "action": str(legal[0]), "id": f"x{sent}",
                          "version": room.run.version})
            while True:
                got = recv_any(ws)
                if got["type"] == "state":
                    break
            assert sent < 3000
        pause = _recv_type(a, "breather")
        assert pause["over"] is False and pause["waiting"] == [0, 1]
        seat = room.run.state.current_player()
        ws = a if seat == 0 else b
        legal = room.run.state.legal_actions(seat)
        ws.send_json({"type": "action", "action": str(legal[0]), "id": "late",
                      "version": room.run.version})
        assert _recv_type(ws, "error")["code"] == "breather"
        a.send_json({"type": "ready"})
        while (told := _recv_type(b, "breather"))["waiting"] != [1]:
            assert told["waiting"] == [0, 1]  # the pause's first message, before Ann's
        assert told["ready"] == [0]
        b.send_json({"type": "ready"})
        while not _recv_type(b, "breather")["over"]:
            pass
        assert room.driver.breather is None


def _recv_type(ws: WebSocketTestSession, kind: str) -> Msg:
    for _ in range(20000):  # a long hand sends a state per action first
        m = recv_any(ws)
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


# ---------------------------------------------------------------------------- lobby, host


def test_public_tables_are_listed_and_private_ones_not(client: TestClient) -> None:
    public = new_table(client, variant="standard", seats=3, public=True, name="Open",
                       options={"seven_o": True}, bots={"2": "basic"})
    new_table(client, variant="standard", seats=3, name="Private")
    listed = client.get("/api/tables").json()["tables"]
    assert [t["name"] for t in listed] == ["Open"]
    row = listed[0]
    assert row["table_id"] == public["table_id"] and row["seats_free"] == 2
    assert row["variant_title"] == "Uno (official rules)"
    assert row["preset_title"] == "Official rules"
    assert row["house_rules"] == ["Sevens and zeros (7-0): yes"]
    r = client.patch(f"/api/tables/{public['table_id']}", json={"public": False},
                     headers={"X-Token": public["host_token"]})
    assert r.status_code == 200 and r.json()["public"] is False
    assert client.get("/api/tables").json()["tables"] == []


def test_the_host_gives_a_persons_seat_to_a_bot(client: TestClient) -> None:
    table = new_table(client, variant="standard", seats=2)
    tid = table["table_id"]
    join(client, tid, "Ann", 0)
    bob = join(client, tid, "Bob", 1)
    host = {"X-Token": table["host_token"]}
    assert client.delete(f"/api/tables/{tid}/seats/1").json()["code"] == "not_host"
    with client.websocket_connect(f"/ws/{tid}") as b:
        hello(b, bob["token"])
        start(client, table)
        r = client.delete(f"/api/tables/{tid}/seats/1", headers=host)
        assert r.status_code == 200, r.text
        seat = r.json()["seats"][1]
        assert seat["kind"] == "bot" and seat["name"] == "Bo — casual bot"
        assert _recv_type(b, "error")["code"] == "removed"
        assert _recv_type(b, "welcome")["seat"] is None
    assert client.delete(f"/api/tables/{tid}/seats/1", headers=host).json()["code"] == (
        "not_a_person"
    )
    room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    assert 1 in room.run.bots
