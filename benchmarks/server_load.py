"""Load benchmark of the browser game's server: N tables of 4 WebSocket clients.

One server process (``hotdeath.server`` on uvicorn, a fresh SQLite file, WAL) on
loopback; this process creates N tables over REST, seats 4 clients at each, starts them
and lets every client play as a random bot through its socket: when its seat is to act
it waits a think time, sends one legal action and measures the time until its next
``state`` message.  Bounded by a number of actions per table and by wall time: at
``--seconds`` every client stops at once, and rates are over the time actually measured.
Every table is created, joined and started before the measuring window opens (the
starts were once inside it: a 20 s run took 31 s and under-reported actions per second).
``server_cpu_ms_per_action`` (user + system CPU of the server process per accepted
action) is the figure that stays stable on a shared machine; p50/p99 move with its load.

``--baseline REF`` runs the server of another commit too (its ``src/`` from ``git
archive``), interleaved with this checkout's: for each N, ``--repeat`` rounds of both,
the baseline first in every other round (A B B A …), so a load that rises or falls over
the run hits both alike; the summary gives the medians of each and their ratios::

    python benchmarks/server_load.py --tables 50 200 --seconds 20 --baseline main --repeat 3

Reports accepted actions per second and the p50/p99 latency, for each N::

    python benchmarks/server_load.py                     # N = 50, 200, 500
    python benchmarks/server_load.py --tables 20 --seconds 10

``--servers K`` runs K server processes sharing one PostgreSQL database instead (a
throwaway cluster of ``tests/pgcluster.py`` on loopback, or ``--database-url``): table i
is created through process i mod K, which then plays it (its lease), and its clients
connect to that process, as behind a proxy that hashes the table id; ``--via-other``
connects them through another process instead (every message relayed: the worst case of
a proxy that routes at random).  The server CPU is that of the K processes together;
``db_cpu_ms_per_action`` that of the PostgreSQL server, and ``commits_per_action`` its
committed transactions per accepted action::

    python benchmarks/server_load.py --servers 1 2 --tables 200 500 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent

SERVER = """
import os, sys, uvicorn
from hotdeath.server import create_app
from hotdeath.server.protocol import Limits
# every client is on one loopback address: no per-address limit of tables or sockets
limits = Limits(tables_per_minute=10**9, connections_per_address=10**9)
app = create_app(os.environ["HOTDEATH_DATABASE_URL"], bot_delay=0,
                 public_url=sys.argv[4] or None, limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            ws_per_message_deflate=sys.argv[2] == "deflate", ws=sys.argv[3])
