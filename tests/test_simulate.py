"""``hotdeath simulate``: reproducible, resumable simulations on any number of workers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from hotdeath.cli import app
from hotdeath.errors import OptionError
from hotdeath.simulate import (
    SimConfig,
    SimulationError,
    game_seed,
    play_one,
    read_results,
    run_simulation,
    seating,
    simulate,
)

ENV: dict[str, str | None] = {"COLUMNS": "100", "NO_COLOR": "1", "FORCE_COLOR": None,
                              "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None}

CONFIG = SimConfig.make("standard", players=3, bots=["basic", "random"], seed=42)
"""Short games (standard Uno, three seats): about 15 ms each."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENV)


def games_of(path: Path) -> list[dict[str, Any]]:
    return read_results(path).games


def test_game_seeds_depend_on_master_seed_and_index_only() -> None:
    assert game_seed(42, 3) == game_seed(42, 3)
    seeds = {game_seed(42, i) for i in range(1000)} | {game_seed(43, i) for i in range(1000)}
    assert len(seeds) == 2000
    assert all(0 <= s < 2**63 for s in seeds)


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    cfg = SimConfig.make("hotdeath", players=4, bots=["basic", "random"], seed=1)
    assert cfg.lineup == ["basic", "random", "basic", "random"]
    assert seating(cfg, 0) == ["basic", "random", "basic", "random"]
    assert seating(cfg, 1) == ["random", "basic", "random", "basic"]
    three = SimConfig.make("standard", players=3, bots=["basic", "random", "random"])
    for seat in range(3):
        assert [seating(three, i)[seat] for i in range(3)].count("basic") == 1
    fixed = SimConfig.make("standard", players=3, bots=["basic", "random"], rotate=False)
    assert seating(fixed, 5) == seating(fixed, 0) == ["basic", "random", "basic"]


def test_a_game_record_counts_what_happened() -> None:
    rec = play_one(CONFIG, 0)
    assert rec["index"] == 0 and rec["seed"] == game_seed(42, 0)
    assert rec["bots"] == seating(CONFIG, 0)
    assert not rec["unfinished"] and rec["winners"]
    assert rec["hands"] == len(rec["turns"]) == len(rec["hand_winners"])
    assert rec["hands"] == rec["events"]["hand_end"]
    assert sum(rec["hands_won"]) == sum(1 for w in rec["hand_winners"] if w >= 0)
    assert sum(rec["events"].values()) == sum(rec["rules"].values())
    assert sum(rec["turns"]) <= rec["moves"]
    assert rec["events"]["play"] >= sum(rec["plays"].values())
    assert rec == play_one(CONFIG, 0)  # the same game again
    hd = play_one(SimConfig.make("hotdeath", players=4, bots=["basic"], seed=3), 1)
    assert hd["ejections"] == hd["events"].get("eject", 0)
    assert hd["mad_plays"] == hd["plays"].get("MAD", 0)
    assert hd["largest_stack"] >= 0 and hd["draw_69"] >= 0


def test_a_move_cap_records_the_game_as_unfinished() -> None:
    cfg = SimConfig.make("hotdeath", players=4, bots=["random"], seed=3, max_moves=30)
    rec = play_one(cfg, 0)
    assert rec["unfinished"] and rec["winners"] == [] and rec["moves"] == 30


def test_a_worker_that_cannot_start_fails_the_run_instead_of_hanging(tmp_path: Path) -> None:
    """A pool whose workers cannot set up would start new ones without end: the error
    reaches the parent as a coded one, naming the cause."""
    config = SimConfig(variant="standard", players=2, bots=("no_such_bot",))  # unvalidated
    with pytest.raises(SimulationError) as err:
        run_simulation(config, 4, tmp_path / "out.jsonl", workers=2)
    assert err.value.code == "worker_failed"
    assert "could not start" in err.value.message and "no_such_bot" in err.value.message


def test_same_seed_same_results_on_one_and_two_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_simulation(CONFIG, 24, one, workers=1)
    summary = run_simulation(CONFIG, 24, two, workers=2, chunk=3)
    assert summary.played == 24
    assert games_of(one) == games_of(two) == simulate(CONFIG, 24)
    assert [g["index"] for g in games_of(two)] == list(range(24))


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_simulation(CONFIG, 5, path, workers=1)
    with path.open("a", encoding="utf-8") as f:  # a line cut short by a kill
        f.write('{"type": "game", "index": 5, "se')
    summary = run_simulation(CONFIG, 9, path, workers=2)
    assert (summary.skipped, summary.played) == (5, 4)
    assert games_of(path) == simulate(CONFIG, 9)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 10 and json.loads(lines[0])["type"] == "header"
    again = run_simulation(CONFIG, 9, path, workers=2)
    assert (again.skipped, again.played) == (9, 0)


