"""hotdeath.rl.VectorEnv: Gymnasium's vector conventions, buffers, auto-reset, seeds."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.rl import SingleAgentEnv, VectorEnv
from tests.test_rl import _check_warnings

Array = np.ndarray[Any, Any]


def first_legal(obs: dict[str, Array]) -> Array:
    """The lowest legal slot of every row (0 where a row has none)."""
    m = obs["action_mask"]
    return np.where(m.any(axis=1), m.argmax(axis=1), 0)


def random_legal(obs: dict[str, Array], rng: np.random.Generator) -> Array:
    m = obs["action_mask"]
    out = np.zeros(len(m), np.int64)
    for i, row in enumerate(m):
        legal = np.flatnonzero(row)
        if len(legal):
            out[i] = legal[rng.integers(len(legal))]
    return out


def test_spaces_and_owned_buffers() -> None:
    v = VectorEnv(3, "hotdeath", players=4, opponents="basic")
    obs, info = v.reset(seed=5)
    assert v.num_envs == 3
    size = v.obs_layout.size
    assert obs["observation"].shape == (3, size)
    assert obs["action_mask"].shape == (3, v.layout.size)
    assert v.observation_space.contains(obs)
    assert v.action_space.shape == (3,)
    assert (obs["action_mask"].sum(axis=1) > 0).all()
    assert list(info["seat"]) == [0, 0, 0]
    buf = obs["observation"]
    obs2, *_ = v.step(first_legal(obs))
    assert obs2["observation"] is buf  # the env writes into the buffers it owns
    copied = VectorEnv(2, copy=True)
    o1, _ = copied.reset(seed=1)
    o2, *_ = copied.step(first_legal(o1))
    assert o2["observation"] is not o1["observation"]


def test_rows_are_the_sub_environments_own_observations() -> None:
    v = VectorEnv(4, "throwdown", players=3, opponents="random")
    obs, _ = v.reset(seed=2)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(40):
        # copies first: a sub-environment's observe() writes its own batch row (the buffers
        # are the vector environment's), so comparing with the live row would prove nothing
        rows, masks = obs["observation"].copy(), obs["action_mask"].copy()
        for i in range(4):
            e = v.sub_env(i)
            if v._tables[i].done:
                continue
            mine = e.observe(e.possible_agents[v.learner(i)])
            assert np.array_equal(mine["observation"], rows[i])
            assert np.array_equal(mine["action_mask"], masks[i])
            checked += 1
        obs, *_ = v.step(random_legal(obs, rng))
    assert checked > 100


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "cutthroat", "throwdown"])
def test_each_sub_environment_passes_the_pettingzoo_api_test(variant: str) -> None:
    v = VectorEnv(2, variant, players=3)
    v.reset(seed=1)
    v.sub_env(1).set_bot_seats(frozenset())  # every seat an agent, as PettingZoo tests it
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(v.sub_env(1), num_cycles=60)
    _check_warnings(caught)


def test_same_seed_same_batch() -> None:
    def run(seed: int) -> list[tuple[Array, Array, Array]]:
        v = VectorEnv(4, "hotdeath", players=4, opponents="heuristic", episode="hand")
        obs, _ = v.reset(seed=seed)
        rng = np.random.default_rng(3)
        out = []
        for _ in range(60):
            obs, r, term, trunc, _ = v.step(random_legal(obs, rng))
            out.append((obs["observation"].copy(), r.copy(), term | trunc))
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b,
                                                                                          strict=True))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c, strict=True))


def test_a_sub_environment_plays_what_single_agent_env_plays() -> None:
    """Sub-environment 0 deals the game SingleAgentEnv deals from the same game seed."""
    v = VectorEnv(2, "standard", players=3, opponents=["basic", "random"],
                  options={"rounds": 1})
    obs, _ = v.reset(seed=9)
    game_seed = v.sub_env(0).state.seed
    s = SingleAgentEnv("standard", players=3, opponents=["basic", "random"],
                       options={"rounds": 1})
    sobs, _ = s.reset(seed=game_seed)
    steps = 0
    while True:
        assert np.array_equal(sobs["observation"], obs["observation"][0])
        assert np.array_equal(sobs["action_mask"], obs["action_mask"][0])
        acts = first_legal(obs)
        obs, r, term, trunc, _ = v.step(acts)
        sobs, sr, sterm, strunc, _ = s.step(int(acts[0]))
        steps += 1
        assert r[0] == sr and term[0] == sterm and trunc[0] == strunc
        if sterm or strunc:
            break
    assert steps > 3 and abs(r[0]) == 1.0


def test_game_episodes_auto_reset_on_the_next_step() -> None:
    v = VectorEnv(3, "standard", players=2, options={"rounds": 1})
    obs, _ = v.reset(seed=4)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(3000):
        obs, r, term, _trunc, _info = v.step(random_legal(obs, rng))
        for i in map(int, np.flatnonzero(term)):
            assert abs(r[i]) == 1.0
            assert not obs["action_mask"][i].any()
            ends += 1
            game = v.sub_env(i).state
            assert game.is_terminal()
            nxt, r2, t2, tr2, _ = v.step(random_legal(obs, rng))
            obs = nxt
            assert r2[i] == 0.0 and not t2[i] and not tr2[i]
            assert obs["action_mask"][i].any()  # a new game, dealt to the learner's decision
            assert v.sub_env(i).state is not game
        if ends >= 3:
            break
    assert ends >= 3


def test_hand_episodes_continue_the_game() -> None:
    v = VectorEnv(2, "hotdeath", players=3, opponents="heuristic", episode="hand")
    obs, info = v.reset(seed=8)
    assert list(info["hand"]) == [1, 1]
    rng = np.random.default_rng(2)
    for _ in range(5000):
        obs, r, term, _trunc, info = v.step(random_legal(obs, rng))
        if term[0]:
            game = v.sub_env(0).state
            assert r[0] in (-1.0, 1.0)
            obs, *_ , info = v.step(random_legal(obs, rng))
            if not game.is_terminal():
                assert v.sub_env(0).state is game  # the next hand of the same game
                assert info["hand"][0] >= 2
                return
    pytest.fail("no hand ended")


def test_illegal_actions() -> None:
    v = VectorEnv(2, "standard", players=2)
    obs, _ = v.reset(seed=3)
    bad = np.where(obs["action_mask"] == 0)
    acts = first_legal(obs)
    acts[1] = bad[1][bad[0] == 1][0]
    obs, r, term, _, info = v.step(acts)
    assert term[1] and r[1] == -1.0 and info["illegal_action"][1] and not info["illegal_action"][0]
    raising = VectorEnv(1, "standard", players=2, illegal="raise")
    obs, _ = raising.reset(seed=3)
    before = raising.sub_env(0).state.history[:]
    slot = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    with pytest.raises(IllegalActionError) as err:
        raising.step(np.array([slot]))
    assert err.value.code == "masked_action"
    assert raising.sub_env(0).state.history == before
    with pytest.raises(IllegalActionError):
        raising.step(np.array([0, 0]))


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"num_envs": 0}, "bad_num_envs"),
        ({"num_envs": 2, "episode": "set"}, "bad_episode"),
        ({"num_envs": 2, "opponents": ["random", "random"]}, "bad_opponents"),
        ({"num_envs": 2, "opponents": "nosuch"}, "bad_opponents"),
        ({"num_envs": 2, "seat": 5}, "bad_seat"),
        ({"num_envs": 2, "max_steps": 0}, "bad_max_steps"),
    ],
)
def test_bad_arguments_are_coded(kwargs: dict[str, Any], code: str) -> None:
    with pytest.raises(OptionError) as err:
        VectorEnv(**kwargs)
    assert err.value.code == code


def test_the_random_bot_shortcut_chooses_as_the_bot_does() -> None:
    """The env asks the state for the random bot's legal actions instead of a view."""
    def trajectory(fast: bool) -> list[int]:
        v = VectorEnv(1, "throwdown", players=4, opponents="random")
        v.reset(seed=21)
        t = v._tables[0]
        if not fast:
            t.fast = dict.fromkeys(t.fast, False)
        obs = v._out()
        rng = np.random.default_rng(5)
        for _ in range(80):
            obs, *_ = v.step(random_legal(obs, rng))
            if not fast:
                v._tables[0].fast = dict.fromkeys(v._tables[0].fast, False)
        return [hash(a) for _, a in v.sub_env(0).state.history]

    assert trajectory(True) == trajectory(False)


