#!/usr/bin/env python
"""Bot strength: matches between the built-in bots, with win rates and 95% intervals.

Run from the repository root (see ``benchmarks/README.md``)::

    nice -n 5 .venv/bin/python benchmarks/bot_strength.py            # the full table
    nice -n 5 .venv/bin/python benchmarks/bot_strength.py --quick    # a short smoke run
    .venv/bin/python benchmarks/bot_strength.py --rows ismcts --hands 100 --workers 2

Rows (each states what is counted):

``strong-vs-random``
    ``heuristic`` (strong) against ``random``, standard Uno (official), heads-up, whole
    games to 500; the seats swap every game.  Counted: games won by the heuristic.
``expert-vs-weak``
    ``heuristic:expert`` against ``heuristic:weak``, Hot Death canonical, 4 players, two
    of each seated alternately (E W E W, shifted by one seat every other game); whole
    games to 1000 (lowest total wins).  Counted: games won by an expert seat (a shared
    win counts when an expert shares it; fair share about 50%).
``ismcts``
    ``ismcts`` (time budget per move) in one seat against three ``heuristic:expert``,
    Hot Death canonical, 4 players; the ISMCTS seat moves round the table game by game.
    Games stop after ``--hands-per-game`` hands.  Counted: **hands** won by the ISMCTS
    seat (fair share 25%); the time per ISMCTS decision (mean, max) is reported.
``ismcts-games``
    The same seating, whole games (to 1000, lowest total wins).  Counted: **games** won by
    the ISMCTS seat (fair share 25%; a shared win counts), ``--games`` of them, with the
    time per decision.  ``--ismcts 'ismcts:seconds=0.4,reward=game'`` rates the search
    that values a hand by the standing it leaves in the game.

The interval is Wilson's 95% score interval.  Games run in a process pool
(``--workers``) and game *i* is seeded with ``--seed`` + *i*, so a row gives the same
results whatever the number of workers (time budgets aside); and game *i* is dealt the
same cards hand after hand whatever bots sit at it (every hand's deal follows from the seed
and the hand's number: docs/architecture.md "Duplicate deals"; in Hot Death the dealer's
deal size is the one choice that changes a deal), so two runs of different bots compare
deal by deal.  The ISMCTS settings were
chosen on seeds 1000 and up; the default ``--seed`` 50000 keeps the table off them.  A
game still running after ``--max-moves`` moves is stopped and counted as not won (the
table says how many).  The table is printed as Markdown and written to ``--out`` when
given.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import hotdeath
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs
from hotdeath.state import GameState


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``wins / n`` (95% by default).

    >>> lo, hi = wilson(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


@dataclass
class GameResult:
    """What one game of a match gave the seats under test."""

    won: float = 0.0
    hands: int = 0
    hands_won: int = 0
    capped: bool = False
    times: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Row:
    """One line of the table: a match and what it counts."""

    key: str
    title: str
    variant: str
    players: int
    seating: Callable[[int], list[str]]
    tested: Callable[[int], set[int]]
    count_hands: bool = False
    options: dict[str, object] = field(default_factory=dict)


def _strong_seats(i: int) -> list[str]:
    return ["heuristic:strong", "random"] if i % 2 == 0 else ["random", "heuristic:strong"]


def _strong_tested(i: int) -> set[int]:
    return {0} if i % 2 == 0 else {1}


def _ew_seats(i: int) -> list[str]:
    return ["heuristic:expert", "heuristic:weak"] * 2 if i % 2 == 0 else (
        ["heuristic:weak", "heuristic:expert"] * 2)


def _ew_tested(i: int) -> set[int]:
    return {0, 2} if i % 2 == 0 else {1, 3}


class _Ismcts:
    """Seating of the ISMCTS row (a class so that the budget travels to the workers)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def seats(self, i: int) -> list[str]:
        out = ["heuristic:expert"] * 4
        out[i % 4] = self.spec
        return out

    @staticmethod
    def tested(i: int) -> set[int]:
        return {i % 4}


