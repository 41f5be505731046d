"""Replay benchmark: a 50,000-step game's replay, and other tables' pings meanwhile.

A standard two-player game of random bots (``max_turns`` so that it runs about 50,000
actions) is written to a fresh SQLite file; a server process (``hotdeath.server`` on
uvicorn, loopback) serves it.  Measured, per code (this checkout and, with ``--baseline
DIR``, the code in DIR in the same run):

* one client reading the whole replay (every page; the old code: one answer): wall time,
  bytes, the largest answer, the server's peak memory (VmHWM) and CPU;
* ``--clients`` clients doing that at once while a WebSocket of another table pings every
  50 ms: the pings' p50/p99/max round trip.

::

    python benchmarks/replay_load.py
    python benchmarks/replay_load.py --baseline /path/to/old/checkout --steps 50000
"""

from __future__ import annotations

import argparse
import asyncio
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
    from hotdeath.server.room import Hub
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
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
            out.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.05)


NEXT = re.compile(rb'"next":(\d+)')


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def measure(src: Path, db: str, game: str, table: str, clients: int) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port)], env=env)
    try:
        await wait_up(base, proc)
        async with httpx.AsyncClient() as http:
            cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            total, biggest = await read_all(http, base, game)
            one = {"seconds": time.perf_counter() - t0, "cpu_s": cpu_seconds(proc.pid) - cpu0,
                   "bytes": total, "largest_answer": biggest, "peak_rss_mb": peak_rss_mb(proc.pid)}
            warm_t = time.perf_counter()
            await read_all(http, base, game)
            one["warm_seconds"] = time.perf_counter() - warm_t
            stop = asyncio.Event()
            pings: list[float] = []
            ping_task = asyncio.create_task(pinger(base, table, stop, pings))
            await asyncio.sleep(1.0)
            quiet = len(pings)
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
        during = sorted(pings[quiet:]) or [0.0]
        return {
            "one_client": one,
            "concurrent": {
                "clients": clients, "seconds": busy_s, "pings": len(during),
                "ping_p50_ms": statistics.median(during),
                "ping_p99_ms": during[min(len(during) - 1, int(0.99 * len(during)))],
                "ping_max_ms": during[-1], "peak_rss_mb": peak_rss_mb(proc.pid),
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
        for name, src in codes:
            db = f"sqlite:///{tmp}/{name}.sqlite3"  # each code with its own schema
            game, table, n = make_game_in(db, args.steps, src)
            out["actions"] = n
            out[name] = asyncio.run(measure(src, db, game, table, args.clients))
            print(name, json.dumps(out[name], indent=1), flush=True)
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
