"""Replay benchmark: a 50,000-step game's replay, and other tables' pings meanwhile.

A standard two-player game of random bots (``max_turns`` so that it runs about 50,000
actions) is written to a fresh SQLite file; a server process (``hotdeath.server`` on
uvicorn, loopback) serves it.  Measured, per code (this checkout and, with ``--baseline
DIR``, the code in DIR in the same run):

* one client reading the whole replay (every page; the old code: one answer): wall time,
  bytes, the largest answer, the server's peak memory (VmHWM; its worker processes'
  apart) and CPU (the workers' included);
* a WebSocket of another table pinging every 120 ms, first with no replay under way
  (``--quiet`` seconds), then while ``--clients`` clients read the whole replay at once:
  the pings' p50/p99/max round trip.

``--repeat N`` measures each code N times, interleaved (this, baseline, this, …), and
reports the medians, with the load average of the machine at each run.

::

    python benchmarks/replay_load.py
    python benchmarks/replay_load.py --baseline /path/to/old/checkout --steps 50000 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import cpu_seconds, free_port, wait_up  # noqa: E402

SERVER = """
import sys, uvicorn
from hotdeath.server import create_app
app = create_app(sys.argv[1], bot_delay=0)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_per_message_deflate=False)
"""


def make_game_in(db: str, steps: int, src: Path) -> tuple[str, str, int]:
    """:func:`make_game` in a process running the code of ``src`` (its own schema)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--make", db, "--steps", str(steps)],
                         env=env, check=True, capture_output=True, text=True).stdout
    game, table, n = json.loads(out.strip().splitlines()[-1])
    return str(game), str(table), int(n)


def make_game(db: str, steps: int) -> tuple[str, str, int]:
    """Write a finished game of about ``steps`` actions and a second table; their ids."""
    import hotdeath
    from hotdeath.bots import make_bot
    from hotdeath.bots.arena import next_bot_move
    from hotdeath.server.hub import Hub
    from hotdeath.server.store import Store

    async def build() -> tuple[str, str, int]:
        store = Store(db)
        hub = Hub(store, bot_delay=0)
        opts: dict[str, object] = {"target_score": 100000, "max_turns": steps}
        room, _ = hub.create_table("standard", None, opts, 2, {0: "random", 1: "random"},
                                   "family", 0, None, None, None)
        other, _ = hub.create_table("standard", None, {}, 2, {}, "family", 0, None, None, None)
        state = hotdeath.new_game("standard", 2, 5, None, opts)
        bots = {s: make_bot("random") for s in range(2)}
        rng = random.Random(1)
        game_id = "long-game"
        store.start_game({"id": game_id, "table_id": room.table_id, "variant": "standard",
                          "preset": "official", "options": opts, "players": 2, "seed": 5,
                          "seed_salt": "salt", "names": ["A", "B"], "bots": {}}, ())
        n = 0
        while not state.is_terminal():
            move = next_bot_move(state, bots, [random.Random(rng.random()) for _ in range(2)])
            assert move is not None
            seat, action = move
            state.apply_action(action, seat)
            n += 1
            result = (list(state.scores), list(state.winners)) if state.is_terminal() else None
            store.record_action(room.table_id, game_id, n, seat, str(state.history[-1][1]),
                                (), result)
        store.close()
        return game_id, other.table_id, n

    return asyncio.run(build())


async def read_all(http: httpx.AsyncClient, base: str, game: str) -> tuple[int, int]:
    """Every page of the replay (one answer for the old code): total and largest bytes."""
    total = biggest = 0
    start: int | None = 0
    while start is not None:
        r = await http.get(f"{base}/api/games/{game}/replay?start={start}", timeout=600)
        r.raise_for_status()
        total += len(r.content)
        biggest = max(biggest, len(r.content))
        # the page's head carries "next" (the old code has none: one answer); not parsed
        # whole here, so that this process's own parsing does not delay the pinger
        found = NEXT.search(r.content[:4096])
        start = int(found.group(1)) if found else None
    return total, biggest


async def pinger(base: str, table: str, stop: asyncio.Event, out: list[float]) -> None:
    ws_url = base.replace("http", "ws") + f"/ws/{table}"
    async with connect(ws_url) as ws:
        i = 0
        while not stop.is_set():
            i += 1
            t = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))
            while (m := json.loads(await ws.recv())).get("type") != "pong":
                if m.get("type") == "error" and m.get("id") == f"p{i}":
                    raise RuntimeError(f"a ping was refused: {m}")
            out.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(PING_EVERY)


