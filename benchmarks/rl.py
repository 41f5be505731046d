#!/usr/bin/env python
"""RL environment throughput: ``hotdeath_v0`` against the bare engine and RLCard's UNO env.

Run from the repository root::

    .venv/bin/python benchmarks/rl.py                  # 2 s slices x 5 repetitions
    .venv/bin/python benchmarks/rl.py --quick          # smoke run
    .venv/bin/python benchmarks/rl.py --rules rlcard   # with RLCard's draw rules

Every loop plays heads-up standard Uno (``official`` preset, ``rounds=1`` so that a game
is one hand, as an RLCard game is) with a uniformly random policy over the legal moves,
and counts *steps* (decisions).  The official rules let a player draw while holding a
playable card, so random players' hands grow and a hand lasts ≈ 600–1,000 decisions,
against ≈ 43 in RLCard's UNO, which offers a draw only when nothing can be played and
plays a playable drawn card at once; ``--rules rlcard`` plays our game with those rules
(``may_draw_with_playable`` off, ``drawn_card_play="must"``, a strict Wild Draw Four),
≈ 56 decisions a hand.  The JSON gives each loop's decisions per hand and hands per CPU
second beside the steps (``*_decisions_per_hand``, ``*_hands_per_s``):

* ``engine``: the bare engine, ``state.step(rng.choice(state.legal_actions()))``;
* ``engine_view``: the same with the engine's own observation of the player to move,
  ``state.view(seat)`` (the :class:`hotdeath.view.View` a bot decides from), built before
  each step: what an agent that drives the engine directly pays for seeing the position;
* ``env``: our unwrapped AEC env (:class:`hotdeath.rl.raw_env`) in PettingZoo's loop:
  ``env.last()`` (the observation vector and the mask, both fresh arrays) then
  ``env.step(rng.choice(env.legal_moves()))``: the same random choice as the engine's;
* ``env_numpy``: the same with the choice drawn from the mask with numpy
  (``np.flatnonzero`` and ``Generator.integers``), as typical user code does;
* ``env_wrapped``: ``hotdeath.rl.env()`` (PettingZoo's bound and order wrappers);
* ``rlcard_env``: RLCard 1.2.0's ``rlcard.make('uno')``: ``env.step`` (which builds the
  next observation) with ``rng.choice`` over ``state['legal_actions']``;
* ``vector``: :class:`hotdeath.rl.VectorEnv` with ``--envs`` tables (16), the learner in
  seat 0 and the ``random`` bot in the other, the learner's slots drawn uniformly from the
  batch of masks with numpy (one call for the whole batch); every decision counts, the
  learner's and the bot's, as in the other loops (the engine's actions: ``len(history)``).
  This is the single-agent use: observations and masks are built at the learner's
  decisions only (``vector_learner_share`` of all decisions, about half), while RLCard's
  env builds one at every decision whoever plays; a learner against RLCard's env gets
  those too, so the ratio of decisions per CPU second compares what training one agent
  against the random bot costs on each side;
* ``api_floor``: not an environment but its lower bound: the bare engine behind the least
  that PettingZoo's AEC loop costs, a ``last()`` method that returns a dict of two fresh
  arrays (copies of preallocated ones of our observation and mask sizes) and the
  reward, termination, truncation and info lookups, and a ``step()`` method; no mask, no
  slots, no encoding.

The loops are interleaved in slices (``--seconds`` of wall time each, order reversed every
other repetition).  Rates are steps per second of *process CPU time*, so that other jobs on
a shared machine slow the slices without changing the figures much; the summary gives
medians over ``--repeat`` repetitions and each loop's cost per step relative to the bare
engine.  The last line of output
is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import hotdeath
from hotdeath.rl import VectorEnv, raw_env
from hotdeath.rl import env as wrapped_env

OPTIONS: dict[str, object] = {"rounds": 1}
RULES: dict[str, dict[str, object]] = {
    "official": {"rounds": 1},
    # what RLCard's UNO plays: no draw while holding a playable card, a playable drawn card
    # is played, a Wild Draw Four only without a card of the colour (RLCard: without any
    # other play)
    "rlcard": {"rounds": 1, "may_draw_with_playable": False, "drawn_card_play": "must",
               "wild_draw_four_rule": "strict"},
}
Loop = Callable[[float], tuple[int, float]]
HANDS: dict[str, list[int]] = {}
"""Per loop that counts them: [hands (episodes) ended, their decisions], over the run."""


def _count(name: str, steps: int) -> None:
    tally = HANDS.setdefault(name, [0, 0])
    tally[0] += 1
    tally[1] += steps


def _timed(play: Callable[[], int]) -> Loop:
    """A loop that plays games with ``play`` (returns its steps) for a slice of wall time."""

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        c0 = time.process_time()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            steps += play()
        return steps, time.process_time() - c0

    return run


def engine_loop(seed: int, view: bool = False, name: str = "") -> Loop:
    rng = random.Random(seed)
    game = [seed]

    def play() -> int:
        steps = 0
        game[0] += 1
        g = hotdeath.new_game("standard", 2, game[0], options=OPTIONS)
        while not g.is_terminal():
            if view:
                g.view(g.turn)
            g.step(rng.choice(g.legal_actions()))
            steps += 1
        if name:
            _count(name, steps)
        return steps

    return _timed(play)


def env_loop(seed: int, numpy_choice: bool = False, wrapped: bool = False) -> Loop:
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    e: Any = (wrapped_env if wrapped else raw_env)(
        variant="standard", players=2, options=OPTIONS, max_steps=None
    )
    inner = e.unwrapped
    game = [seed]

    def play() -> int:
        steps = 0
        game[0] += 1
        e.reset(seed=game[0])
        while True:
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                return steps
            if numpy_choice:
                legal = np.flatnonzero(obs["action_mask"])
                e.step(legal[nrng.integers(len(legal))])
            else:
                e.step(rng.choice(inner.legal_moves()))
            steps += 1

    return _timed(play)


def vector_loop(seed: int, envs: int = 16, share: list[int] | None = None) -> Loop:
    """``VectorEnv`` steps; the rate counts every seat's decisions (the engine's actions).

    ``share`` (when given) accumulates [learner decisions, all decisions] of ended games.
    """
    v = VectorEnv(envs, "standard", players=2, options=OPTIONS, opponents="random",
                  max_steps=None)
    nrng = np.random.default_rng(seed)
    obs, _ = v.reset(seed=seed)
    subs = [v.sub_env(i) for i in range(envs)]

    def partial() -> int:
        """Actions of the games in progress (an ended game was counted when it ended)."""
        return sum(len(e.state.history) for e in subs if not e.state.is_terminal())

    def run(seconds: float) -> tuple[int, float]:
        nonlocal obs
        start = partial()
        done = 0
        c0 = time.process_time()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(20):
                m = obs["action_mask"]
                acts = (nrng.random(m.shape) * m).argmax(axis=1)
                obs, _, term, trunc, _ = v.step(acts)
                if term.any() or trunc.any():
                    for i in np.flatnonzero(term | trunc):
                        history = subs[i].state.history
                        done += len(history)
                        _count("vector", len(history))
                        if share is not None:
                            share[0] += sum(1 for s, _ in history if s == 0)
                            share[1] += len(history)
        dt = time.process_time() - c0
        return done + partial() - start, dt

    return run


class _ApiFloor:
    """The engine plus only the calls and copies of PettingZoo's AEC loop (no encoding)."""

    def __init__(self) -> None:
        e = raw_env(variant="standard", players=2, options=OPTIONS)
        self.obs = np.zeros(e.obs_layout.size, np.float32)
        self.mask = np.zeros(e.layout.size, np.int8)
        self.agents = list(e.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.game = hotdeath.new_game("standard", 2, 0, options=OPTIONS)

    def reset(self, seed: int) -> None:
        self.game = hotdeath.new_game("standard", 2, seed, options=OPTIONS)
        self.terminations = dict.fromkeys(self.agents, False)

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}

    def last(self) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        a = self.agent_selection
        return (self.observe(a), self.rewards[a], self.terminations[a], self.truncations[a],
                self.infos[a])

    def step(self, action: Any) -> None:
        g = self.game
        g.step(action)
        if g.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[g.turn]