def play(row: Row, index: int, max_moves: int, max_hands: int, base: int = 0) -> GameResult:
    """Play game ``index`` of ``row`` (seed ``base + index``); time the tested seats."""
    specs = row.seating(index)
    tested = row.tested(index)
    bots: dict[int, Bot] = {s: make_bot(spec) for s, spec in enumerate(specs)}
    seed = base + index
    g: GameState = hotdeath.new_game(row.variant, players=row.players, seed=seed,
                                     options=row.options or None)
    rngs = seat_rngs(seed, row.players)
    res = GameResult()
    seen = None
    for _ in range(max_moves):
        t0 = time.perf_counter()
        move = next_bot_move(g, bots, rngs)
        dt = time.perf_counter() - t0
        if move is None:
            break
        seat, action = move
        if seat in tested and g.current_player() == seat and len(
                g.legal_actions(seat)) > 1:
            res.times.append(dt)
        g.step(action, seat)
        last = g.last_hand
        if last is not None and last.hand != seen:
            seen = last.hand
            res.hands += 1
            if last.winner in tested:
                res.hands_won += 1
            if max_hands and res.hands >= max_hands:
                return res
        if g.is_terminal():
            winners = set(g.winners)
            res.won = 1.0 if winners & tested else 0.0
            return res
    res.capped = True
    return res


def _job(args: tuple[Row, int, int, int, int]) -> GameResult:
    row, index, max_moves, max_hands, base = args
    return play(row, index, max_moves, max_hands, base)


@dataclass
class Line:
    """A finished row of the table."""

    row: Row
    games: int
    counted: int
    wins: float
    capped: int
    times: list[float]
    seconds: float
    planned: int = 0
    """Games asked for (more than ``games`` when ``--minutes`` stopped the row)."""
    planned_hands: int = 0
    """Hands asked for, when ``--minutes`` stopped a hand-counting row short of them."""

    def markdown(self) -> str:
        """The row as a Markdown table line."""
        rate = self.wins / self.counted if self.counted else 0.0
        lo, hi = wilson(self.wins, self.counted)
        unit = "hands" if self.row.count_hands else "games"
        timing = ""
        if self.times:
            timing = (f"{1000 * sum(self.times) / len(self.times):.0f} ms mean, "
                      f"{1000 * max(self.times):.0f} ms max")
        played = f"{self.games} games" + (f", {self.counted} {unit}" if unit == "hands" else "")
        return (f"| {self.row.title} | {played} | "
                f"{self.wins:g} | **{100 * rate:.1f}%** | {100 * lo:.1f}–{100 * hi:.1f}% | "
                f"{self.capped} | {timing or '—'} |")


HEADER = ("| Match | Played | Won | Win rate | 95% CI (Wilson) | Stopped at the move cap | "
          "Time per decision |\n|---|---|---|---|---|---|---|")


