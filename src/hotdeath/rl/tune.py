"""Fitting the ``neural`` bot's move head by direct policy search (the cross-entropy method).

The network of a trained model values one decision at a time, from single playouts whose
noise is far larger than what separates a good move from a slightly worse one
(``docs/rl.md``).  The *move head* (:mod:`hotdeath.bots.movefeatures`: one weight per named
feature of a move, added to the move's score) is fitted on whole hands instead: the
cross-entropy method draws a population of weight vectors around a mean, plays each on
the same deals (one candidate seat against the sparring bot in every other seat; the
first hand of each game), keeps the best quarter by points against the table and moves
the mean and spread to them.  All the candidates of a generation meet the same deals, so
their ranking is not blurred by the luck of the cards; every generation deals new games,
so the weights cannot learn one set of deals.

The command is ``hotdeath tune`` (:mod:`hotdeath.cli.train`).  Every result follows from
``(model, config)`` alone: the deals from the seed and the
generation, the candidates from a generator seeded from the seed, the bots' dice from each
game's seed.  A run on 1 worker and on 2 gives the same weights.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import play_first_hand
from hotdeath.bots.movefeatures import feature_names
from hotdeath.bots.neural import Model, NeuralBot
from hotdeath.errors import OptionError
from hotdeath.simulate import game_seed
from hotdeath.variants import get_variant

DEAL_BASE = 7_000_000
"""Master seeds of the fitting's deals are ``DEAL_BASE + 1000·seed + generation``: far from
the validation (50000) and test (90000) seeds of ``benchmarks/neural_strength.py``."""


@dataclass(frozen=True)
class TuneConfig:
    """The settings of a fitting run (``hotdeath tune``)."""

    seed: int = 1
    generations: int = 20
    population: int = 12
    hands: int = 800
    """Deals per generation; every candidate plays them all."""
    elite: float = 0.25
    """Share of the population the next mean and spread are taken from."""
    sigma: float = 1.0
    """The first spread of every weight."""
    floor: float = 0.05
    """The spread never falls below this (the search keeps looking)."""
    smoothing: float = 0.5
    """Share of the elite's spread in the next spread (the rest: the last spread), so a
    lucky elite of a few candidates does not end the search at once."""
    opponent: str = "heuristic:strong"
    """The sparring bot in every other seat."""
    start: str = ""
    """First values of named weights, ``name=value,…`` (the others start at the model's
    own head, or 0), such as ``strong_pick=5``."""
    max_moves: int = 5000


@dataclass
class Generation:
    """One generation's figures, as written to the run's log."""

    generation: int
    mean_points: float
    """Points against the table of the generation's mean weights (before the update)."""
    control_points: float
    """The same of the sparring bot in that seat (the deals' control)."""
    best_points: float
    elite_points: float
    sigma: float
    cpu_s: float
    """CPU seconds of the games so far (every worker's)."""
    mean: list[float] = field(default_factory=list)


# --------------------------------------------------------------------------- evaluation

_MODEL: list[Model] = []
_OPP: list[Bot] = []


def _init(model: Model, opponent: str) -> None:
    _MODEL[:] = [model]
    _OPP[:] = [make_bot(opponent)]


def _points(model: Model | None, opp: Bot, master: int, indices: Sequence[int],
            max_moves: int) -> list[float]:
    """Points against the table of the candidate seat in each game's first hand.

    ``model`` None: the sparring bot sits there too (the control).
    """
    base = _MODEL[0] if model is None else model
    n = base.players
    v = get_variant(base.variant)
    lowest = v.goal(v.resolve_options(None, None)).lowest_wins
    bot: Bot = opp if model is None else NeuralBot(model)
    out = []
    for i in indices:
        seat = i % n
        bots: list[Bot] = [opp] * n
        bots[seat] = bot
        last = play_first_hand(base.variant, bots, game_seed(master, i), max_moves)
        pts = (last.points() if last is not None else None) or [0] * n
        others = (sum(pts) - pts[seat]) / (n - 1)
        out.append((others - pts[seat]) if lowest else (pts[seat] - others))
    return out


def _task(args: tuple[list[float] | None, int, list[int], int]) -> tuple[list[float], float]:
    """One chunk of deals for one candidate: its points and the CPU seconds they took."""
    c0 = time.process_time()
    move, master, indices, max_moves = args
    model = None if move is None else _MODEL[0].with_move(move)
    return _points(model, _OPP[0], master, indices, max_moves), time.process_time() - c0


def _chunks(n: int, parts: int) -> list[list[int]]:
    step = max(1, math.ceil(n / parts))
    return [list(range(i, min(n, i + step))) for i in range(0, n, step)]


# --------------------------------------------------------------------------- the search


