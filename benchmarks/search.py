"""Search speed: ISMCTS iterations per CPU second at Hot Death decisions, against the code before.

The decisions are fixed: every ``--every``-th searched decision of a seeded Hot Death game
(canonical, 4 players) of four ``heuristic:expert`` bots, written as positions (the
notation) and read back by each engine, so both search the same views.  Each bot spec
(``--spec``, repeatable; the budget is set to ``--iterations`` per decision, so the work is
fixed and the generators seeded) searches every decision once per repetition, and what is
timed is the CPU time of the searches alone (``time.process_time``).  The figure is
iterations per CPU second; ``--workers N`` specs (root-parallel search) count the CPU time
of their worker processes too (``os.times`` of the children) and report the wall-clock
speed beside it.

With ``--baseline DIR`` the same runs go to a second engine: ``DIR`` is a checkout of the
code before (its ``src`` folder, or a folder holding a ``hotdeath`` package, such as the
``build/mypyc`` of a compiled checkout).  Each engine runs in its own subprocess, the two
interleaved (the order reversed every other repetition), ``--repeat`` repetitions, and the
speed ratio is the ratio of the medians (iterations per CPU s, this engine ÷ the baseline).

    # the code before, compiled as this one is
    mkdir -p /tmp/before && git archive main src scripts | tar -x -C /tmp/before
    (cd /tmp/before && python scripts/build_mypyc.py)
    python scripts/build_mypyc.py
    PYTHONPATH=build/mypyc nice -n 10 python benchmarks/search.py --baseline /tmp/before/build/mypyc
    python benchmarks/search.py --quick         # a smoke run on this engine alone

The last line is JSON: ``{"benchmark": "search", "specs": {spec: {...}}}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

SPECS = ("ismcts", "ismcts:root=paired,rollout=expert,reward=game,pick=sure")
"""The default specs: the plain search, and the strongest spec's settings (docs/bots.md)."""


def decisions(seed: int, count: int, every: int) -> list[dict[str, Any]]:
    """``count`` positions of searched decisions from a game of four experts (and the seat)."""
    import hotdeath
    from hotdeath.bots import make_bot
    from hotdeath.bots.arena import next_bot_move, seat_rngs
    from hotdeath.bots.ismcts import _searched
    from hotdeath.notation import to_position

    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < count:
        g = hotdeath.new_game("hotdeath", players=4, seed=seed + game)
        bots = {s: make_bot("heuristic:expert") for s in range(4)}
        rngs = seat_rngs(seed + game, 4)
        seen = 0
        while len(out) < count and not g.is_terminal():
            move = next_bot_move(g, bots, rngs)
            if move is None:
                break
            seat, action = move
            view = g.view(seat)
            if (seat == g.current_player() and view.phase != "deal"
                    and len(_searched(view.legal_actions)) > 1):
                if seen % every == 0:
                    out.append({"position": to_position(g), "seat": seat})
                seen += 1
            g.step(action, seat)
        game += 1
    return out


def _spec_with(spec: str, **params: object) -> str:
    """``spec`` with ``params`` set (replacing a value the spec gives)."""
    name, _, rest = spec.partition(":")
    parts = [p for p in rest.split(",") if p and p.split("=")[0] not in params]
    parts += [f"{k}={v}" for k, v in params.items()]
    return f"{name}:{','.join(parts)}"


def search_all(positions: list[dict[str, Any]], spec: str, iterations: int,
               seed: int) -> dict[str, float]:
    """Search every position with ``spec`` at ``iterations`` a decision; CPU and wall time."""
    from hotdeath.bots import make_bot
    from hotdeath.notation import from_position

    bot = make_bot(_spec_with(spec, iterations=iterations))
    views = [from_position(p["position"]).view(p["seat"]) for p in positions]
    done = 0
    cpu = 0.0
    wall = 0.0
    for i, view in enumerate(views):
        rng = random.Random(seed + i)
        kids = os.times()
        c0 = time.process_time()
        w0 = time.perf_counter()
        bot.choose(view, rng)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        after = os.times()
        cpu += (after.children_user - kids.children_user
                + after.children_system - kids.children_system)
        done += int(getattr(bot, "last_iterations", 0))
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    return {"cpu": cpu, "wall": wall, "iterations": done}


