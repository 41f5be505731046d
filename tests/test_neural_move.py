"""The neural bot's move head: its features, its file format, how it plays and its fitting."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hotdeath import actions as A
from hotdeath.bots.heuristic import HeuristicBot
from hotdeath.bots.movefeatures import MoveFeatures, feature_names
from hotdeath.bots.neural import Model, NeuralBot, pick_slot, shipped_model
from hotdeath.cli import app
from hotdeath.errors import OptionError
from hotdeath.rl.tune import TuneConfig, tune
from tests.support import position


def _row(feats: MoveFeatures, row: list[float]) -> dict[str, float]:
    """The move's features that are not zero, but for ``strong_pick``."""
    return {name: x for name, x in zip(feats.names, row, strict=True)
            if x and name != "strong_pick"}


def test_the_features_of_a_variant_name_its_own_cards_only() -> None:
    std, hd = feature_names("standard"), feature_names("hotdeath")
    assert std == hd[:len(std)]
    assert {"holy", "retaliation", "quitter", "spreader"} <= set(hd) - set(std)
    assert len(set(hd)) == len(hd)


def test_each_move_of_a_view_reads_as_its_plain_facts() -> None:
    # seat 0 holds a wild, two reds and a skip; the opponent is far from going out
    g = position(variant="standard", players=2, turn=0, top="R7",
                 hands=[["W", "R3", "R9", "GS", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5"]])
    view = g.view(0)
    feats = MoveFeatures("standard")
    acts = list(view.legal_actions)
    rows = {str(a): _row(feats, r) for a, r in zip(acts, feats.of(view, acts), strict=True)}
    assert rows["draw"] == {"draw": 1.0}
    # a red number keeps red, sheds 3 points, leaves one red of four cards
    assert rows["play R3"] == {"points_calm": 3 / 50, "colour_kept": 1 / 4, "number": 1.0}
    # the wild naming green: spent early (five cards, nobody close), changes the colour
    wild = next(k for k in rows if k.startswith("play W") and "green" in k)
    assert rows[wild] == {"wild_early": 1.0, "points_calm": 1.0, "colour_kept": 1 / 4,
                          "colour_change": 1.0}
    # letting a window go by has no features of its own
    assert _row(feats, feats.of(view, [None])[0]) == {}


def test_strong_pick_marks_the_move_heuristic_strong_plays_with_the_same_dice() -> None:
    g = position(variant="hotdeath", players=4, turn=0, top="R7",
                 hands=[["R3", "R9", "GS", "B2", "MYS", "HOLY"], ["Y1", "Y2"], ["Y3", "Y4"],
                        ["Y5", "Y6", "B7"]])
    view = g.view(0)
    feats = MoveFeatures("hotdeath")
    col = feats.names.index("strong_pick")
    acts = list(view.legal_actions)
    for seed in range(20):
        rows = feats.of(view, acts, random.Random(seed))
        marked = [str(a) for a, r in zip(acts, rows, strict=True) if r[col]]
        played = HeuristicBot("strong").choose(view, random.Random(seed))
        assert marked == [str(played)]
    # without dice the mark follows from the view: the same view, the same move
    first = feats.of(view, acts)
    assert first == feats.of(view, acts)
    assert sum(r[col] for r in first) == 1.0


def test_danger_going_out_and_answers_have_their_own_features() -> None:
    g = position(variant="standard", players=2, turn=0, top="R7",
                 hands=[["RS", "W"], ["Y1", "Y2"]])
    view = g.view(0)
    feats = MoveFeatures("standard")
    acts = [a for a in view.legal_actions if a.kind == A.PLAY]
    rows = [_row(feats, r) for r in feats.of(view, acts)]
    skip = rows[[str(a) for a in acts].index("play RS uno")]
    assert skip["skip"] == 1.0 and skip["one_left"] == 1.0 and skip["points_danger"] == 20 / 50
    g = position(variant="standard", players=2, turn=0, top="R7", hands=[["R2"], ["Y1", "Y2"]])
    view = g.view(0)
    assert _row(feats, feats.of(view, [view.legal_actions[0]])[0]) == {"out": 1.0}


def test_a_move_head_changes_the_play_and_round_trips_through_its_file(
        tmp_path: Path) -> None:
    base = shipped_model("standard", 2)
    g = position(variant="standard", players=2, turn=0, top="R7",
                 hands=[["R3", "R9", "GS", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5"]])
    view = g.view(0)
    assert str(NeuralBot(base).choose(view, random.Random(0))) != "draw"
    names = feature_names("standard")
    move = np.zeros(len(names))
    move[names.index("draw")] = 1000.0  # drawing beats every play
    model = base.with_move(move)
    assert str(NeuralBot(model).choose(view, random.Random(0))) == "draw"
    model.save(tmp_path / "m.npz")
    back = Model.load(tmp_path / "m.npz")
    assert back.meta["move_features"] == list(names)
    assert np.array_equal(back.move, move)
    assert str(NeuralBot(back).choose(view, random.Random(0))) == "draw"
    # a head fitted for other features is refused with a coded error
    with np.load(tmp_path / "m.npz") as z:
        arrays = {k: z[k] for k in z.files}
    head = json.loads(bytes(arrays["header"]).decode())
    head["move_features"] = [*names[:-1], "something_else"]
    arrays["header"] = np.frombuffer(json.dumps(head).encode(), np.uint8)
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(OptionError) as e:
        Model.load(tmp_path / "old.npz")
    assert e.value.code == "bad_model" and "move head" in e.value.message
    with pytest.raises(OptionError) as e:
        base.with_move([1.0, 2.0])
    assert e.value.code == "bad_model"


def test_the_play_rule_adds_the_move_heads_bonus() -> None:
    out = np.array([0.10, 0.30, 0.00, 2.0, 0.0, 1.0], np.float32)
    assert pick_slot(out, [0, 1, 2], 1.0, 0.0) == 0
    assert pick_slot(out, [0, 1, 2], 1.0, 0.0, [0.0, 2.0, 0.0]) == 1
    # with a margin, the bonus counts in the favourite's score as well: slot 1 (2.3) leads
    # the favourite, slot 0 (2.1 less its bonus 0.5), by 0.7, more than the margin
    assert pick_slot(out, [0, 1, 2], 1.0, 0.5, [-0.5, 2.0, 0.0]) == 1
    assert pick_slot(out, [0, 1, 2], 1.0, 0.5, [0.0, 2.0, 0.0]) == 0  # by 0.2 only
    with pytest.raises(ValueError, match="as many bonuses"):
        pick_slot(out, [0, 1, 2], 1.0, 0.0, [0.0, 1.0])


def test_a_tiny_fitting_run_is_deterministic_and_writes_its_log(tmp_path: Path) -> None:
    # 10 deals: chunks of 3 games on 1 worker, of 2 on 2 workers (a bot's state carried from
    # one game to the next in a chunk would show)
    cfg = TuneConfig(seed=3, generations=2, population=3, hands=10, max_moves=3000)
    base = shipped_model("standard", 2)
    one = tune(base, cfg, tmp_path / "a")
    two = tune(base, cfg, tmp_path / "b", workers=2)
    assert np.array_equal(one.move, two.move)
    assert not np.array_equal(one.move, np.zeros(len(one.move)))
    lines = [json.loads(x) for x in (tmp_path / "a" / "tune.jsonl").read_text().splitlines()]
    assert [x["generation"] for x in lines] == [1, 2]
    assert lines[-1]["mean"] == [round(float(x), 4) for x in one.move]
    saved = Model.load(tmp_path / "a" / "model.npz")
    assert np.array_equal(saved.move, one.move)
    assert saved.meta["move_fit"]["generations_done"] == 2
    # the fitting starts from the model's own head: one more generation goes on from it
    more = tune(saved, TuneConfig(seed=4, generations=1, population=2, hands=2), None)
    assert more.move is not None and len(more.move) == len(one.move)
    # a rerun into the same folder starts its log anew and makes the same model
    again = tune(base, cfg, tmp_path / "a")
    assert np.array_equal(again.move, one.move)
    assert len((tmp_path / "a" / "tune.jsonl").read_text().splitlines()) == 2
    # the named first values: the search starts there
    names = feature_names("standard")
    started = tune(base, TuneConfig(seed=3, generations=1, population=2, hands=2, sigma=0.0,
                                    floor=0.0, start="strong_pick=7,draw=-2"))
    assert started.move[names.index("strong_pick")] == 7.0
    assert started.move[names.index("draw")] == -2.0


def test_the_tune_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["tune", "--variant", "standard", "--players", "2",
                                 "--generations", "1", "--population", "2", "--hands", "2",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[0])["generation"] == 1
    assert Model.load(out / "model.npz").move is not None
    r = CliRunner().invoke(app, ["tune", "--opponent", "nobody", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "[bad_bot]" in r.output
    for start in ("courage=3", "draw=nan", "draw=1,draw=2", "draw"):
        r = CliRunner().invoke(app, ["tune", "--start", start, "--out", str(tmp_path / "x")])
        assert r.exit_code == 2 and "[bad_option]" in r.output, start
        assert "strong_pick" in r.output
    r = CliRunner().invoke(app, ["tune", "--opponent", "heuristic:aggression=9",
                                 "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "[bad_bot]" in r.output
    (tmp_path / "file").write_text("not a folder")
    r = CliRunner().invoke(app, ["tune", "--out", str(tmp_path / "file")])
    assert r.exit_code == 2 and "[bad_option]" in r.output and "is a file" in r.output
    r = CliRunner().invoke(app, ["tune", "--variant", "standard", "--players", "5",
                                 "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "[no_model]" in r.output
    assert not (tmp_path / "x").exists()
