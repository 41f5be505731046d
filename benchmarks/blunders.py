"""The mistake scan: every variant's mistake rates under the same bots, side by side.

For each bot spec and each registered variant (its default preset and player count), the
scan plays ``--games`` games of that bot in every seat and counts what
:data:`hotdeath.simulate.BLUNDERS` names: own Uno calls missed (the seat was caught),
erroneous calls, lost challenges, forgiven draws, blocked hands, games at the move cap,
seats that left.  A rate is **flagged** where its 95% Wilson interval lies wholly above
every other variant's interval for the same bot and mistake: the signature of a bot that
misreads one game's rules (Throwdown's separate Uno call was one: 133 catches against 8
calls in a game).  ``tests/test_blunders.py`` keeps the rates that matter low.

    python benchmarks/blunders.py                         # heuristic levels and basic, 40 games
    python benchmarks/blunders.py --bot heuristic --games 200 --workers 2
    python benchmarks/blunders.py --quick                 # a smoke run

The last line is JSON: ``{"benchmark": "blunders", "rows": [...], "flagged": [...]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from hotdeath.report import wilson
from hotdeath.simulate import BLUNDERS, SimConfig, blunder_rates, read_results, run_simulation
from hotdeath.variants import all_variants

BOTS = ("heuristic:weak", "heuristic", "heuristic:expert", "basic")


def scan(bots: list[str], games: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """One row per (bot, variant): the counts of every mistake and the CPU time spent."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for bot in bots:
            for v in all_variants():
                config = SimConfig.make(v.name, None, [bot], seed=seed)
                out = Path(tmp) / f"{v.name}-{bot.replace(':', '-')}.jsonl"
                cpu = time.process_time()
                children = os.times()
                run_simulation(config, games, out, workers=workers)
                after = os.times()
                spent = (time.process_time() - cpu + after.children_user - children.children_user
                         + after.children_system - children.children_system)
                records = read_results(out).games
                rates = blunder_rates(records)
                rows.append({
                    "bot": bot, "variant": v.name, "preset": config.preset,
                    "players": config.players, "games": len(records),
                    "hands": sum(int(g["hands"]) for g in records),
                    "cpu_s": round(spent, 2),
                    "rates": {k: list(c) for k, c in rates.items()},
                })
    return rows


def flagged(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rates whose interval lies wholly above every other variant's (same bot, mistake)."""
    out: list[dict[str, Any]] = []
    for row in rows:
        for b in BLUNDERS:
            count, total = row["rates"][b.key]
            if not total or not count:
                continue
            low = wilson(count, total)[0]
            others = [r for r in rows if r["bot"] == row["bot"] and r is not row]
            highs = [wilson(*r["rates"][b.key])[1] for r in others if r["rates"][b.key][1]]
            if highs and low > max(highs):
                out.append({"bot": row["bot"], "variant": row["variant"], "mistake": b.key,
                            "count": count, "out_of": total})
    return out


def _cell(count: int, total: int) -> str:
    if not total:
        return "—"
    lo, hi = wilson(count, total)
    return f"{100 * count / total:.1f}% ({count}/{total}; {100 * lo:.1f}–{100 * hi:.1f})"


def table(rows: list[dict[str, Any]], marks: list[dict[str, Any]]) -> str:
    """The scan as a Markdown table, a flagged rate in bold."""
    hit = {(m["bot"], m["variant"], m["mistake"]) for m in marks}
    head = ["bot", "variant", "games", "hands"] + [b.label for b in BLUNDERS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [f"`{r['bot']}`", r["variant"], str(r["games"]), str(r["hands"])]
        for b in BLUNDERS:
            text = _cell(*r["rates"][b.key])
            cells.append(f"**{text}**" if (r["bot"], r["variant"], b.key) in hit else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Parse the command line, run the scan, print the table and the JSON line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", action="append", help=f"bot spec (repeatable; default {BOTS})")
    ap.add_argument("--games", type=int, default=40, help="games per bot and variant")
    ap.add_argument("--seed", type=int, default=25_000, help="master seed of every run")
    ap.add_argument("--workers", type=int, default=1, help="worker processes per run")
    ap.add_argument("--quick", action="store_true", help="3 games, one bot (a smoke run)")
    args = ap.parse_args()
    bots = args.bot or (["heuristic"] if args.quick else list(BOTS))
    games = 3 if args.quick else args.games
    rows = scan(bots, games, args.seed, args.workers)
    marks = flagged(rows)
    print(table(rows, marks))
    print()
    if marks:
        for m in marks:
            print(f"flagged: {m['bot']} in {m['variant']}: {m['mistake']} "
                  f"{m['count']} of {m['out_of']}")
    else:
        print("flagged: none (no variant's rate stands above every other variant's)")
    print(json.dumps({"benchmark": "blunders", "games": games, "seed": args.seed,
                      "rows": rows, "flagged": marks}))


if __name__ == "__main__":
    main()
