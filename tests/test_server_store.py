"""The server's storage off the event loop, and tables unloaded from memory and loaded back.

Writes go to one database thread in order; a read sees every write queued before it; a
failed write is logged and refused for the rest of that table's record; closing the store
writes what is queued.  A table nobody is connected to leaves memory when idle and comes
back from its record exactly as it was (the bots included).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from hotdeath.actions import Action
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move
from hotdeath.cards import card_code
from hotdeath.server import create_app
from hotdeath.server import writes as writes_module
from hotdeath.server.authority import GameRun
from hotdeath.server.connections import Conn
from hotdeath.server.driver import decision_rngs
from hotdeath.server.hub import Hub
from hotdeath.server.room import Room
from hotdeath.server.store import SaveRefused, Store
from tests.support import ceiling
from tests.test_server import full_replay

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FAST = (1e9, 1e9)


def _people_table(hub: Hub, variant: str = "standard", players: int = 2) -> Room:
    room, _host = hub.create_table(variant, None, {}, players, {}, "family", 0, None, None, None)
    for s in range(players):
        room.seating.join(f"P{s}", s)
    return room


def _started(url: str) -> tuple[Store, Hub, Room, Conn, GameRun]:
    """A threaded store at ``url``, a started two-person table and a greeted connection."""
    store = Store(url, threaded=True)
    hub = Hub(store, bot_delay=0)
    room = _people_table(hub)
    conn = Conn()
    room.hello(conn, None)
    room.start()
    assert room.run is not None
    return store, hub, room, conn, room.run


def _move(room: Room, rng: random.Random) -> None:
    assert room.run is not None
    bots = {s: make_bot("random") for s in range(room.players)}
    rngs = [random.Random(rng.random()) for _ in range(room.players)]
    move = next_bot_move(room.run.state, bots, rngs)
    assert move is not None
    room.apply(*move)


def _outbox(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def test_many_quick_moves_are_written_and_told_in_order(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a table's writes under way are bounded (IN_FLIGHT, tests/test_server_pressure.py):
    # raised here, so that 150 writes of one table are queued at once
    monkeypatch.setattr(writes_module, "IN_FLIGHT", 200)

    async def main() -> None:
        store, hub, room, watcher, run = _started(db_url)
        rng = random.Random(5)
        for _ in range(150):  # no await: every write is still queued when the next comes
            if run.state.is_terminal():
                break
            _move(room, rng)
        await asyncio.wrap_future(store.barrier())
        await asyncio.sleep(0)  # the deliveries scheduled by the last writes
        saved = store.load_game(run.game_id)
        assert saved is not None
        assert saved[1] == [(s, str(a)) for s, a in run.state.history]
        assert run.saved == run.version == len(saved[1])
        versions = [m["version"] for m in _outbox(watcher) if m["type"] == "state"]
        assert versions == list(range(run.version + 1))  # each version once, in order
        await hub.close()
        store.close()

    asyncio.run(main())


def test_closing_writes_the_queue_and_a_restart_sees_everything(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = db_url
    # 40 moves are queued behind a held writer: more than a table may have under way
    # (IN_FLIGHT, tests/test_server_pressure.py), raised here as in the test above
    monkeypatch.setattr(writes_module, "IN_FLIGHT", 200)

    async def main() -> tuple[str, int, list[list[int]]]:
        store = Store(url, threaded=True)
        hub = Hub(store, bot_delay=0)
        room = _people_table(hub, "hotdeath", 3)
        room.start()
        run = room.run
        assert run is not None
        gate = threading.Event()
        store.writer.submit(lambda: gate.wait(ceiling(10)), "hold the writer")
        rng = random.Random(9)
        for _ in range(40):
            _move(room, rng)
        assert not store.barrier().done()  # everything above is still queued
        threading.Timer(0.05, gate.set).start()
        await hub.close()
        store.close()  # waits for the queue
        return room.table_id, run.version, [h[:] for h in run.state.hands]

    table_id, version, hands = asyncio.run(main())
    again = Store(url)
    hub = Hub(again)
    room = hub.get(table_id)
    assert room is not None and room.run is not None
    assert room.run.version == version and room.run.state.hands == hands
    again.close()


def test_a_failed_write_refuses_the_rest_of_the_record_until_reloaded(
    db_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writes_module, "BACKOFF_FIRST", 0.05)

    async def main() -> None:
        store, hub, room, seat0, run = _started(db_url)
        rng = random.Random(3)
        for _ in range(3):
            _move(room, rng)
        await asyncio.wrap_future(store.barrier())
        good = [(s, str(a)) for s, a in run.state.history]
        real = store._write_action
        lost = run.version + 1

        def broken(*args: Any) -> None:  # the database fails on one action only
            if args[3] == lost:
                raise sa.exc.OperationalError("insert", {}, Exception("disk full"))
            real(*args)

        store._write_action = broken  # type: ignore[method-assign,assignment]
        with caplog.at_level(logging.DEBUG, logger="hotdeath.server"):
            _move(room, rng)
            _move(room, rng)  # queued behind the failure: refused, never written out of order
            refused = store.record_action(room.table_id, run.game_id, 99, 0, "draw")
            with pytest.raises(SaveRefused):
                await asyncio.wrap_future(refused)
            for _ in range(200):  # the room reloads what the database holds
                if room.run is not run and not room.writes.recovering:
                    break
                await asyncio.sleep(0.01)
        store._write_action = real  # type: ignore[method-assign]
        logged = [(r.levelno, r.getMessage()) for r in caplog.records]
        # one episode: the store's error and the table's, not one per refused write
        assert len([m for lv, m in logged if lv >= logging.WARNING]) == 2, logged
        assert len([m for lv, m in logged if lv == logging.DEBUG and "not written" in m]) == 2
        assert room.run is not run and room.run is not None
        assert [(s, str(a)) for s, a in room.run.state.history] == good
        told = _outbox(seat0)
        assert [m["code"] for m in told if m["type"] == "error"] == ["not_saved"]
        assert told[-1]["type"] == "state" and told[-1]["version"] == len(good)
        while room.writes.paused_for() > 0:  # the table waits out its backoff
            await asyncio.sleep(0.01)
        _move(room, rng)  # the table plays on, and the record continues without a gap
        await asyncio.wrap_future(store.barrier())
        saved = store.load_game(run.game_id)
        assert saved is not None
        assert saved[1] == [(s, str(a)) for s, a in room.run.state.history]
        await hub.close()
        store.close()

    asyncio.run(main())


async def _play(hub: Hub, table_id: str, moves: int, rng: random.Random) -> Room:
    """Make ``moves`` moves of seat 0 (the person) while the bots play the others."""

    async def turn(room: Room) -> bool:
        for _ in range(3000):
            run = room.run
            assert run is not None
            if run.state.is_terminal():
                return False
            rngs = decision_rngs(run.seed, run.version, room.players)  # as the room's bots
            if next_bot_move(run.state, run.bots, rngs) is None:
                return True
            await asyncio.sleep(0.002)
        raise AssertionError("the bots did not move")

    room = await hub.room(table_id)
    for _ in range(moves):
        if not await turn(room):
            break
        run = room.run
        assert run is not None
        legal = run.state.legal_actions(0)
        room.apply(0, legal[rng.randrange(len(legal))])
    await turn(room)
    return room


def test_a_table_unloaded_mid_hand_comes_back_and_plays_on_exactly(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables with the same seed and the same person's moves: one unloaded midway."""
    monkeypatch.setattr(secrets, "randbits", lambda _k: 4242)

    async def twin(unload: bool) -> tuple[list[tuple[int, str]], list[Any]]:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0, idle_unload=0.0)
        room, _host = hub.create_table(
            "hotdeath", None, {}, 4, {1: "basic", 2: "random", 3: "heuristic"},
            "family", 0, None, None, None,
        )
        room.seating.join("Ann", 0)
        table_id = room.table_id
        room.start()
        rng = random.Random(1)
        room = await _play(hub, table_id, 4, rng)
        before = room.run
        assert before is not None and not before.state.is_terminal()
        if unload:
            assert await hub.unload_idle() == [table_id]
            assert table_id not in hub.rooms and hub.unloaded == 1
            room = await _play(hub, table_id, 0, rng)  # loaded back on demand
            run = room.run
            assert run is not None and run is not before
            assert (run.seed, run.version, run.deals) == (
                before.seed, before.version, before.deals)
            assert run.log == before.log and run.state.hands == before.state.hands
            assert room.status == "playing" and sorted(run.bots) == [1, 2, 3]
        room = await _play(hub, table_id, 8, rng)
        assert room.run is not None
        out = ([(s, str(a)) for s, a in room.run.state.history], list(room.run.log))
        await hub.close()
        store.close()
        return out

    kept, reloaded = asyncio.run(twin(False)), asyncio.run(twin(True))
    assert len(kept[0]) > 12
    assert kept == reloaded  # the bots chose the same moves after the reload


