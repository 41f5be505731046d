"""The ladder: the lobby's levels, their measured ratings, and the script that writes them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hotdeath.bots import bot_fits, make_bot, parse_spec
from hotdeath.bots.ladder import ladder, ladder_levels, level_rating
from hotdeath.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder_script", ROOT / "scripts/ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_level_is_a_bot_with_a_rating_in_every_variant_it_plays() -> None:
    data = ladder()
    levels = ladder_levels()
    assert levels and len(set(levels)) == len(levels)
    assert levels[-1].startswith("master:")  # the strongest search is the top level
    assert not set(levels) & set(data["dropped"])  # a dropped level is not offered
    for spec in [*levels, *data["dropped"]]:
        make_bot(spec)  # a valid spec
    for variant, table in data["ratings"].items():
        players = table["players"]
        if get_variant(variant).goal(
                get_variant(variant).resolve_options(None, None)).lowest_wins is None:
            assert table["by"] == "games"  # nothing but going out decides the game
        unrated = data.get("unrated", {}).get(variant, [])
        for spec in levels:
            if spec in unrated:  # not measured there: the lobby does not offer it there
                assert spec not in table["levels"] and variant not in level_rating(spec)
            elif bot_fits(spec, variant, players):
                entry = table["levels"][spec]
                assert entry["low"] <= entry["rating"] <= entry["high"], (variant, spec)
                assert entry["comparisons"] > 0
                assert level_rating(spec)[variant]["rating"] == round(entry["rating"])
            else:  # e.g. the neural bot at a table it has no model for
                assert spec not in table["levels"]


def test_the_levels_are_in_order_of_measured_strength() -> None:
    data = ladder()
    first = next(iter(data["ratings"].values()))["levels"]
    rated = [s for s in ladder_levels() if s in first]
    assert [first[s]["rating"] for s in rated] == sorted(first[s]["rating"] for s in rated)
    for spec, why in data["dropped"].items():
        assert why.startswith("measures no stronger than "), (spec, why)


def test_the_drop_rule_keeps_a_level_only_when_it_measures_stronger() -> None:
    order_and_drop = _script().order_and_drop

    def table(**levels: tuple[float, float, float]) -> dict[str, Any]:
        return {"levels": {k.replace("_", ":"): {"rating": r, "low": lo, "high": hi}
                           for k, (r, lo, hi) in levels.items()}}

    ratings = {
        "hotdeath": table(a=(1000, 980, 1020), b=(1500, 1480, 1520), c=(1510, 1490, 1530),
                          d=(1700, 1650, 1750)),
        "standard": table(a=(900, 880, 920), b=(1400, 1380, 1420), c=(1500, 1450, 1550)),
    }
    kept, dropped = order_and_drop(ratings, "hotdeath")
    # c is within b's noise in Hot Death but clearly stronger in standard Uno: it stays
    assert kept == ["a", "b", "c", "d"] and dropped == {}
    ratings["standard"]["levels"]["c"] = {"rating": 1410, "low": 1390, "high": 1430}
    kept, dropped = order_and_drop(ratings, "hotdeath")
    assert kept == ["a", "b", "d"] and list(dropped) == ["c"]
    assert dropped["c"].startswith("measures no stronger than b in hotdeath (1510, 1490–1530")


def test_paired_hands_join_the_tournament_scale(tmp_path: Path) -> None:
    """A paired-hands bot's comparisons with the opponents, by the tournament's measure."""
    paired_comparisons = _script().paired_comparisons
    path = tmp_path / "paired.jsonl"
    rows = [
        {"kind": "run", "opponent": "x", "bots": ["x", "m"]},
        {"i": 0, "seat": 1, "bots": {
            "x": {"seat_points": [10, 50, 0, 20], "won": 0, "winner": 2},
            "m": {"seat_points": [10, 5, 0, 20], "won": 0, "winner": 2}}},
        {"i": 1, "seat": 0, "bots": {"x": {"seat_points": [0, 9, 9, 9], "won": 1, "winner": 0}}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    added, games = paired_comparisons(path, ["w", "x"], -1)  # the lowest total wins
    assert added == ["m"]
    # hand 0: m (seat 1, 5 points) beats seats 0 (10) and 3 (20), loses to seat 2 (0);
    # hand 1 was not played by m: left out
    assert games == [[(2, 1), (1, 2), (2, 1)]]
    added, games = paired_comparisons(path, ["w", "x"], 0)  # hands won
    assert games == [[(1, 2)]]


def test_a_master_level_searches_on_the_cpu_clock() -> None:
    info, values = parse_spec(ladder_levels()[-1])
    assert info.name == "master" and info.budget == "seconds"
    bot = make_bot(ladder_levels()[-1])
    assert getattr(bot, "clock", None) == "cpu"
    assert float(values["seconds"]) == pytest.approx(0.5)
