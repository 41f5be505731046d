"""Bots' games in bulk: ``simulate``, ``report`` and ``tournament`` (docs/simulate.md)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hotdeath import core_description
from hotdeath.cli.common import (
    OldVariantArg,
    OldVariantOpt,
    OptionArgs,
    Theme,
    VariantOpt,
    fail,
    make_console,
    need_extra,
    parse_option_args,
    pick_bots,
    pick_variant,
)
from hotdeath.errors import HotDeathError
from hotdeath.variants import get_variant

if TYPE_CHECKING:
    from hotdeath.tournament import Agreement, PointsStanding, Standing, TournamentResult

app = typer.Typer()

class Backend(StrEnum):
    """Where ``hotdeath simulate`` runs its games."""

    process = "process"
    ray = "ray"


WorkersOpt = Annotated[
    int | None, typer.Option("--workers", "-w", min=1,
                             help="Worker processes (default: every core).")
]
BackendOpt = Annotated[Backend, typer.Option("--backend", help="process (a local pool) or ray.")]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (default: local).")
]


@app.command()
def simulate(
    old_variant: OldVariantArg = None,
    variant: VariantOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats.")] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", metavar="SPEC",
                     help="Bot spec for the next seat (repeatable; the list repeats to fill "
                          "the seats), e.g. basic, random, 'external:./mybot'; default "
                          "basic."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=0, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Master seed.")] = 0,
    workers: WorkersOpt = None,
    out: Annotated[
        Path, typer.Option("--out", help="Results file (JSON lines; appended, resumable).")
    ] = Path("results.jsonl"),
    backend: BackendOpt = Backend.process,
    address: AddressOpt = None,
    fixed_seats: Annotated[
        bool, typer.Option("--fixed-seats",
                           help="Do not rotate the bots round the table from game to game.")
    ] = False,
    max_moves: Annotated[
        int | None, typer.Option("--max-moves", min=1,
                                 help="Stop a game after this many moves (recorded as "
                                      "unfinished).")
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")
    ] = False,
) -> None:
    """Let bots play many games and append one JSON line per game to a results file.

    Game i's seed is derived from (--seed, i) and the bots rotate one seat per game, so
    the results are the same for any number of workers.  Ctrl-C keeps every finished
    game; running the same command again resumes.  See docs/simulate.md.
    """
    from hotdeath.simulate import MAX_MOVES, SimConfig, run_simulation

    variant = pick_variant(variant, old_variant)
    try:
        config = SimConfig.make(variant, players, bot or ["basic"], seed, preset,
                                parse_option_args(option or []), not fixed_seats,
                                max_moves or MAX_MOVES)
    except HotDeathError as e:
        fail(e.code, e.message)
    console = Console(stderr=True)
    done_games = 0

    def note(done: int, total: int) -> None:
        nonlocal done_games
        done_games = done

    try:
        if quiet:
            summary = run_simulation(config, games, out, workers, backend.value, address, note)
        else:
            with sim_progress(console) as (progress_cb, _):
                def both(done: int, total: int) -> None:
                    note(done, total)
                    progress_cb(done, total)

                summary = run_simulation(config, games, out, workers, backend.value, address,
                                         both)
    except HotDeathError as e:
        fail(e.code, e.message)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {done_games} of {games} games are in {out}; run the same "
                   "command again to resume", err=True)
        raise typer.Exit(130) from None
    if quiet:
        return
    console.print(f"{summary.played} games played, {summary.skipped} already in {out} "
                  f"({core_description()})")
    from hotdeath.report import load_sets, summary_tables

    for table in summary_tables(load_sets([out])):
        make_console().print(table)


def sim_progress(console: Console) -> Any:
    """A Rich progress bar (games, rate, ETA) and the callback that advances it."""
    from contextlib import contextmanager

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class RateColumn(ProgressColumn):
        """Games per second."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("-- games/s" if speed is None else f"{speed:.1f} games/s",
                        style="progress.data.speed")

    @contextmanager
    def bar() -> Iterator[tuple[Any, Progress]]:
        progress = Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(),
            MofNCompleteColumn(), RateColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), console=console,
        )
        task_id: list[Any] = []

        def update(done: int, total: int) -> None:
            if not task_id:
                task_id.append(progress.add_task("simulating", total=total, completed=done))
            else:
                progress.update(task_id[0], completed=done)

        with progress:
            yield update, progress

    return bar()


@app.command()
def report(
    results: Annotated[
        list[Path], typer.Argument(help="Results files from 'hotdeath simulate' (one set "
                                        "each; two sets are compared side by side).",
                                   metavar="RESULTS")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder for the plots, report.md and "
                                                "report.html (default: only the summary).")
    ] = None,
    theme: Annotated[Theme, typer.Option("--theme", help="Card names.")] = Theme.family,
) -> None:
    """Summarise simulation results: wins with 95% intervals, lengths, seats, events."""
    from hotdeath.report import load_sets, summary_tables, write_report

    if out is not None:
        need_extra("hotdeath report --out (the plots)")
    try:
        sets = load_sets(results)
        console = make_console()
        for table in summary_tables(sets, theme.value):
            console.print(table)
        if out is not None:
            written = write_report(sets, out, theme.value)
            console.print(f"wrote {len(written)} files to {out}: "
                          + ", ".join(p.name for p in written))
    except HotDeathError as e:
        fail(e.code, e.message)


class RateBy(StrEnum):
    """What a tournament's ratings are fitted from."""

    games = "games"
    hands = "hands"
    points = "points"


