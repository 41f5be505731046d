"""The RL environments: PettingZoo and Gymnasium conformance, masks, hidden cards, rewards."""

from __future__ import annotations

import json
import random
import runpy
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import hotdeath
from hotdeath import actions as A
from hotdeath.bots.arena import worth_offering
from hotdeath.cards import IS_WILD
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.rl import SingleAgentEnv, action_layout, env, observation_layout, raw_env
from hotdeath.rl.single import ENV_ID
from hotdeath.state import RESPONSE

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = [v.name for v in hotdeath.all_variants()]
PRESETS = [(v.name, p) for v in hotdeath.all_variants() for p in v.presets]
# PettingZoo's checker warns about dict observations (its own masked classic games are on a
# name list) and, after the game ends, about the dead agents' all-zero masks; both are by
# design (docs/rl.md).
ALLOWED_WARNINGS = (
    "Observation is not a NumPy array",
    "Action mask numpy array is all zeros",
    "Observation space for each agent probably should be",
)


def _check_warnings(caught: list[warnings.WarningMessage]) -> None:
    bad = {str(w.message) for w in caught if not str(w.message).startswith(ALLOWED_WARNINGS)}
    assert not bad, bad


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed(variant: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant=variant, players=players, max_steps=2000), num_cycles=150)
        seed_test(lambda: env(variant=variant, players=players, max_steps=2000), num_cycles=100)
    _check_warnings(caught)


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for kwargs in (
            {"render_mode": "ansi"},
            {"variant": "hotdeath", "players": 3, "opponents": "basic", "max_steps": 500},
        ):
            made = gymnasium.make(ENV_ID, disable_env_checker=True, **kwargs)
            check_env(made.unwrapped, skip_render_check=False)
    bad = [str(w.message) for w in caught]
    assert not bad, bad


@pytest.mark.parametrize("variant", VARIANTS)
def test_single_agent_games_against_any_bot(variant: str) -> None:
    from hotdeath.bots import bot_catalog

    specs = [b.name for b in bot_catalog() if b.name in ("random", "basic", "heuristic")]
    s = SingleAgentEnv(variant, players=3, opponents=specs[-2:], seat=None, reward="hand",
                       max_steps=400)
    rng = np.random.default_rng(1)
    for seed in range(3):
        obs, info = s.reset(seed=seed)
        assert info["seat"] == s.learner
        done = False
        while not done:
            assert s.aec.acting_seat == s.learner
            obs, reward, terminated, truncated, _ = s.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            assert float(reward).is_integer()
            done = terminated or truncated
    with pytest.raises(IllegalActionError):
        s.step(0)


def test_module_alias_doctest() -> None:
    import doctest

    from hotdeath.rl import hotdeath_v0

    result = doctest.testmod(hotdeath_v0)
    assert result.attempted > 0 and result.failed == 0


def test_gymnasium_registered_id() -> None:
    e = gymnasium.make(ENV_ID, variant="cutthroat", opponents=["basic"], disable_env_checker=True)
    obs, info = e.reset(seed=5)
    assert info["seat"] == 0
    assert obs["observation"].shape == (observation_layout("cutthroat", 2).size,)
    e.close()


def _random_decisions(e: raw_env, seed: int, limit: int) -> Any:
    """Yield at each live decision of a random game, then take a random legal slot."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    for _ in range(limit):
        if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
            return
        yield
        e.step(rng.choice(e.legal_moves()))


def _decisions_of_games(e: raw_env, seed: int, limit: int) -> Any:
    """Like :func:`_random_decisions`, game after game (seeds counting up) for ``limit``
    decisions in all: a test that needs many decisions does not depend on one deal's length."""
    done = 0
    while done < limit:
        for _ in _random_decisions(e, seed, limit - done):
            done += 1
            yield
        seed += 1