def test_interrupted_run_keeps_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "i.jsonl"

    def stop_after_three(done: int, total: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    for workers in (1, 2):
        with pytest.raises(KeyboardInterrupt):
            run_simulation(CONFIG, 12, path, workers=workers, chunk=1,
                           progress=stop_after_three)
        kept = games_of(path)
        assert len(kept) >= 3
        assert kept == [g for g in simulate(CONFIG, 12) if g["index"] in
                        {k["index"] for k in kept}]
    run_simulation(CONFIG, 12, path, workers=2)
    assert games_of(path) == simulate(CONFIG, 12)


def test_resume_with_other_parameters_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    run_simulation(CONFIG, 2, path, workers=1)
    before = path.read_bytes()
    other = SimConfig.make("standard", players=3, bots=["basic", "random"], seed=43)
    with pytest.raises(SimulationError, match="seed: file has 42, now 43") as err:
        run_simulation(other, 4, path, workers=1)
    assert err.value.code == "resume_mismatch"
    assert path.read_bytes() == before
    not_results = tmp_path / "x.jsonl"
    not_results.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(SimulationError) as bad:
        run_simulation(CONFIG, 1, not_results, workers=1)
    assert bad.value.code == "bad_results"


@pytest.mark.parametrize(
    ("kwargs", "error", "code"),
    [
        ({"bots": ["genius"]}, SimulationError, "bad_bot"),
        ({"bots": ["basic:depth=3"]}, SimulationError, "bad_bot"),
        ({"options": {"no_such_rule": "1"}}, OptionError, "unknown_option"),
        ({"options": {"stack_draw_twos": "maybe"}}, OptionError, "bad_option_value"),
        ({"variant": "chess"}, OptionError, "unknown_variant"),
        ({"players": 11}, OptionError, "bad_players"),
        ({"seed": -1}, SimulationError, "bad_seed"),
    ],
)
def test_bad_configurations_say_what_is_wrong(
    kwargs: dict[str, Any], error: type[Exception], code: str
) -> None:
    args: dict[str, Any] = {"variant": "hotdeath", "bots": ["basic"], **kwargs}
    with pytest.raises(error) as e:
        SimConfig.make(**args)
    assert getattr(e.value, "code", None) == code


def test_cli_simulate_writes_results_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "cli.jsonl"
    result = invoke("simulate", "-V", "standard", "-n", "3", "-b", "basic", "-b", "random",
                    "--games", "6", "--seed", "42", "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "6 games played, 0 already in" in result.output
    assert "Wins per bot" in result.stdout and "seat-games" in result.stdout
    assert games_of(out) == simulate(CONFIG, 6)
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["params"]["seed"] == 42 and header["params"]["bots"] == ["basic", "random"]


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["--bot", "genius"], "bad_bot", "unknown bot 'genius'"),
        (["-o", "nonsense=1"], "unknown_option", "no option 'nonsense'"),
        (["-o", "nonsense"], "bad_option_syntax", "NAME=VALUE"),
        (["--seed", "7"], "resume_mismatch", "seed: file has 42, now 7"),
    ],
)
def test_cli_simulate_errors_are_one_line_with_a_code(
    tmp_path: Path, args: list[str], code: str, text: str
) -> None:
    out = tmp_path / "e.jsonl"
    run_simulation(CONFIG, 1, out, workers=1)
    result = invoke("simulate", "-V", "standard", "-n", "3", "-b", "basic", "-b", "random",
                    "--seed", "42", "--games", "2", "-q", "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("error: ") and line.endswith(f"[{code}]") and text in line
    assert len(games_of(out)) == 1


@pytest.mark.filterwarnings("ignore")
def test_ray_backend_gives_the_same_results(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        path = tmp_path / "ray.jsonl"
        summary = run_simulation(CONFIG, 8, path, backend="ray", chunk=2)
        assert summary.played == 8
        assert games_of(path) == simulate(CONFIG, 8)
    finally:
        ray.shutdown()


def test_missing_ray_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(SimulationError, match=r"hotdeath\[ray\]") as e:
        run_simulation(CONFIG, 2, tmp_path / "n.jsonl", backend="ray")
    assert e.value.code == "ray_missing"


def test_speed_benchmark_quick_run_prints_its_figures() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "simulate.py"
    out = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True,
                         text=True, check=True, timeout=120).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last["benchmark"] == "simulate" and last["games"] == 20
    assert last["games_per_s_1_worker"] > 0 and last["games_per_s_2_workers"] > 0


def test_cli_ctrl_c_says_what_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hotdeath.simulate as sim

    real = sim.run_simulation

    def interrupted(config: SimConfig, games: int, out: Path, workers: int | None,
                    backend: str, address: str | None,
                    progress: Callable[[int, int], None]) -> sim.RunSummary:
        def stop(done: int, total: int) -> None:
            progress(done, total)
            if done >= 2:
                raise KeyboardInterrupt

        return real(config, games, out, workers, backend, address, stop)

    monkeypatch.setattr(sim, "run_simulation", interrupted)
    out = tmp_path / "c.jsonl"
    result = invoke("simulate", "-V", "standard", "-n", "3", "-b", "basic", "-b", "random",
                    "--seed", "42", "--games", "9", "-w", "1", "--out", str(out))
    assert result.exit_code == 130
    assert f"interrupted: 2 of 9 games are in {out}; run the same command again" in (
        result.stderr.replace("\n", " "))
    assert games_of(out) == simulate(CONFIG, 2)


def test_tasks_cover_every_game_once_and_shrink_towards_the_end() -> None:
    from hotdeath.simulate import _chunks

    todo = list(range(5, 605))
    tasks = _chunks(todo, 18, workers=2)
    assert [i for t in tasks for i in t] == todo
    sizes = [len(t) for t in tasks]
    assert sizes[0] == 18
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-8:] == [1] * 8
