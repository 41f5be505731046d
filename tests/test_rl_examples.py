"""The examples of docs/rl.md's "With your RL library" run, each with a tiny budget.

MaskablePPO's needs sb3-contrib and PyTorch, which the test extra leaves out (PyTorch's
wheels with their CUDA libraries are gigabytes): without them that test skips, saying so.
"""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed")

ROOT = Path(__file__).resolve().parent.parent


def _run(name: str, argv: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Run ``examples/NAME`` as a script; its last line of output, as JSON."""
    monkeypatch.setattr(sys, "argv", [name, *argv])
    runpy.run_path(str(ROOT / "examples" / name), run_name="__main__")
    summary: dict[str, Any] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return summary


def test_maskable_ppo_trains_on_the_single_agent_env(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib (with PyTorch) is not installed: "
                        "pip install sb3-contrib runs examples/rl_maskable_ppo.py")
    out = _run("rl_maskable_ppo.py", ["--steps", "128", "--n-steps", "64", "--eval-games", "3"],
               monkeypatch, capsys)
    assert out["steps"] == 128 and out["eval_games"] == 3
    assert 0.0 <= out["eval_win_rate"] <= 1.0


def test_a_cleanrl_style_loop_runs_on_the_vector_env(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gymnasium's RecordEpisodeStatistics wrapper counts the episodes the batch ends."""
    out = _run("rl_vector_loop.py", ["--updates", "1", "--num-steps", "600", "--num-envs", "4"],
               monkeypatch, capsys)
    assert out["updates"] == 1
    assert out["episodes"] >= 1  # 2,400 learner decisions: a few random hands end
    assert -1.0 <= out["recent_mean_return"] <= 1.0


def test_the_aec_env_gives_every_agent_its_own_policy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each game ends with one winner (+1) and three losers (-1) under the game reward."""
    out = _run("rl_pettingzoo_aec.py", ["--games", "2"], monkeypatch, capsys)
    totals = out["total_reward"]
    assert sorted(totals) == ["player_0", "player_1", "player_2", "player_3"]
    assert sum(totals.values()) == pytest.approx(2 * (1 - 3))