# The vector environment steps the game itself on the learner's own turns when no window
# can be open (the "direct path": its own mask, and the observation written from a
# template row whose hand counts it keeps from what changed); the AEC environment builds
# windows, Throwdown throws and every episode's first decision.  These tests hold the
# direct path to the AEC environment's full encoding and to SingleAgentEnv's game.

CASES = [
    ("standard", 2, "random", {"rounds": 1}),
    ("standard", 4, ["random", "basic", "random"], {"rounds": 1}),
    ("standard", 3, "random", {"jump_in": True, "seven_o": True, "stacking": "flat",
                               "rounds": 1}),
    ("hotdeath", 4, "random", {"game_end_score": 100}),
    ("hotdeath", 3, "heuristic", None),
    ("cutthroat", 3, "random", None),
    ("throwdown", 3, "random", None),
]


@pytest.mark.parametrize(("variant", "players", "opponents", "options"), CASES)
@pytest.mark.parametrize("episode", ["game", "hand"])
def test_every_row_is_the_full_encoding_of_the_learners_view(
    variant: str, players: int, opponents: Any, options: Any, episode: str
) -> None:
    v = VectorEnv(3, variant, players=players, opponents=opponents, options=options,
                  episode=episode, max_steps=400, seat=None)
    # (seed 31 under duplicate deals: an ejected learner's hand left two random bots in the
    # two-survivor lock, 100,000 decisions and more before the learner's next hand)
    obs, _ = v.reset(seed=32)
    rng = np.random.default_rng(4)
    direct = checked = 0
    for _ in range(250):
        for i in range(3):
            t = v._tables[i]
            row = obs["observation"][i].copy()
            mask = obs["action_mask"][i].copy()
            direct += t.direct
            e = v.sub_env(i)
            if t.done:
                assert not mask.any()
                continue
            assert e.acting_seat == v.learner(i)
            full = e.observe(e.possible_agents[v.learner(i)])
            assert np.array_equal(row, full["observation"])
            assert np.array_equal(mask, full["action_mask"])
            assert e.legal_moves() == list(np.flatnonzero(mask))
            checked += 1
        obs, *_ = v.step(random_legal(obs, rng))
    assert checked > 500
    if variant != "throwdown":
        assert direct > 50  # the direct path was taken (throws are always the AEC env's)


