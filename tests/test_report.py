"""``hotdeath report``: summary tables, plots, Markdown and HTML from simulation results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hotdeath.cli import app
from hotdeath.report import (
    bot_stats,
    event_rates,
    load_sets,
    position_stats,
    seat_stats,
    wilson,
    write_report,
)
from hotdeath.simulate import SimConfig, run_simulation

ENV: dict[str, str | None] = {"COLUMNS": "160", "NO_COLOR": "1", "FORCE_COLOR": None,
                              "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None}
PNG = b"\x89PNG\r\n\x1a\n"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def two_sets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two small Hot Death runs that differ in one rule option."""
    folder = tmp_path_factory.mktemp("results")
    a, b = folder / "plain.jsonl", folder / "stacking.jsonl"
    for path, options in ((a, {}), (b, {"stack_draw_twos": "true"})):
        cfg = SimConfig.make("hotdeath", players=3, bots=["basic", "random"], seed=9,
                             options=options)
        run_simulation(cfg, 12, path, workers=1)
    return a, b


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and 0.0 < wilson(0, 10)[1] < 0.31
    assert wilson(0, 0) == (0.0, 1.0)


def test_statistics_add_up(two_sets: tuple[Path, Path]) -> None:
    (plain,) = load_sets([two_sets[0]])
    games = len(plain.games) + plain.unfinished
    assert games == 12
    bots = {b.bot: b for b in bot_stats(plain)}
    assert set(bots) == {"basic", "random"}
    assert sum(b.played for b in bots.values()) == 3 * len(plain.games)
    assert sum(b.wins for b in bots.values()) == pytest.approx(len(plain.games))
    assert bots["basic"].rate > bots["random"].rate
    seats = seat_stats(plain)
    assert sum(w for _, w, _ in seats) == pytest.approx(len(plain.games))
    positions = position_stats(plain)
    assert sum(w for w, _ in positions) <= positions[0][1]
    assert positions[0][1] == sum(g["hands"] for g in plain.games)
    labels = [label for label, *_ in event_rates(plain)]
    assert "M.A.D. plays" in labels and "ejections" in labels


def test_two_sets_are_labelled_by_the_option_that_differs(two_sets: tuple[Path, Path]) -> None:
    sets = load_sets(two_sets)
    assert [s.label for s in sets] == ["stack_draw_twos=false", "stack_draw_twos=true"]


def test_report_writes_plots_markdown_and_html(
    two_sets: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "report"
    result = invoke("report", *map(str, two_sets), "--out", str(out))
    assert result.exit_code == 0, result.output
    for title in ("Result sets", "Wins per bot", "Game and hand length", "Event frequencies"):
        assert title in result.stdout
    assert "stack_draw_twos=true" in result.stdout
    for name in ("wins.png", "scores.png", "length.png", "seats.png", "events.png"):
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000, name
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Simulation report: stack_draw_twos=false vs stack_draw_twos=true")
    for part in ("## Wins per bot", "95% CI", "![Wins per bot](wins.png)", "## Seat advantage",
                 "M.A.D. plays", "1000-point combinations", "all four bastard cards",
                 "largest stacked draw", "Draw-69", "ejections", "## Special cards played"):
        assert part in md, part
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<img src="events.png"' in page
    assert page.count("<table>") == md.count("\n|---") == 8


def test_special_cards_use_a_name_theme(two_sets: tuple[Path, Path], tmp_path: Path) -> None:
    write_report(load_sets([two_sets[0]]), tmp_path / "family")
    write_report(load_sets([two_sets[0]]), tmp_path / "original", theme="original")
    family = (tmp_path / "family" / "report.md").read_text(encoding="utf-8")
    original = (tmp_path / "original" / "report.md").read_text(encoding="utf-8")
    assert "| Wild Draw Four |" in family
    assert "| Retaliation |" in family or "| Big Brother |" in family
    assert "| Fuck You |" in original or "| Shitter |" in original
    assert "| WD4 |" not in family


def test_report_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"type": "game"}) + "\n", encoding="utf-8")
    result = invoke("report", str(bad))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("[bad_results]")
    missing = invoke("report", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and missing.stderr.strip().endswith("[file_error]")


def test_unfinished_games_are_named_wherever_they_are_left_out(tmp_path: Path) -> None:
    capped = tmp_path / "capped.jsonl"
    cfg = SimConfig.make("cutthroat", players=2, bots=["random"], seed=3, max_moves=80)
    run_simulation(cfg, 6, capped, workers=1)
    (s,) = load_sets([capped])
    assert s.unfinished > 0 and s.games  # some of each
    n = s.unfinished
    result = invoke("report", str(capped))
    assert result.exit_code == 0, result.output
    notes = result.stdout.count(f"Left out: {n} unfinished game")
    assert notes == 3  # under wins, lengths and events (the sets table has its own column)
    written = write_report([s], tmp_path / "r")
    md = next(p for p in written if p.suffix == ".md").read_text(encoding="utf-8")
    assert md.count(f"Left out: {n} unfinished game") >= 5  # every statistics section


def test_side_by_side_tables_keep_whole_set_labels_in_80_columns(
    two_sets: tuple[Path, Path]
) -> None:
    result = CliRunner().invoke(app, ["report", *map(str, two_sets)],
                                env={**ENV, "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    labels = [s.label for s in load_sets(two_sets)]
    assert labels[0] != labels[1]
    for label in labels:
        assert result.stdout.count(label) >= 4, label  # whole, in every table
