"""``hotdeath train``: self-play training of the ``neural`` bot (a thin adapter).

The work is :func:`hotdeath.rl.train.train`; this module only reads the command line.
It imports nothing heavy until the command runs, so ``hotdeath --help`` stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from hotdeath.cli.common import fail, need_extra
from hotdeath.variants import DEFAULT_VARIANT

app = typer.Typer()


class TrainBackend(StrEnum):
    """Where the self-play games of an iteration run."""

    process = "process"
    ray = "ray"


@app.command("train")
def train_command(
    variant: Annotated[str, typer.Option("--variant", "-V", metavar="NAME",
                                         help="Variant (hotdeath, standard, cutthroat).")]
    = DEFAULT_VARIANT,
    players: Annotated[int, typer.Option("--players", "-n", help="Seats.")] = 4,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the whole run.")] = 0,
    iterations: Annotated[int, typer.Option("--iterations", min=0,
                                            help="Train up to this many iterations.")] = 100,
    tables: Annotated[int | None, typer.Option("--tables", min=1,
                                               help="Games per iteration (default 16).")]
    = None,
    hands: Annotated[int | None, typer.Option("--hands", min=0,
                                              help="Hands per game at most (0: whole games; "
                                                   "default 0).")] = None,
    hidden: Annotated[str | None, typer.Option("--hidden", metavar="N,N",
                                               help="Hidden layer widths (default 256,256).")]
    = None,
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="NAME=VALUE",
                                                       help="Any other training setting "
                                                            "(repeatable; docs/rl.md lists "
                                                            "them), e.g. --set warm=5 --set "
                                                            "rollout=expert.")] = None,
    play_prior: Annotated[float | None, typer.Option("--play-prior", min=0.0,
                                                     help="The imitation weight the bot "
                                                          "plays with (default: the "
                                                          "training's prior).")] = None,
    play_margin: Annotated[float | None, typer.Option("--play-margin", min=0.0,
                                                      help="The margin the bot plays with "
                                                           "(default: the training's "
                                                           "margin).")] = None,
    out: Annotated[Path, typer.Option("--out", help="The run's folder (checkpoint, log, "
                                                    "models; a rerun resumes).")]
    = Path("runs/neural"),
    workers: Annotated[int, typer.Option("--workers", "-w", min=1,
                                         help="Self-play workers (1: this process).")] = 1,
    backend: Annotated[TrainBackend, typer.Option("--backend",
                                                  help="process (a local pool) or ray.")]
    = TrainBackend.process,
    address: Annotated[str | None, typer.Option("--address",
                                                help="Ray cluster address (default: "
                                                     "local).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line per iteration.")]
    = False,
) -> None:
    """Train the neural bot by self-play (deep Monte Carlo); see docs/rl.md.

    Writes OUT/checkpoint.npz after every iteration (the same command again resumes),
    OUT/log.jsonl, OUT/models/iter-NNNN.npz and OUT/model.npz (the bot's file format).
    Needs the 'train' extra (JAX, Optax).
    """
    need_extra("training", "train", ("numpy", "jax", "optax", "pettingzoo", "gymnasium"))
    run = _Run(variant, players, preset, seed, hidden, out, quiet, iterations, workers,
               backend.value, address, play_prior, play_margin, tuple(settings or ()))
    _train(run, tables=tables, hands=hands)


class _Run(NamedTuple):
    """The command line's values that are not training settings of TrainConfig."""

    variant: str
    players: int
    preset: str | None
    seed: int
    hidden: str | None
    out: Path
    quiet: bool
    iterations: int
    workers: int
    backend: str
    address: str | None
    play_prior: float | None
    play_margin: float | None
    settings: tuple[str, ...]
    """``NAME=VALUE`` of ``--set``, in order."""


def _train(run: _Run, **overrides: Any) -> None:
    """Build the configuration from ``run`` and ``overrides`` and run the training."""
    hidden, out, quiet = run.hidden, run.out, run.quiet
    from hotdeath.errors import HotDeathError
    from hotdeath.rl.train import IterationLog, TrainConfig, train, with_overrides, with_settings
    from hotdeath.variants import get_variant

    try:
        widths = tuple(int(x) for x in hidden.split(",")) if hidden else None
    except ValueError:
        fail("bad_option", f"--hidden takes widths such as 256,256 (got {hidden!r})")
    try:
        name = get_variant(run.variant).name
        cfg = with_overrides(TrainConfig(variant=name, players=run.players,
                                         preset=run.preset or "", seed=run.seed),
                             hidden=widths, **overrides)
        cfg = with_settings(cfg, run.settings)
        cfg.check()
    except HotDeathError as e:
        fail(e.code, e.message)

    def show(line: IterationLog) -> None:
        if not quiet:
            typer.echo(json.dumps(line.__dict__))

    _run(lambda: train(cfg, run.iterations, out, run.workers, run.backend, run.address,
                       progress=show, play_prior=run.play_prior,
                       play_margin=run.play_margin),
         f"interrupted: the last finished iteration is in {out}; run the same command "
         "again to resume")
    if not quiet:
        typer.echo(f"model: {out / 'model.npz'}")


@app.command("tune")
def tune_command(
    variant: Annotated[str, typer.Option("--variant", "-V", metavar="NAME",
                                         help="Variant of the shipped model to start from.")]
    = DEFAULT_VARIANT,
    players: Annotated[int, typer.Option("--players", "-n", help="Seats.")] = 4,
    model: Annotated[Path | None, typer.Option("--model", help="A model file to start from "
                                                               "(default: the shipped "
                                                               "one).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the whole run.")] = 1,
    generations: Annotated[int, typer.Option("--generations", min=1,
                                             help="Generations of the search.")] = 20,
    population: Annotated[int, typer.Option("--population", min=2,
                                            help="Candidates per generation.")] = 12,
    hands: Annotated[int, typer.Option("--hands", min=1,
                                       help="Deals every candidate plays per "
                                            "generation.")] = 800,
    sigma: Annotated[float, typer.Option("--sigma", min=0.0,
                                         help="The first spread of each weight.")] = 1.0,
    opponent: Annotated[str, typer.Option("--opponent", metavar="SPEC",
                                          help="The sparring bot in the other seats.")]
    = "heuristic:strong",
    start: Annotated[str, typer.Option("--start", metavar="NAME=X,...",
                                       help="First values of named weights, e.g. "
                                            "strong_pick=5.")] = "",
    out: Annotated[Path, typer.Option("--out", help="The run's folder (tune.jsonl, "
                                                    "model.npz).")] = Path("runs/tune"),
    workers: Annotated[int, typer.Option("--workers", "-w", min=1,
                                         help="Worker processes.")] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line per generation.")]
    = False,
) -> None:
    """Fit the neural bot's move head on whole hands (the cross-entropy method).

    Starts from a model (the shipped one of the table by default), plays every candidate
    on the same deals against the sparring bot and writes OUT/tune.jsonl (a line per
    generation) and OUT/model.npz (the model with the fitted move head); see docs/rl.md.
    Needs numpy (the 'rl' extra), not the training library.
    """
    need_extra("fitting the move head", "rl", ("numpy",))
    from hotdeath.bots.neural import Model, shipped_model
    from hotdeath.errors import HotDeathError
    from hotdeath.rl.tune import Generation, TuneConfig, tune
    from hotdeath.variants import get_variant

    try:
        first = (Model.load(model) if model is not None
                 else shipped_model(get_variant(variant).name, players))
        cfg = TuneConfig(seed=seed, generations=generations, population=population,
                         hands=hands, sigma=sigma, opponent=opponent, start=start)
    except HotDeathError as e:
        fail(e.code, e.message)

    def show(g: Generation) -> None:
        if not quiet:
            typer.echo(json.dumps({k: v for k, v in g.__dict__.items() if k != "mean"}))

    _run(lambda: tune(first, cfg, out, workers, show),
         f"interrupted: {out / 'model.npz'} holds the last finished generation (the same "
         "command starts the run again)")
    if not quiet:
        typer.echo(f"model: {out / 'model.npz'}")


def _run(call: Callable[[], object], interrupted: str) -> None:
    """Run a command's work; a coded error or Ctrl-C ends the command.

    A coded error exits with status 2; Ctrl-C says ``interrupted`` on standard error and
    exits with status 130.
    """
    from hotdeath.errors import HotDeathError

    try:
        call()
    except HotDeathError as e:
        fail(e.code, e.message)
    except KeyboardInterrupt:
        typer.echo(interrupted, err=True)
        raise typer.Exit(130) from None