def test_a_finished_table_leaves_memory_and_its_replay_still_works(db_url: str) -> None:
    app = create_app(db_url, bot_delay=0, rate_limit=FAST, idle_unload=None,
                     finished_unload=0.05)
    with TestClient(app) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        t = client.post("/api/tables", json={
            "variant": "standard", "seats": 3, "bots": {"0": "basic", "1": "basic",
                                                        "2": "random"},
            "options": {"rounds": 1}}).json()
        table_id = t["table_id"]
        client.post(f"/api/tables/{table_id}/start", headers={"X-Token": t["host_token"]})
        deadline = time.monotonic() + ceiling(20)
        while (summary := client.get(f"/api/tables/{table_id}").json())["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.02)
        first = full_replay(client, summary["game_id"])
        deadline = time.monotonic() + ceiling(5)
        while table_id in hub.rooms:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.02)
        again = full_replay(client, summary["game_id"])
        assert again == first and again["status"] == "finished" and "record" in again
        assert client.get(f"/api/tables/{table_id}").json() == summary
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": None})
            while (m := ws.receive_json())["type"] != "state":
                pass
            assert m["view"]["phase"] == "game_over" and m["game_id"] == summary["game_id"]


def test_sqlite_runs_statements_inline_and_a_thread_is_a_choice(tmp_path: Path) -> None:
    inline = Store(f"sqlite:///{tmp_path / 'inline.sqlite3'}")
    threaded = Store(f"sqlite:///{tmp_path / 'thread.sqlite3'}", threaded=True)
    try:
        assert not inline.writer.threaded and threaded.writer.threaded
        caller = threading.get_ident()
        ran_in = inline.writer.submit(threading.get_ident, "where")
        assert ran_in.done() and ran_in.result() == caller  # finished before submit returned
        assert threaded.writer.submit(threading.get_ident, "where").result(5) != caller
    finally:
        inline.close()
        threaded.close()


