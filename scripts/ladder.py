"""Write the ladder's ratings (src/hotdeath/data/ladder.json) from measured results.

    python scripts/ladder.py \
        --tournament hotdeath=ladder/hotdeath --tournament standard=ladder/standard \
        --tournament cutthroat=ladder/cutthroat --tournament throwdown=ladder/throwdown \
        --paired hotdeath=ladder/master-hotdeath.jsonl

Each ``--tournament VARIANT=FOLDER`` is a ``hotdeath tournament`` of the variant's levels
(its entrants are the lobby's specs); its comparisons are those the variant's game is won
by: each hand's points where points decide the game (``by="points"``, shown to agree with
whole games, :func:`hotdeath.tournament.agreement`), else whole games.  Each ``--paired
VARIANT=FILE`` is a ``benchmarks/paired_hands.py`` run whose opponent is one of the
tournament's entrants: every other bot of the file (a searching level, too costly for a
round robin) adds, in each hand, its comparisons with the opponents at its table by the
same measure, and one Bradley–Terry fit of both sets of comparisons puts it on the
tournament's scale.  The 95% intervals come from a bootstrap over the deals (a
tournament's deal, every table's game of it together; a paired file's hand).

The levels are ordered by their rating in the first variant given (the lobby orders by the
variant chosen); a level whose rating's interval does not lie above the rating of the next
kept level below it in any variant measured is dropped, with the reason written down.  A
level that plays a variant but has no measurement there (no paired hand finished) is
listed under ``unrated``: the lobby does not offer it for that variant.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from hotdeath.bots import bot_fits
from hotdeath.bots.ladder import LADDER_FORMAT
from hotdeath.tournament import (
    _comparisons,
    agreement,
    fit_ratings,
    load_tournament,
    points_decide,
)

OUT = Path(__file__).resolve().parent.parent / "src" / "hotdeath" / "data" / "ladder.json"
BOOTSTRAP = 200


def paired_comparisons(path: Path, entrants: list[str], sign: int,
                       ) -> tuple[list[str], list[list[tuple[int, int]]]]:
    """The comparisons of a paired-hands file's bots (but its control) with the opponents.

    Returns the bots added to ``entrants`` and one list of (winner, loser) pairs per hand
    (all the file's bots' hands of one deal together).  ``sign``: -1 where the lowest
    total wins, +1 where the highest does, 0 to count hands won.
    """
    head: dict[str, Any] = {}
    hands: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("kind") == "run":
            head = head or row
        else:
            hands[row["i"]] = row
    opponent = head["opponent"]
    if opponent not in entrants:
        raise SystemExit(f"{path}: the opponent {opponent!r} is not a tournament entrant")
    opp = entrants.index(opponent)
    control = head["bots"][0]
    added = [b for b in head["bots"][1:] if b not in entrants]
    index = {**{e: i for i, e in enumerate(entrants)},
             **{b: len(entrants) + k for k, b in enumerate(added)}}
    games: list[list[tuple[int, int]]] = []
    for i in sorted(hands):
        row = hands[i]
        if not all(b in row["bots"] for b in head["bots"]):
            continue
        seat = row["seat"]
        pairs: list[tuple[int, int]] = []
        for bot, got in row["bots"].items():
            if bot == control or not got.get("finished", True):
                continue
            me = index[bot]
            pts = got["seat_points"]
            for other in range(len(pts)):
                if other == seat:
                    continue
                if sign == 0:  # hands won: the hand's winner beats every other seat
                    d = 1 if got["won"] else -1 if got.get("winner") == other else 0
                else:
                    d = sign * (pts[seat] - pts[other])
                if d > 0:
                    pairs.append((me, opp))
                elif d < 0:
                    pairs.append((opp, me))
        games.append(pairs)
    return added, games


def rate_variant(folder: Path, paired: Sequence[Path], by: str | None = None,
                 ) -> dict[str, Any]:
    """One variant's ratings: the tournament's entrants and the paired files' bots.

    ``by``: ``points`` or ``games`` (None: points where points decide the game).
    """
    result = load_tournament(folder)
    cfg = result.config
    by = by or ("points" if points_decide(result) else "games")
    indexed = _comparisons(result, by)
    entrants = list(cfg.entrants)
    games = [pairs for _, pairs in indexed]
    deal_of = [i for i, _ in indexed]
    sign = 0
    if by == "points":
        from hotdeath.tournament import _points_sign

        sign = _points_sign(result)
    extra_deal = max(deal_of, default=0) + 1
    for path in paired:
        added, more = paired_comparisons(path, entrants, sign)
        entrants += added
        games += more
        deal_of += [extra_deal + k for k in range(len(more))]
        extra_deal += len(more)
    n = len(entrants)
    ratings = fit_ratings(n, games)
    deals = sorted(set(deal_of))
    where = {d: k for k, d in enumerate(deals)}
    owner = np.array([where[d] for d in deal_of])
    rng = np.random.default_rng(0)
    samples = np.array([
        fit_ratings(n, games, rng.multinomial(len(deals), [1 / len(deals)] * len(deals))
                    .astype(float)[owner])
        for _ in range(BOOTSTRAP)])
    lo = np.percentile(samples, 2.5, axis=0)
    hi = np.percentile(samples, 97.5, axis=0)
    counted = [0] * n
    for pairs in games:
        for a, b in pairs:
            counted[a] += 1
            counted[b] += 1
    out: dict[str, Any] = {
        "players": cfg.players, "by": by, "preset": cfg.preset or None,
        "tournament": {"entrants": list(cfg.entrants), "games_per_table": cfg.games,
                       "seed": cfg.seed, "games": len(result.games),
                       "unfinished": result.unfinished},
        "paired": [p.name for p in paired],
        "levels": {e: {"rating": round(ratings[i], 1), "low": round(float(lo[i]), 1),
                       "high": round(float(hi[i]), 1), "comparisons": counted[i]}
                   for i, e in enumerate(entrants)},
    }
    if points_decide(result):
        out["agreement"] = agreement(result, bootstrap=BOOTSTRAP).words()
    return out


def order_and_drop(ratings: dict[str, dict[str, Any]], first: str,
                   ) -> tuple[list[str], dict[str, str]]:
    """The levels weakest first (by ``first``'s ratings, then the others') and the dropped.

    A level goes when, in every variant that rates it and the next kept level below it,
    its interval's lower end is not above that level's rating.
    """
    specs: list[str] = []
    for table in ratings.values():
        specs += [s for s in table["levels"] if s not in specs]

    def key(spec: str) -> tuple[float, ...]:
        return tuple(
            table["levels"][spec]["rating"] if spec in table["levels"] else -1e9
            for table in [ratings[first], *(t for v, t in ratings.items() if v != first)])

    kept: list[str] = []
    dropped: dict[str, str] = {}
    for spec in sorted(specs, key=lambda s: (s not in ratings[first]["levels"], key(s))):
        below = None
        for k in reversed(kept):
            if any(spec in t["levels"] and k in t["levels"] for t in ratings.values()):
                below = k
                break
        if below is None:
            kept.append(spec)
            continue
        stronger = [v for v, t in ratings.items()
                    if spec in t["levels"] and below in t["levels"]
                    and t["levels"][spec]["low"] > t["levels"][below]["rating"]]
        if stronger:
            kept.append(spec)
        else:
            dropped[spec] = "measures no stronger than " + below + " in " + ", ".join(
                f"{v} ({t['levels'][spec]['rating']:.0f}, {t['levels'][spec]['low']:.0f}–"
                f"{t['levels'][spec]['high']:.0f}, against {t['levels'][below]['rating']:.0f})"
                for v, t in ratings.items() if spec in t["levels"] and below in t["levels"])
    return kept, dropped


def markdown(data: dict[str, Any]) -> str:
    """The ladder file as docs/bots.md shows it: one table per variant, strongest first."""
    out: list[str] = []
    for variant, table in data["ratings"].items():
        by = "each hand's points" if table["by"] == "points" else "whole games"
        out += [f"**{variant}**, {table['players']} players, rated by {by}"
                + (f" ({table['agreement']})" if table.get("agreement") else "") + ":", "",
                "| level | rating | 95% interval | comparisons | in the lobby |",
                "|---|---|---|---|---|"]
        rows = sorted(table["levels"].items(), key=lambda kv: -kv[1]["rating"])
        for spec, e in rows:
            where = ("yes" if spec in data["levels"] else
                     "dropped" if spec in data["dropped"] else "—")
            out.append(f"| `{spec}` | {e['rating']:.0f} | {e['low']:.0f}–{e['high']:.0f} | "
                       f"{e['comparisons']:,} | {where} |")
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Rate every variant given and write the ladder file."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tournament", action="append", default=[], metavar="VARIANT=FOLDER")
    ap.add_argument("--paired", action="append", default=[], metavar="VARIANT=FILE")
    ap.add_argument("--by", action="append", default=[], metavar="VARIANT=games|points",
                    help="rate a variant by whole games though points decide it (where "
                    "each hand's points order the levels otherwise than games do)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--markdown", action="store_true",
                    help="print the ladder file's tables (Markdown) and stop")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.out.read_text(encoding="utf-8"))))
        return 0
    if not args.tournament:
        ap.error("give at least one --tournament VARIANT=FOLDER")
    paired: dict[str, list[Path]] = {}
    for item in args.paired:
        variant, _, path = item.partition("=")
        paired.setdefault(variant, []).append(Path(path))
    by = dict(item.partition("=")[::2] for item in args.by)
    ratings: dict[str, dict[str, Any]] = {}
    for item in args.tournament:
        variant, _, folder = item.partition("=")
        ratings[variant] = rate_variant(Path(folder), paired.get(variant, []), by.get(variant))
        print(f"{variant}: rated by {ratings[variant]['by']}", file=sys.stderr)
    first = args.tournament[0].partition("=")[0]
    levels, dropped = order_and_drop(ratings, first)
    unrated = {v: [s for s in levels if s not in t["levels"] and bot_fits(s, v, t["players"])]
               for v, t in ratings.items()}
    data = {
        "format": LADDER_FORMAT,
        "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python scripts/ladder.py " + " ".join(
            [f"--tournament {t}" for t in args.tournament]
            + [f"--paired {p}" for p in args.paired] + [f"--by {b}" for b in args.by]),
        "levels": levels,
        "dropped": dropped,
        "unrated": {v: specs for v, specs in unrated.items() if specs},
        "ratings": ratings,
    }
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({"levels": levels, "dropped": dropped}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
