#!/usr/bin/env python
"""The learning curve of a ``hotdeath train`` run: each saved model against a control.

Run from the repository root::

    nice -n 10 .venv/bin/python benchmarks/neural_curve.py runs/std2 --hands 600

Every ``models/iter-NNNN.npz`` of the run folder (``--every`` of them) is rated by
``benchmarks/neural_strength.py`` (paired first hands against ``--control`` in the same
seat, ``--opponent`` in the others) and printed as a Markdown row with the run's CPU
seconds and decisions up to that iteration (from ``log.jsonl``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from hotdeath.bots.neural import Model
from hotdeath.rl.train import iter_log


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--opponent", default="heuristic:strong")
    ap.add_argument("--control", default="heuristic:strong")
    args = ap.parse_args(argv)
    spec = importlib.util.spec_from_file_location(
        "neural_strength", Path(__file__).with_name("neural_strength.py"))
    assert spec is not None
    assert spec.loader is not None
    strength = importlib.util.module_from_spec(spec)
    sys.modules["neural_strength"] = strength
    spec.loader.exec_module(strength)
    log = {line["iteration"]: line for line in iter_log(args.run)}
    print("| iteration | CPU s (total) | learner decisions | points against the table, "
          "difference (95% CI) | hands won, difference |")
    print("|---|---|---|---|---|")
    for path in sorted((args.run / "models").glob("iter-*.npz")):
        model = Model.load(path)
        it = int(path.stem.split("-")[1])
        decisions = sum(v["decisions"] for k, v in log.items() if k <= it)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r.json"
            strength.main(["--variant", model.variant, "--players", str(model.players),
                           "--hands", str(args.hands), "--seed", str(args.seed),
                           "--model", str(path), "--opponent", args.opponent,
                           "--control", args.control, "--out", str(out)])
            r = json.loads(out.read_text(encoding="utf-8"))
        m, lo, hi = r["points_difference"]
        w = r["won_difference"][0]
        cpu = log[it]["total_cpu"] if it in log else float("nan")
        print(f"| {it} | {cpu:,.0f} | {decisions:,} | {m:+.1f} ({lo:+.1f} to {hi:+.1f}) "
              f"| {100 * w:+.1f} points |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
