"""The ``neural`` bot and its training (``hotdeath.bots.neural``, ``hotdeath.rl.train``)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

import hotdeath
from hotdeath.bots import bot_catalog, make_bot, parse_spec
from hotdeath.bots.arena import play_game
from hotdeath.bots.neural import Encoder, Model, NeuralBot, shipped_model, shipped_models
from hotdeath.errors import OptionError
from hotdeath.rl import raw_env

TABLES = [
    ("hotdeath", 4, None, {}),
    ("hotdeath", 3, "source_000", {}),
    ("standard", 2, None, {}),
    ("standard", 4, None, {"jump_in": True, "seven_o": True, "stacking": "escalating"}),
    ("cutthroat", 3, None, {}),
]


@pytest.mark.parametrize(("variant", "players", "preset", "options"), TABLES)
def test_the_view_encoder_builds_the_environments_observation_and_mask(
    variant: str, players: int, preset: str | None, options: dict[str, object]
) -> None:
    # The bot sees a View; the network was trained on raw_env's observations.  At every
    # decision of random games both must agree entry by entry, and the legal slots too.
    env = raw_env(variant, preset, options or None, players, None, "game", None)
    enc = Encoder(env.variant.name, players)
    rng = random.Random(5)
    checked = 0
    windows = 0
    for game in range(40):
        env.reset(seed=100 + game)
        for _ in range(400):
            if env._over:
                break
            seat = env.acting_seat
            obs = env.observe(f"player_{seat}")
            vec, slots = enc.encode(env.state.view(seat))
            assert np.array_equal(vec, obs["observation"]), (game, seat)
            assert sorted(slots) == env.legal_moves()
            for slot, action in slots.items():
                assert action == env.action_of(slot)
            windows += env.in_window
            checked += 1
            env.step(rng.choice(env.legal_moves()))
        if checked >= 1500:
            break
    assert checked >= 400
    if options.get("jump_in"):
        assert windows > 0  # out-of-turn decisions were among them


def test_neural_is_in_the_catalog_with_nothing_to_set() -> None:
    info, values = parse_spec("neural")
    assert info.name in [b.name for b in bot_catalog()]
    assert info.params == () and values == {}
    assert info.budget is None


def test_no_model_for_the_table_is_a_coded_error() -> None:
    bot = make_bot("neural")
    g = hotdeath.new_game("throwdown", 3, seed=1)
    with pytest.raises(OptionError) as e:
        bot.choose(g.view(g.current_player()), random.Random(0))
    assert e.value.code == "no_model"
    g = hotdeath.new_game("hotdeath", 7, seed=1)
    with pytest.raises(OptionError) as e:
        bot.choose(g.view(g.current_player()), random.Random(0))
    assert e.value.code == "no_model"
    assert "hotdeath at 7 players" in e.value.message


def test_a_model_refuses_another_table(tmp_path: Path) -> None:
    model = _tiny_model("standard", 2)
    bot = NeuralBot(model)
    g = hotdeath.new_game("standard", 3, seed=1)
    with pytest.raises(OptionError) as e:
        bot.choose(g.view(g.current_player()), random.Random(0))
    assert e.value.code == "no_model"


def test_a_model_file_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    model = _tiny_model("hotdeath", 4)
    path = tmp_path / "m.npz"
    model.save(path)
    back = Model.load(path)
    assert (back.variant, back.players, back.hidden) == ("hotdeath", 4, (8,))
    x = np.random.default_rng(1).integers(0, 5, back.weights[0].shape[0]).astype(np.float32)
    assert np.array_equal(back.values(x), model.values(x))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(OptionError) as e:
        Model.load(tmp_path / "junk.npz")
    assert e.value.code == "bad_model"
    # a model made for another layout (its digest differs) is refused
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    head = json.loads(bytes(arrays["header"]).decode())
    head["layout"] = "0" * 16
    arrays["header"] = np.frombuffer(json.dumps(head).encode(), np.uint8)
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(OptionError) as e:
        Model.load(tmp_path / "old.npz")
    assert e.value.code == "bad_model"
    assert "another action or observation layout" in e.value.message


def _tiny_model(variant: str, players: int) -> Model:
    env = raw_env(variant, None, None, players, None, "game", None)
    rng = np.random.default_rng(3)
    sizes = [env.obs_layout.size, 8, 2 * env.layout.size]
    weights = [rng.standard_normal((a, b)).astype(np.float32)
               for a, b in itertools.pairwise(sizes)]
    biases = [np.zeros(b, np.float32) for b in sizes[1:]]
    return Model(variant, players, weights, biases, {})


@pytest.mark.parametrize(("variant", "players"), sorted(shipped_models()))
def test_the_shipped_models_load_and_play_whole_games(variant: str, players: int) -> None:
    model = shipped_model(variant, players)
    assert (model.variant, model.players) == (variant, players)
    size = (Path(hotdeath.__file__).parent / "bots" / "models"
            / shipped_models()[(variant, players)]).stat().st_size
    assert size <= 5 * 1024 * 1024
    bots = [make_bot("neural")] + [make_bot("heuristic:strong")] * (players - 1)
    g = play_game(hotdeath.new_game(variant, players, seed=3), bots, max_moves=200_000)
    assert g.is_terminal()


def test_the_package_ships_the_two_tables_of_the_issue() -> None:
    assert {("hotdeath", 4), ("standard", 2)} <= set(shipped_models())


# --------------------------------------------------------------------------- training

pytest.importorskip("jax")


def _tiny(**changes: object) -> object:
    from hotdeath.rl.train import TrainConfig, with_overrides

    base = TrainConfig(variant="standard", players=2, seed=4, tables=2, hands=1, hidden=(16,),
                       batch=64, warm=1, pool=2, snapshot_every=1, max_hand_moves=400,
                       rollout_moves=150)
    return with_overrides(base, **changes)


def test_a_tiny_training_run_resumes_exactly_and_its_model_plays(tmp_path: Path) -> None:
    from hotdeath.rl.train import TrainConfig, iter_log, train

    cfg = _tiny(replay=2)  # the second iteration also learns from the first's decisions
    assert isinstance(cfg, TrainConfig)
    whole = train(cfg, 2, tmp_path / "whole")
    train(cfg, 1, tmp_path / "cut")
    resumed = train(cfg, 2, tmp_path / "cut")  # goes on from the checkpoint of iteration 1
    for a, b in zip(whole.weights + whole.biases, resumed.weights + resumed.biases,
                    strict=True):
        assert np.array_equal(a, b)
    assert (tmp_path / "cut" / "data" / "iter-0001.npz").exists()  # read back on resuming
    lines = list(iter_log(tmp_path / "cut"))
    assert [line["iteration"] for line in lines] == [1, 2]
    # (an untrained network can play a hand past max_hand_moves, which counts no decision:
    # two tables, and the run as a whole, keep this from hanging on one deal)
    assert sum(line["decisions"] for line in lines) > 0
    assert all(line["steps"] >= line["decisions"] for line in lines)
    # what the run wrote is the bot's own file format, and it plays
    model = Model.load(tmp_path / "whole" / "model.npz")
    assert model.meta["training"]["iterations"] == 2
    assert (tmp_path / "whole" / "models" / "iter-0002.npz").exists()
    bot = NeuralBot(tmp_path / "whole" / "model.npz")
    g = hotdeath.new_game("standard", 2, seed=9)
    seat = g.current_player()
    assert bot.choose(g.view(seat), random.Random(0)) in g.legal_actions(seat)


def test_unbranched_decisions_may_teach_the_imitation_head_alone() -> None:
    from hotdeath.rl.train import TrainConfig, init_params, play_iteration

    cfg = _tiny(branch=0.3, tables=2)
    assert isinstance(cfg, TrainConfig)
    params = init_params([427, 16, 160], 0)
    dropped = play_iteration(cfg, params, [], 0, [0, 1])
    kept = play_iteration(cfg.__class__(**{**cfg.__dict__, "unbranched": True}), params, [],
                          0, [0, 1])
    valued = kept.mask.sum(axis=1) > 0
    # the same games: the branched decisions are the same, the others come on top
    assert kept.steps == dropped.steps and int(valued.sum()) == dropped.decisions > 0
    assert kept.decisions > dropped.decisions
    assert np.array_equal(kept.targets[valued], dropped.targets)
    assert not kept.targets[~valued].any()  # no value: only the expert's slot is taught
    assert all(kept.legal[i, kept.expert[i]] for i in range(kept.decisions))


def test_several_playouts_average_branch_values_over_reshuffled_cards() -> None:
    from hotdeath.rl.train import Batch, TrainConfig, init_params, play_iteration

    # warm and no exploration: the learner seats play the expert, so both runs play the
    # same games and make the same decisions; only the branch values differ
    cfg = _tiny(tables=3, epsilon=0.0, rollout="expert", rollout_moves=2000)
    assert isinstance(cfg, TrainConfig)
    params = init_params([427, 16, 160], 0)
    one = play_iteration(cfg, params, [], 0, [0, 1, 2])
    four = play_iteration(cfg.__class__(**{**cfg.__dict__, "playouts": 4}), params, [], 0,
                          [0, 1, 2])
    assert four.decisions == one.decisions > 20
    assert np.array_equal(four.obs, one.obs) and np.array_equal(four.legal, one.legal)
    assert np.array_equal(four.mask, one.mask)  # every legal slot valued, as before
    assert four.steps > 3 * one.steps  # four playouts of every slot
    # the first playout is the table's own cards, the others reshuffled: values move, and
    # the spread of a decision's values about their mean (the luck of one playout) falls
    assert not np.array_equal(four.targets, one.targets)

    def spread(b: Batch) -> float:
        m, t = b.mask.astype(bool), b.targets
        centred = [t[i, m[i]] - t[i, m[i]].mean() for i in range(len(t)) if m[i].sum() > 1]
        return float(np.mean([np.abs(c).mean() for c in centred]))

    assert spread(four) < 0.8 * spread(one)
    again = play_iteration(cfg.__class__(**{**cfg.__dict__, "playouts": 4}), params, [], 0,
                           [0, 1, 2])
    assert np.array_equal(again.targets, four.targets)  # deterministic


def test_training_refuses_other_settings_in_the_same_folder(tmp_path: Path) -> None:
    from hotdeath.rl.train import TrainConfig, TrainingError, train

    cfg = _tiny(rollout="expert")
    assert isinstance(cfg, TrainConfig)
    train(cfg, 1, tmp_path)
    other = _tiny(rollout="expert", lr=1e-3)
    assert isinstance(other, TrainConfig)
    with pytest.raises(TrainingError) as e:
        train(other, 2, tmp_path)
    assert e.value.code == "resume_mismatch"
    assert "lr" in e.value.message
    with pytest.raises(TrainingError) as e:
        train(_tiny(variant="throwdown", players=3), 1, tmp_path / "td")  # type: ignore[arg-type]
    assert e.value.code == "bad_option"
    with pytest.raises(TrainingError) as e:
        train(_tiny(epsilon=2.0), 1, tmp_path / "eps")  # type: ignore[arg-type]
    assert e.value.code == "bad_option"


def test_the_train_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hotdeath.cli import app

    out = tmp_path / "run"
    base = ["train", "--variant", "standard", "--players", "2", "--tables", "1", "--hands",
            "1", "--hidden", "8", "--set", "warm=1", "--set", "branch=0.5", "--iterations",
            "1", "--out", str(out)]
    r = CliRunner().invoke(app, base)
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[0])["iteration"] == 1
    model = Model.load(out / "model.npz")
    assert model.hidden == (8,)
    assert (model.prior, model.margin) == (0.05, 0.0)
    config = model.meta["training"]["config"]
    assert (config["warm"], config["branch"], config["tables"]) == (1, 0.5, 1)
    # --play-prior and --play-margin set only how the bot plays: the run goes on unchanged
    r = CliRunner().invoke(app, [*base, "--play-prior", "0.3", "--play-margin", "0.1"])
    assert r.exit_code == 0, r.output
    assert (Model.load(out / "model.npz").prior, Model.load(out / "model.npz").margin) == \
        (0.3, 0.1)
    # the same command resumes (nothing left to do); another setting is refused
    r = CliRunner().invoke(app, [*base, "--set", "centered=true"])
    assert r.exit_code == 2
    assert "[resume_mismatch]" in r.output and "centered" in r.output
    r = CliRunner().invoke(app, ["train", "--hidden", "a,b", "--out", str(out)])
    assert r.exit_code == 2
    assert "[bad_option]" in r.output
    for bad, code in (("colour=red", "unknown_setting"), ("warm", "unknown_setting"),
                      ("seed=3", "unknown_setting"), ("warm=two", "bad_option"),
                      ("branch=2", "bad_option"), ("centered=maybe", "bad_option")):
        r = CliRunner().invoke(app, ["train", "--set", bad, "--out", str(tmp_path / "x")])
        assert r.exit_code == 2, bad
        assert f"[{code}]" in r.output, (bad, r.output)
    assert not (tmp_path / "x").exists()  # a refused command writes nothing


def test_training_settings_are_read_as_their_types() -> None:
    from hotdeath.rl.train import TrainConfig, TrainingError, settable, with_settings

    cfg = with_settings(TrainConfig(), ["rollout-moves=250", "centered=yes", "lr=1e-3",
                                        "hidden=64,32", "sparring_bots=heuristic:strong",
                                        "warm=3", "warm=4"])
    assert (cfg.rollout_moves, cfg.centered, cfg.lr, cfg.hidden) == (250, True, 1e-3, (64, 32))
    assert (cfg.sparring_bots, cfg.warm) == (("heuristic:strong",), 4)  # the last one wins
    assert with_settings(cfg, ["centered=0"]).centered is False
    assert "variant" not in settable() and "margin" in settable()
    with pytest.raises(TrainingError) as e:
        with_settings(cfg, ["players=3"])  # has its own flag
    assert e.value.code == "unknown_setting" and "known: batch" in e.value.message
    with pytest.raises(TrainingError) as e:
        with_settings(cfg, ["epochs=2.5"])
    assert e.value.code == "bad_option" and "epochs" in e.value.message


def test_the_play_rule_keeps_the_favourite_unless_a_value_clearly_beats_it() -> None:
    from hotdeath.bots.neural import pick_slot

    # four slots: values, then imitation logits; slot 3 is not legal
    out = np.array([0.10, 0.30, 0.00, 9.0, 2.0, 0.0, 1.0, 9.0], np.float32)
    legal = [0, 1, 2]
    assert pick_slot(out, legal, 0.0, 0.0) == 1  # values alone
    assert pick_slot(out, legal, 1.0, 0.0) == 0  # 2.1 beats 0.3 and 1.0
    assert pick_slot(out, legal, 0.05, 0.0) == 1  # 0.3 beats 0.2
    # the favourite (slot 0, logit 2) leads slot 1 in score by 0.1 at prior 0.05 ...
    assert pick_slot(out, legal, 0.05, 0.05) == 1  # 0.30 − 0.20 > 0.05: slot 1
    assert pick_slot(out, legal, 0.05, 0.15) == 0  # not by more than 0.15: the favourite
    tied = np.array([0.5, 0.5, 0.0, 0.0], np.float32)
    assert pick_slot(tied, [0, 1], 0.0, 0.0) == 0  # ties go to the lower slot


@pytest.mark.filterwarnings("ignore")
def test_the_ray_backend_trains_the_same_network_as_a_local_pool(tmp_path: Path) -> None:
    # Two workers split the tables the same way on either backend, so the iteration is the
    # same computation: the same weights come back.
    ray = pytest.importorskip("ray")
    from hotdeath.rl.train import TrainConfig, train

    cfg = _tiny(tables=2, branch=0.5, centered=True)
    assert isinstance(cfg, TrainConfig)
    local = train(cfg, 1, tmp_path / "local", workers=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        remote = train(cfg, 1, tmp_path / "ray", workers=2, backend="ray")
    finally:
        ray.shutdown()
    for a, b in zip(local.weights, remote.weights, strict=True):
        assert np.array_equal(a, b)


def test_front_ends_refuse_the_neural_bot_at_a_table_without_a_model() -> None:
    from hotdeath.server.protocol import ApiError
    from hotdeath.server.seating import bot_levels, check_bot, server_bot
    from hotdeath.simulate import SimConfig, SimulationError

    info = parse_spec("neural")[0]
    assert server_bot(info)  # offered in the lobby, one level
    assert [lv["spec"] for lv in bot_levels(info)] == ["neural"]
    with pytest.raises(ApiError) as e:
        check_bot("neural", table=("throwdown", 3))
    assert e.value.code == "bad_bot"
    with pytest.raises(SimulationError) as s:
        SimConfig.make("cutthroat", 3, ["neural", "basic"])
    assert s.value.code == "bad_bot"
    assert "does not play cutthroat at 3 players" in s.value.message
    for variant, players in shipped_models():
        assert check_bot("neural", table=(variant, players)) == "neural"
        SimConfig.make(variant, players, ["neural", "heuristic:strong"])