def test_an_inline_job_may_queue_another(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'nested.sqlite3'}")
    try:
        outer = store.writer.submit(lambda: store.writer.submit(lambda: 7, "inner").result(1),
                                    "outer")
        assert outer.result(1) == 7
    finally:
        store.close()


def test_a_cancelled_wait_neither_cancels_a_write_nor_stops_the_writer(tmp_path: Path) -> None:
    """A request whose client went away is cancelled; the write it awaited is still made."""
    store = Store(f"sqlite:///{tmp_path / 'cancel.sqlite3'}", threaded=True)
    gate = threading.Event()
    store.writer.submit(gate.wait, "hold the writer")
    fut = store.writer.submit(lambda: 42, "a write")

    async def main() -> None:
        waiting = asyncio.ensure_future(asyncio.wrap_future(fut))
        await asyncio.sleep(0)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting

    asyncio.run(main())
    assert not fut.cancelled() and not fut.cancel()
    gate.set()
    assert fut.result(10) == 42
    assert store.writer.submit(lambda: 7, "the next write").result(10) == 7  # still alive
    store.close()


# ---------------------------------------------------------------------------- the next dealer


async def _finish(room: Room, rng: random.Random, limit: int = 3000) -> None:
    """Random moves of every seat until the table's game is over.

    At the bound of writes under way it waits for the newest, as the table's bots do.
    """
    for _ in range(limit):
        assert room.run is not None
        if room.run.state.is_terminal():
            return
        if room.writes.busy():
            await room.writes.caught_up()
        _move(room, rng)
    raise AssertionError("the game did not end")


