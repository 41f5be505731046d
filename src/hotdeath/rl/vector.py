"""A batched single-agent environment: ``num_envs`` tables stepped together.

:class:`VectorEnv` follows Gymnasium's vector API (``gymnasium.vector.VectorEnv``):
``num_envs`` sub-environments, one learner seat in each against bots from the catalogue
(:func:`hotdeath.bots.bot_catalog`), ``reset(seed=…)`` and ``step(actions)`` on arrays,
batched observations and action masks, and automatic reset in Gymnasium's default
``NEXT_STEP`` mode: the step after a sub-environment ends resets it (the action given for
it is ignored) and returns the first observation of its next episode with reward 0.

Every sub-environment is the AEC environment of :mod:`hotdeath.rl.aec` (the same
observation layout, action slots, windows and rewards as ``hotdeath_v0`` and
``SingleAgentEnv``); its observation vector and mask are written straight into rows of
arrays the vector environment owns and reuses, so a step allocates no observation.  The
arrays returned by :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` are those buffers:
copy them if you keep them past the next step (``copy=True`` does it for you).

Episodes are whole games (``episode="game"``, reward +1 to the learner's side if it wins
the game, -1 otherwise) or single hands (``episode="hand"``, reward ±1 for the hand, and
the next episode is the next hand of the same game, or the first hand of a new game once
the game is over), so that per-hand figures compare with RLCard's one-hand episodes.

Same ``seed`` ⇒ the same batch: sub-environment ``i`` deals its games from seeds derived
from ``(seed, i)``, and each bot draws from its own generator derived from the game seed
(as in :class:`hotdeath.rl.SingleAgentEnv` and :mod:`hotdeath.bots.arena`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import hotdeath
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import seat_rngs, worth_offering
from hotdeath.bots.simple import RandomBot
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.rl.aec import raw_env
from hotdeath.variants import BASIC_VARIANT

EPISODES: Final = ("game", "hand")
"""The episode kinds (``episode=`` argument)."""

Obs = dict[str, np.ndarray[Any, Any]]


class _Table:
    """One sub-environment: an AEC env whose buffers are rows of the batch, and its bots."""

    __slots__ = ("bots", "done", "env", "fast", "hand_mark", "learner", "rng", "rngs",
                 "seat", "spare", "steps")

    def __init__(self, e: raw_env, bots: list[Bot], seat: int | None, rng: random.Random) -> None:
        self.env = e
        self.bots: dict[int, Bot] = {}
        self.fast: dict[int, bool] = {}
        self.spare = bots
        """The bots, in seat order with the learner's seat skipped (seated each game)."""
        self.seat = seat
        self.learner = 0 if seat is None else seat
        self.rng = rng
        self.rngs: list[random.Random] = []
        self.done = True
        self.hand_mark: object = None
        self.steps = 0


