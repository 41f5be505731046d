"""Golden playthroughs: whole seeded games as text, one file per variant and preset.

``scripts/gen_playthroughs.py`` wrote ``tests/data/playthroughs/<variant>-<preset>.txt``:
the deal, every action with its events in words and rule ids, the hand's result.  Each
test plays the same games again and compares the text; on a difference it shows the diff.
After an intended change of the rules, the deal or the words, regenerate the files with
``python scripts/gen_playthroughs.py``, review the diff and say why in CHANGELOG.md.
The same games are also played through ``step`` (no events), which must end in the same
position as ``apply_action``.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

import hotdeath
from hotdeath.notation import to_position

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_playthroughs", ROOT / "scripts" / "gen_playthroughs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_playthroughs", module)
    spec.loader.exec_module(module)
    return module


GEN = _script()
CASES: list[tuple[str, str]] = GEN.builtin()


def test_every_variant_and_preset_has_a_playthrough_and_no_file_is_stale() -> None:
    files = {p.name for p in GEN.OUT.glob("*.txt")}
    expected = {GEN.path_of(v, p).name for v, p in CASES}
    assert files == expected
    assert {v for v, _ in CASES} == {v.name for v in hotdeath.variants.all_variants()
                                     if v.state_cls.__module__.startswith("hotdeath.")}


@pytest.mark.parametrize(("variant", "preset"), CASES, ids=[f"{v}-{p}" for v, p in CASES])
def test_playthrough_is_unchanged(variant: str, preset: str) -> None:
    d = GEN.diff(variant, preset)
    lines = d.splitlines()
    shown = "\n".join(lines[:80]) + (f"\n… ({len(lines) - 80} more diff lines)"
                                     if len(lines) > 80 else "")
    assert not d, (f"the playthrough of {variant} {preset} changed; if intended, run "
                   f"`python scripts/gen_playthroughs.py` and say why in CHANGELOG.md:\n{shown}")


@pytest.mark.parametrize(("variant", "preset"), CASES, ids=[f"{v}-{p}" for v, p in CASES])
def test_the_same_games_through_step_end_in_the_same_positions(variant: str,
                                                               preset: str) -> None:
    for players, seed in GEN.GAMES:
        v = hotdeath.get_variant(variant)
        n = max(v.min_players, min(players, v.max_players))
        slow = hotdeath.new_game(variant, players=n, seed=seed, preset=preset)
        fast = hotdeath.new_game(variant, players=n, seed=seed, preset=preset)
        rnd = random.Random(seed)
        for _ in range(GEN.MAX_ACTIONS):
            if slow.is_terminal():
                break
            seat, action = GEN._choose(slow, rnd)
            events = slow.apply_action(action, seat)
            fast.step(action, seat)
            if any(e.kind == "hand_end" for e in events):
                break
        assert to_position(fast) == to_position(slow) and fast.history == slow.history
