#!/usr/bin/env python
"""How long games and hands last under uniformly random play, and why some never seem to end.

Run from the repository root::

    .venv/bin/python benchmarks/random_play.py                     # Hot Death, 2-4 players
    .venv/bin/python benchmarks/random_play.py --variant standard --players 2 --games 50

Each game is ``hotdeath.new_game(variant, players, seed)`` for seeds ``--seed`` onwards,
played by ``state.step(rng.choice(state.legal_actions()))`` with ``random.Random(seed)``
until the game ends or ``--cap`` decisions.  For every hand the script records its length
in decisions and whether it reached the *two-survivor lock*: only two players still active
(the others ejected, keeping their hands out of play) and an empty draw pile, so that
every draw is refilled from the few discards.  The summary prints the lengths of hands
that did and did not reach it; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import hotdeath


@dataclass
class Hand:
    """One hand of one game: its length, and the decision at which the lock began."""

    seed: int
    hand_no: int
    steps: int
    lock_at: int
    finished: bool


def play(variant: str, players: int, seed: int, cap: int) -> tuple[list[Hand], bool, int]:
    """Play one random game; return its hands, whether it ended, and its decisions."""
    st = hotdeath.new_game(variant, players, seed)
    rng = random.Random(seed)
    hands: list[Hand] = []
    steps = in_hand = 0
    hand_no = st.hand_no
    lock_at = -1
    while not st.is_terminal() and steps < cap:
        st.step(rng.choice(st.legal_actions()))
        steps += 1
        in_hand += 1
        if lock_at < 0 and players > 2 and sum(st.active) == 2 and not st.draw_pile:
            lock_at = in_hand
        if st.hand_no != hand_no:
            hands.append(Hand(seed, hand_no, in_hand, lock_at, True))
            hand_no, in_hand, lock_at = st.hand_no, 0, -1
    if not st.is_terminal():
        hands.append(Hand(seed, hand_no, in_hand, lock_at, False))
    return hands, st.is_terminal(), steps


def _quantiles(xs: list[int]) -> dict[str, int]:
    if not xs:
        return {}
    s = sorted(xs)
    return {
        "n": len(s),
        "median": s[len(s) // 2],
        "p90": s[min(len(s) - 1, int(0.9 * len(s)))],
        "max": s[-1],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="game and hand lengths under random play")
    ap.add_argument("--variant", default="hotdeath")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=20, help="games per table size")
    ap.add_argument("--seed", type=int, default=200, help="first seed")
    ap.add_argument("--cap", type=int, default=100_000, help="most decisions per game")
    args = ap.parse_args(argv)
    summary: dict[str, Any] = {"benchmark": "random_play", "variant": args.variant,
                               "games": args.games, "seed": args.seed, "cap": args.cap}
    for n in args.players:
        t0 = time.perf_counter()
        hands: list[Hand] = []
        ended: list[int] = []
        for seed in range(args.seed, args.seed + args.games):
            hs, done, steps = play(args.variant, n, seed, args.cap)
            hands += hs
            if done:
                ended.append(steps)
        # a "hand" of one decision is the dealer choosing the deal size before hand 1
        real = [h for h in hands if h.steps > 1 or not h.finished]
        locked = [h for h in real if h.lock_at >= 0]
        free = [h for h in real if h.lock_at < 0]
        row = {
            "games_ended": len(ended),
            "game_decisions": _quantiles(ended),
            "hands": len(real),
            "hand_decisions_without_lock": _quantiles([h.steps for h in free if h.finished]),
            "hands_with_lock": len(locked),
            "locked_hands_ended": sum(h.finished for h in locked),
            "locked_hand_decisions_ended": _quantiles([h.steps for h in locked if h.finished]),
            "unfinished_hands_locked": sum(1 for h in real if not h.finished and h.lock_at >= 0),
            "unfinished_hands": sum(1 for h in real if not h.finished),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        longest = sorted(real, key=lambda h: -h.steps)[:3]
        print(f"{args.variant} {n} players: {args.games} games, {len(ended)} ended within "
              f"{args.cap:,} decisions")
        for k, v in row.items():
            print(f"  {k}: {v}")
        for h in longest:
            state = "ended" if h.finished else "still running"
            lock = f"lock from decision {h.lock_at}" if h.lock_at >= 0 else "no lock"
            print(f"  long hand: seed {h.seed} hand {h.hand_no}: {h.steps:,} decisions, "
                  f"{state}, {lock}")
        summary[f"p{n}"] = row
        sys.stdout.flush()
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