class VectorEnv(gymnasium.vector.VectorEnv[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """``num_envs`` tables, each one learner (seat ``seat``; None: random) against bots.

    ``opponents`` is one bot spec for every other seat or one spec per other seat (in
    seat order, the learner's seat skipped), as in :class:`hotdeath.rl.SingleAgentEnv`.
    ``episode`` is ``"game"`` or ``"hand"``; ``max_steps`` (decisions of every seat in
    one episode; None: no limit) truncates an episode.  An action outside a
    sub-environment's mask ends that episode with reward -1 and ``infos["illegal_action"]``
    set for it (``illegal="terminate"``) or raises
    :class:`~hotdeath.errors.IllegalActionError` (``illegal="raise"``).  ``copy=True``
    returns copies of the observation buffers instead of the buffers themselves.

    >>> venv = VectorEnv(4, "standard", players=2, opponents="random")
    >>> obs, info = venv.reset(seed=1)
    >>> obs["observation"].shape[0], obs["action_mask"].shape[0]
    (4, 4)
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's style)
        "render_modes": [],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "core": hotdeath.core(),
    }

    def __init__(
        self,
        num_envs: int,
        variant: str = BASIC_VARIANT,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        episode: str = "game",
        max_steps: int | None = 20_000,
        illegal: str = "terminate",
        copy: bool = False,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise OptionError("bad_num_envs", f"num_envs must be an integer >= 1, not {num_envs!r}")
        if episode not in EPISODES:
            raise OptionError("bad_episode", f"episode must be 'game' or 'hand', not {episode!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise OptionError("bad_max_steps", f"max_steps must be None or >= 1, not {max_steps!r}")
        if illegal not in ("terminate", "raise"):
            raise OptionError(
                "bad_illegal", f"illegal must be 'terminate' or 'raise', not {illegal!r}"
            )
        reward = "game" if episode == "game" else "hand"
        first = raw_env(variant, preset, options, players, None, reward, None)
        n = first.n
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise OptionError(
                "bad_opponents", f"{n} seats need {n - 1} opponent specs (got {len(specs)})"
            )
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError("bad_seat", f"seat must be None or 0..{n - 1}, not {seat!r}")
        try:
            for s in specs:
                make_bot(s)
        except ValueError as exc:
            raise OptionError("bad_opponents", str(exc)) from None
        self.num_envs = num_envs
        self.players = n
        self.episode = episode
        self.max_steps = max_steps
        self.illegal = illegal
        self.copy = copy
        self.layout = first.layout
        self.obs_layout = first.obs_layout
        size = first.obs_layout.size
        k = first.layout.size
        self.single_observation_space = first.observation_spaces["player_0"]
        self.single_action_space = spaces.Discrete(k)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, k), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._hands = np.zeros(num_envs, np.int64)
        self._tables: list[_Table] = []
        for i in range(num_envs):
            e = first if i == 0 else raw_env(variant, preset, options, n, None, reward, None)
            e.bind_buffers(
                memoryview(self._obs[i]).cast("B").cast("f"),
                memoryview(self._mask[i]).cast("B"),
            )
            bots = [make_bot(s) for s in specs]
            self._tables.append(_Table(e, bots, seat, random.Random(i)))
        self._started = False

    # ------------------------------------------------------------------ Gymnasium API

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start an episode in every sub-environment and play bots to each learner.

        ``seed`` (an int, or one int per sub-environment) seeds each sub-environment's
        sequence of games; None continues the current sequences.  ``options`` is accepted
        for the API and not used (rule options are fixed at construction).
        """
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise OptionError(
                    "bad_seed", f"{self.num_envs} sub-environments need {self.num_envs} seeds"
                )
            seeds: list[object] = [f"hotdeath-vector:{s}" for s in seed]
        elif seed is not None:
            seeds = [f"hotdeath-vector:{seed}:{i}" for i in range(self.num_envs)]
        else:
            seeds = [None] * self.num_envs
        for i, t in enumerate(self._tables):
            if seeds[i] is not None:
                t.rng = random.Random(str(seeds[i]))
            self._new_game(t)
            self._begin(i, t)
            self._rewards[i] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._started = True
        return self._out(), self._info()

    def step(
        self, actions: np.ndarray[Any, Any] | Sequence[int]
    ) -> tuple[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any],
               dict[str, Any]]:
        """Take one slot per sub-environment for its learner; play bots to its next decision.

        A sub-environment whose episode ended at the previous step is reset instead (its
        action is ignored) and reports reward 0, not terminated, not truncated.
        """
        if not self._started:
            raise IllegalActionError("not_reset", "call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise IllegalActionError(
                "masked_action", f"step takes {self.num_envs} actions, got shape {acts.shape}"
            )
        rewards = self._rewards
        term = self._terminated
        trunc = self._truncated
        illegal: list[int] = []
        for i, t in enumerate(self._tables):
            if t.done:
                if self.episode == "game" or t.env._over:
                    self._new_game(t)
                self._begin(i, t)
                rewards[i] = 0.0
                term[i] = False
                trunc[i] = False
                continue
            e = t.env
            slot = int(acts[i])
            if not (0 <= slot < self.layout.size and self._mask[i, slot]):
                if self.illegal == "raise":
                    e._illegal(slot)
                illegal.append(i)
                t.done = True
                rewards[i] = -1.0
                term[i] = True
                trunc[i] = False
                continue
            me = e.possible_agents[t.learner]
            act = e._slot_act.get(slot)
            if act is not None:  # what raw_env.step does, less PettingZoo's bookkeeping
                e._apply(t.learner, act)
            else:
                e.step(slot)  # "ignore" in a window, or one card of a Throwdown throw
            t.steps += 1
            r = float(e.rewards[me])
            if not self._ended(t):
                r += self._run_bots(t)
            rewards[i] = r
            self._finish(i, t)
        info = self._info()
        if illegal:
            flags = np.zeros(self.num_envs, np.bool_)
            flags[illegal] = True
            info["illegal_action"] = flags
            info["_illegal_action"] = flags.copy()
        return (self._out(), rewards.copy() if self.copy else rewards,
                term.copy() if self.copy else term, trunc.copy() if self.copy else trunc, info)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ extras

    def sub_env(self, i: int) -> raw_env:
        """Sub-environment ``i``'s AEC environment (its state, layouts and helpers)."""
        return self._tables[i].env

    def learner(self, i: int) -> int:
        """The learner's seat in sub-environment ``i``'s current game."""
        return self._tables[i].learner

    # ------------------------------------------------------------------ internals

    def _new_game(self, t: _Table) -> None:
        """Deal sub-environment ``t`` a new game from its seed sequence; seat the bots."""
        n = self.players
        t.learner = t.seat if t.seat is not None else t.rng.randrange(n)
        others = [s for s in range(n) if s != t.learner]
        t.bots = dict(zip(others, t.spare, strict=True))
        t.fast = {s: type(b) is RandomBot for s, b in t.bots.items()}
        game_seed = t.rng.getrandbits(62)
        t.rngs = seat_rngs(game_seed, n)
        t.env.set_bot_seats(frozenset(others))
        t.env.reset(seed=game_seed)

    def _begin(self, i: int, t: _Table) -> None:
        """Start an episode of ``t``: bots play to the learner (new games if one ends first)."""
        for _ in range(100):
            t.steps = 0
            t.hand_mark = t.env.state.last_hand
            self._run_bots(t)
            if not t.env._over:
                if self.episode == "hand" and t.env.state.last_hand is not t.hand_mark:
                    # bots alone finished the hand: the learner's episode starts with the next
                    continue
                break
            self._new_game(t)
        else:
            raise RuntimeError("100 episodes in a row ended before the learner could move")
        t.done = False
        t.hand_mark = t.env.state.last_hand
        self._seats[i] = t.learner
        self._hands[i] = t.env.state.current_hand()
        t.env._encode(t.learner)

    def _ended(self, t: _Table) -> bool:
        e = t.env
        if e._over:
            return True
        if self.episode == "hand" and e.state.last_hand is not t.hand_mark:
            return True
        return self.max_steps is not None and t.steps >= self.max_steps

    def _finish(self, i: int, t: _Table) -> None:
        """Record how sub-environment ``i``'s step ended and encode its learner's view."""
        e = t.env
        over = e._over or (self.episode == "hand" and e.state.last_hand is not t.hand_mark)
        cut = not over and self.max_steps is not None and t.steps >= self.max_steps
        self._terminated[i] = over
        self._truncated[i] = cut
        t.done = over or cut
        self._hands[i] = e.state.current_hand()
        e.agent_selection = e.possible_agents[e._seat]
        e._encode(t.learner)
        if t.done:
            self._mask[i] = 0

    def _run_bots(self, t: _Table) -> float:
        """Bots decide until the learner must (or the episode ends); the learner's reward."""
        e = t.env
        me = e.possible_agents[t.learner]
        learner = t.learner
        total = 0.0
        bots = t.bots
        fast = t.fast
        rngs = t.rngs
        hand_episode = self.episode == "hand"
        cap = self.max_steps
        while not e._over and e._seat != learner:
            if hand_episode and e.state.last_hand is not t.hand_mark:
                break
            if cap is not None and t.steps >= cap:
                break
            s = e._seat
            st = e.state
            if fast[s]:
                # the random bot needs only the legal actions: the same choice from the same
                # generator as RandomBot.choose on the seat's view, without building the view
                choice = rngs[s].choice(st.legal_actions(s)) if s == st.turn else None
            else:
                choice = bots[s].choose(st.view(s), rngs[s])
            if e._window:
                if choice is not None and not worth_offering(st, s, choice):
                    choice = None
            elif choice is None:
                raise RuntimeError(f"bot {bots[s].name!r} returned no action for its turn")
            if choice is None:
                e._begin_step()
                e._asked.append(s)
                e._decide()
            else:
                e._apply(s, choice)
            t.steps += 1
            total += e.rewards[me]
        return total

    def _out(self) -> Obs:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        return {"seat": self._seats.copy(), "_seat": every, "hand": self._hands.copy(),
                "_hand": every.copy()}