@pytest.mark.rule("TD-1.6", "seed 004", "ruling", "the winner deals the next game")
@pytest.mark.rule("TD-1.3", "seed 004", "the previous winner deals")
def test_a_throwdown_tables_next_game_is_dealt_by_the_winner_across_restarts(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rematch is dealt by the first game's winner, stored with the game, rebuilt the
    same after a restart, and its replay and record say so."""
    from hotdeath.notation import replay, to_position
    from hotdeath.server.commitment import opening_deck

    seeds = iter([13, 12])
    monkeypatch.setattr(secrets, "randbits", lambda _k: next(seeds))
    options = {"play_on_after_first_out": False, "decks": 1}

    async def first() -> tuple[str, str, int]:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0)
        room, _host = hub.create_table("throwdown", None, options, 3, {}, "family", 0,
                                       None, None, None)
        for s in range(3):
            room.seating.join(f"P{s}", s)
        room.start()
        assert room.run is not None and room.run.state.dealer == 0  # the given first dealer
        await _finish(room, random.Random(6))  # a game that ends with a winner
        state = room.run.state
        assert state.winners and state.next_game_dealer() == state.winners[0]
        out = room.table_id, room.run.game_id, state.winners[0]
        await hub.close()
        store.close()
        return out

    table_id, game1, winner = asyncio.run(first())
    assert winner != 0  # else the test could not tell the winner from the default seat

    async def rematch() -> tuple[str, str]:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0)
        room = hub.get(table_id)  # after the restart: the finished game rebuilt
        assert room is not None and room.run is not None and room.run.game_id == game1
        room.rematch()
        run = room.run
        assert run is not None and run.game_id != game1
        state = run.state
        assert state.dealer == winner and state.init_params == {"dealer": winner}
        assert [(e.kind, e.seat, e.rule) for _v, e in run.log[:1]] == [
            ("dealer", winner, "TD-1.3")]
        # the deal commitment is of the cards this dealer dealt
        deck = opening_deck(state, winner)
        assert deck is not None
        assert run.deals[1].deck == tuple(card_code(c) for c in deck)
        rng = random.Random(4)
        for _ in range(6):
            _move(room, rng)
        await asyncio.wrap_future(store.barrier())
        row = store.load_game(run.game_id)
        assert row is not None and row[0]["dealer"] == winner
        old = store.load_game(game1)
        assert old is not None and old[0]["dealer"] is None  # none given to the first game
        out = run.game_id, json.dumps(to_position(state), sort_keys=True)
        await hub.close()
        store.close()
        return out

    game2, position = asyncio.run(rematch())

    async def restart() -> None:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0)
        room = hub.get(table_id)
        assert room is not None and room.run is not None and room.run.game_id == game2
        assert room.run.state.dealer == winner
        assert json.dumps(to_position(room.run.state), sort_keys=True) == position
        await _finish(room, random.Random(9))  # random play that ends the game soon
        await hub.close()
        store.close()

    asyncio.run(restart())
    app = create_app(db_url, bot_delay=0, rate_limit=FAST, idle_unload=None,
                     max_bot_seconds=0.05)
    with TestClient(app) as client:
        shown = full_replay(client, game2)
        # the coach's review replays the game from its row: dealt by the same dealer
        r = client.get(f"/api/games/{game2}/review?hand=1&seat={winner}")
        assert r.status_code == 200, r.text
        assert r.json()["review"]["seats"] == [winner]
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        room = hub.get(table_id)
        assert room is not None and room.run is not None
        final = room.run.state
    assert shown["status"] == "finished" and shown["dealer"] == winner
    assert shown["record"]["dealer"] == winner
    assert shown["steps"][0]["view"]["dealer"] == winner
    assert to_position(replay(shown["record"])) == to_position(final)


def test_a_game_stored_before_the_dealer_column_is_rebuilt_as_before(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 0005 adds ``games.dealer``; a game stored without one (NULL) is dealt as a
    first game, exactly as before (STD-2.1), and 0005 downgrades and upgrades cleanly.

    A game stored before 0005 is also one before 0007 (deal scheme 1): the server of then
    dealt it with scheme 1, as the patched constant makes this one.
    """
    from hotdeath.notation import to_position
    from hotdeath.server import authority

    monkeypatch.setattr(authority, "DEAL_SCHEME", 1)

    async def play() -> tuple[str, dict[str, Any]]:
        store, hub, room, _conn, run = _started(db_url)
        rng = random.Random(2)
        for _ in range(5):
            _move(room, rng)
        await asyncio.wrap_future(store.barrier())
        out = room.table_id, to_position(run.state)
        await hub.close()
        store.close()
        return out

    table_id, position = asyncio.run(play())
    assert "dealer" not in _downgraded(db_url, "0004", "games")
    again = Store(db_url)  # upgrades to the head: the column comes back, NULL
    hub = Hub(again)
    room = hub.get(table_id)
    assert room is not None and room.run is not None
    row = again.load_game(room.run.game_id)
    assert row is not None and row[0]["dealer"] is None
    assert to_position(room.run.state) == position
    again.close()


def test_migration_0006_gives_every_stored_table_a_code(db_url: str) -> None:
    """Tables stored before short codes get one each when the schema is upgraded, unique,
    and 0006 downgrades and upgrades cleanly."""

    from hotdeath.server.codes import PATTERN

    store = Store(db_url)
    hub = Hub(store, bot_delay=0)
    rooms = [_people_table(hub) for _ in range(3)]
    store.flush()
    store.close()
    assert "code" not in _downgraded(db_url, "0005", "tables")
    again = Store(db_url)  # upgrades to the head: a code for each table
    with again.engine.connect() as c:
        codes: dict[str, str] = {str(t): str(code) for t, code in
                                 c.execute(sa.text("SELECT id, code FROM tables")).all()}
    assert set(codes) == {r.table_id for r in rooms}
    assert all(PATTERN.match(code) for code in codes.values())
    assert len(set(codes.values())) == len(codes)
    from hotdeath.server.codes import read_table_of_code

    for table_id, code in codes.items():
        assert again.later(read_table_of_code, again.engine, code).result() == table_id
    again.close()


def _downgraded(db_url: str, revision: str, table: str) -> set[str]:
    """Downgrade the database at ``db_url`` to ``revision``; the columns of ``table`` then."""
    from alembic import command
    from alembic.config import Config

    from hotdeath.server.store import MIGRATIONS

    engine = sa.create_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as c:
            cfg.attributes["connection"] = c
            command.downgrade(cfg, revision)
        return {col["name"] for col in sa.inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def test_a_game_stored_before_the_deal_scheme_column_replays_with_its_old_deals(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 0007 adds ``games.deal_scheme``: a new game stores 2 and is rebuilt with it;
    a game stored before (NULL: the server of then dealt with scheme 1, as the patched
    constant does here) is rebuilt with scheme 1, its deals as they were played, and its
    replay and record say so; 0007 downgrades and upgrades cleanly."""
    from hotdeath.notation import replay, to_position
    from hotdeath.server import authority

    async def play(moves: int | None) -> tuple[str, str, str]:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0)
        room, _host = hub.create_table("throwdown", None, {"decks": 1}, 3, {}, "family", 0,
                                       None, None, None)
        for s in range(3):
            room.seating.join(f"P{s}", s)
        room.start()
        assert room.run is not None
        rng = random.Random(3)
        for _ in range(2 if moves is None else moves):
            _move(room, rng)
        if moves is None:  # a finished game: the players to act leave (TD-6.6) until
            while not room.run.state.is_terminal():  # at most one holds cards
                room.apply(room.run.state.current_player(), Action.parse("leave"))
        await asyncio.wrap_future(store.barrier())
        row = store.load_game(room.run.game_id)
        assert row is not None and row[0]["deal_scheme"] == room.run.state.deal_scheme
        out = (room.table_id, room.run.game_id,
               json.dumps(to_position(room.run.state), sort_keys=True))
        await hub.close()
        store.close()
        return out

    async def rebuilt(table_id: str) -> tuple[int, str]:
        store = Store(db_url)
        hub = Hub(store, bot_delay=0)
        room = hub.get(table_id)
        assert room is not None and room.run is not None
        state = room.run.state
        out = state.deal_scheme, json.dumps(to_position(state), sort_keys=True)
        await hub.close()
        store.close()
        return out

    # a game under way: two moves (the server draws the seed; in 3,000 seeds no one-deck
    # Throwdown game of three random players ended in 2 moves)
    new_table, new_game, new_position = asyncio.run(play(2))
    assert json.loads(new_position)["deal_scheme"] == 2
    assert asyncio.run(rebuilt(new_table)) == (2, new_position)
    monkeypatch.setattr(authority, "DEAL_SCHEME", 1)
    old_table, old_game, old_position = asyncio.run(play(None))
    monkeypatch.undo()
    assert json.loads(old_position)["deal_scheme"] == 1
    assert "deal_scheme" not in _downgraded(db_url, "0006", "games")
    again = Store(db_url)  # upgrades to the head: the column comes back, NULL
    row = again.load_game(old_game)
    assert row is not None and row[0]["deal_scheme"] is None
    with again.engine.begin() as c:  # a downgrade loses the new game's scheme: put it back
        c.execute(sa.text("UPDATE games SET deal_scheme = 2 WHERE id = :g"), {"g": new_game})
    again.close()
    assert asyncio.run(rebuilt(old_table)) == (1, old_position)
    app = create_app(db_url, bot_delay=0, rate_limit=FAST, idle_unload=None,
                     max_bot_seconds=0.05)
    with TestClient(app) as client:  # the replay workers and the record: scheme 1 too
        shown = full_replay(client, old_game)
    assert shown["status"] == "finished" and shown["deal_scheme"] == 1
    assert shown["record"]["deal_scheme"] == 1
    assert json.dumps(to_position(replay(shown["record"])), sort_keys=True) == old_position
