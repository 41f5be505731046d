"""The engine benchmark runs and ends with its JSON line (figures are not asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_benchmark_quick_run_prints_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--quick",
         "--baseline", str(ROOT)],  # this engine against itself, in a second process
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last["benchmark"] == "engine"
    assert last["ours_2p_games_per_s"] > 0
    assert last["hotdeath_4p_hands_per_s"] > 0
    assert last["cutthroat_4p_games_per_s"] > 0
    assert last["throwdown_4p_games_per_s"] > 0
    assert "ratio_2p" in last  # null when RLCard is not installed
    base = last["baseline"]  # fixed workloads on both engines, each in a subprocess
    for key in ("standard_2p", "standard_4p", "hotdeath_4p"):
        row = base[key]
        assert row["same_games"] is True  # the same code: the same games, decision for decision
        assert row["decisions"] > 0
        assert row["step_vs_base_step"] > 0 and row["apply_vs_base_apply"] > 0


def test_search_benchmark_quick_run_compares_two_engines() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "search.py"), "--quick",
         "--spec", "ismcts", "--baseline", str(ROOT)],  # this search against itself
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last["benchmark"] == "search" and last["decisions"] == 2
    row = last["specs"]["ismcts"]
    assert row["ours"]["iterations_per_cpu_s"] > 0 and row["base"]["iterations_per_cpu_s"] > 0
    assert row["ratio"] > 0
    assert set(last["engines"]) == {"ours", "base"}


def test_mistake_scan_quick_run_covers_every_variant() -> None:
    from hotdeath.variants import all_variants

    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "blunders.py"), "--quick"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last["benchmark"] == "blunders"
    assert {r["variant"] for r in last["rows"]} == {v.name for v in all_variants()}
    for r in last["rows"]:
        caught, episodes = r["rates"]["uno_caught"]
        assert 0 <= caught <= episodes


def test_simulate_benchmark_compares_two_engines() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "simulate.py"), "--quick",
         "--variant", "standard", "--players", "2", "--baseline", str(ROOT)],  # against itself
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last["benchmark"] == "simulate_baseline" and last["games"] == 20
    assert last["cpu_s_ours"] > 0 and last["cpu_s_baseline"] > 0 and last["speed_ratio"] > 0
    assert last["core"] == last["baseline_core"]


def test_paired_hands_plays_in_parts_and_summarises_the_pairs(tmp_path: Path) -> None:
    script = str(ROOT / "benchmarks" / "paired_hands.py")
    out = tmp_path / "hands.jsonl"
    common = ["--variant", "standard", "--players", "2", "--seed", "7", "--hands", "4",
              "--opponent", "basic", "--out", str(out)]
    for part in ("0/2", "1/2"):  # two processes' shares of the same hands, one file
        subprocess.run([sys.executable, script, *common, "--part", part,
                        "--bot", "heuristic:skill=expert", "--bot", "basic"],
                       check=True, timeout=300)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["i"] for r in rows if "i" in r) == [0, 1, 2, 3]
    for r in rows:
        if "i" in r:
            assert r["seat"] == r["i"] % 2
            for got in r["bots"].values():
                assert got["won"] == int(got["winner"] == r["seat"])
                pts = got["seat_points"]  # standard: the seat's points less the other's
                assert got["points"] == pts[r["seat"]] - pts[1 - r["seat"]]
    summary = json.loads(subprocess.run(
        [sys.executable, script, "--summary", str(out)],
        capture_output=True, text=True, check=True, timeout=300).stdout)
    assert summary["hands"] == 4 and summary["control"] == "heuristic:skill=expert"
    basic = summary["bots"]["basic"]
    mean, lo, hi = basic["points_vs_control"]
    diffs = [r["bots"]["basic"]["points"] - r["bots"]["heuristic:skill=expert"]["points"]
             for r in rows if "i" in r]
    assert abs(mean - sum(diffs) / 4) < 1e-9 and lo <= mean <= hi