"""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_over: int = 0
    heartbeats: int = 0
    """``heartbeat`` messages the clients got (a quiet connection's, every 2 s)."""


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


SETUP_REQUESTS = 16
"""Requests of the set-up (creating, joining, starting tables) under way at once."""


async def make_tables(base: str, n: int, variant: str) -> list[tuple[str, str, list[str]]]:
    """Create ``n`` tables of 4 people; returns (table id, host token, seat tokens)."""
    gate = asyncio.Semaphore(SETUP_REQUESTS)

    async def one(http: httpx.AsyncClient) -> tuple[str, str, list[str]]:
        async with gate:
            t = (await http.post("/api/tables", json={"variant": variant, "seats": 4,
                                                      "takeover_timeout": None})).json()
            tokens = []
            for s in range(4):
                j = (await http.post(f"/api/tables/{t['table_id']}/join",
                                     json={"name": f"P{s}", "seat": s})).json()
                tokens.append(j["token"])
            return t["table_id"], t["host_token"], tokens

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        return list(await asyncio.gather(*(one(http) for _ in range(n))))


async def start_tables(bases: list[str], tables: list[tuple[str, str, list[str]]]) -> None:
    """Start every table's game (table i on ``bases[i % k]``), all before the window."""
    gate = asyncio.Semaphore(SETUP_REQUESTS)
    k = len(bases)

    async def one(http: httpx.AsyncClient, i: int, table_id: str, host: str) -> None:
        async with gate:
            r = await http.post(f"{bases[i % k]}/api/tables/{table_id}/start",
                                headers={"X-Token": host})
            r.raise_for_status()

    async with httpx.AsyncClient(timeout=60) as http:
        await asyncio.gather(*(one(http, i, table_id, host)
                               for i, (table_id, host, _tokens) in enumerate(tables)))


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
            if kind == "heartbeat":
                stats.heartbeats += 1
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


def children(pid: int) -> list[int]:
    """``pid`` and its child processes (Linux ``/proc``; the PostgreSQL backends)."""
    out = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            out.append(int(stat.parent.name))
    return out


class Database:
    """The PostgreSQL server of a ``--servers`` run: its CPU and its commits."""

    def __init__(self, url: str, postmaster: int | None) -> None:
        self.url = url
        self.postmaster = postmaster

    def cpu(self) -> float:
        if self.postmaster is None:
            return 0.0
        return sum(cpu_seconds(p) for p in children(self.postmaster))

    def commits(self) -> int:
        import sqlalchemy as sa

        engine = sa.create_engine(self.url)
        try:
            with engine.connect() as c:
                return int(c.execute(sa.text(
                    "SELECT sum(xact_commit) FROM pg_stat_database")).scalar() or 0)
        finally:
            engine.dispose()


async def run_one(
    bases: list[str], n: int, args: argparse.Namespace, server_pids: list[int],
    db: Database | None = None,
) -> dict[str, Any]:
    lag = await loop_lag()
    t0 = time.perf_counter()
    k = len(bases)
    per = [await make_tables(base, len(range(i, n, k)), args.variant)
           for i, base in enumerate(bases)]
    tables = [per[i % k][i // k] for i in range(n)]
    conns: list[tuple[ClientConnection, int]] = []
    for i, (table_id, _host, tokens) in enumerate(tables):
        via = bases[(i + 1) % k] if args.via_other and k > 1 else bases[i % k]
        ws_base = "ws" + via[len("http"):]
        for seat, token in enumerate(tokens):
            ws = await connect(f"{ws_base}/ws/{table_id}", max_size=2**22)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            conns.append((ws, seat))
    # every game starts before the window: each client's first state waits in its socket
    # until its task reads it, once the window is open
    await start_tables(bases, tables)
    setup = time.perf_counter() - t0
    stats = Stats()
    rng = random.Random(n)
    start = time.perf_counter()
    server_cpu = sum(cpu_seconds(p) for p in server_pids)
    client_cpu = time.process_time()
    db_cpu, commits = (db.cpu(), db.commits()) if db is not None else (0.0, 0)
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
    # One deadline for the whole run: at --seconds every client stops, whether or not its
    # seat is to act (a client that waits for its turn never sees a deadline of its own).
    await asyncio.wait(tasks, timeout=max(0.0, deadline - time.perf_counter()))
    elapsed = time.perf_counter() - start
    server_cpu = sum(cpu_seconds(p) for p in server_pids) - server_cpu
    client_cpu = time.process_time() - client_cpu
    if db is not None:
        db_cpu, commits = db.cpu() - db_cpu, db.commits() - commits
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

    extra: dict[str, Any] = {}
    if db is not None and lat:
        extra = {"db_cpu_ms_per_action": round(1000 * db_cpu / len(lat), 2),
                 "commits_per_action": round(commits / len(lat), 2)}
    return {
        "servers": k if db is not None else 0, "via_other": bool(args.via_other and k > 1),
        "tables": n, "clients": 4 * n, "actions": len(lat), "seconds": round(elapsed, 2),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(q(0.50), 2), "p99_ms": round(q(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": stats.errors, "games_over": stats.games_over, "setup_s": round(setup, 1),
        "heartbeats_per_action": round(stats.heartbeats / len(lat), 2) if lat else None,
        "idle_lag_p99_ms": lag, "run_lag_p99_ms": run_lag,
        "server_cpu_ms_per_action": round(1000 * server_cpu / len(lat), 2) if lat else None,
        "client_cpu_ms_per_action": round(1000 * client_cpu / len(lat), 2) if lat else None,
        **extra,
    }


def start_servers(url: str, k: int, args: argparse.Namespace, src: Path
                  ) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``k`` server processes on ``url`` (with leases when ``k`` > 0 and not SQLite).

    ``src``: the source tree whose server runs (this checkout's or a baseline's).
    """
    procs, bases = [], []
    for _ in range(max(k, 1)):
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = dict(os.environ, PYTHONPATH=str(src), HOTDEATH_DATABASE_URL=url)
        procs.append(subprocess.Popen(
            [sys.executable, "-c", SERVER, str(port), "deflate" if args.deflate else "plain",
             args.ws, base if k > 0 else ""], env=env))
        bases.append(base)
    return procs, bases


async def one_setup(url: str, k: int, n: int, args: argparse.Namespace,
                    db: Database | None, code: str = "current",
                    src: Path = ROOT / "src") -> dict[str, Any]:
    procs, bases = start_servers(url, k, args, src)
    try:
        for base, proc in zip(bases, procs, strict=True):
            await wait_up(base, proc)
        return {"code": code, **await run_one(bases, n, args, [p.pid for p in procs], db)}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


@contextlib.contextmanager
def pg_cluster(database_url: str | None, who: str) -> Iterator[Any]:
    """A throwaway PostgreSQL cluster on loopback (``tests/pgcluster.py``), stopped at the
    end; None when ``database_url`` names a database to use instead.  ``who``: what needs
    it, for the message when PostgreSQL's programs are missing."""
    if database_url is not None:
        yield None
        return
    sys.path.insert(0, str(ROOT))
    from tests.pgcluster import Cluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise SystemExit(f"{who} needs PostgreSQL (initdb, pg_ctl) or --database-url")
    cluster = Cluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def baseline_src(ref: str, into: Path) -> Path:
    """The ``src/`` folder of commit ``ref``, unpacked under ``into`` (``git archive``)."""
    archive = subprocess.run(["git", "archive", "--format=tar", ref, "src"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    if not args.servers:
        with tempfile.TemporaryDirectory() as base_dir:
            codes = [("current", ROOT / "src")]
            if args.baseline:
                codes.insert(0, (f"baseline {args.baseline}",
                                 baseline_src(args.baseline, Path(base_dir))))
            for n in args.tables:
                for i in range(args.repeat):  # ABBA: each code first in every other round
                    for code, src in codes if i % 2 == 0 else codes[::-1]:
                        with tempfile.TemporaryDirectory() as tmp:
                            url = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
                            result = await one_setup(url, 0, n, args, None, code, src)
                        results.append(result)
                        print(json.dumps(result), flush=True)
        return results
    with pg_cluster(args.database_url, "--servers") as cluster:
        for k in args.servers:
            for n in args.tables:
                if cluster is not None:
                    url = cluster.new_database()
                    pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
                    db = Database(url, pid)
                else:
                    url, db = args.database_url, Database(args.database_url, None)
                result = await one_setup(url, k, n, args, db)
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
    p.add_argument("--servers", type=int, nargs="+", default=[],
                   help="numbers of server processes sharing one PostgreSQL database "
                        "(default: one process on SQLite)")
    p.add_argument("--via-other", action="store_true",
                   help="with --servers: clients connect through a process that does not "
                        "play their table (every message relayed)")
    p.add_argument("--database-url", default=None,
                   help="with --servers: this PostgreSQL database instead of a throwaway "
                        "cluster (its tables are kept)")
    p.add_argument("--baseline", default=None, metavar="REF",
                   help="also run the server of this commit (SQLite runs only), "
                        "interleaved with this checkout's")
    p.add_argument("--repeat", type=int, default=1,
                   help="rounds per N (with --baseline: each round runs both codes)")
    args = p.parse_args()
    if args.baseline and args.servers:
        p.error("--baseline compares one process on SQLite; leave out --servers")
    results = asyncio.run(main_async(args))
    print_table(results)
    if args.baseline:
        print_ratios(results)


def print_table(results: list[dict[str, Any]]) -> None:
    """Every run, one row each (Markdown)."""
    print("| code | servers | tables | clients | actions | actions/s | "
          "server CPU ms/action | p50 ms | p99 ms | client CPU ms/action | idle lag p99 ms "
          "| lag p99 ms in the run | DB CPU ms/action | commits/action | heartbeats/action "
          "| errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        servers = f"{r['servers']}{' via other' if r['via_other'] else ''}" if r[
            "servers"] else "1 (SQLite)"
        print(f"| {r['code']} | {servers} | {r['tables']} | {r['clients']} | "
              f"{r['actions']} | {r['actions_per_s']} | "
              f"{r['server_cpu_ms_per_action']} | {r['p50_ms']} | {r['p99_ms']} | "
              f"{r['client_cpu_ms_per_action']} | {r['idle_lag_p99_ms']} | "
              f"{r['run_lag_p99_ms']} | {r.get('db_cpu_ms_per_action', '-')} | "
              f"{r.get('commits_per_action', '-')} | {r.get('heartbeats_per_action', '-')} | "
              f"{r['errors'] or '-'} |")


RATIO_KEYS = ("server_cpu_ms_per_action", "p50_ms", "p99_ms", "actions_per_s")
"""The figures compared between the current code and the baseline (medians of rounds)."""


def print_ratios(results: list[dict[str, Any]]) -> None:
    """Per N: the medians of the baseline's rounds and the current code's, and current ÷
    baseline (below 1: the current code is cheaper or faster, except actions/s)."""
    print("\n| tables | figure | baseline (median) | current (median) | current ÷ baseline |")
    print("|---:|---|---:|---:|---:|")
    for n in sorted({r["tables"] for r in results}):
        rows = [r for r in results if r["tables"] == n]
        for key in RATIO_KEYS:
            base = [r[key] for r in rows if r["code"] != "current" and r[key] is not None]
            cur = [r[key] for r in rows if r["code"] == "current" and r[key] is not None]
            if not base or not cur:
                continue
            b, c = statistics.median(base), statistics.median(cur)
            print(f"| {n} | {key} | {b:.2f} | {c:.2f} | {c / b:.2f} |")


if __name__ == "__main__":
    main()