@pytest.mark.parametrize(("variant", "preset"), PRESETS)
def test_action_mask_matches_legal_actions(variant: str, preset: str) -> None:
    for players in (2, 3):
        e = raw_env(variant=variant, players=players, preset=preset, max_steps=5000)
        lay = e.layout
        for _ in _random_decisions(e, 11 + players, 600):
            st = e.state
            seat = e.acting_seat
            obs = e.observe(e.agent_selection)
            mask = obs["action_mask"]
            assert list(np.flatnonzero(mask)) == e.legal_moves()
            assert e.legal_moves(), "a live decision always has a legal slot"
            legal = st.legal_actions(seat)
            for slot in e.legal_moves():
                act = e.action_of(slot)
                if act is not None:
                    assert act in legal
                    assert lay.slot_of(act, seat) == slot
            if e._prefix:
                continue
            if e.in_window:
                assert mask[lay.single[-1]] == 1  # ignore
            for act in legal:
                slot = lay.slot_of(act, seat)
                offered = act.kind != A.LEAVE and worth_offering(st, seat, act)
                if lay.throws and act.kind == A.PLAY:
                    assert mask[lay.play_slots[(act.cards[0], -1, 0)]] == 1
                elif act.kind == A.PLAY and IS_WILD[act.card] and act.color < 0:
                    # a last-card wild needs no colour; the space plays it naming one
                    assert mask[lay.play_slots[(act.card, 0, 0)]] == 1
                elif offered:
                    assert slot >= 0, f"{act} has no slot"
                    assert mask[slot] == 1, f"{act} legal but masked"


@pytest.mark.rule("STD-12.3", "uno-variants.md STD-12")
def test_a_jump_in_with_a_seven_under_seven_o_names_its_seat() -> None:
    # A jump-in is a play: under 7-0 the jumped-in 7 names the seat to swap with, so the
    # space has a "jump @+k" slot per other seat (rules fix of 2026-11-29).
    e = raw_env(variant="standard", players=3, options={"seven_o": True, "jump_in": True},
                max_steps=5000)
    lay = e.layout
    assert [lay.names[s] for s in lay.jump_at] == ["jump @+1", "jump @+2"]
    seen = 0
    for seed in range(40):
        for _ in _random_decisions(e, seed, 3000):
            seat = e.acting_seat
            jumps = [a for a in e.state.legal_actions(seat) if a.kind == A.JUMP]
            for a in jumps:
                slot = lay.slot_of(a, seat)
                assert slot >= 0 and e.legal_moves().count(slot) == 1
                if a.target >= 0:
                    assert slot == lay.jump_at[(a.target - seat) % 3 - 1]
                    chosen = e.action_of(slot)
                    assert chosen is not None and chosen.target == a.target
                    seen += 1
        if seen >= 3:
            break
    assert seen >= 3, "no jump-in with a 7 came up"


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_encodes_the_view(variant: str) -> None:
    """Decode the main sections and compare them with ``state.view(seat)``."""
    attacks = 0
    for players in (2, 4):
        e = raw_env(variant=variant, players=players, max_steps=5000)
        lay = e.obs_layout
        faces = lay.faces
        nf = len(faces)
        for i, _ in enumerate(_random_decisions(e, 70 + players, 900)):
            if i % 5 and e.state.phase != RESPONSE:
                continue
            seat = e.acting_seat
            x = e.observe(e.agent_selection)["observation"]
            view = e.state.view(seat)

            def sec(name: str, x: Any = x, lay: Any = lay) -> Any:
                off, size = lay.section(name)
                return x[off:off + size]

            counts = Counter(view.hand or ())
            for f in e._prefix:
                counts[f] -= 1
            assert {faces[j]: int(v) for j, v in enumerate(sec("hand")) if v} == {
                f: k for f, k in counts.items() if k
            }
            top = sec("top")
            if view.top < 0:
                assert top.sum() == 0
            else:
                assert faces[int(np.argmax(top))] == view.top and top.sum() == 1
            under = list(reversed(view.discard[:-1]))[:4]
            hist = sec("history").reshape(4, nf)
            assert [faces[int(np.argmax(row))] for row in hist[: len(under)]] == under
            assert hist[len(under):].sum() == 0
            col = sec("color")
            assert (int(np.argmax(col)) if col.sum() else -1) == view.color
            assert sec("clockwise")[0] == (view.direction == 1)
            rows = sec("seats").reshape(players, -1)
            for r in range(players):
                sv = view.seats[(seat + r) % players]
                assert rows[r][0] == sv.hand_size and rows[r][3] == sv.score
                assert rows[r][1] == sv.active and rows[r][2] == sv.uno_catchable
                assert rows[r][5] == (sv.seat == view.current_player)
                assert rows[r][7] == len(sv.revealed)
            rev = sec("revealed").reshape(players - 1, nf)
            for r in range(1, players):
                sv = view.seats[(seat + r) % players]
                assert {faces[j]: int(v) for j, v in enumerate(rev[r - 1]) if v} == dict(
                    Counter(sv.revealed)
                )
            table = sec("table")
            assert list(table) == [view.draw_pile_size, view.hand_no, view.hand_size]
            att = sec("attack")
            if view.attack is None:
                assert att.sum() == 0
            else:
                attacks += 1
                assert att[0] == 1 and att[1] == getattr(view.attack, "count", 0)
                victim = att[9:9 + players]
                assert int(np.argmax(victim)) == (view.attack.victim - seat) % players
    if variant in ("hotdeath", "throwdown"):
        assert attacks > 0


