"""Load benchmark of the browser game's server: N tables of 4 WebSocket clients.

One server process (``hotdeath.server`` on uvicorn, a fresh SQLite file, WAL) on
loopback; this process creates N tables over REST, seats 4 clients at each, starts them
and lets every client play as a random bot through its socket: when its seat is to act
it waits a think time, sends one legal action and measures the time until its next
``state`` message.  Bounded by a number of actions per table and by wall time: at
``--seconds`` every client stops at once, and rates are over the time actually measured.
``server_cpu_ms_per_action`` (user + system CPU of the server process per accepted
action) is the figure that stays stable on a shared machine; p50/p99 move with its load.

Reports accepted actions per second and the p50/p99 latency, for each N::

    python benchmarks/server_load.py                     # N = 50, 200, 500
    python benchmarks/server_load.py --tables 20 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent

SERVER = """
import sys, uvicorn
from hotdeath.server import create_app
app = create_app(sys.argv[1], bot_delay=0)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_per_message_deflate=sys.argv[3] == "deflate", ws=sys.argv[4])
"""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_over: int = 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``), 0.0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError("the server exited at start")
            try:
                if (await http.get(f"{base}/api/variants")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def make_tables(base: str, n: int, variant: str) -> list[tuple[str, str, list[str]]]:
    """Create ``n`` tables of 4 people; returns (table id, host token, seat tokens)."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(n):
            t = (await http.post("/api/tables", json={"variant": variant, "seats": 4,
                                                      "takeover_timeout": None})).json()
            tokens = []
            for s in range(4):
                j = (await http.post(f"/api/tables/{t['table_id']}/join",
                                     json={"name": f"P{s}", "seat": s})).json()
                tokens.append(j["token"])
            out.append((t["table_id"], t["host_token"], tokens))
    return out


async def client(
    ws: ClientConnection, seat: int, stats: Stats, think: float, max_actions: int,
    deadline: float, rng: random.Random,
) -> None:
    """Play one seat at random until the table's bound or the deadline."""
    sent_at: float | None = None
    n = 0
    pending: asyncio.Task[None] | None = None

    async def act(view: dict[str, Any], version: int) -> None:
        nonlocal sent_at, n
        await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
        n += 1
        sent_at = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal_actions"]),
                                  "version": version, "id": f"{seat}-{n}"}))

    try:
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_at = None
                continue
            if kind != "state":
                continue
            if sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = msg["view"]
            if view["phase"] == "game_over":
                stats.games_over += 1
                return
            if time.perf_counter() > deadline or msg["version"] >= max_actions:
                return
            if view["current_player"] == seat and view["legal_actions"]:
                if pending is not None and not pending.done():
                    pending.cancel()
                pending = asyncio.create_task(act(view, msg["version"]))
    finally:
        if pending is not None:
            pending.cancel()


async def loop_lag(seconds: float = 3.0, stop: asyncio.Event | None = None) -> float:
    """p99 oversleep (ms) of 5 ms sleeps: how much the machine itself delays a process.

    Runs ``seconds``, or until ``stop`` is set when it is given.
    """
    lags = [0.0]
    end = time.perf_counter() + seconds
    while (stop is not None and not stop.is_set()) or (stop is None and time.perf_counter() < end):
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - t - 0.005)
    lags.sort()
    return round(1000 * lags[int(0.99 * len(lags))], 2)


async def run_one(
    base: str, ws_base: str, n: int, args: argparse.Namespace, server_pid: int
) -> dict[str, Any]:
    lag = await loop_lag()
    t0 = time.perf_counter()
    tables = await make_tables(base, n, args.variant)
    conns: list[tuple[ClientConnection, int]] = []
    for table_id, _host, tokens in tables:
        for seat, token in enumerate(tokens):
            ws = await connect(f"{ws_base}/ws/{table_id}", max_size=2**22)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            conns.append((ws, seat))
    setup = time.perf_counter() - t0
    stats = Stats()
    rng = random.Random(n)
    start = time.perf_counter()
    server_cpu, client_cpu = cpu_seconds(server_pid), time.process_time()
    deadline = start + args.seconds
    tasks = [
        asyncio.create_task(
            client(ws, seat, stats, args.think, args.actions, deadline,
                   random.Random(rng.random()))
        )
        for ws, seat in conns
    ]
    stop = asyncio.Event()
    monitor = asyncio.create_task(loop_lag(stop=stop))
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for table_id, host, _tokens in tables:
            await http.post(f"/api/tables/{table_id}/start", headers={"X-Token": host})
    # One deadline for the whole run: at --seconds every client stops, whether or not its
    # seat is to act (a client that waits for its turn never sees a deadline of its own).
    await asyncio.wait(tasks, timeout=max(0.0, deadline - time.perf_counter()))
    elapsed = time.perf_counter() - start
    server_cpu = cpu_seconds(server_pid) - server_cpu
    client_cpu = time.process_time() - client_cpu
    measured = len(stats.latencies)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    stop.set()
    run_lag = await monitor
    del stats.latencies[measured:]
    for ws, _seat in conns:
        await ws.close()
    lat = sorted(stats.latencies)

    def q(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "tables": n, "clients": 4 * n, "actions": len(lat), "seconds": round(elapsed, 2),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(q(0.50), 2), "p99_ms": round(q(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": stats.errors, "games_over": stats.games_over, "setup_s": round(setup, 1),
        "idle_lag_p99_ms": lag, "run_lag_p99_ms": run_lag,
        "server_cpu_ms_per_action": round(1000 * server_cpu / len(lat), 2) if lat else None,
        "client_cpu_ms_per_action": round(1000 * client_cpu / len(lat), 2) if lat else None,
    }


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    for n in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            url = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
            env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
            proc = subprocess.Popen(
                [sys.executable, "-c", SERVER, url, str(port),
                 "deflate" if args.deflate else "plain", args.ws], env=env,
            )
            try:
                base = f"http://127.0.0.1:{port}"
                await wait_up(base, proc)
                result = await run_one(base, f"ws://127.0.0.1:{port}", n, args, proc.pid)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
        results.append(result)
        print(json.dumps(result), flush=True)
    return results


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, nargs="+", default=[50, 200, 500])
    p.add_argument("--seconds", type=float, default=40.0, help="wall-time bound per N")
    p.add_argument("--actions", type=int, default=300, help="actions per table at most")
    p.add_argument("--think", type=float, default=0.5,
                   help="mean think time (s, exponential) before each action")
    p.add_argument("--variant", default="hotdeath")
    p.add_argument("--ws", default="websockets-sansio",
                   help="uvicorn's WebSocket implementation (websockets, websockets-sansio, "
                        "wsproto)")
    p.add_argument("--deflate", action="store_true",
                   help="let the server compress messages (permessage-deflate)")
    args = p.parse_args()
    results = asyncio.run(main_async(args))
    print("| tables | clients | actions | actions/s | p50 ms | p99 ms | server CPU ms/action "
          "| client CPU ms/action | idle lag p99 ms | lag p99 ms in the run | errors |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['tables']} | {r['clients']} | {r['actions']} | {r['actions_per_s']} | "
              f"{r['p50_ms']} | {r['p99_ms']} | {r['server_cpu_ms_per_action']} | "
              f"{r['client_cpu_ms_per_action']} | {r['idle_lag_p99_ms']} | "
              f"{r['run_lag_p99_ms']} | "
              f"{r['errors'] or '-'} |")


if __name__ == "__main__":
    main()
