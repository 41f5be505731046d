#!/usr/bin/env python
"""Coach agreement: does the hint's move agree with a ten times longer search?

Run from the repository root (see ``benchmarks/README.md``)::

    nice -n 5 .venv/bin/python benchmarks/coach_agreement.py              # 50 decisions
    .venv/bin/python benchmarks/coach_agreement.py --decisions 20 --iterations 300

A set of recorded decisions is made by playing Hot Death (canonical, 4 players) with four
``heuristic:expert`` bots from ``--seed`` on and keeping every ``--every``-th decision of
the player to act that has more than one move worth searching (the deal size and
out-of-turn windows are not searched).  Each is given to :func:`hotdeath.coach.hint` twice,
from the seat's view only: with ``--iterations`` search iterations (the hint) and with ten
times as many (the reference), each with its own generator.  Counted: decisions where the
hint's best move is the reference's best move, with Wilson's 95% interval.  Iterations, not
seconds, so that the figure does not depend on how busy the machine is; the wall time per
hint at that budget is reported too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import hotdeath
from hotdeath import coach
from hotdeath.bots import make_bot, parse_spec
from hotdeath.bots.ismcts import _searched
from hotdeath.view import View

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_strength import wilson


def decisions(count: int, seed: int, every: int) -> list[View]:
    """``count`` recorded decisions (views of the player to act) from expert games."""
    out: list[View] = []
    game = 0
    while len(out) < count:
        state = hotdeath.new_game("hotdeath", 4, seed + game)
        bots = [make_bot("heuristic:expert") for _ in range(4)]
        rng = random.Random(seed + game)
        seen = 0
        for _ in range(3000):
            if state.is_terminal() or len(out) >= count:
                break
            seat = state.current_player()
            view = state.view(seat)
            if view.phase != "deal" and len(_searched(view.legal_actions)) > 1:
                seen += 1
                if seen % every == 0:
                    out.append(view)
            choice = bots[seat].choose(view, rng)
            state.step(choice if choice is not None else view.legal_actions[0], seat)
        game += 1
    return out


def judge(job: tuple[int, View, int, str]) -> tuple[bool, float, float]:
    """(agreed, seconds of the hint, seconds of the reference) for one decision."""
    i, view, iterations, search = job
    if search:
        coach.SEARCH.clear()
        named = {part.partition("=")[0] for part in search.split(",")}
        values = parse_spec("ismcts:" + search)[1]
        coach.SEARCH.update({k: v for k, v in values.items() if k in named})
    started = time.perf_counter()
    short = coach.hint(view, iterations=iterations, seed=1000 + i)
    mid = time.perf_counter()
    long = coach.hint(view, iterations=10 * iterations, seed=2000 + i)
    end = time.perf_counter()
    return short.best.action == long.best.action, mid - started, end - mid


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=50, help="decisions judged")
    ap.add_argument("--iterations", type=int, default=1000,
                    help="the hint's search iterations (the reference: ten times)")
    ap.add_argument("--seed", type=int, default=70000, help="first game's seed")
    ap.add_argument("--every", type=int, default=7, help="keep every n-th decision")
    ap.add_argument("--workers", type=int, default=2, help="processes")
    ap.add_argument("--search", default="",
                    help="the coach's search settings as an ismcts spec's tail "
                         "(rollout=expert,pick=sure; default: coach.SEARCH)")
    args = ap.parse_args(argv)
    views = decisions(args.decisions, args.seed, args.every)
    jobs = [(i, v, args.iterations, args.search) for i, v in enumerate(views)]
    started = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(judge, jobs)
    else:
        results = [judge(j) for j in jobs]
    wall = time.perf_counter() - started
    agreed = sum(1 for ok, _, _ in results if ok)
    n = len(results)
    lo, hi = wilson(agreed, n)
    short = sorted(t for _, t, _ in results)
    print(f"Command: `benchmarks/coach_agreement.py --decisions {args.decisions} --iterations "
          f"{args.iterations} --seed {args.seed} --every {args.every} --workers "
          f"{args.workers}" + (f" --search {args.search}" if args.search else "")
          + f"`; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {platform.machine()}, "
          f"{multiprocessing.cpu_count()} CPUs, Python {platform.python_version()}.")
    print()
    print("| Decisions | Hint | Reference | Agreed | Rate | 95% CI (Wilson) | Hint time "
          "(median, max) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {n} (Hot Death canonical, 4 experts) | {args.iterations} iterations | "
          f"{10 * args.iterations} iterations | {agreed} | **{100 * agreed / n:.1f}%** | "
          f"{100 * lo:.1f}–{100 * hi:.1f}% | {short[n // 2] * 1000:.0f} ms, "
          f"{short[-1] * 1000:.0f} ms |")
    print()
    print(f"Wall time: {wall:.0f} s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