@app.command()
def tournament(
    old_entrants: Annotated[list[str] | None, typer.Argument(hidden=True,
                                                             metavar="[ENTRANT]...")] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", metavar="SPEC",
                     help="An entrant's bot spec (repeatable, each entered once), e.g. "
                          "random, basic, heuristic:expert, 'ismcts:iterations=200'."),
    ] = None,
    variant: VariantOpt = None,
    old_variant: OldVariantOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", min=2,
                                 help="Seats per table (default: the variant's default, or "
                                      "the number of entrants if smaller).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per table.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Master seed (every table "
                                                            "plays the same deals).")] = 0,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the results, standings and plots "
                                         "(resumable).")
    ] = Path("tournament"),
    by: Annotated[RateBy, typer.Option("--by", help="Fit the ratings from games, hands won, "
                                                    "or each hand's points (a game points "
                                                    "decide, e.g. Hot Death).")] = RateBy.games,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, max=10_000,
                          help="Bootstrap resamplings for the rating intervals.")
    ] = 200,
    workers: WorkersOpt = None,
    backend: BackendOpt = Backend.process,
    address: AddressOpt = None,
    max_moves: Annotated[
        int | None, typer.Option("--max-moves", min=1,
                                 help="Stop a game after this many moves (left out).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play a round robin of bots and rate them: standings, crosstable, plots.

    Every combination of --players distinct entrants is a table that plays --games games
    (seats rotated), all tables on the same deals.  Ratings are Bradley-Terry on the Elo
    scale with bootstrap intervals.  Running the same command again resumes and reports.
    See docs/simulate.md.
    """
    from hotdeath.simulate import MAX_MOVES
    from hotdeath.tournament import (
        TournamentConfig,
        agreement,
        load_tournament,
        points_decide,
        points_per_hand,
        run_tournament,
        standings,
        write_outputs,
    )

    need_extra("hotdeath tournament (ratings and plots)")
    variant = pick_variant(variant, short=old_variant)
    entrants = pick_bots(bot, old_entrants, "entrants as arguments:")
    if not entrants:
        fail("bad_bot", "name the entrants with --bot SPEC (at least two)")
    try:
        if players is None:
            players = min(get_variant(variant).default_players, max(2, len(entrants)))
        config = TournamentConfig.make(entrants, variant, players, games, seed, preset,
                                       parse_option_args(option or []),
                                       max_moves or MAX_MOVES)
    except HotDeathError as e:
        fail(e.code, e.message)
    console = Console(stderr=True)
    try:
        if quiet:
            run_tournament(config, out, workers, backend.value, address)
        else:
            console.print(f"{len(config.tables())} tables × {games} games, "
                          f"{config.players} seats: results in {out}/")
            with sim_progress(console) as (progress_cb, _):
                run_tournament(config, out, workers, backend.value, address, progress_cb)
        result = load_tournament(out)
        rows = standings(result, by.value, bootstrap, seed)
        written = write_outputs(result, rows, by.value, bootstrap, seed)
        points = points_per_hand(result, bootstrap, seed) if points_decide(result) else []
        agree = agreement(result, bootstrap, seed) if points else None
    except HotDeathError as e:
        fail(e.code, e.message)
    except OSError as e:
        fail("file_error", f"cannot write to {str(out)!r}: {e.strerror or e}")
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished games are in {out}; run the same command again "
                   "to resume", err=True)
        raise typer.Exit(130) from None
    _show_standings(result, rows, config.entrants, config.players, by.value)
    _show_points(points, agree)
    make_console().print(f"wrote {', '.join(p.name for p in written)} to {out}")


def _show_points(points: Sequence[PointsStanding], agree: Agreement | None) -> None:
    """Print each entrant's points a hand against the table, and how games and points agree."""
    show = make_console()
    if points:
        pt = Table(title="Points a hand against the table (the others' mean less its own; "
                         "above 0 is better; 95% CI over the deals)")
        for col in ("#", "entrant", "hands", "points a hand (95% CI)"):
            pt.add_column(col, justify="left" if col == "entrant" else "right")
        for i, p in enumerate(points, start=1):
            pt.add_row(str(i), p.entrant, str(p.hands),
                       f"{p.mean:+.1f} ({p.ci[0]:+.1f} to {p.ci[1]:+.1f})")
        show.print(pt)
    if agree is not None:
        show.print(f"Games and points: {agree.words()}")


def _show_standings(result: TournamentResult, rows: list[Standing], names: Sequence[str],
                    players: int, by: str) -> None:
    """Print a tournament's standings and its crosstable (and the games left out)."""
    from hotdeath.tournament import crosstable

    show = make_console()
    table = Table(title=f"Standings ({result.config.variant}, {players} seats, "
                        f"ratings from {by})")
    for col in ("#", "entrant", "games", "wins", "win rate (95% CI)", "rating (95% CI)"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for i, s in enumerate(rows, start=1):
        lo, hi = s.rate_ci
        table.add_row(str(i), s.entrant, str(s.games), str(s.wins),
                      f"{100 * s.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})",
                      f"{s.rating:.0f} ({s.rating_ci[0]:.0f}-{s.rating_ci[1]:.0f})")
    show.print(table)
    order = [names.index(s.entrant) for s in rows]
    cross = crosstable(result, by)
    ct = Table(title="Crosstable: the row's share of its comparisons with the column "
                     "(wins %/comparisons; columns numbered as the standings)")
    ct.add_column("", no_wrap=True)
    for rank in range(1, len(order) + 1):
        ct.add_column(f"#{rank}", justify="right")
    for rank, a in enumerate(order, start=1):
        cells = []
        for b in order:
            w, t = cross[a][b]
            cells.append("-" if a == b else f"{100 * w / t:.0f}%/{t}" if t else "")
        ct.add_row(f"#{rank} {names[a]}", *cells)
    show.print(ct)
    if result.unfinished:
        show.print(f"{result.unfinished} unfinished games (move cap) are left out")