def tune(model: Model, cfg: TuneConfig, out: Path | None = None, workers: int = 1,
         log: Callable[[Generation], None] | None = None) -> Model:
    """Fit ``model``'s move head by the cross-entropy method; the model with the head.

    The search starts from the model's own move head (zeros when it has none), with the
    weights named in ``cfg.start`` set.  With ``out``, ``out/tune.jsonl`` is written anew
    with a line per generation and the model of the current mean is written to
    ``out/model.npz`` after every generation (a run is not resumed: it is a pure function
    of the model and the settings, and a rerun of the same makes the same files).
    """
    import numpy as np

    names = feature_names(model.variant)
    dim = len(names)
    mean = _checked_start(cfg, names, np.zeros(dim) if model.move is None else model.move)
    if out is not None and out.exists() and not out.is_dir():
        raise OptionError("bad_option", f"--out {str(out)!r} is a file, not a folder")
    sigma = np.full(dim, cfg.sigma)
    rng = np.random.default_rng(cfg.seed)
    keep = max(1, round(cfg.elite * cfg.population))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "tune.jsonl").write_text("", encoding="utf-8")
    chunks = _chunks(cfg.hands, 4 * workers)
    # forkserver, as the simulations use: never a fork of a process that may run threads
    ctx = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
    pool = (ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init,
                                initargs=(model, cfg.opponent))
            if workers > 1 else None)
    if pool is None:
        _init(model, cfg.opponent)
    cpu = 0.0
    try:
        for gen in range(cfg.generations):
            master = DEAL_BASE + 1000 * cfg.seed + gen
            half = rng.standard_normal((cfg.population // 2, dim))
            noise = np.concatenate([half, -half, rng.standard_normal((cfg.population % 2, dim))])
            cands = [mean] + [mean + sigma * e for e in noise]
            moves: list[list[float] | None] = [list(map(float, c)) for c in cands]
            tasks = [(m, master, ch, cfg.max_moves) for m in [*moves, None] for ch in chunks]
            done = list(pool.map(_task, tasks)) if pool else [_task(t) for t in tasks]
            cpu += sum(c for _, c in done)
            results = [r for r, _ in done]
            scores = []
            for ci in range(len(cands) + 1):
                pts = [x for part in results[ci * len(chunks):(ci + 1) * len(chunks)]
                       for x in part]
                scores.append(statistics.fmean(pts))
            order = sorted(range(1, len(cands)), key=lambda j: (-scores[j], j))[:keep]
            elite = np.array([cands[j] for j in order])
            rec = Generation(gen + 1, scores[0], scores[-1], scores[order[0]],
                             statistics.fmean(scores[j] for j in order),
                             float(sigma.mean()), round(cpu, 1))
            mean = elite.mean(axis=0)
            if keep > 1:
                a = cfg.smoothing
                sigma = np.maximum(a * elite.std(axis=0) + (1 - a) * sigma, cfg.floor)
            rec.mean = [round(float(x), 4) for x in mean]
            if log is not None:
                log(rec)
            if out is not None:
                with (out / "tune.jsonl").open("a", encoding="utf-8") as f:
                    f.write(json.dumps(asdict(rec)) + "\n")
                _fitted(model, mean, cfg, gen + 1, cpu).save(out / "model.npz")
    finally:
        if pool is not None:
            pool.shutdown()
    return _fitted(model, mean, cfg, cfg.generations, cpu)


def _checked_start(cfg: TuneConfig, names: Sequence[str], mean: Any) -> Any:
    """``mean`` with ``cfg.start``'s values set, once ``cfg`` is checked (nothing written).

    ``OptionError``: ``bad_option`` for a setting out of range or a ``start`` that is not
    distinct ``name=number`` pairs of the features; ``bad_bot`` for an opponent that
    cannot be made.
    """
    import numpy as np

    if cfg.population < 2 or cfg.hands < 1 or cfg.generations < 0:
        raise OptionError("bad_option", "population must be 2 or more, hands 1 or more and "
                          "generations 0 or more")
    if not 0 < cfg.elite <= 1 or not 0 <= cfg.smoothing <= 1:
        raise OptionError("bad_option", "elite must be in (0, 1] and smoothing in [0, 1]")
    if not all(math.isfinite(x) and x >= 0 for x in (cfg.sigma, cfg.floor)):
        raise OptionError("bad_option", "sigma and floor must be numbers 0 or more")
    try:
        make_bot(cfg.opponent)
    except (ValueError, OptionError) as e:
        raise OptionError("bad_bot", f"the sparring bot {cfg.opponent!r}: {e}") from None
    out = np.array(mean, np.float64)
    seen: set[str] = set()
    for part in filter(None, cfg.start.split(",")):
        name, _, value = (x.strip() for x in part.partition("="))
        try:
            x = float(value)
            if name in seen or not math.isfinite(x):
                raise ValueError(name)
            out[list(names).index(name)] = x
        except ValueError:
            raise OptionError("bad_option", f"start takes distinct name=number pairs of the "
                              f"move features ({', '.join(names)}); got {part!r}") from None
        seen.add(name)
    return out


def _fitted(model: Model, mean: Any, cfg: TuneConfig, generations: int, cpu: float) -> Model:
    return model.with_move(mean, move_fit=dict(asdict(cfg), generations_done=generations,
                                               cpu_s=round(cpu, 1)))
