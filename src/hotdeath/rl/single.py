"""A Gymnasium single-agent environment: one learner against bots (``hotdeath/SingleAgent-v0``).

The learner sits at one seat of the AEC environment (:mod:`hotdeath.rl.aec`, same spaces,
observations and rewards); every other seat is a bot made from a spec of
:mod:`hotdeath.bots` (``random``, ``basic``, ``heuristic:expert`` …).  Bots act through the
same arena rules as everywhere else: each sees only its seat's view, gets its own seeded
generator, and may let a window go by.  ``step`` returns once the learner must decide again
or the game is over; the reward is the learner's reward summed over everything that
happened in between.

An action outside the mask ends the episode with reward -1 and ``info["illegal_action"]``
(``illegal="terminate"``, the default, which keeps Gymnasium's checker and random sampling
working) or raises :class:`~hotdeath.errors.IllegalActionError` (``illegal="raise"``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import seat_rngs, worth_offering
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.rl.aec import raw_env
from hotdeath.variants import BASIC_VARIANT

ENV_ID: Final = "hotdeath/SingleAgent-v0"
"""The Gymnasium id of :class:`SingleAgentEnv`."""
ILLEGAL_MODES: Final = ("terminate", "raise")

Obs = dict[str, np.ndarray[Any, Any]]


class SingleAgentEnv(gymnasium.Env[Obs, np.int64]):
    """One learner (seat ``seat``; None: a random seat each game) against bots.

    ``opponents`` is one bot spec for every other seat or one spec per other seat (in
    seat order, the learner's seat skipped).  The other arguments are those of
    :class:`hotdeath.rl.raw_env`; the default is heads-up standard Uno against ``random``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's style)

    def __init__(
        self,
        variant: str = BASIC_VARIANT,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        reward: str = "game",
        max_steps: int | None = 20_000,
        render_mode: str | None = None,
        theme: str = "family",
        illegal: str = "terminate",
    ) -> None:
        self._env = raw_env(variant, preset, options, players, render_mode, reward, max_steps,
                            theme)
        n = self._env.n
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise OptionError(
                "bad_opponents", f"{n} seats need {n - 1} opponent specs (got {len(specs)})"
            )
        try:
            self._bots: list[Bot] = [make_bot(s) for s in specs]
        except ValueError as exc:
            raise OptionError("bad_opponents", str(exc)) from None
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError("bad_seat", f"seat must be None or 0..{n - 1}, not {seat!r}")
        if illegal not in ILLEGAL_MODES:
            raise OptionError(
                "bad_illegal", f"illegal must be 'terminate' or 'raise', not {illegal!r}"
            )
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = cast(
            "spaces.Space[Obs]", self._env.observation_spaces["player_0"]
        )
        self.action_space = spaces.Discrete(self._env.layout.size)
        self._learner = 0 if seat is None else seat
        self._table: dict[int, Bot] = {}
        self._rngs: list[random.Random] = []
        self._done = True

    @property
    def aec(self) -> raw_env:
        """The underlying AEC environment (its state, layouts and helpers)."""
        return self._env

    @property
    def learner(self) -> int:
        """The learner's seat in the current game."""
        return self._learner

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start a game (``seed``: the engine's game seed) and play bots to the learner.

        In the rare game that ends before the learner's first decision (bots leaving a
        Throwdown table), the next game of the seed's sequence is dealt instead;
        ``info["game_seed"]`` is the seed of the game being played.
        """
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62)) if seed is None else seed
        n = self._env.n
        self._learner = self.seat if self.seat is not None else int(self.np_random.integers(n))
        others = [s for s in range(n) if s != self._learner]
        self._table = dict(zip(others, self._bots, strict=True))
        self._env.set_bot_seats(frozenset(others))  # bots decide from views: no masks for them
        for _ in range(100):
            self._rngs = seat_rngs(game_seed, n)
            self._env.reset(seed=game_seed)
            self._run_bots()
            if not self._env._over:
                break
            game_seed = int(self.np_random.integers(2**62))
        else:
            raise RuntimeError("100 games in a row ended before the learner could move")
        self._done = False
        obs = self._env.observe(self._env.possible_agents[self._learner])
        return obs, {"seat": self._learner, "game_seed": game_seed}

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Take ``action`` (a slot) for the learner; play bots until it must decide again."""
        if self._done:
            raise IllegalActionError("game_over", "the episode is over; call reset()")
        e = self._env
        me = e.possible_agents[self._learner]
        info: dict[str, Any] = {}
        slot = int(action)
        if not (0 <= slot < e.layout.size and e._mask_bytes[slot]):
            if self.illegal == "raise":
                e._illegal(slot)
            self._done = True
            info["illegal_action"] = True
            return e.observe(me), -1.0, True, False, info
        e.step(slot)
        reward = float(e.rewards[me]) + self._run_bots()
        terminated = bool(e.terminations[me])
        truncated = bool(e.truncations[me]) and not terminated
        self._done = terminated or truncated
        return e.observe(me), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The learner's current action mask (int8), as some libraries ask for it."""
        return self._env.observe(self._env.possible_agents[self._learner])["action_mask"]

    def render(self) -> str | None:
        """The learner's view in words (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return self._env.text(self._learner)

    def _run_bots(self) -> float:
        """Let bots decide until the learner must; return the learner's reward meanwhile."""
        e = self._env
        me = e.possible_agents[self._learner]
        total = 0.0
        while not e._over and e.acting_seat != self._learner:
            s = e.acting_seat
            st = e.state
            choice = self._table[s].choose(st.view(s), self._rngs[s])
            if e.in_window:
                if choice is not None and not worth_offering(st, s, choice):
                    choice = None
            elif choice is None:
                raise RuntimeError(f"bot {self._table[s].name!r} returned no action for its turn")
            e.play_engine_action(choice)
            total += e.rewards[me]
        return total


def register_envs() -> None:
    """Register ``hotdeath/SingleAgent-v0`` with Gymnasium (once)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="hotdeath.rl.single:SingleAgentEnv")