def _redeal_hidden(st: hotdeath.GameState, seat: int, rng: random.Random) -> None:
    """Shuffle every card ``seat`` cannot see among the places it cannot see into."""
    pool = list(st.draw_pile)
    kept: dict[int, list[int]] = {}
    for s in range(st.n):
        if s == seat:
            continue
        shown = Counter(st.revealed[s]) if st.active[s] else Counter()
        hand = Counter(st.hands[s])
        kept[s] = list((hand & shown).elements())
        pool += list((hand - shown).elements())
    rng.shuffle(pool)
    for s, keep in kept.items():
        k = len(st.hands[s]) - len(keep)
        st.hands[s][:] = keep + pool[:k]
        del pool[:k]
    st.draw_pile[:] = pool
    st._ver += 1  # the engine's legal-action cache


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_never_contain_hidden_cards(variant: str) -> None:
    rng = random.Random(3)
    for players in (2, 4):
        e = raw_env(variant=variant, players=players, max_steps=5000)
        checked = 0
        for i, _ in enumerate(_decisions_of_games(e, 40 + players, 1200)):
            if i % 3:
                continue
            if checked >= 30:
                break
            agent = e.agent_selection
            before = e.observe(agent)
            other = e.possible_agents[(e.acting_seat + 1) % players]
            before_other = e.observe(other)
            snapshot = (
                [h[:] for h in e.state.hands], e.state.draw_pile[:], e.state._ver
            )
            _redeal_hidden(e.state, e.acting_seat, rng)
            after = e.observe(agent)
            assert np.array_equal(before["observation"], after["observation"])
            if not e._prefix:
                e._offer(e.acting_seat, e.in_window)
                assert np.array_equal(before["action_mask"], e.observe(agent)["action_mask"])
            # another seat's observation does change with its own hand: restore the deal
            hands, pile, ver = snapshot
            for s, h in enumerate(hands):
                e.state.hands[s][:] = h
            e.state.draw_pile[:] = pile
            e.state._ver = ver + 1
            e._offer(e.acting_seat, e.in_window) if not e._prefix else None
            assert np.array_equal(before_other["observation"], e.observe(other)["observation"])
            checked += 1
        assert checked == 30  # games follow one another until enough decisions were checked