@pytest.mark.parametrize(("variant", "players", "opponents", "options"), CASES)
def test_a_table_plays_single_agent_env_games_step_by_step(
    variant: str, players: int, opponents: Any, options: Any
) -> None:
    """Several episodes of table 0 against SingleAgentEnv from the same game seeds."""
    v = VectorEnv(2, variant, players=players, opponents=opponents, options=options,
                  max_steps=300)
    s = SingleAgentEnv(variant, players=players, opponents=opponents, options=options,
                       max_steps=300)
    obs, _ = v.reset(seed=17)
    rng = np.random.default_rng(8)
    ends = 0
    for _ in range(4):
        sobs, _ = s.reset(seed=v._tables[0].st.seed)
        while True:
            assert np.array_equal(sobs["observation"], obs["observation"][0])
            assert np.array_equal(sobs["action_mask"], obs["action_mask"][0])
            acts = random_legal(obs, rng)
            obs, r, term, trunc, _ = v.step(acts)
            sobs, sr, sterm, strunc, _ = s.step(int(acts[0]))
            assert (r[0], term[0], trunc[0]) == (sr, sterm, strunc)
            if sterm or strunc:
                ends += 1
                break
        while v._tables[0].done:  # the auto-reset step
            obs, *_ = v.step(random_legal(obs, rng))
    assert ends == 4


def test_hand_counts_follow_plays_draws_and_recounts() -> None:
    """The template's hand counts stay those of the hand over many steps and games."""
    v = VectorEnv(4, "standard", players=2, options={"rounds": 1, "seven_o": True},
                  max_steps=None)
    obs, _ = v.reset(seed=2)
    rng = np.random.default_rng(0)
    lo, size = v.obs_layout.section("hand")
    faces = v.obs_layout.faces
    for _ in range(1500):
        obs, *_ = v.step(random_legal(obs, rng))
        for i, t in enumerate(v._tables):
            if t.direct and not t.done:
                hand = t.st.hands[v.learner(i)]
                want = [hand.count(f) for f in faces]
                assert list(obs["observation"][i][lo: lo + size]) == want
                assert list(v._tmpl[i][lo: lo + size]) == want
                rest = v._tmpl[i].copy()
                rest[lo: lo + size] = 0
                # beside the hand, what every direct decision shows: own turn, to act
                assert list(np.flatnonzero(rest)) == sorted(
                    [v.obs_layout.offset("decision"), v.obs_layout.offset("seats") + 5])