def floor_loop(seed: int) -> Loop:
    rng = random.Random(seed)
    e = _ApiFloor()
    game = [seed]

    def play() -> int:
        steps = 0
        game[0] += 1
        e.reset(game[0])
        while True:
            _, _, term, trunc, _ = e.last()
            if term or trunc:
                return steps
            e.step(rng.choice(e.game.legal_actions()))
            steps += 1

    return _timed(play)


def rlcard_loop(seed: int) -> Loop | None:
    try:
        import rlcard
    except ImportError:
        return None
    rng = random.Random(seed)
    e = rlcard.make("uno", config={"seed": seed})

    def play() -> int:
        steps = 0
        state, _ = e.reset()
        while not e.is_over():
            state, _ = e.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        _count("rlcard_env", steps)
        return steps

    return _timed(play)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="RL env steps/s vs the bare engine and RLCard")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed slice")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions (medians reported)")
    ap.add_argument("--quick", action="store_true", help="0.2 s x 1: a smoke run")
    ap.add_argument("--envs", type=int, default=16, help="VectorEnv tables (the batch)")
    ap.add_argument("--rules", choices=sorted(RULES), default="official",
                    help="our game's options (rlcard: RLCard's draw rules, see RULES)")
    args = ap.parse_args(argv)
    OPTIONS.clear()
    OPTIONS.update(RULES[args.rules])
    if args.quick:
        args.seconds, args.repeat = 0.2, 1
    loops: dict[str, Loop] = {
        "engine": engine_loop(1, name="engine"),
        "engine_view": engine_loop(7, view=True),
        "env": env_loop(2),
        "env_numpy": env_loop(3, numpy_choice=True),
        "env_wrapped": env_loop(4, wrapped=True),
    }
    rl = rlcard_loop(5)
    if rl is not None:
        loops["rlcard_env"] = rl
    share = [0, 0]
    loops["vector"] = vector_loop(8, args.envs, share)
    loops["api_floor"] = floor_loop(6)
    for run in loops.values():  # warm-up
        run(min(0.2, args.seconds))
    rates: dict[str, list[float]] = {k: [] for k in loops}
    names = list(loops)
    for rep in range(args.repeat):
        for name in names if rep % 2 == 0 else names[::-1]:
            steps, dt = loops[name](args.seconds)
            rates[name].append(steps / dt)
    med = {k: statistics.median(v) for k, v in rates.items()}
    base = med["engine"]
    print(f"{'loop':<12} {'steps/CPU-s median':>17} {'min-max':>19} {'cost/step vs engine':>20}")
    for k, v in rates.items():
        print(f"{k:<12} {med[k]:>17,.0f} {min(v):>9,.0f}-{max(v):<9,.0f} {base / med[k]:>19.2f}x")
    summary: dict[str, Any] = {
        "benchmark": "rl",
        "python": platform.python_version(),
        "core": hotdeath.core(),
        "seconds": args.seconds,
        "repeat": args.repeat,
        "envs": args.envs,
        "rules": args.rules,
    }
    for k in loops:
        summary[f"{k}_steps_per_s"] = round(med[k], 1)
        summary[f"{k}_cost_vs_engine"] = round(base / med[k], 3)
    if "rlcard_env" not in loops:
        summary["rlcard_env_steps_per_s"] = None
    else:
        summary["env_speedup_vs_rlcard_env"] = round(med["env"] / med["rlcard_env"], 2)
        summary["vector_speedup_vs_rlcard_env"] = round(med["vector"] / med["rlcard_env"], 2)
    summary["env_cost_vs_engine_view"] = round(med["engine_view"] / med["env"], 3)
    summary["vector_learner_share"] = round(share[0] / share[1], 3) if share[1] else None
    # per hand, so that the figures compare with RLCard's one-hand episodes (a hand of
    # random play lasts longer under our rules than under RLCard's)
    for k, (hands, decisions) in HANDS.items():
        if hands:
            per_hand = decisions / hands
            summary[f"{k}_decisions_per_hand"] = round(per_hand, 1)
            summary[f"{k}_hands_per_s"] = round(med[k] / per_hand, 2)
    if "vector_hands_per_s" in summary and "rlcard_env_hands_per_s" in summary:
        summary["vector_hands_vs_rlcard_env"] = round(
            summary["vector_hands_per_s"] / summary["rlcard_env_hands_per_s"], 2)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