def test_hand_and_game_rewards() -> None:
    for mode in ("hand", "game"):
        e = raw_env(variant="standard", players=3, reward=mode, max_steps=None)
        rng = random.Random(1)
        e.reset(seed=9)
        hands = 0
        total = dict.fromkeys(e.possible_agents, 0.0)
        while not all(e.terminations.values()):
            before = e.state.hand_no
            e.step(rng.choice(e.legal_moves()))
            got = {a: r for a, r in e.rewards.items() if r}
            if mode == "hand" and (e.state.hand_no != before or e.state.is_terminal()) and got:
                hands += 1
                assert sorted(got.values()) == [-1.0, -1.0, 1.0]
            for a in total:
                total[a] += e.rewards[a]
        winners = {e.possible_agents[w] for w in e.state.winners}
        if mode == "game":
            assert {a for a, r in total.items() if r == 1.0} == winners
            assert sum(total.values()) == 1.0 - 2.0
        else:
            assert hands == e.state.hand_no


def test_masked_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(variant="standard", players=2)
    e.reset(seed=4)
    masked = next(i for i in range(e.layout.size) if i not in e.legal_moves())
    history = list(e.state.history)
    with pytest.raises(IllegalActionError) as err:
        e.step(masked)
    assert err.value.code == "masked_action"
    assert e.state.history == history
    s = SingleAgentEnv(illegal="raise")
    s.reset(seed=4)
    with pytest.raises(IllegalActionError):
        s.step(masked)
    s = SingleAgentEnv()
    s.reset(seed=4)
    _, reward, terminated, _, info = s.step(masked)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})


def test_bad_arguments_have_codes() -> None:
    with pytest.raises(OptionError) as err:
        raw_env(variant="standard", reward="points")
    assert err.value.code == "bad_reward"
    with pytest.raises(OptionError) as err:
        raw_env(variant="nope")
    assert err.value.code == "unknown_variant"
    with pytest.raises(OptionError) as err:
        SingleAgentEnv(opponents="nobody")
    assert err.value.code == "bad_opponents"


def test_throwdown_throw_is_built_card_by_card() -> None:
    e = raw_env(variant="throwdown", players=2, max_steps=None)
    rng = random.Random(2)
    multi = 0
    for seed in range(12):
        e.reset(seed=seed)
        while not all(e.terminations.values()):
            seat = e.acting_seat
            before = len(e.state.history)
            throw_end = e.layout.throw_end
            moves = e.legal_moves()
            adds = [s for s in moves if s < throw_end and e.action_of(s) is None]
            e.step(rng.choice(adds) if adds and e._prefix else rng.choice(moves))
            if len(e.state.history) > before:
                who, act = e.state.history[-1]
                if who == seat and act.kind == A.PLAY and len(act.cards) > 1:
                    multi += 1
    assert multi > 5


def test_render_ansi_uses_card_names() -> None:
    e = raw_env(variant="hotdeath", players=2, render_mode="ansi", theme="original")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "player_" in text and "Legal:" in text
    assert action_layout("hotdeath", 2).describe(
        action_layout("hotdeath", 2).play_slots[(hotdeath.cards.RET, -1, 0)], "original"
    ) == "Play Fuck You"


def test_example_learner_runs(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(
        sys, "argv",
        ["train.py", "--iterations", "2", "--batch", "4", "--eval-games", "10",
         "--eval-full-games", "1"],
    )
    runpy.run_path(str(ROOT / "examples" / "train.py"), run_name="__main__")
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert '"training_hands": 8' in out and '"eval_games": 10' in out


def test_rl_benchmark_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    bench = runpy.run_path(str(ROOT / "benchmarks" / "rl.py"))
    assert bench["main"](["--quick"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["benchmark"] == "rl"
    assert last["env_steps_per_s"] > 0 and last["engine_steps_per_s"] > 0
    assert "rlcard_env_steps_per_s" in last  # null without RLCard