@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("throwdown", 3)])
def test_a_hand_episode_goes_on_from_an_illegal_action(variant: str, players: int) -> None:
    """The masked slot changes nothing: the next episode is the same decision, same mask."""
    v = VectorEnv(2, variant, players=players, episode="hand", max_steps=None)
    obs, _ = v.reset(seed=6)
    rng = np.random.default_rng(1)
    for _ in range(12):
        obs, *_ = v.step(random_legal(obs, rng))
    assert not any(t.done for t in v._tables)
    before = obs["observation"].copy()
    mask = obs["action_mask"].copy()
    history = [len(v._tables[i].st.history) for i in range(2)]
    acts = random_legal(obs, rng)
    acts[0] = int(np.flatnonzero(mask[0] == 0)[0])
    obs, r, term, _, info = v.step(acts)
    assert term[0] and r[0] == -1.0 and info["illegal_action"][0]
    assert not obs["action_mask"][0].any()
    assert len(v._tables[0].st.history) == history[0]
    obs, r, term, trunc, _ = v.step(random_legal(obs, rng))  # the next episode: same hand
    assert not term[0] and not trunc[0] and r[0] == 0.0
    assert np.array_equal(obs["action_mask"][0], mask[0])
    assert np.array_equal(obs["observation"][0], before[0])
    e = v.sub_env(0)
    assert e.legal_moves() == list(np.flatnonzero(mask[0]))


def test_the_example_learner_collects_from_a_vector_env(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import runpy
    import sys
    from pathlib import Path

    monkeypatch.setattr(sys, "argv", ["train.py", "--envs", "4", "--iterations", "2",
                                      "--batch", "4", "--eval-games", "4"])
    runpy.run_path(str(Path(__file__).resolve().parent.parent / "examples" / "train.py"),
                   run_name="__main__")
    import json

    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["training_hands"] >= 8 and out["eval_games"] == 4  # (hands end together)
    assert 0.0 <= out["eval_win_rate"] <= 1.0


@pytest.mark.parametrize("episode", ["game", "hand"])
def test_an_opening_longer_than_its_limit_deals_a_new_game(
    episode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots open an episode for at most OPENING_LIMIT decisions, else a new game.

    (An ejected learner otherwise waited while two random bots locked a hand for 100,000
    decisions and more: the limit, made tiny here, is what bounds that wait.)
    """
    import hotdeath.rl.vector as vector

    monkeypatch.setattr(vector, "OPENING_LIMIT", 2)
    v = VectorEnv(8, "standard", players=4, episode=episode, max_steps=1, seat=None)
    dealt = 0
    new_game = v._new_game

    def counted(t: Any) -> None:
        nonlocal dealt
        dealt += 1
        new_game(t)

    monkeypatch.setattr(v, "_new_game", counted)
    obs, _ = v.reset(seed=3)
    rng = np.random.default_rng(2)
    longest = 0
    for _ in range(20):
        assert obs["action_mask"].any(axis=1).all()  # every row: the learner's decision
        longest = max(longest, *(t.steps for t in v._tables))
        obs, *_ = v.step(random_legal(obs, rng))  # one decision: the episode is cut
        obs, *_ = v.step(random_legal(obs, rng))  # the auto-reset step: a new opening
    assert longest <= 2  # the bots' opening moves before the learner's first decision
    # openings of 3 bot moves and more were dropped: more games dealt than the 8 first
    # and the few that ended by being played out (one learner move an episode: none)
    assert dealt > 8


@pytest.mark.parametrize("episode", ["game", "hand"])
def test_max_steps_never_cuts_an_episode_before_the_learners_first_decision(
    episode: str,
) -> None:
    """The bots' opening moves count towards max_steps; the learner still gets to move."""
    v = VectorEnv(4, "standard", players=4, episode=episode, max_steps=1)
    obs, _ = v.reset(seed=3)
    rng = np.random.default_rng(2)
    for _ in range(30):
        assert obs["action_mask"].any(axis=1).all()  # every row: a decision to take
        obs, _, term, trunc, _ = v.step(random_legal(obs, rng))
        assert (term | trunc).all()  # one decision and the episode is over
        obs, r, term, trunc, _ = v.step(random_legal(obs, rng))  # the auto-reset step
        assert not (term | trunc).any() and not r.any()
