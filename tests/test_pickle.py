"""Options objects pickle, and worker processes play the same games, on both cores.

On the compiled core (mypyc) a frozen dataclass refuses pickle's default of setting its
fields one by one, so a tournament with ``-w 2`` once failed in every worker (they got the
resolved options object) and the pool started new ones without end.  Options objects now
pickle as their option values (:func:`hotdeath.options.reduce_options`), and a
simulation's workers get its configuration as plain parameters.  CI runs this file on
both cores.
"""

from __future__ import annotations

import pickle
from dataclasses import fields
from pathlib import Path

import pytest

from hotdeath.simulate import SimConfig, read_results, run_simulation, simulate
from hotdeath.variants import all_variants, get_variant

PRESETS = [(v.name, p) for v in all_variants() for p in v.presets]


@pytest.mark.parametrize(("variant", "preset"), PRESETS)
def test_every_presets_options_pickle_as_themselves(variant: str, preset: str) -> None:
    opts = get_variant(variant).resolve_options(preset, None)
    back = pickle.loads(pickle.dumps(opts))
    assert type(back) is type(opts) and back == opts
    # every field, the ones a variant derives from its own options (Cutthroat's) included
    assert [getattr(back, f.name) for f in fields(opts)] == [
        getattr(opts, f.name) for f in fields(opts)]


def test_a_derived_setting_follows_the_pickled_options() -> None:
    """Cutthroat's Wild Draw Four rule follows from its challenge option (set on building)."""
    opts = get_variant("cutthroat").resolve_options(None, {"wd4_challenge": "none"})
    assert opts.wild_draw_four_rule == "free"
    back = pickle.loads(pickle.dumps(opts))
    assert back.wd4_challenge == "none" and back.wild_draw_four_rule == "free"


def test_a_simulation_config_pickles_with_its_options() -> None:
    config = SimConfig.make("throwdown", players=4, bots=["basic"], seed=5,
                            options={"decks": 1})
    back = pickle.loads(pickle.dumps(config))
    assert back == config and back.params() == config.params()


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_two_workers_play_the_games_one_process_plays(variant: str, tmp_path: Path) -> None:
    config = SimConfig.make(variant, players=3, bots=["basic", "heuristic:weak"], seed=11)
    out = tmp_path / "two.jsonl"
    summary = run_simulation(config, 4, out, workers=2, chunk=1)
    assert summary.played == 4
    assert read_results(out).games == simulate(config, 4)

