"""Replays cheap and bounded: pages of steps, a game replayed once, per-address limits.

Before: every request rebuilt the whole game and returned every step (a 79,070-step game
was 174 MB in one answer).  Now a page holds at most 200 steps and about 1.5 MB, and the
game's checkpoints are built once.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hotdeath
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move
from hotdeath.server import create_app
from hotdeath.server.hub import Hub
from hotdeath.server.replays import MAX_PAGE_BYTES, MAX_PAGE_STEPS, ReplayCache, ReplayWorkers
from tests.test_server import full_replay

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FAST = (1e9, 1e9)


def stored_game(hub: Hub, moves: int, seed: int = 7) -> tuple[str, str, list[tuple[int, str]]]:
    """A finished (or ``moves``-long) game written straight to the store; its ids."""
    room, _host = hub.create_table("standard", None, {"rounds": 1}, 3,
                                   dict.fromkeys(range(3), "random"), "family", 0, None,
                                   None, None)
    state = hotdeath.new_game("standard", 3, seed, None, {"rounds": 1})
    bots = {s: make_bot("random") for s in range(3)}
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while not state.is_terminal() and len(actions) < moves:
        move = next_bot_move(state, bots, [random.Random(rng.random()) for _ in range(3)])
        assert move is not None
        seat, action = move
        state.apply_action(action, seat)
        actions.append((seat, str(state.history[-1][1])))
    game_id = "g" + str(seed)
    hub.store.start_game(
        {"id": game_id, "table_id": room.table_id, "variant": "standard", "preset": "official",
         "options": {"rounds": 1}, "players": 3, "seed": seed, "seed_salt": "s",
         "names": ["A", "B", "C"], "bots": {}, "deal_scheme": state.deal_scheme}, ())
    for i, (seat, text) in enumerate(actions, 1):
        last = i == len(actions) and state.is_terminal()
        hub.store.record_action(room.table_id, game_id, i, seat, text, (),
                                (list(state.scores), list(state.winners)) if last else None)
    hub.store.flush()
    return room.table_id, game_id, actions


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST)) as c:
        yield c


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def test_pages_put_together_are_the_whole_game(client: TestClient) -> None:
    _table, game, actions = stored_game(_hub(client), 10_000, seed=5)  # to its end (1,989 actions)
    first = client.get(f"/api/games/{game}/replay").json()
    assert first["status"] == "finished" and first["total_steps"] == len(actions) + 1
    assert len(first["steps"]) <= MAX_PAGE_STEPS and "record" in first
    whole = full_replay(client, game)
    assert [s["index"] for s in whole["steps"]] == list(range(len(actions) + 1))
    assert [(s["seat"], s["action"]) for s in whole["steps"][1:]] == [
        (seat, text) for seat, text in actions
    ]
    assert whole["record"]["actions"] == [[s, a] for s, a in actions]
    # any page starts where the whole game has it (rebuilt from the nearest checkpoint)
    for start in (1, 499, 500, 501, 777, len(actions)):
        page = client.get(f"/api/games/{game}/replay?start={start}&count=3").json()
        assert page["steps"] == whole["steps"][start:start + 3], start
        assert "record" not in page
    too_far = client.get(f"/api/games/{game}/replay?start={len(actions) + 1}")
    assert (too_far.status_code, too_far.json()["code"]) == (400, "bad_range")
    too_many = client.get(f"/api/games/{game}/replay?count={MAX_PAGE_STEPS + 1}")
    assert (too_many.status_code, too_many.json()["code"]) == (400, "bad_request")


def test_a_game_is_replayed_once_for_every_page(client: TestClient) -> None:
    _table, game, actions = stored_game(_hub(client), 700, seed=11)
    full_replay(client, game)
    full_replay(client, game)
    workers: ReplayWorkers = client.app.state.replays  # type: ignore[attr-defined]
    assert workers.builds == len(actions)  # the checkpoints were built once, not per request


def test_pages_are_built_outside_the_servers_process(client: TestClient) -> None:
    """The server's event loop only passes pages on: they are built in worker processes.

    A page build is pure Python; in a thread of the server's process it would hold the
    GIL the loop needs to answer other tables (the run log in benchmarks/results/, §9).
    """
    hub = _hub(client)
    games = [stored_game(hub, 300, seed=seed)[1] for seed in (21, 22, 23)]
    for game in games:
        assert len(full_replay(client, game)["steps"]) > 1
    workers: ReplayWorkers = client.app.state.replays  # type: ignore[attr-defined]
    assert workers.builders and os.getpid() not in workers.builders
    assert workers.builds == sum(len(full_replay(client, g)["steps"]) - 1 for g in games)


def test_a_page_is_bounded_in_bytes() -> None:
    state = hotdeath.new_game("standard", 3, 1, None, {})
    row: dict[str, Any] = {"id": "g", "variant": "standard", "players": 3, "seed": 1,
                           "preset": "official", "options": {}, "names": ["A", "B", "C"],
                           "deal_scheme": state.deal_scheme}
    bots = {s: make_bot("random") for s in range(3)}
    actions: list[tuple[int, str]] = []
    rng = random.Random(2)
    while not state.is_terminal() and len(actions) < 400:
        seat, action = next_bot_move(state, bots, [random.Random(rng.random())] * 3) or (0, "")
        state.apply_action(action, seat)
        actions.append((seat, str(state.history[-1][1])))
    texts, nxt, _final = ReplayCache().page(row, actions, None, True, "family", 0, 200)
    assert sum(map(len, texts)) <= MAX_PAGE_BYTES + max(map(len, texts))
    assert len(texts) == min(200, len(actions) + 1)
    assert nxt == (200 if len(actions) >= 200 else None)


def test_replays_per_address_are_limited(client: TestClient) -> None:
    _table, game, _actions = stored_game(_hub(client), 50, seed=3)
    busy: dict[str, int] = client.app.state.replaying  # type: ignore[attr-defined]
    busy["testclient"] = 2  # two replays of this address under way
    r = client.get(f"/api/games/{game}/replay")
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited")
    busy.clear()
    assert client.get(f"/api/games/{game}/replay").status_code == 200


KILLED_SERVER = """
import os, sys, warnings
warnings.simplefilter("ignore")
from fastapi.testclient import TestClient
from hotdeath.server import create_app
from tests.test_server_replay import stored_game
with TestClient(create_app(sys.argv[1], bot_delay=0)) as c:
    _table, game, _actions = stored_game(c.app.state.hub, 30)
    assert c.get(f"/api/games/{game}/replay").status_code == 200
    print(*c.app.state.replays.builders, flush=True)
    os.kill(os.getpid(), 9)
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie nobody reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """A server killed outright (SIGKILL) cannot stop its replay workers: they go anyway."""
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", KILLED_SERVER,
                          f"sqlite:///{tmp_path / 'server.sqlite3'}"],
                         cwd=root, capture_output=True, text=True, timeout=90)
    assert out.returncode == -9, out.stderr
    workers = [int(p) for p in out.stdout.split()]
    assert workers
    for _ in range(300):  # each worker checks every second; waited for, not timed
        if not any(_running(p) for p in workers):
            break
        time.sleep(0.1)
    assert not any(_running(p) for p in workers)