def run_row(row: Row, games: int, workers: int, max_moves: int, max_hands: int,
            hands_target: int, base: int = 0, minutes: float = 0.0) -> Line:
    """Play a row's games (or, counting hands, enough games for ``hands_target``).

    With ``minutes`` (> 0) a game-counting row stops once that much wall time has passed
    and counts the games finished by then in seed order (the first *k* seeds, every one of
    them finished: games in flight, and games after one in flight, are dropped, so the count
    does not favour games that end quickly).  Games already finished when the time is up
    are counted, and the row stops at the deadline, not after the next game in order.  A
    hand-counting row stops at the deadline too: it plays games in batches of ``workers``
    in seed order and drops a batch still playing when the time is up (with one worker
    it stops after the game in play, which it counts).
    """
    t0 = time.perf_counter()
    results: list[GameResult] = []
    pool = multiprocessing.get_context("spawn").Pool(workers) if workers > 1 else None
    stopped = False
    try:
        if not row.count_hands:
            jobs = [(row, i, max_moves, max_hands, base) for i in range(games)]
            ordered = pool.imap(_job, jobs) if pool is not None else None
            stream = ordered if ordered is not None else map(_job, jobs)
            deadline = t0 + 60 * minutes
            while len(results) < games:
                if minutes > 0 and ordered is not None:
                    # wait for the next game in seed order only until the deadline
                    left = deadline - time.perf_counter()
                    try:
                        res = ordered.next(timeout=max(left, 0.0))
                    except multiprocessing.TimeoutError:
                        stopped = True
                        break
                else:
                    res = next(stream)
                results.append(res)
                won = sum(r.won for r in results)
                print(f"  {row.key}: {len(results)} games, {won:g} won "
                      f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
                if minutes > 0 and ordered is None and time.perf_counter() >= deadline:
                    stopped = len(results) < games
                    break
        index = 0
        deadline = t0 + 60 * minutes
        while row.count_hands and sum(r.hands for r in results) < hands_target:
            if minutes > 0 and time.perf_counter() >= deadline:
                stopped = True
                break
            batch = max(workers, 1)
            jobs = [(row, i, max_moves, max_hands, base) for i in range(index, index + batch)]
            index += batch
            if pool is None:
                results += [_job(j) for j in jobs]
            elif minutes > 0:
                # a batch still playing at the deadline is dropped whole (seed order)
                pending = pool.map_async(_job, jobs)
                try:
                    results += pending.get(timeout=max(deadline - time.perf_counter(), 0.0))
                except multiprocessing.TimeoutError:
                    stopped = True
                    break
            else:
                results += pool.map(_job, jobs)
            print(f"  {row.key}: {sum(r.hands for r in results)} hands "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            if stopped:
                pool.terminate()
            else:
                pool.close()
            pool.join()
    if row.count_hands:
        counted = sum(r.hands for r in results)
        wins: float = sum(r.hands_won for r in results)
    else:
        counted = len(results)
        wins = sum(r.won for r in results)
    times = [t for r in results for t in r.times]
    return Line(row, len(results), counted, wins, sum(r.capped for r in results), times,
                time.perf_counter() - t0, 0 if row.count_hands else games,
                hands_target if row.count_hands and stopped else 0)


def rows(ismcts_spec: str) -> list[Row]:
    """Every row of the table."""
    ism = _Ismcts(ismcts_spec)
    return [
        Row("strong-vs-random", "`heuristic` (strong) vs `random`, standard Uno, heads-up",
            "standard", 2, _strong_seats, _strong_tested),
        Row("expert-vs-weak", "`heuristic:expert` ×2 vs `heuristic:weak` ×2, Hot Death "
            "canonical, 4 players", "hotdeath", 4, _ew_seats, _ew_tested),
        Row("ismcts", f"`{ismcts_spec}` ×1 vs `heuristic:expert` ×3, Hot Death canonical, "
            "4 players (hands won)", "hotdeath", 4, ism.seats, ism.tested, count_hands=True),
        Row("ismcts-games", f"`{ismcts_spec}` ×1 vs `heuristic:expert` ×3, Hot Death "
            "canonical, 4 players (games won)", "hotdeath", 4, ism.seats, ism.tested),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen rows and print (and write) the Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    ap.add_argument("--rows", default="all",
                    help="comma-separated row keys (strong-vs-random, expert-vs-weak, "
                         "ismcts, ismcts-games) or all")
    ap.add_argument("--games", type=int, default=400, help="games per game-counting row")
    ap.add_argument("--hands", type=int, default=300, help="hands for the ismcts row")
    ap.add_argument("--hands-per-game", type=int, default=4,
                    help="hands played per game in the ismcts row")
    ap.add_argument("--ismcts", default="ismcts:seconds=0.4", help="spec of the ismcts seat")
    ap.add_argument("--seed", type=int, default=50_000,
                    help="game i of a row is seeded with SEED + i")
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--max-moves", type=int, default=20_000, help="move cap per game")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="stop a row after this much wall time (0: play every game or hand)")
    ap.add_argument("--out", type=Path, help="also write the table (Markdown) here")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.hands, args.hands_per_game = 8, 8, 2
        args.ismcts = "ismcts:iterations=30"
    wanted = None if args.rows == "all" else set(args.rows.split(","))
    chosen = [r for r in rows(args.ismcts)  # "all": the games of ISMCTS only when asked
              if (r.key in wanted if wanted is not None else r.key != "ismcts-games")]
    if not chosen:
        ap.error(f"no row matches {args.rows!r}")
    lines = []
    for row in chosen:
        lines.append(run_row(row, args.games, args.workers, args.max_moves,
                             args.hands_per_game if row.count_hands else 0, args.hands,
                             args.seed, args.minutes))
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "benchmarks/bot_strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = "\n".join([
        f"Command: `{cmd.strip()}`; {stamp}; {platform.machine()}, "
        f"{multiprocessing.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{args.workers} worker(s).",
        "",
        HEADER,
        *[ln.markdown() for ln in lines],
        "",
        "Wall time per row: " + ", ".join(f"{ln.row.key} {ln.seconds:.0f} s" for ln in lines)
        + ".",
        *[f"{ln.row.key}: stopped by --minutes after the first {ln.games} of {ln.planned} "
          "games (seed order)." for ln in lines if ln.planned > ln.games],
        *[f"{ln.row.key}: stopped by --minutes after {ln.counted} of {ln.planned_hands} "
          f"hands (the first {ln.games} games in seed order)." for ln in lines
          if ln.planned_hands],
    ])
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