NEXT = re.compile(rb'"next":(\d+)')
PING_EVERY = 0.12
"""Seconds between pings: under a connection's rate limit (10 messages a second), which
refuses a faster pinger's pings (and it would wait for their pongs for ever)."""


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the server's replay workers), Linux ``/proc``."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def workers_rss_mb(pid: int) -> float:
    return sum(peak_rss_mb(c) for c in children(pid))


def tree_cpu(pid: int) -> float:
    """CPU seconds of the server and its running children."""
    return cpu_seconds(pid) + sum(cpu_seconds(c) for c in children(pid))


def quantiles(pings: list[float]) -> dict[str, float]:
    during = sorted(pings) or [0.0]
    return {"pings": len(pings), "ping_p50_ms": statistics.median(during),
            "ping_p99_ms": during[min(len(during) - 1, int(0.99 * len(during)))],
            "ping_max_ms": during[-1]}


async def measure(src: Path, db: str, game: str, table: str, clients: int,
                  quiet_s: float) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port)], env=env)
    try:
        await wait_up(base, proc)
        async with httpx.AsyncClient() as http:
            cpu0, t0 = tree_cpu(proc.pid), time.perf_counter()
            total, biggest = await read_all(http, base, game)
            one = {"seconds": time.perf_counter() - t0, "cpu_s": tree_cpu(proc.pid) - cpu0,
                   "bytes": total, "largest_answer": biggest, "peak_rss_mb": peak_rss_mb(proc.pid),
                   "workers_peak_rss_mb": workers_rss_mb(proc.pid)}
            warm_t = time.perf_counter()
            await read_all(http, base, game)
            one["warm_seconds"] = time.perf_counter() - warm_t
            stop = asyncio.Event()
            pings: list[float] = []
            ping_task = asyncio.create_task(pinger(base, table, stop, pings))
            await asyncio.sleep(1.0)
            start = len(pings)
            await asyncio.sleep(quiet_s)
            quiet = len(pings)
            alone = quantiles(pings[start:quiet])
            t1 = time.perf_counter()
            others = [  # each client from an address of its own (the limit is per address)
                httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=f"127.0.0.{i}"))
                for i in range(2, 2 + clients)
            ]
            await asyncio.gather(*(read_all(c, base, game) for c in others))
            busy_s = time.perf_counter() - t1
            for c in others:
                await c.aclose()
            stop.set()
            await ping_task
        return {
            "load_average": os.getloadavg()[0],
            "one_client": one,
            "no_replay": alone,
            "concurrent": {
                "clients": clients, "seconds": busy_s, **quantiles(pings[quiet:]),
                "peak_rss_mb": peak_rss_mb(proc.pid),
                "workers_peak_rss_mb": workers_rss_mb(proc.pid),
            },
        }
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=50_000)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--baseline", type=Path, help="a checkout of the previous code")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each code, interleaved")
    ap.add_argument("--quiet", type=float, default=10.0,
                    help="seconds of pings with no replay under way")
    ap.add_argument("--make", help=argparse.SUPPRESS)  # internal: write the game to this URL
    args = ap.parse_args()
    if args.make:
        print(json.dumps(make_game(args.make, args.steps)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        out: dict[str, Any] = {}
        codes = [("this", ROOT / "src")]
        if args.baseline:
            codes.append(("baseline", args.baseline / "src"))
        games = {}
        for name, src in codes:
            db = f"sqlite:///{tmp}/{name}.sqlite3"  # each code with its own schema
            games[name] = (db, *make_game_in(db, args.steps, src))
            out["actions"] = games[name][3]
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _src in codes}
        for _ in range(args.repeat):
            for name, src in codes:
                db, game, table, _n = games[name]
                runs[name].append(asyncio.run(measure(src, db, game, table, args.clients,
                                                      args.quiet)))
                print(name, json.dumps(runs[name][-1], indent=1), flush=True)
        for name, got in runs.items():
            out[name] = {"runs": len(got), **medians(got)}
        print(json.dumps(out, indent=1))


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of every number over the runs (nested dicts alike)."""
    first = runs[0]
    if not isinstance(first, dict):
        return statistics.median(runs)
    return {k: medians([r[k] for r in runs]) for k in first}


if __name__ == "__main__":
    main()
