"""Speed of ``hotdeath simulate`` on 1 and 2 worker processes.

Each repetition runs the same job (same configuration, same master seed, a fresh results
file) once on 1 worker and once on 2, alternating which goes first, and times the whole
``run_simulation`` call: pool start, every game, writing every line.  It reports games per
second for each run, the speed-up of each pair, the median speed-up, the CPU time of each
run (this process and its workers: 2 workers should use no more than 1 does), how many
CPUs each run kept busy on average, the critical-path speed-up (the 1-worker run's CPU
time over the CPU time of the busiest of the 2 workers: the speed-up on two free cores),
what other work on the machine used meanwhile, and the load average.  The last line is
JSON.  On a shared machine, ``--quiet-below 0.3 --skip-busy`` keeps only pairs run
while the rest of the machine was nearly idle.

    python benchmarks/simulate.py                       # 600 games x 5 pairs
    python benchmarks/simulate.py --games 2000 --repeat 3 --variant standard --players 2
    python benchmarks/simulate.py --quick               # a smoke run

With ``--baseline DIR`` it compares two engines instead of two worker counts: the same
one-worker simulation on this code and on the one in ``DIR`` (a checkout, its ``src``, or a
``build/mypyc`` folder), each in a subprocess of its own, ``--repeat`` interleaved
repetitions, the medians of the simulations' CPU time and their ratio (above 1: this code
is faster).  The compiled core against the pure one:

    python scripts/build_mypyc.py
    PYTHONPATH=build/mypyc python benchmarks/simulate.py --baseline src --games 300
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import hotdeath
from hotdeath.simulate import SimConfig, read_results, run_simulation

CHILD = """
import json, sys, time
import hotdeath
from hotdeath.simulate import SimConfig, run_simulation
req = json.loads(sys.argv[1])
config = SimConfig.make(req["variant"], req["players"], req["bots"], req["seed"])
c0 = time.process_time()
run_simulation(config, req["games"], req["path"], workers=1)
print(json.dumps({"cpu": time.process_time() - c0, "core": hotdeath.core()}))
"""
"""A one-worker simulation in a subprocess: its CPU seconds and the core it ran on."""


def machine_busy() -> tuple[float, float] | None:
    """Busy and total CPU seconds of the whole machine so far (Linux ``/proc/stat``)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [float(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return (sum(fields) - idle) / tick, sum(fields) / tick


def others_busy(seconds: float = 1.0) -> float | None:
    """CPUs kept busy by everything on the machine over the next ``seconds``."""
    before = machine_busy()
    time.sleep(seconds)
    after = machine_busy()
    if before is None or after is None:
        return None
    return (after[0] - before[0]) / seconds


def wait_for_quiet(limit: float, max_wait: float) -> float | None:
    """Wait (up to ``max_wait`` s) until other work keeps at most ``limit`` CPUs busy."""
    deadline = time.monotonic() + max_wait
    while True:
        busy = others_busy()
        if busy is None or busy <= limit or time.monotonic() > deadline:
            return busy
        time.sleep(2.0)


class WorkerClock(threading.Thread):
    """Samples the CPU time of each child process (the pool's workers) while a run lasts.

    With the CPU time of each worker, the run's critical path is known: on a machine with
    a free core per worker the run would take about as long as its busiest worker.
    """

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()

    def _children(self) -> list[int]:
        out: list[int] = []
        for path in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
            with contextlib.suppress(OSError, ValueError):
                out += [int(x) for x in path.read_text(encoding="ascii").split()]
        return out

    def run(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        while not self.done.wait(0.05):
            for pid in self._children():
                try:
                    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
                    fields = stat.rsplit(")", 1)[1].split()
                    self.cpu[pid] = (int(fields[11]) + int(fields[12])) / tick
                except (OSError, ValueError, IndexError):
                    pass


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed_run(
    config: SimConfig, games: int, workers: int, folder: Path, tag: str
) -> tuple[float, float, float | None, float]:
    """Wall-clock and CPU seconds of one whole run, the CPUs others kept busy, and the
    CPU seconds of its busiest process (the critical path)."""
    path = folder / f"{tag}.jsonl"
    clock = WorkerClock()
    clock.start()
    cpu = cpu_seconds()
    machine = machine_busy()
    start = time.perf_counter()
    run_simulation(config, games, path, workers=workers)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    clock.done.set()
    clock.join()
    busiest = max(clock.cpu.values(), default=cpu) if workers > 1 else cpu
    machine_after = machine_busy()
    others = None
    if machine is not None and machine_after is not None:
        others = max(0.0, (machine_after[0] - machine[0] - cpu) / seconds)
    assert len(read_results(path).games) == games
    return seconds, cpu, others, busiest


def _src_of(path: str) -> str:
    """The folder holding the ``hotdeath`` package: ``path`` itself or its ``src``."""
    for cand in (os.path.join(path, "src"), path):
        if os.path.isfile(os.path.join(cand, "hotdeath", "__init__.py")):
            return os.path.abspath(cand)
    raise SystemExit(f"--baseline: no hotdeath package in {path!r} or its src folder")


def child_run(src: str, config: SimConfig, games: int, path: Path) -> dict[str, object]:
    """One whole one-worker simulation on the engine in ``src``, in a fresh subprocess."""
    req = {"variant": config.variant, "players": config.players, "bots": list(config.bots),
           "seed": config.seed, "games": games, "path": str(path)}
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(req)], check=True,
                         env=dict(os.environ, PYTHONPATH=src), capture_output=True, text=True)
    answer: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(read_results(path).games) == games
    return answer


def compare_with_baseline(config: SimConfig, games: int, repeat: int, baseline: str) -> None:
    """This engine against the one in ``baseline``: interleaved one-worker simulations."""
    ours = os.path.dirname(os.path.dirname(os.path.abspath(hotdeath.__file__)))
    base = _src_of(baseline)
    cpu: dict[str, list[float]] = {"ours": [], "base": []}
    cores: dict[str, object] = {}
    print(f"this engine ({ours}) against {base}: {games} games a run, {repeat} "
          f"interleaved repetitions, CPU time of the simulation, medians")
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeat):
            order = ("ours", "base") if r % 2 == 0 else ("base", "ours")
            for who in order:
                got = child_run(ours if who == "ours" else base, config, games,
                                Path(tmp) / f"{who}{r}.jsonl")
                cpu[who].append(float(got["cpu"]))  # type: ignore[arg-type]
                cores[who] = got["core"]
            print(f"rep {r + 1}/{repeat}: ours {cpu['ours'][-1]:.2f} CPU s, baseline "
                  f"{cpu['base'][-1]:.2f} CPU s, ratio {cpu['base'][-1] / cpu['ours'][-1]:.2f}x "
                  f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    med = {k: statistics.median(v) for k, v in cpu.items()}
    per_rep = [b / o for b, o in zip(cpu["base"], cpu["ours"], strict=True)]
    print(json.dumps({
        "benchmark": "simulate_baseline", "variant": config.variant, "players": config.players,
        "games": games, "repeat": repeat, "core": cores.get("ours"),
        "baseline_core": cores.get("base"), "cpu_s_ours": round(med["ours"], 3),
        "cpu_s_baseline": round(med["base"], 3),
        "speed_ratio": round(med["base"] / med["ours"], 3),
        "speed_ratio_range": [round(min(per_rep), 3), round(max(per_rep), 3)],
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hotdeath")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", action="append", default=None)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20 games, one pair")
    parser.add_argument("--quiet-below", type=float, default=None, metavar="CPUS",
                        help="before each pair, wait until other work keeps at most this "
                             "many CPUs busy (Linux)")
    parser.add_argument("--max-wait", type=float, default=300.0,
                        help="seconds to wait for quiet before running anyway")
    parser.add_argument("--skip-busy", action="store_true",
                        help="with --quiet-below: skip a pair that found no quiet moment "
                             "instead of running it anyway")
    parser.add_argument("--baseline", metavar="DIR", default=None,
                        help="compare this engine with the one in DIR (one worker each, "
                             "interleaved) instead of 1 worker with 2")
    args = parser.parse_args()
    games, repeat = (20, 1) if args.quick else (args.games, args.repeat)
    config = SimConfig.make(args.variant, args.players, args.bot or ["basic"], args.seed)
    if args.baseline:
        compare_with_baseline(config, games, repeat, args.baseline)
        return
    print(f"{config.variant}, {config.players} players, bots {'/'.join(config.bots)}, "
          f"{games} games per run, {repeat} pairs, {os.cpu_count()} CPUs")
    ratios: list[float] = []
    overheads: list[float] = []
    shares: list[tuple[float, float]] = []
    pairs: list[dict[str, object]] = []
    critical: list[float] = []
    rates: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for r in range(repeat):
            order = (1, 2) if r % 2 == 0 else (2, 1)
            if args.quiet_below is not None:
                busy = wait_for_quiet(args.quiet_below, args.max_wait)
                if args.skip_busy and busy is not None and busy > args.quiet_below:
                    print(f"pair {r + 1}: skipped (other work kept {busy:.2f} CPUs busy)",
                          flush=True)
                    continue
            load_before = os.getloadavg()[0]
            runs = {w: timed_run(config, games, w, folder, f"r{r}w{w}") for w in order}
            secs = {w: runs[w][0] for w in runs}
            cpus = {w: runs[w][1] for w in runs}
            for w in (1, 2):
                rates[w].append(games / secs[w])
            ratio = secs[1] / secs[2]
            ratios.append(ratio)
            overheads.append(cpus[2] / cpus[1])
            critical.append(cpus[1] / runs[2][3])
            shares.append((cpus[1] / secs[1], cpus[2] / secs[2]))
            others = [runs[w][2] for w in (1, 2)]
            noise = ", ".join("?" if o is None else f"{o:.2f}" for o in others)
            print(f"pair {r + 1}: 1 worker {games / secs[1]:6.1f} games/s "
                  f"({cpus[1] / secs[1]:.2f} CPUs busy), 2 workers {games / secs[2]:6.1f} "
                  f"games/s ({cpus[2] / secs[2]:.2f} CPUs busy), speed-up {ratio:.2f}x, CPU "
                  f"time 2 vs 1 worker {cpus[2] / cpus[1]:.3f}, critical-path speed-up "
                  f"{critical[-1]:.2f}x; other work kept {noise} "
                  f"CPUs busy (load average {load_before:.1f} -> "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
            pairs.append({"games_per_s_1": round(games / secs[1], 1),
                          "games_per_s_2": round(games / secs[2], 1),
                          "speedup": round(ratio, 3),
                          "critical_path_speedup": round(critical[-1], 3),
                          "others_cpus": [None if o is None else round(o, 2) for o in others]})
    if not ratios:
        print(json.dumps({"benchmark": "simulate", "pairs": 0}))
        return
    result = {
        "benchmark": "simulate",
        "variant": config.variant,
        "players": config.players,
        "games": games,
        "pairs": len(ratios),
        "games_per_s_1_worker": round(statistics.median(rates[1]), 1),
        "games_per_s_2_workers": round(statistics.median(rates[2]), 1),
        "speedup_median": round(statistics.median(ratios), 3),
        "speedup_best": round(max(ratios), 3),
        "cpu_time_ratio_median": round(statistics.median(overheads), 3),
        "critical_path_speedup_median": round(statistics.median(critical), 3),
        "cpus_busy_1_worker": round(statistics.median(s[0] for s in shares), 2),
        "cpus_busy_2_workers": round(statistics.median(s[1] for s in shares), 2),
        "pairs_detail": pairs,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
