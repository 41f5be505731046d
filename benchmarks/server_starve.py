"""One all-bot table at ``bot_delay 0`` beside joins on other tables (issue 23, N1).

One server process on a PostgreSQL database (a throwaway cluster of ``tests/pgcluster.py``
on loopback, or ``--database-url``), with its lease as ``hotdeath serve`` has it.  An
all-bot table (four ``basic`` bots, ``bot_delay`` 0, which anyone may create) plays
for the whole run, a spectator watching it; the host asks for a rematch whenever its
game ends.  Meanwhile, every ``--every`` seconds, a new table is created and a person
joins it: the join's time is measured (its client waits ``--timeout`` s at most).  The
server's RSS is sampled every second.  At the end: a replay of the bots' game and a
PATCH of the bots' table by its host, each timed; the number of actions stored and the
last version the spectator saw.

Prints the p50/p99/max of the joins, the RSS over time and its growth, one JSON line::

    python benchmarks/server_starve.py --seconds 60
    python benchmarks/server_starve.py --seconds 30 --baseline main   # the other code too

``--baseline REF`` runs the server of commit REF the same way first (its ``src/`` from
``git archive``), so the two rows come from the same minutes of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import (
    ROOT,
    SERVER,
    baseline_src,
    cpu_seconds,
    free_port,
    pg_cluster,
    wait_up,
)


def rss_mb(pid: int) -> float:
    """The resident set size of a process in MB (Linux ``/proc``; 0.0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def quantile(values: list[float], p: float) -> float | None:
    """The ``p`` quantile of ``values`` (milliseconds rounded), None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)


async def watch(base: str, table_id: str, host: str, seen: dict[str, Any],
                stop: asyncio.Event) -> None:
    """Watch the bots' table as a spectator; the host asks for a rematch at each end."""
    ws_url = "ws" + base[len("http"):] + f"/ws/{table_id}"
    async with connect(ws_url, max_size=2 ** 22) as ws, httpx.AsyncClient(
            base_url=base, timeout=60) as http:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            seen["messages"] += 1
            if msg["type"] != "state":
                continue
            seen["version"] = msg["version"]
            seen["game_id"] = msg["game_id"]
            if msg["view"]["phase"] == "game_over":
                seen["games"] += 1
                r = await http.post(f"/api/tables/{table_id}/rematch",
                                    headers={"X-Token": host})
                seen["rematch_status"] = r.status_code


async def joins(base: str, every: float, timeout: float, stop: asyncio.Event,
                times: list[float], failed: dict[str, int]) -> None:
    """A new table and a join on it every ``every`` s; each join's time into ``times``."""
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as http:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                t = (await http.post("/api/tables", json={"variant": "standard",
                                                          "seats": 2})).json()
                began = time.perf_counter()
                r = await http.post(f"/api/tables/{t['table_id']}/join",
                                    json={"name": f"P{n}"})
                took = time.perf_counter() - began
                if r.status_code == 200:
                    times.append(took)
                else:
                    failed[str(r.status_code)] = failed.get(str(r.status_code), 0) + 1
            except httpx.TimeoutException:
                failed["timeout"] = failed.get("timeout", 0) + 1
            except (httpx.HTTPError, KeyError) as e:
                failed[type(e).__name__] = failed.get(type(e).__name__, 0) + 1
            await asyncio.sleep(every)


async def timed(call: Any) -> float | str:
    """Seconds ``call`` took, or why it failed."""
    began = time.perf_counter()
    try:
        r = await call
        if r.status_code >= 400:
            return f"HTTP {r.status_code}"
    except httpx.HTTPError as e:
        return type(e).__name__
    return round(time.perf_counter() - began, 3)


def stored_actions(url: str) -> int:
    """Actions stored in the database so far."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            return int(c.execute(sa.text("SELECT count(*) FROM actions")).scalar() or 0)
    finally:
        engine.dispose()


async def run(url: str, args: argparse.Namespace, src: Path, code: str) -> dict[str, Any]:
    """One server of the code in ``src`` on ``url``: the scenario, its figures."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(src), HOTDEATH_DATABASE_URL=url)
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), "plain",
                             "websockets-sansio", base], env=env)
    try:
        await wait_up(base, proc)
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            bots = (await http.post("/api/tables", json={
                "variant": "hotdeath", "seats": 4, "bot_delay": 0,
                "bots": {str(s): "basic" for s in range(4)}})).json()
            (await http.post(f"/api/tables/{bots['table_id']}/start",
                             headers={"X-Token": bots["host_token"]})).raise_for_status()
        stop = asyncio.Event()
        seen: dict[str, Any] = {"version": -1, "messages": 0, "games": 0, "game_id": None}
        times: list[float] = []
        failed: dict[str, int] = {}
        rss: list[tuple[float, float]] = []
        start = time.perf_counter()
        rss_start = rss_mb(proc.pid)
        cpu0 = cpu_seconds(proc.pid)
        tasks = [asyncio.create_task(watch(base, bots["table_id"], bots["host_token"],
                                           seen, stop)),
                 asyncio.create_task(joins(base, args.every, args.timeout, stop, times,
                                           failed))]
        while time.perf_counter() - start < args.seconds:
            await asyncio.sleep(1.0)
            rss.append((round(time.perf_counter() - start, 1), round(rss_mb(proc.pid), 1)))
        cpu = cpu_seconds(proc.pid) - cpu0
        async with httpx.AsyncClient(base_url=base, timeout=args.timeout) as http:
            replay = (await timed(http.get(f"/api/games/{seen['game_id']}/replay"))
                      if seen["game_id"] else "no game")
            patch = await timed(http.patch(f"/api/tables/{bots['table_id']}",
                                           json={"public": False},
                                           headers={"X-Token": bots["host_token"]}))
        stop.set()
        await asyncio.wait(tasks, timeout=args.timeout + 5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        peak = max((r for _, r in rss), default=rss_start)
        return {
            "code": code, "seconds": args.seconds, "joins": len(times),
            "join_p50_ms": quantile(times, 0.50), "join_p99_ms": quantile(times, 0.99),
            "join_max_ms": quantile(times, 1.0), "joins_failed": failed,
            "rss_start_mb": round(rss_start, 1), "rss_peak_mb": peak,
            "rss_end_mb": rss[-1][1] if rss else None,
            "rss_growth_mb": round(peak - rss_start, 1),
            "rss_every_5s": [r for t, r in rss if round(t) % 5 == 0],
            "actions_stored": stored_actions(url), "spectator_version": seen["version"],
            "spectator_messages": seen["messages"], "bot_games_over": seen["games"],
            "replay_s": replay, "patch_s": patch,
            "server_cpu_s": round(cpu, 1),
        }
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each code's run on a database of its own, the baseline first."""
    results = []
    with pg_cluster(args.database_url, "this benchmark") as cluster, \
            tempfile.TemporaryDirectory() as tmp:
        codes = [("current", ROOT / "src")]
        if args.baseline:
            codes.insert(0, (f"baseline {args.baseline}", baseline_src(args.baseline, Path(tmp))))
        for code, src in codes:
            url = cluster.new_database() if cluster is not None else args.database_url
            result = await run(url, args, src, code)
            results.append(result)
            print(json.dumps(result), flush=True)
    return results


def main() -> None:
    """Parse the arguments, run, print a table and the JSON lines."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=60.0, help="length of the run")
    p.add_argument("--every", type=float, default=0.25,
                   help="seconds between two joins on new tables")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds a client waits for an answer")
    p.add_argument("--database-url", default=None,
                   help="a PostgreSQL database instead of a throwaway cluster")
    p.add_argument("--baseline", default=None, metavar="REF",
                   help="also run the server of this commit, first")
    args = p.parse_args()
    results = asyncio.run(main_async(args))
    print("| code | joins | join p50 ms | join p99 ms | join max ms | failed | RSS start MB "
          "| RSS peak MB | growth MB | stored | spectator version | replay s | PATCH s |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['code']} | {r['joins']} | {r['join_p50_ms']} | {r['join_p99_ms']} | "
              f"{r['join_max_ms']} | {r['joins_failed'] or '-'} | {r['rss_start_mb']} | "
              f"{r['rss_peak_mb']} | {r['rss_growth_mb']} | {r['actions_stored']} | "
              f"{r['spectator_version']} | {r['replay_s']} | {r['patch_s']} |")


if __name__ == "__main__":
    main()
