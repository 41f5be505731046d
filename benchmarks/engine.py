#!/usr/bin/env python
"""Engine throughput: RLCard 1.2.0's bare UNO game against hotdeath, in one process.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/engine.py                 # 3 s per configuration, 5 repetitions
    .venv/bin/python benchmarks/engine.py --quick         # tiny smoke run
    .venv/bin/python benchmarks/engine.py --players 2 --seconds 5 --repeat 7

What is measured, side by side in the same process and the same run:

* RLCard 1.2.0's UNO *game object* (``rlcard.games.uno.game.UnoGame``: the bare rules, no
  env, no observation encoding) for 2 and 4 players;
* our ``standard`` variant (official preset, ``rounds=1`` so that one game is one hand,
  which is what one RLCard game is), driven with ``GameState.step`` (the fast path without
  events) and, as a second figure, with ``GameState.apply_action`` (which builds events);
* Hot Death ``canonical`` with 4 random players: hands/s and whole games (to 1000 points)
  per second;
* with ``--baseline PATH``, a change of the engine: fixed workloads (standard 2 and 4
  players, Hot Death 4 players, Throwdown 4 players, each through ``step`` and
  ``apply_action``) on this engine
  and on the one in ``PATH`` (an earlier checkout), each engine in its own subprocess,
  interleaved, as medians of CPU time (:func:`compare_with_baseline`;
  ``--baseline-only`` skips everything else, ``--workload`` picks workloads).  Each
  repetition and each path plays new games (the same ones on both engines), since an
  engine's memo tables would otherwise serve the games it has already played;
  ``--same-games`` replays.

The policy is the same on both sides: play a uniformly random playable *card* when there
is one (then a uniformly random colour for a wild, or a random victim for a directed card),
else draw; after a draw, play the drawn card if it is legal, else pass.  How each engine
is driven to follow it is explained in :func:`choose_ours` and :func:`choose_rlcard`.

Every configuration runs for a fixed wall time (``--seconds``) per repetition and only
complete games count (a game in progress at a deadline is finished and its time
included).  Within a repetition the configurations are interleaved in short slices
(``--slice``, 0.5 s), the order reversed on every other slice, so that load bursts from
other processes and machine drift hit both engines alike.  Every configuration is warmed
up first.  The summary gives the median and the min-max over ``--repeat`` repetitions of
the wall-clock rates (plus a ratio per CPU second as a cross-check); the last line of
output is one JSON object with the figures (RLCard's are null when it is not installed).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import hotdeath
import hotdeath.state
from hotdeath.actions import ACCEPT, COLOR, DEAL, DIRECTION, DRAW, PASS, PLAY, VICTIM, Action

DEFAULT_SECONDS = 3.0
DEFAULT_REPEAT = 5
QUICK_SECONDS = 0.2
BASE_SEED = 20_240_601
VARIANTS = ("cutthroat", "throwdown")
"""The other variants, timed as whole games with 4 random players (no RLCard counterpart)."""
STANDARD_OPTIONS: dict[str, object] = {"rounds": 1, "wild_draw_four_rule": "strict"}
"""One hand per game, as RLCard's game is one hand.  RLCard has no Wild Draw Four challenge
and only lists the Wild Draw Four when nothing else is legal, so our closest ruleset is the
"no bluffing" rule (a Wild Draw Four only without a card of the colour in play)."""
COMPILED = hotdeath.state.__file__.endswith((".so", ".pyd"))
"""Whether the core was imported from a mypyc build (``scripts/build_mypyc.py``)."""
_PLAY = PLAY
_FALLBACK_KINDS = frozenset((DRAW, PASS, ACCEPT))
_CHOICE_KINDS = frozenset((DEAL, COLOR, VICTIM, DIRECTION))
_RL_WILD_TRAITS = frozenset(("wild", "wild_draw_4"))


# ---------------------------------------------------------------------------- policies


def choose_ours(acts: Sequence[Action], rng: random.Random) -> Action:
    """The benchmark policy for a hotdeath state's legal action list.

    * Plays (``kind == PLAY``) are grouped by card face (``a.cards[0]``); the policy picks a
      uniformly random face, then a uniformly random action of that face (the colour of a
      wild, the victim of a Glasnost / M.A.D.).  The ``uno=True`` duplicates of plays (offered
      when the hand has two cards) are ignored: the policy never calls Uno, RLCard has no Uno
      call.  Out-of-turn window actions (``uno``, ``catch``, ``challenge`` of a 69) are
      ignored too.
    * With no play: ``draw`` in a turn, ``pass`` after a draw whose card is not playable,
      ``accept`` when answering an attack (so a standard Wild Draw Four is never challenged:
      RLCard has no challenge and the victim simply draws four).
    * Otherwise (Hot Death's ``deal N``, a colour or a victim for the turned-up card) a
      uniformly random one of those.

    After ``draw`` our engine lists the drawn card's plays (when legal) and ``pass``, so the
    rule "play the drawn card if legal, else pass" follows from the same code.
    """
    faces: dict[int, list[Action]] = {}
    fallback: Action | None = None
    for a in acts:
        if a.kind == _PLAY:
            if not a.uno:
                face = a.cards[0]
                group = faces.get(face)
                if group is None:
                    faces[face] = [a]
                else:
                    group.append(a)
        elif fallback is None and a.kind in _FALLBACK_KINDS:
            fallback = a
    if faces:
        group = faces[rng.choice(list(faces))]
        return group[0] if len(group) == 1 else rng.choice(group)
    if fallback is not None:
        return fallback
    return rng.choice([a for a in acts if a.kind in _CHOICE_KINDS])


def choose_rlcard(legal: Sequence[str], rng: random.Random) -> str:
    """The benchmark policy for RLCard's legal action list (strings such as ``'r-5'``).

    RLCard lists one entry per *card in hand* for coloured cards (a duplicate card appears
    twice) and four entries (one per colour) for a Wild or a Wild Draw Four; Wild Draw Four
    is only listed when nothing else is legal, and ``['draw']`` is the whole list when no
    card is playable.  The policy groups the entries by card face (the string itself, or
    the wild trait), picks a uniformly random face, then a uniformly random colour for a
    wild: the same choice as :func:`choose_ours`.  With no playable card it plays
    ``'draw'``; RLCard then decides by itself within the same step: a drawn wild is played
    at once with a random colour, a drawn card of the target's *colour* is played at once,
    and anything else (including a card matching only by number or symbol) is kept and the
    turn passes.  So one RLCard draw decision covers our ``draw`` + ``play``/``pass`` pair.
    """
    if legal[0] == "draw":
        return "draw"
    faces: dict[str, list[str]] = {}
    for s in legal:
        trait = s[2:]
        key = trait if trait in _RL_WILD_TRAITS else s
        group = faces.get(key)
        if group is None:
            faces[key] = [s]
        else:
            group.append(s)
    group = faces[rng.choice(list(faces))]
    return group[0] if len(group) == 1 else rng.choice(group)


# ---------------------------------------------------------------------------- runners


@dataclass
class Sample:
    """One timed run of one configuration."""

    games: int
    decisions: int
    seconds: float
    hands: int = 0
    cpu_seconds: float = 0.0

    def add(self, other: Sample) -> None:
        """Accumulate another slice of the same configuration."""
        self.games += other.games
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.hands += other.hands
        self.cpu_seconds += other.cpu_seconds

    @property
    def cpu_games_per_s(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds


class SeedCounter:
    """Hands out a fresh game seed to every game of the whole run."""

    def __init__(self, start: int) -> None:
        self.next = start

    def take(self) -> int:
        s = self.next
        self.next += 1
        return s


Runner = Callable[[float], Sample]


def make_ours_runner(
    variant: str,
    players: int,
    seeds: SeedCounter,
    rng: random.Random,
    options: dict[str, object] | None = None,
    events: bool = False,
    count_hands: bool = False,
) -> Runner:
    """Whole games of one of our variants under the benchmark policy.

    ``events`` drives the games with ``apply_action`` (events built) instead of ``step``;
    with ``count_hands`` the sample counts every hand played (``hand_no`` is the number of
    hands once a game is over, the last one included).
    """
    new_game = hotdeath.new_game
    choose = choose_ours

    def run(seconds: float) -> Sample:
        games = 0
        decisions = 0
        hands = 0
        clock = time.perf_counter
        t0 = clock()
        deadline = t0 + seconds
        while True:
            g = new_game(variant, players=players, seed=seeds.take(), options=options)
            act = g.apply_action if events else g.step
            legal = g.legal_actions
            over = g.is_terminal
            while not over():
                act(choose(legal(), rng))
                decisions += 1
            if count_hands:
                hands += g.hand_no
            games += 1
            if clock() >= deadline:
                break
        return Sample(games, decisions, clock() - t0, hands)

    return run


def make_rlcard_runner(uno_game_cls: Any, players: int, seed: int, rng: random.Random) -> Runner:
    """RLCard's bare ``UnoGame``: ``init_game`` then ``step`` until ``is_over``.

    The legal actions are read from the state dict that ``init_game`` / ``step`` return
    anyway (``state['legal_actions']``, computed by ``Round.get_legal_actions``); calling
    ``game.get_legal_actions()`` as well would compute them twice per decision and make
    RLCard slower.  4 players are forced with ``game.configure({'game_num_players': 4})``,
    which is what an RLCard user has to do (``rlcard.make`` ignores the player count).
    The game's own ``np_random`` (deck shuffles, colours of auto-played wilds) is seeded once.
    """
    import numpy as np

    game = uno_game_cls()
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    choose = choose_rlcard

    def run(seconds: float) -> Sample:
        games = 0
        decisions = 0
        init = game.init_game
        step = game.step
        over = game.is_over
        clock = time.perf_counter
        t0 = clock()
        deadline = t0 + seconds
        while True:
            state, _ = init()
            while not over():
                state, _ = step(choose(state["legal_actions"], rng))
                decisions += 1
            games += 1
            if clock() >= deadline:
                break
        return Sample(games, decisions, clock() - t0)

    return run


def make_rlcard_numpy_runner(uno_game_cls: Any, players: int, seed: int) -> Runner:
    """RLCard's bare ``UnoGame`` driven the way ``peers.md`` measured it (reference row).

    Each decision is ``np.random.choice`` over the legal actions, as RLCard's own
    ``RandomAgent`` does; this reproduces the ~1,700 games/s of ``peers.md`` that the
    project's goal (2× RLCard) was stated against.  The policy differs from ours (uniform
    over RLCard's list entries, drawn through numpy), so it is a reference, not the ratio.
    """
    import numpy as np

    game = uno_game_cls()
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    np_rng = np.random.RandomState(seed + 1)

    def run(seconds: float) -> Sample:
        games = 0
        decisions = 0
        init = game.init_game
        step = game.step
        over = game.is_over
        choice = np_rng.choice
        clock = time.perf_counter
        t0 = clock()
        deadline = t0 + seconds
        while True:
            state, _ = init()
            while not over():
                state, _ = step(choice(state["legal_actions"]))
                decisions += 1
            games += 1
            if clock() >= deadline:
                break
        return Sample(games, decisions, clock() - t0)

    return run


def make_rlcard_round_runner(
    uno_game_cls: Any, players: int, seed: int, rng: random.Random
) -> Runner:
    """RLCard's rules only: ``UnoRound.get_legal_actions`` + ``proceed_round`` (reference row).

    ``UnoGame.step`` always builds a state dict for the next player (``Round.get_state``,
    which turns the whole hand *and the whole played pile* into strings); this row drives
    the internal ``UnoRound`` object that ``step`` wraps, so it shows what RLCard's rules
    cost without that dict.  It is not RLCard's public game API and is not used for the
    headline ratio.  ``init_game`` (which builds one state dict) still starts every game.
    """
    import numpy as np

    game = uno_game_cls()
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    choose = choose_rlcard

    def run(seconds: float) -> Sample:
        games = 0
        decisions = 0
        init = game.init_game
        clock = time.perf_counter
        t0 = clock()
        deadline = t0 + seconds
        while True:
            init()
            rnd = game.round
            hands = game.players
            legal = rnd.get_legal_actions
            proceed = rnd.proceed_round
            while not rnd.is_over:
                proceed(hands, choose(legal(hands, rnd.current_player), rng))
                decisions += 1
            games += 1
            if clock() >= deadline:
                break
        return Sample(games, decisions, clock() - t0)

    return run


def load_rlcard() -> tuple[Any, str | None]:
    """``(UnoGame, version)`` or ``(None, reason)`` when RLCard cannot be imported."""
    try:
        module = importlib.import_module("rlcard.games.uno.game")
        rlcard = importlib.import_module("rlcard")
    except Exception as exc:  # ImportError, or a broken numpy
        return None, f"{type(exc).__name__}: {exc}"
    return module.UnoGame, str(getattr(rlcard, "__version__", "?"))


# ---------------------------------------------------------------------------- driver


@dataclass
class Config:
    """One benchmark configuration and its samples."""

    key: str
    label: str
    players: int
    runner: Runner
    samples: list[Sample] = field(default_factory=list)


# ---------------------------------------------------------------------------- baseline

WORKLOADS: tuple[tuple[str, str, int, dict[str, object] | None], ...] = (
    ("standard_2p", "standard", 2, STANDARD_OPTIONS),
    ("standard_4p", "standard", 4, STANDARD_OPTIONS),
    ("hotdeath_4p", "hotdeath", 4, None),
    ("throwdown_4p", "throwdown", 4, None),
)
"""The workloads of ``--baseline``: key, variant, players, options."""
PATHS = ("step", "apply_action")


def play_games(variant: str, players: int, options: dict[str, object] | None, events: bool,
               seed: int, games: int) -> dict[str, float]:
    """Play ``games`` whole games (seeds ``seed``, ``seed + 1`` …, the policy's generator
    seeded with ``seed``) and return the CPU seconds, decisions and hands they took."""
    rng = random.Random(seed)
    decisions = 0
    hands = 0
    choose = choose_ours
    c0 = time.process_time()
    for i in range(games):
        g = hotdeath.new_game(variant, players=players, seed=seed + i, options=options)
        act = g.apply_action if events else g.step
        legal = g.legal_actions
        over = g.is_terminal
        while not over():
            act(choose(legal(), rng))
            decisions += 1
        hands += g.hand_no
    return {"cpu": time.process_time() - c0, "decisions": decisions, "hands": hands}


def worker() -> int:
    """``--worker``: answer one JSON request a line (``play_games``' arguments) on stdin."""
    for line in sys.stdin:
        req = json.loads(line)
        gc.collect()
        out = play_games(req["variant"], req["players"], req["options"], req["events"],
                         req["seed"], req["games"])
        print(json.dumps(out), flush=True)
    return 0


def _src_of(path: str) -> str:
    """The folder holding the ``hotdeath`` package: ``path`` itself or its ``src``."""
    for cand in (os.path.join(path, "src"), path):
        if os.path.isfile(os.path.join(cand, "hotdeath", "__init__.py")):
            return os.path.abspath(cand)
    raise SystemExit(f"--baseline: no hotdeath package in {path!r} or its src folder")


class Worker:
    """A subprocess running this script's ``--worker`` on the engine in ``src``."""

    def __init__(self, src: str) -> None:
        env = dict(os.environ, PYTHONPATH=src)
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, **req: object) -> dict[str, float]:
        """Send one request and wait for its answer."""
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise SystemExit("--baseline: a worker stopped")
        out: dict[str, float] = json.loads(answer)
        return out

    def close(self) -> None:
        """End the subprocess."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def compare_with_baseline(args: argparse.Namespace) -> dict[str, Any]:
    """This engine against the one in ``args.baseline``, each in its own subprocess.

    Every workload is a fixed set of whole games (the same seeds and policy choices for
    both engines and both paths: when the engines play the same rules the decision counts
    are equal, which is checked and reported), sized from a calibration run to about
    ``--slice`` seconds.  Each repetition runs every (engine, path) pair of a workload
    once, in an order reversed on every other repetition; the figures are the medians of
    the CPU seconds over ``--repeat`` repetitions (at least 3), and each ratio is a speed
    ratio (the other's CPU time ÷ this one's: above 1, this engine is faster).  The paired
    figures are the medians of each repetition's own ratio (both engines on the same games
    in the same repetition), the steadier estimate on a noisy machine.
    """
    ours_src = os.path.dirname(os.path.dirname(os.path.abspath(hotdeath.__file__)))
    base_src = _src_of(args.baseline)
    workers = {"ours": Worker(ours_src), "base": Worker(base_src)}
    repeat = max(3, args.repeat)
    out: dict[str, Any] = {"baseline": base_src, "repeat": repeat}
    print(f"\nBaseline comparison: this engine ({ours_src}) against {base_src}, CPU time of "
          f"fixed workloads, {repeat} interleaved repetitions, medians")
    try:
        for key, variant, players, options in WORKLOADS:
            if args.workload and key not in args.workload:
                continue
            req: dict[str, Any] = {"variant": variant, "players": players,
                                   "options": options, "seed": args.seed}
            probe = workers["ours"].run(**req, events=False, games=2)
            per_game = max(probe["cpu"] / 2, 1e-4)
            games = max(2, round(args.slice / per_game))
            pairs = [(e, p) for e in ("ours", "base") for p in PATHS]
            for e, p in pairs:  # warm up every worker and path
                workers[e].run(**req, events=p == "apply_action", games=max(1, games // 4))
            cpu: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
            decisions: dict[tuple[str, str], float] = dict.fromkeys(pairs, 0)
            for rep in range(repeat):
                # new games each repetition and for each path (the same ones on both
                # engines), so that memo tables filled by one run cannot serve another:
                # an engine's second path would otherwise replay the games of its first
                for e, p in pairs if rep % 2 == 0 else pairs[::-1]:
                    seed = req["seed"] if args.same_games else (
                        req["seed"] + (rep + 1) * 100_003 + PATHS.index(p) * 50_021)
                    r = workers[e].run(**{**req, "seed": seed}, events=p == "apply_action",
                                       games=games)
                    cpu[(e, p)].append(r["cpu"])
                    decisions[(e, p)] += r["decisions"]
            med = {pair: median(cpu[pair]) for pair in pairs}
            same = all(decisions[("ours", p)] == decisions[("base", p)] for p in PATHS)
            per_rep = [cpu[("base", "step")][i] / cpu[("ours", "step")][i] for i in range(repeat)]
            per_rep_apply = [cpu[("base", "apply_action")][i] / cpu[("ours", "apply_action")][i]
                             for i in range(repeat)]
            row = {
                "games": games,
                "decisions": decisions[("ours", "step")] / repeat,
                "same_games": same,
                "fresh_games": not args.same_games,
                "step_vs_base_step_range": [round(min(per_rep), 3), round(max(per_rep), 3)],
                # the median of the repetitions' own ratios: each compares the two engines on
                # the same games minutes apart at most, so the games' length drops out
                "step_vs_base_step_paired": round(median(per_rep), 3),
                "apply_vs_base_apply_paired": round(median(per_rep_apply), 3),
                "cpu_s": {f"{e}_{p}": round(med[(e, p)], 4) for e, p in pairs},
                "step_vs_base_step": round(med[("base", "step")] / med[("ours", "step")], 3),
                "step_vs_base_apply": round(
                    med[("base", "apply_action")] / med[("ours", "step")], 3),
                "apply_vs_base_apply": round(
                    med[("base", "apply_action")] / med[("ours", "apply_action")], 3),
            }
            out[key] = row
            alike = "same games on both engines" if same else "THE GAMES DIFFER"
            print(f"  {key:<12} {games} games, {row['decisions']:,.0f} decisions a repetition "
                  f"({alike}): CPU s median ours step {med[('ours', 'step')]:.3f}, apply_action "
                  f"{med[('ours', 'apply_action')]:.3f}; baseline step "
                  f"{med[('base', 'step')]:.3f}, apply_action {med[('base', 'apply_action')]:.3f}")
            print(f"  {'':<12} speed: ours step ÷ baseline step {row['step_vs_base_step']:.2f}x "
                  f"(repetitions {min(per_rep):.2f}-{max(per_rep):.2f}x), "
                  f"ours step ÷ baseline apply_action {row['step_vs_base_apply']:.2f}x, "
                  f"ours apply_action ÷ baseline apply_action {row['apply_vs_base_apply']:.2f}x",
                  flush=True)
            print(f"  {'':<12} paired (median of the repetitions' ratios): step "
                  f"{row['step_vs_base_step_paired']:.3f}x, apply_action "
                  f"{row['apply_vs_base_apply_paired']:.3f}x", flush=True)
    finally:
        for w in workers.values():
            w.close()
    return out



def median(xs: Sequence[float]) -> float:
    return float(statistics.median(xs))


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


def spread(xs: Sequence[float]) -> str:
    return f"{fmt(median(xs))} [{fmt(min(xs))}-{fmt(max(xs))}]"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Games/s and decisions/s of RLCard 1.2.0's bare UNO game and hotdeath's "
        "standard variant (same policy, same process), plus Hot Death canonical hands/s "
        "and games/s. The last output line is one JSON object."
    )
    p.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                   help="wall time of each timed run of each configuration (default 3)")
    p.add_argument("--repeat", type=int, default=DEFAULT_REPEAT,
                   help="repetitions of every configuration (default 5)")
    p.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=range(2, 11),
                   metavar="N", help="player counts for the RLCard comparison (default 2 4)")
    p.add_argument("--hotdeath-players", type=int, default=4,
                   help="players of the Hot Death configuration (default 4; 0 skips it)")
    p.add_argument("--slice", type=float, default=0.5,
                   help="interleaving slice: each repetition alternates the configurations "
                   "in slices of about this many seconds (default 0.5)")
    p.add_argument("--warmup", type=float, default=None,
                   help="warm-up seconds per configuration (default: seconds/5, at most 1)")
    p.add_argument("--seed", type=int, default=BASE_SEED, help="base seed")
    p.add_argument("--no-rlcard", action="store_true", help="measure our engine only")
    p.add_argument("--no-rlcard-round", action="store_true",
                   help="skip the RLCard UnoRound (rules only) reference rows")
    p.add_argument("--baseline", metavar="PATH", default=None,
                   help="also time fixed workloads (standard 2p and 4p, Hot Death 4p; step "
                   "and apply_action) on this engine and on the one in PATH (a checkout or "
                   "its src folder), each in its own subprocess, interleaved; report the "
                   "ratios of the medians of CPU time")
    p.add_argument("--baseline-only", action="store_true",
                   help="with --baseline: run only the baseline comparison")
    p.add_argument("--workload", nargs="+", default=None, metavar="NAME",
                   choices=[w[0] for w in WORKLOADS],
                   help="with --baseline: only these workloads (default all: "
                   + ", ".join(w[0] for w in WORKLOADS) + ")")
    p.add_argument("--same-games", action="store_true",
                   help="with --baseline: replay the same games in every repetition and "
                   "path (by default each repetition and path plays new ones; replays let "
                   "memo tables of the engine serve later runs)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--quick", action="store_true",
                   help=f"tiny run for smoke tests ({QUICK_SECONDS} s, 1 repetition)")
    args = p.parse_args(argv)
    if args.quick:
        args.seconds = QUICK_SECONDS
        args.repeat = 1
        args.warmup = 0.05
        args.slice = QUICK_SECONDS
    if args.seconds <= 0 or args.repeat < 1 or args.slice <= 0:
        p.error("--seconds and --slice must be positive and --repeat at least 1")
    if args.warmup is None:
        args.warmup = min(1.0, args.seconds / 5)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker()
    if args.baseline_only:
        if not args.baseline:
            raise SystemExit("--baseline-only needs --baseline PATH")
        only = {"benchmark": "engine", "python": platform.python_version(),
                "baseline": compare_with_baseline(args)}
        print(json.dumps(only, sort_keys=False))
        return 0
    players: list[int] = sorted(set(args.players))

    uno_game_cls: Any = None
    rl_version: str | None = None
    if args.no_rlcard:
        print("RLCard: skipped (--no-rlcard); measuring hotdeath only.")
    else:
        uno_game_cls, info = load_rlcard()
        if uno_game_cls is None:
            print(f"RLCard is not importable ({info}); measuring hotdeath only. "
                  "Install it with: .venv/bin/pip install rlcard==1.2.0")
        else:
            rl_version = info

    configs: list[Config] = []
    seeds = SeedCounter(args.seed)
    for n in players:
        if uno_game_cls is not None:
            configs.append(Config(f"rlcard_{n}p", "RLCard UnoGame (bare)", n,
                                  make_rlcard_runner(uno_game_cls, n, args.seed + n,
                                                     random.Random(args.seed + 100 + n))))
            configs.append(Config(
                f"rlcard_numpy_{n}p", "RLCard UnoGame, numpy choice (peers.md, reference)", n,
                make_rlcard_numpy_runner(uno_game_cls, n, args.seed + 70 + n)))
            if not args.no_rlcard_round:
                configs.append(Config(
                    f"rlcard_round_{n}p", "RLCard UnoRound (rules only, reference)", n,
                    make_rlcard_round_runner(uno_game_cls, n, args.seed + 50 + n,
                                             random.Random(args.seed + 150 + n))))
        configs.append(Config(f"ours_{n}p", "hotdeath standard, step()", n,
                              make_ours_runner("standard", n, seeds,
                                               random.Random(args.seed + 200 + n),
                                               STANDARD_OPTIONS)))
        configs.append(Config(f"ours_events_{n}p", "hotdeath standard, apply_action()", n,
                              make_ours_runner("standard", n, seeds,
                                               random.Random(args.seed + 300 + n),
                                               STANDARD_OPTIONS, events=True)))
    if args.hotdeath_players:
        hp = args.hotdeath_players
        configs.append(Config(f"hotdeath_{hp}p", "hotdeath canonical (to 1000)", hp,
                              make_ours_runner("hotdeath", hp, seeds,
                                               random.Random(args.seed + 400),
                                               count_hands=True)))

    if args.hotdeath_players:
        for idx, name in enumerate(VARIANTS):
            configs.append(Config(f"{name}_4p", f"hotdeath {name} (one game)", 4,
                                  make_ours_runner(name, 4, seeds,
                                                   random.Random(args.seed + 500 + idx))))

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs; hotdeath {hotdeath.__version__}; "
          f"rlcard {rl_version or 'n/a'}; {args.seconds:g} s x {args.repeat} per configuration, "
          f"warm-up {args.warmup:g} s")
    for c in configs:
        c.runner(args.warmup)

    slices = max(1, round(args.seconds / args.slice))
    slice_s = args.seconds / slices
    cpu = time.process_time
    for rep in range(args.repeat):
        gc.collect()
        totals = {c.key: Sample(0, 0, 0.0) for c in configs}
        for part in range(slices):
            # Fine interleaving: every configuration gets one short slice in turn, in an
            # order that is reversed on every other slice, so load bursts from other
            # processes hit all configurations of a repetition alike.
            order = configs if (rep * slices + part) % 2 == 0 else configs[::-1]
            for c in order:
                c0 = cpu()
                piece = c.runner(slice_s)
                piece.cpu_seconds = cpu() - c0
                totals[c.key].add(piece)
        for c in configs:
            s = totals[c.key]
            c.samples.append(s)
            extra = f", {fmt(s.hands_per_s)} hands/s" if s.hands else ""
            print(f"  rep {rep + 1}/{args.repeat} {c.key:<16} {fmt(s.games_per_s):>9} games/s "
                  f"{fmt(s.decisions_per_s):>9} decisions/s ({s.games} games, "
                  f"{s.decisions / s.games:.1f} decisions/game{extra}; "
                  f"CPU {100 * s.cpu_seconds / s.seconds:.0f}% of wall)", flush=True)

    by_key = {c.key: c for c in configs}
    result: dict[str, Any] = {
        "benchmark": "engine",
        "compiled": COMPILED,
        "python": platform.python_version(),
        "core": hotdeath.core(),
        "cpus": os.cpu_count(),
        "rlcard": rl_version,
        "seconds": args.seconds,
        "repeat": args.repeat,
    }

    print()
    print(f"{'configuration':<38} {'players':>7}  {'games/s median [min-max]':<28} "
          f"{'decisions/s median [min-max]':<30} {'dec/game':>8}")
    for c in configs:
        gs = [s.games_per_s for s in c.samples]
        ds = [s.decisions_per_s for s in c.samples]
        dpg = sum(s.decisions for s in c.samples) / sum(s.games for s in c.samples)
        print(f"{c.label:<38} {c.players:>7}  {spread(gs):<28} {spread(ds):<30} {dpg:>8.1f}")
        if c.key.startswith("hotdeath"):
            hs = [s.hands_per_s for s in c.samples]
            hpg = sum(s.hands for s in c.samples) / sum(s.games for s in c.samples)
            print(f"{'  ... hands':<38} {'':>7}  {spread(hs):<28} {'(hands/s)':<30} "
                  f"{hpg:>8.1f} hands/game")

    print()
    for n in players:
        ours = by_key[f"ours_{n}p"]
        ours_ev = by_key[f"ours_events_{n}p"]
        rl = by_key.get(f"rlcard_{n}p")
        og = median([s.games_per_s for s in ours.samples])
        od = median([s.decisions_per_s for s in ours.samples])
        eg = median([s.games_per_s for s in ours_ev.samples])
        ed = median([s.decisions_per_s for s in ours_ev.samples])
        result[f"ours_{n}p_games_per_s"] = round(og, 1)
        result[f"ours_{n}p_decisions_per_s"] = round(od, 1)
        result[f"ours_events_{n}p_games_per_s"] = round(eg, 1)
        result[f"ours_events_{n}p_decisions_per_s"] = round(ed, 1)
        if rl is None:
            for k in ("rlcard_{}p_games_per_s", "rlcard_{}p_decisions_per_s", "ratio_{}p",
                      "ratio_cpu_{}p", "ratio_events_{}p", "rlcard_round_{}p_games_per_s",
                      "ratio_round_{}p", "rlcard_numpy_{}p_games_per_s", "ratio_numpy_{}p"):
                result[k.format(n)] = None
            print(f"{n} players: RLCard not measured, no ratio.")
            continue
        rg = median([s.games_per_s for s in rl.samples])
        rd = median([s.decisions_per_s for s in rl.samples])
        paired = [o.games_per_s / r.games_per_s for o, r in zip(ours.samples, rl.samples,
                                                                  strict=True)]
        result[f"rlcard_{n}p_games_per_s"] = round(rg, 1)
        result[f"rlcard_{n}p_decisions_per_s"] = round(rd, 1)
        result[f"ratio_{n}p"] = round(og / rg, 2)
        ratio_cpu = (median([s.cpu_games_per_s for s in ours.samples])
                     / median([s.cpu_games_per_s for s in rl.samples]))
        result[f"ratio_cpu_{n}p"] = round(ratio_cpu, 2)
        result[f"ratio_events_{n}p"] = round(eg / rg, 2)
        print(f"{n} players: ours/RLCard games/s = {og / rg:.2f}x with step() "
              f"(per repetition {min(paired):.2f}-{max(paired):.2f}x), {eg / rg:.2f}x with "
              f"apply_action(); decisions/s {od / rd:.2f}x (our games have more decisions: "
              f"draw and play/pass are two, WD4 accept is one); per CPU second "
              f"{ratio_cpu:.2f}x")
        rn = by_key.get(f"rlcard_numpy_{n}p")
        if rn is not None:
            rng_g = median([s.games_per_s for s in rn.samples])
            result[f"rlcard_numpy_{n}p_games_per_s"] = round(rng_g, 1)
            result[f"ratio_numpy_{n}p"] = round(og / rng_g, 2)
            print(f"{n} players: against RLCard driven as in peers.md (np.random.choice, "
                  f"reference) ours is {og / rng_g:.2f}x")
        rr = by_key.get(f"rlcard_round_{n}p")
        if rr is None:
            result[f"rlcard_round_{n}p_games_per_s"] = None
            result[f"ratio_round_{n}p"] = None
        else:
            rrg = median([s.games_per_s for s in rr.samples])
            result[f"rlcard_round_{n}p_games_per_s"] = round(rrg, 1)
            result[f"ratio_round_{n}p"] = round(og / rrg, 2)
            print(f"{n} players: against RLCard's rules alone (UnoRound, no state dict, "
                  f"reference only) ours is {og / rrg:.2f}x")
    if args.hotdeath_players:
        hd = by_key[f"hotdeath_{args.hotdeath_players}p"]
        hg = median([s.games_per_s for s in hd.samples])
        hh = median([s.hands_per_s for s in hd.samples])
        hdps = median([s.decisions_per_s for s in hd.samples])
        hp = args.hotdeath_players
        result[f"hotdeath_{hp}p_hands_per_s"] = round(hh, 1)
        result[f"hotdeath_{hp}p_games_per_s"] = round(hg, 2)
        result[f"hotdeath_{hp}p_decisions_per_s"] = round(hdps, 1)
        print(f"Hot Death canonical, {hp} players: {fmt(hh)} hands/s, {fmt(hg)} games "
              f"(to 1000)/s, {fmt(hdps)} decisions/s")
        for name in VARIANTS:
            vs = by_key[f"{name}_4p"].samples
            vg = median([x.games_per_s for x in vs])
            vd = median([x.decisions_per_s for x in vs])
            result[f"{name}_4p_games_per_s"] = round(vg, 1)
            result[f"{name}_4p_decisions_per_s"] = round(vd, 1)
            print(f"{name.capitalize()}, 4 players: {fmt(vg)} games/s, {fmt(vd)} decisions/s")
    if args.baseline:
        result["baseline"] = compare_with_baseline(args)
    print(json.dumps(result, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