def worker() -> int:
    """``--worker``: answer one JSON request a line (:func:`search_all`'s arguments)."""
    import hotdeath

    print(json.dumps({"ready": os.path.dirname(os.path.dirname(hotdeath.__file__)),
                      "compiled": not hotdeath.state.__file__.endswith(".py")}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps(search_all(req["positions"], req["spec"], req["iterations"],
                                    req["seed"])), flush=True)
    return 0


class Engine:
    """A subprocess running this script's ``--worker`` on the ``hotdeath`` in ``path``."""

    def __init__(self, path: str | None) -> None:
        env = dict(os.environ)
        if path is not None:
            env["PYTHONPATH"] = path
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        hello = json.loads(self.proc.stdout.readline() or "{}")
        if "ready" not in hello:
            raise SystemExit(f"no engine answered from {path!r}")
        self.path = str(hello["ready"])
        self.compiled = bool(hello["compiled"])

    def run(self, **req: object) -> dict[str, float]:
        """Send one request and wait for its answer."""
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise SystemExit(f"the engine at {self.path} stopped")
        out: dict[str, float] = json.loads(answer)
        return out

    def close(self) -> None:
        """End the subprocess."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _package_dir(path: str) -> str:
    """The folder holding the ``hotdeath`` package: ``path`` itself or its ``src``."""
    for cand in (path, os.path.join(path, "src")):
        if os.path.isfile(os.path.join(cand, "hotdeath", "__init__.py")):
            return os.path.abspath(cand)
    raise SystemExit(f"--baseline: no hotdeath package in {path!r} or its src folder")


def main() -> None:
    """Parse the command line, run the comparison, print the table and the JSON line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", action="append", help=f"bot spec (repeatable; default {SPECS})")
    ap.add_argument("--iterations", type=int, default=300, help="iterations per decision")
    ap.add_argument("--decisions", type=int, default=8, help="decisions searched")
    ap.add_argument("--every", type=int, default=7, help="take every n-th searched decision")
    ap.add_argument("--repeat", type=int, default=5, help="interleaved repetitions")
    ap.add_argument("--seed", type=int, default=4200, help="seed of the game and the searches")
    ap.add_argument("--baseline", metavar="DIR", help="the code before (see the docstring)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 2 decisions, 40 "
                    "iterations, 1 repetition")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        raise SystemExit(worker())
    if args.quick:
        args.decisions, args.iterations, args.repeat = 2, 40, 1
    specs = args.spec or list(SPECS)
    positions = decisions(args.seed, args.decisions, args.every)
    engines = {"ours": Engine(None)}
    if args.baseline:
        engines["base"] = Engine(_package_dir(args.baseline))
    for key, e in engines.items():
        print(f"{key}: {e.path} ({'compiled' if e.compiled else 'pure'} core)")
    out: dict[str, Any] = {}
    try:
        for spec in specs:
            req = {"positions": positions, "spec": spec, "iterations": args.iterations,
                   "seed": args.seed}
            for e in engines.values():  # warm up
                e.run(**{**req, "positions": positions[:1]})
            rates: dict[str, list[float]] = {k: [] for k in engines}
            walls: dict[str, list[float]] = {k: [] for k in engines}
            order = list(engines)
            for rep in range(args.repeat):
                for key in (order if rep % 2 == 0 else order[::-1]):
                    r = engines[key].run(**req)
                    rates[key].append(r["iterations"] / max(r["cpu"], 1e-9))
                    walls[key].append(r["iterations"] / max(r["wall"], 1e-9))
            row: dict[str, Any] = {
                k: {"iterations_per_cpu_s": round(statistics.median(v)),
                    "range": [round(min(v)), round(max(v))],
                    "iterations_per_wall_s": round(statistics.median(walls[k]))}
                for k, v in rates.items()
            }
            line = ", ".join(
                f"{k} {row[k]['iterations_per_cpu_s']:,} a CPU s "
                f"({row[k]['range'][0]:,}–{row[k]['range'][1]:,}; wall "
                f"{row[k]['iterations_per_wall_s']:,} a s)" for k in rates)
            if "base" in rates:
                row["ratio"] = round(statistics.median(rates["ours"])
                                     / statistics.median(rates["base"]), 2)
                line += f": {row['ratio']:.2f}×"
            print(f"{spec}: {line}", flush=True)
            out[spec] = row
    finally:
        for e in engines.values():
            e.close()
    print(json.dumps({"benchmark": "search", "decisions": len(positions),
                      "iterations": args.iterations, "repeat": args.repeat,
                      "engines": {k: {"path": e.path, "compiled": e.compiled}
                                  for k, e in engines.items()}, "specs": out}))


if __name__ == "__main__":
    main()
