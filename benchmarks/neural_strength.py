#!/usr/bin/env python
"""The neural bot's strength: paired first hands against a control in the same seat.

Run from the repository root::

    nice -n 10 .venv/bin/python benchmarks/neural_strength.py --variant hotdeath --players 4 \
        --hands 2000 --opponent heuristic:strong
    .venv/bin/python benchmarks/neural_strength.py --variant standard --players 2 --hands 200 \
        --model runs/std2/model.npz --play 1.0:0 --play 0:0.1

Hand *i* is the first hand of the game seeded ``game_seed(--seed, i)`` (the simulation's
seeds), with the candidate in seat ``i % players`` and ``--opponent`` in every other seat;
the same hand is played again with ``--control`` in the candidate's seat.  The first hand
of a game is dealt the same whatever the bots do, so the two hands differ only by the
bot in that seat: the difference is a paired comparison (the interval is the mean
difference ± 1.96 standard errors of the differences).

Measures per hand, for the seat under test:

* **points**: what the hand brought the seat against the table, in the direction that
  wins the game: Hot Death (lowest total wins) the other seats' mean points less the
  seat's own; standard Uno the seat's points (the winner scores the others' cards) less
  the others' mean;
* **won**: 1 when the seat won the hand.

Also the candidate's decision time (median, 90th percentile, mean, over its decisions
with more than one legal action).  Output: one JSON object (``--out`` writes it too).

``--play PRIOR:MARGIN`` (repeatable) rates the neural candidate with other play rules
(the model's imitation weight and margin, :func:`hotdeath.bots.neural.pick_slot`) on the
same deals, the control played once: one result object per rule, in a JSON list.
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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import hotdeath
from hotdeath.actions import Action
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import play_first_hand
from hotdeath.bots.neural import NeuralBot, shipped_model
from hotdeath.simulate import game_seed
from hotdeath.variants import get_variant
from hotdeath.view import View


@dataclass
class Side:
    """The per-hand figures of one bot in the seat under test."""

    points: list[float] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


class Timed:
    """A bot whose decisions with a choice are timed."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: View, rng: random.Random) -> Action | None:
        t = time.perf_counter()
        out = self.bot.choose(view, rng)
        if len(view.legal_actions) > 1:
            self.times.append(time.perf_counter() - t)
        return out


def first_hand(variant: str, players: int, seed: int, bots: Sequence[Bot],
               max_moves: int) -> tuple[list[int], int]:
    """Play the first hand of game ``seed``; each seat's points and the winner (-1: none)."""
    last = play_first_hand(variant, bots, seed, max_moves)
    if last is None:
        return [0] * players, -1
    return last.points() or [0] * players, last.winner


def measure(variant: str, players: int, seed: int, seat: int, bots: Sequence[Bot],
            lowest: bool | None, max_moves: int) -> tuple[float, int]:
    """``(points against the table, won)`` of ``seat`` in the first hand of game ``seed``."""
    pts, winner = first_hand(variant, players, seed, bots, max_moves)
    others = (sum(pts) - pts[seat]) / (players - 1)
    diff = (others - pts[seat]) if lowest else (pts[seat] - others)
    return diff, int(winner == seat)


def interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    n = len(xs)
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(n) if n > 1 else float("inf")
    return m, m - 1.96 * se, m + 1.96 * se


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="hotdeath")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=90000)
    ap.add_argument("--candidate", default="neural", help="bot spec under test")
    ap.add_argument("--model", help="a model file for the neural candidate")
    ap.add_argument("--opponent", default="heuristic:strong")
    ap.add_argument("--control", default="heuristic:strong")
    ap.add_argument("--max-moves", type=int, default=5000)
    ap.add_argument("--play", action="append", metavar="PRIOR:MARGIN",
                    help="rate the neural candidate with this play rule (repeatable)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    v = get_variant(args.variant)
    lowest = v.goal(v.resolve_options(None, None)).lowest_wins
    base: Bot = NeuralBot(args.model) if args.model else make_bot(args.candidate)
    rules: list[tuple[float, float] | None] = [None]
    if args.play:
        if not isinstance(base, NeuralBot):
            ap.error("--play needs a neural candidate")
        try:
            rules = [(float(a), float(b)) for a, _, b in (r.partition(":") for r in args.play)]
        except ValueError:
            ap.error("--play takes PRIOR:MARGIN, such as 1.0:0.05")
    cands: list[tuple[Side, Bot]] = []
    for rule in rules:
        side = Side()
        bot = base
        if rule is not None and isinstance(base, NeuralBot):
            model = base.model or shipped_model(args.variant, args.players)
            bot = NeuralBot(replace(model, meta=dict(model.meta, prior=rule[0],
                                                     margin=rule[1])))
        cands.append((side, Timed(bot, side.times)))
    ctrl = Side()
    opp = make_bot(args.opponent)
    control = make_bot(args.control)
    n = args.players
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in range(args.hands):
        seed = game_seed(args.seed, i)
        seat = i % n
        for side, bot in [*cands, (ctrl, control)]:
            bots: list[Bot] = [opp] * n
            bots[seat] = bot
            p, w = measure(args.variant, n, seed, seat, bots, lowest, args.max_moves)
            side.points.append(p)
            side.won.append(w)
    out = []
    for rule, (cand, _) in zip(rules, cands, strict=True):
        diffs = [a - b for a, b in zip(cand.points, ctrl.points, strict=True)]
        wins = [a - b for a, b in zip(cand.won, ctrl.won, strict=True)]
        times = sorted(cand.times)
        out.append({
            "variant": args.variant, "players": n, "hands": args.hands, "seed": args.seed,
            "candidate": args.model or args.candidate, "opponent": args.opponent,
            "control": args.control,
            "play": None if rule is None else {"prior": rule[0], "margin": rule[1]},
            "points_candidate": interval(cand.points), "points_control": interval(ctrl.points),
            "points_difference": interval(diffs),
            "won_candidate": statistics.fmean(cand.won),
            "won_control": statistics.fmean(ctrl.won),
            "won_difference": interval(wins),
            "decision_ms": {
                "median": round(1e3 * statistics.median(times), 3) if times else None,
                "p90": round(1e3 * times[int(0.9 * (len(times) - 1))], 3) if times else None,
                "mean": round(1e3 * statistics.fmean(times), 3) if times else None,
                "decisions": len(times)},
            "wall_s": round(time.perf_counter() - t0, 1),
            "cpu_s": round(time.process_time() - c0, 1),
            "core": hotdeath.core(), "python": platform.python_version(),
            "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        })
    text = json.dumps(out[0] if not args.play else out)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
