#!/usr/bin/env python
"""Bots compared in one seat on the same first hands: each hand's figures, then a summary.

Run from the repository root (the compiled core: ``PYTHONPATH=build/mypyc``)::

    PYTHONPATH=build/mypyc nice -n 10 .venv/bin/python benchmarks/paired_hands.py \
        --hands 150 --bot heuristic:expert --bot master:seconds=0.5 --out runs/master.jsonl
    .venv/bin/python benchmarks/paired_hands.py --summary runs/master.jsonl

Hand *i* is the first hand of the game seeded ``game_seed(--seed, i)`` (the simulation's
seeds), with the bot under test in seat ``i % players`` and ``--opponent`` in every other
seat; the hand is played once per ``--bot``, each time with that bot in the seat.  The
first hand of a game is dealt the same whatever the bots do, so two bots' figures on a
hand differ only by the bot in the seat: a paired comparison.  The first ``--bot`` is the
control every other is compared with (the interval is the mean paired difference ± 1.96
standard errors).

Figures per hand and bot, for the seat under test:

* **points**: what the hand brought the seat against the table, in the direction that
  wins the game: where the lowest total wins (Hot Death) the other seats' mean points
  less the seat's own, elsewhere the seat's points less the others' mean; where no
  points decide the game (Cutthroat, Throwdown), 1 for winning the hand and
  −1/(players − 1) when another seat won it (the share won against the table);
* **won**: 1 when the seat won the hand;
* **cpu**: the CPU seconds of each of the seat's decisions with a choice (the bot's own
  figure where it reports one, ``last_cpu``, which counts a root-parallel search's worker
  processes too; else this thread's CPU time around the decision).

Each hand is appended to ``--out`` as one JSON line as soon as it is played, so a run cut
short keeps every hand it finished; ``--start`` and ``--part K/N`` (the hands ``i`` with
``i % N == K``) split a run between processes, and ``--summary`` reads any number of such
files (a hand played twice counts once).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import hotdeath
from hotdeath.actions import Action
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import play_first_hand
from hotdeath.report import wilson
from hotdeath.simulate import game_seed
from hotdeath.variants import get_variant
from hotdeath.view import View


class Timed:
    """A bot whose decisions with a choice are timed in CPU seconds."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu: list[float] = []

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The bot's choice; its CPU time recorded when it had one to make."""
        t = time.thread_time()
        out = self.bot.choose(view, rng)
        if len(view.legal_actions) > 1:
            own = getattr(self.bot, "last_cpu", None)
            self.cpu.append(float(own) if own else time.thread_time() - t)
        return out


def play_hand(variant: str, players: int, seed: int, seat: int, bot: Bot, opponent: Bot,
              lowest: bool | None, max_moves: int) -> dict[str, Any]:
    """The first hand of game ``seed`` with ``bot`` in ``seat``: its figures for the seat."""
    timed = Timed(bot)
    table: list[Bot] = [opponent] * players
    table[seat] = timed
    last = play_first_hand(variant, table, seed, max_moves)
    pts = (last.points() if last is not None else None) or [0] * players
    winner = last.winner if last is not None else -1
    others = (sum(pts) - pts[seat]) / (players - 1)
    if lowest is None:  # no points decide the game: the hand won against the table
        score = 1.0 if winner == seat else -1.0 / (players - 1) if winner >= 0 else 0.0
    else:
        score = (others - pts[seat]) if lowest else (pts[seat] - others)
    return {"points": score,
            "won": int(winner == seat), "cpu": [round(c, 4) for c in timed.cpu],
            "seat_points": list(pts), "winner": winner,
            "finished": last is not None}


def mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% normal interval."""
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return m, m - 1.96 * se, m + 1.96 * se


def summary(paths: Sequence[Path], only: Sequence[str] = ()) -> dict[str, Any]:
    """Every bot's figures over the hands of ``paths`` that every bot played.

    ``only``: these bots (the first the control) rather than those of the first run.
    """
    hands: dict[int, dict[str, Any]] = {}
    head: dict[str, Any] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("kind") == "run":
                head = head or row
                continue
            have = hands.setdefault(row["i"], {**row, "bots": {}})
            have["bots"].update(row["bots"])  # the same hand played by other bots elsewhere
    bots: list[str] = list(only) or head.get("bots") or list(next(iter(hands.values()))["bots"])
    rows = [hands[i] for i in sorted(hands) if all(b in hands[i]["bots"] for b in bots)]
    control = bots[0]
    out: dict[str, Any] = {"hands": len(rows), "control": control, "bots": {},
                           **{k: head.get(k) for k in ("variant", "players", "opponent",
                                                       "seed", "core")}}
    for b in bots:
        pts = [r["bots"][b]["points"] for r in rows]
        won = [r["bots"][b]["won"] for r in rows]
        cpu = sorted(c for r in rows for c in r["bots"][b]["cpu"])
        lo, hi = wilson(sum(won), len(won))
        entry: dict[str, Any] = {
            "points": mean_interval(pts), "won": sum(won) / len(won), "won_ci": (lo, hi),
            "decisions": len(cpu),
            "cpu_median": statistics.median(cpu) if cpu else None,
            "cpu_max": cpu[-1] if cpu else None,
            "cpu_total": sum(cpu),
        }
        if b != control:
            entry["points_vs_control"] = mean_interval(
                [r["bots"][b]["points"] - r["bots"][control]["points"] for r in rows])
            entry["won_vs_control"] = mean_interval(
                [r["bots"][b]["won"] - r["bots"][control]["won"] for r in rows])
        out["bots"][b] = entry
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Play the hands (appending each to ``--out``), or summarise files (``--summary``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="hotdeath")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=150, help="hands 0 … H-1 (less --start)")
    ap.add_argument("--start", type=int, default=0, help="the first hand's number")
    ap.add_argument("--part", default="0/1", help="K/N: play only the hands i with i %% N == K")
    ap.add_argument("--seed", type=int, default=92000)
    ap.add_argument("--bot", action="append", default=[],
                    help="a bot spec to play the seat (repeat; the first is the control)")
    ap.add_argument("--opponent", default="heuristic:expert")
    ap.add_argument("--max-moves", type=int, default=5000)
    ap.add_argument("--out", type=Path, help="the JSON-lines file each hand is appended to")
    ap.add_argument("--summary", type=Path, nargs="+",
                    help="summarise these files and stop (with --bot: only those bots)")
    args = ap.parse_args(argv)
    if args.summary:
        print(json.dumps(summary(args.summary, args.bot), indent=1))
        return 0
    if len(args.bot) < 1 or args.out is None:
        ap.error("give --out and at least one --bot")
    k, _, n = args.part.partition("/")
    part, parts = int(k), int(n)
    v = get_variant(args.variant)
    lowest = v.goal(v.resolve_options(None, None)).lowest_wins
    bots = {spec: make_bot(spec) for spec in args.bot}
    opponent = make_bot(args.opponent)
    with args.out.open("a", encoding="utf-8") as f:
        f.write(json.dumps({
            "kind": "run", "variant": args.variant, "players": args.players,
            "opponent": args.opponent, "seed": args.seed, "bots": args.bot,
            "core": hotdeath.core(), "python": platform.python_version(),
            "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}) + "\n")
        for i in range(args.start, args.start + args.hands):
            if i % parts != part:
                continue
            seed = game_seed(args.seed, i)
            seat = i % args.players
            row: dict[str, Any] = {"i": i, "seed": seed, "seat": seat, "bots": {}}
            c0, t0 = time.process_time(), time.perf_counter()
            for spec, bot in bots.items():
                row["bots"][spec] = play_hand(args.variant, args.players, seed, seat, bot,
                                              opponent, lowest, args.max_moves)
            row["cpu_s"] = round(time.process_time() - c0, 2)
            row["wall_s"] = round(time.perf_counter() - t0, 2)
            f.write(json.dumps(row) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
