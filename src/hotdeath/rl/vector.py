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

Most decisions take a shorter path than the AEC environment's (the *direct path*, same
results, tested against the full encoding and against ``SingleAgentEnv``): on the learner's
own turn with no window open, the vector environment steps the game itself, maps slots
through a per-seat cache of flat mask indices, and copies the observation from a
per-table template row whose hand counts it keeps from what changed, writing only the
entries that depend on the position.  Windows, Throwdown throws and each episode's first
decision go through the AEC environment.

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import DRAW, JUMP, PLAY, Action
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import seat_rng, worth_offering
from hotdeath.bots.simple import RandomBot, random_action
from hotdeath.errors import IllegalActionError, OptionError
from hotdeath.rl.aec import _NSEAT, raw_env
from hotdeath.rl.spaces import HISTORY
from hotdeath.state import GAME_OVER, RESPONSE, GameState
from hotdeath.variants import BASIC_VARIANT

EPISODES: Final = ("game", "hand")
"""The episode kinds (``episode=`` argument)."""

Obs = dict[str, np.ndarray[Any, Any]]
_CACHE_LIMIT: Final = 50_000
_OPENING: Final = 1 << 40
"""Taken off an episode's step count while the bots open it (no truncation before the
learner's first decision) when ``max_steps`` is None."""
OPENING_LIMIT: Final = 10_000
"""The most bot decisions an episode's opening may take (or ``max_steps`` when that is
larger): a game whose bots take more before the learner can move (an ejected learner
waiting while two random bots lock a hand) is dropped and a new one dealt."""
_NO_RNG: Final = random.Random(0)
"""Stands in the learner's seat of a table's bot generators (never drawn from)."""
_CHECKED_KINDS: Final = frozenset({A.UNO, A.CATCH})
"""Kinds the AEC environment offers only when worth it (``worth_offering``)."""


class _Table:
    """One sub-environment: an AEC env whose buffers are rows of the batch, and its bots.

    ``direct`` says how the learner's pending decision was built: True by the vector
    environment itself (an own turn with no window open: ``legal`` and ``codes``, the
    state's legal actions and their flat mask indices), False by the AEC environment
    (``env._slot_act``: windows, Throwdown throws, the first decision of an episode).
    ``tbuf`` is the table's template row: zeros but for the learner's hand counts (kept
    equal to the counts of ``snap``, the hand as last encoded, from what changed) and the
    two entries every direct decision sets (own turn, the learner to act).
    """

    __slots__ = ("bots", "cache", "caches", "codes", "direct", "done", "env", "fast", "get",
                 "hand_mark", "hix", "learner", "legal", "off", "rng", "rngs", "row", "saved",
                 "seat", "snap", "spare", "st", "steps", "tbuf")

    def __init__(self, e: raw_env, bots: list[Bot], seat: int | None, rng: random.Random,
                 off: int, row: memoryview[float], tbuf: memoryview[float]) -> None:
        self.env = e
        self.st: GameState = e.state
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
        self.direct = False
        self.legal: Sequence[Action] = ()
        self.codes: list[int] = []
        self.caches: list[dict[Action, int]] = [{} for _ in range(e.n)]
        """Per learner seat: engine action -> its flat mask index (see ``_codes``)."""
        self.cache = self.caches[self.learner]
        self.get: Callable[[Action], int] = self.cache.__getitem__
        self.off = off
        self.row = row
        self.tbuf = tbuf
        self.snap: list[int] = []
        self.hix: list[int] = e._hand_ix
        self.saved: bytes | None = None
        """The mask of the decision a hand episode stopped at (truncated, or a masked slot
        taken): the next episode goes on from it."""


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
        self._tmpl = np.zeros((num_envs, size), np.float32)
        # the masks are the first num_envs * k bytes of a flat buffer with one spare byte at
        # the end: the index that actions without a slot map to (see _codes)
        self._mask_flat = np.zeros(num_envs * k + 1, np.int8)
        self._mask = self._mask_flat[: num_envs * k].reshape(num_envs, k)
        self._prev_mask = np.zeros((num_envs, k), np.int8)
        self._no_slot = num_envs * k
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._hands = np.zeros(num_envs, np.int64)
        # item stores into these views cost less than into the arrays
        self._hands_mv: memoryview[Any] = memoryview(cast(Any, self._hands))
        self._cap = max_steps if max_steps is not None else 1 << 62
        # an opening starts its step count here: it reaches the cap after the opening limit
        self._opening_start = (-_OPENING if max_steps is None
                               else max_steps - max(max_steps, OPENING_LIMIT))
        self._hand_episode = episode == "hand"
        self._mask_mv: memoryview[Any] = memoryview(cast(Any, self._mask_flat)).cast("B")
        self._tables: list[_Table] = []
        for i in range(num_envs):
            e = first if i == 0 else raw_env(variant, preset, options, n, None, reward, None)
            if i:
                e.share_tables(first)
            row = memoryview(self._obs[i]).cast("B").cast("f")
            e.bind_buffers(row, memoryview(self._mask[i]).cast("B"))
            bots = [make_bot(s) for s in specs]
            self._tmpl[i, first._o_decision] = 1.0  # a direct decision is an own turn
            self._tmpl[i, first._o_seats + 5] = 1.0  # of the learner (row 0: the observer)
            tbuf = memoryview(self._tmpl[i]).cast("B").cast("f")
            self._tables.append(_Table(e, bots, seat, random.Random(i), i * k, row, tbuf))
        self._started = False
        st = first.state
        cls = type(st)
        lay = self.obs_layout
        self._hand_lo, nf = lay.section("hand")
        self._hand_zeros = memoryview(bytes(4 * nf)).cast("f")
        # which of the state's observation methods a variant overrides (the base ones
        # return constants the encoder need not ask for)
        self._infections = cls.infection_counts is not GameState.infection_counts
        self._sixty_nine = cls.window_seat is not GameState.window_seat
        self._buried = cls.buried_cards is not GameState.buried_cards
        self._hand_number = cls.current_hand is not GameState.current_hand
        self._throws = self.layout.throws
        self._rare = self._infections or self._sixty_nine
        self._four = HISTORY == 4 and not self._buried
        self._rot = first._rot
        o = first._o_seats
        self._dealer_ix = [[o + 6 + ((d - p) % n) * _NSEAT for d in range(n)] for p in range(n)]
        self._tabs = (first._top_ix, first._hist_ix, first._o_color, first._o_cw,
                      first._o_phase, first._o_drew, first._o_table)

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
        slots: list[int] = acts.tolist()
        k = self.layout.size
        if self.illegal == "raise":  # refuse before any table moves
            for i, t in enumerate(self._tables):
                slot = slots[i]
                if not t.done and not (0 <= slot < k and self._mask[i, slot]):
                    self._sync(t)
                    t.env._illegal(slot)
        self._prev_mask[...] = self._mask  # (an illegal action keeps its decision's mask)
        self._mask_flat.fill(0)
        rewards = self._rewards
        term = self._terminated
        trunc = self._truncated
        rewards.fill(0.0)  # what a step does not set: no reward, not over
        term.fill(False)
        trunc.fill(False)
        nos = self._no_slot
        illegal: list[int] = []
        for i, t in enumerate(self._tables):
            if t.done:
                if self.episode == "game" or t.st.phase == GAME_OVER:
                    self._new_game(t)
                self._begin(i, t)
                continue
            slot = slots[i]
            if t.direct:
                codes = t.codes
                c = t.off + slot
                try:
                    j = codes.index(c)  # (another table's index or the spare: not legal)
                except ValueError:
                    j = -1
                if j < 0 or c == nos:
                    illegal.append(i)
                    self._illegal_end(i, t)
                    continue
                a = t.legal[j]
                if not a.uno and codes.count(c) > 1:
                    a = self._uno_twin(t, j)
                p = t.learner
                t.st.step(a, p)
                kind = a.kind
                if kind in (PLAY, JUMP):  # the hand as the engine leaves it
                    snap = t.snap
                    tb = t.tbuf
                    hix = t.hix
                    for f in a.cards:
                        snap.remove(f)
                        tb[hix[f]] -= 1.0
                elif kind == DRAW:  # the cards drawn, if the engine appended them (the
                    snap = t.snap   # encoder checks the hand against snap in any case)
                    new = t.st.hands[p][len(snap):]
                    if new:
                        tb = t.tbuf
                        hix = t.hix
                        for f in new:
                            tb[hix[f]] += 1.0
                        snap += new
                t.steps += 1
                self._advance(i, t)
                continue
            e = t.env
            if slot not in e._slots:
                illegal.append(i)
                self._illegal_end(i, t)
                continue
            act = e._slot_act.get(slot)
            t.steps += 1
            if act is not None:  # an engine action: the direct path takes it from here
                t.st.step(act, t.learner)
                self._advance(i, t)
                continue
            e.step(slot)  # "ignore" in a window, or one card of a Throwdown throw
            if not self._ended(t):
                self._run_bots(t)
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
        """Sub-environment ``i``'s AEC environment (its state, layouts and helpers).

        Brought up to date with the table first (the vector environment steps the game
        itself where it can), so its ``legal_moves()``, ``action_of()``, ``acting_seat`` and
        ``observe()`` describe the decision the batch shows.  ``observe()`` writes into the
        table's row of the observation buffer.  Step the table through the vector
        environment only: a move made on the sub-environment is not seen by the batch.
        """
        t = self._tables[i]
        self._sync(t)
        return t.env

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
        # the bots' generators (seat_rngs's; the learner's seat gets none of its own)
        t.rngs = [seat_rng(game_seed, s) if s != t.learner else _NO_RNG for s in range(n)]
        t.env.set_bot_seats(frozenset(others))
        t.env._deal(game_seed)  # reset(seed=game_seed) less the AEC env's own seed sequence
        t.st = t.env.state
        t.direct = False
        t.saved = None
        t.cache = t.caches[t.learner]
        t.get = t.cache.__getitem__

    def _begin(self, i: int, t: _Table) -> None:
        """Start an episode of ``t``: bots play to the learner's first decision.

        A game the bots end first is followed by a new one; in hand episodes a hand the
        bots end first, by the next hand.  The bots' decisions count towards the episode's
        ``max_steps`` but never cut it before the learner has moved.  With ``max_steps``
        set, an opening of more than :data:`OPENING_LIMIT` bot decisions (or
        ``max_steps``, when larger) drops its game for a new one: the learner cannot move
        in it (ejected while the bots lock the hand) and nothing of its own has happened.
        """
        if t.saved is not None:  # a hand episode goes on from where the last one stopped
            if t.env._seat == t.learner and not t.env._over:  # at the learner's decision
                self._begin_aec(i, t)
                return
            t.saved = None
        start = self._opening_start
        for _ in range(100):
            t.steps = start
            t.hand_mark = t.st.last_hand
            t.done = False
            self._advance(i, t)
            if not t.done:
                break
            if t.st.phase == GAME_OVER or self._truncated[i]:
                self._new_game(t)
        else:
            raise RuntimeError("100 episodes in a row ended before the learner could move")
        t.steps -= start
        t.hand_mark = t.st.last_hand
        self._seats[i] = t.learner
        self._rewards[i] = 0.0
        self._terminated[i] = False
        self._truncated[i] = False

    def _begin_aec(self, i: int, t: _Table) -> None:
        """:meth:`_begin` through the AEC environment, from the decision in ``saved``."""
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
        if t.saved is not None:
            if t.steps == 0:  # nothing moved since the truncation: the same decision
                t.env._mask_bytes[:] = t.saved
            t.saved = None
        t.done = False
        t.direct = False
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

    def _reward(self, t: _Table) -> float:
        """The learner's reward for an episode that just ended (not truncated)."""
        st = t.st
        p = t.learner
        if self._hand_episode:
            last = st.last_hand
            if last is t.hand_mark or last is None:
                return 0.0  # the game stopped without a hand result
            w = last.winner
            if not isinstance(w, int) or w < 0:
                return 0.0  # a hand with no winner
            return 1.0 if p in st.team_of(w) else -1.0
        if st.phase == GAME_OVER and st.winners:
            return 1.0 if p in st.winners else -1.0
        return 0.0

    def _finish(self, i: int, t: _Table) -> None:
        """Record how sub-environment ``i``'s step ended and encode its learner's view.

        The AEC path: the AEC environment found the decision (windows, throws).
        """
        e = t.env
        over = e._over or (self.episode == "hand" and e.state.last_hand is not t.hand_mark)
        cut = not over and self.max_steps is not None and t.steps >= self.max_steps
        t.direct = False
        self._terminated[i] = over
        self._truncated[i] = cut
        t.done = over or cut
        self._rewards[i] = self._reward(t) if over else 0.0
        self._hands[i] = e.state.current_hand()
        e.agent_selection = e.possible_agents[e._seat]
        e._encode(t.learner)
        if t.done:
            t.saved = bytes(e._mask_bytes) if cut else None
            self._mask[i] = 0

    def _end(self, i: int, t: _Table) -> None:
        """The direct path ended ``t``'s episode (over or truncated).

        The table goes back to the AEC environment as that would have found it, and the
        last observation is encoded.
        """
        e = t.env
        e._asked = []
        e._prefix = []
        if t.st.phase == GAME_OVER:
            if not e._over:
                e._game_over()
        else:
            e._decide()
        e._last_hand = t.st.last_hand
        self._finish(i, t)

    def _advance(self, i: int, t: _Table) -> None:
        """After the learner's engine action: bots play, then its next decision is built.

        (Or the episode ends.)  The direct path asks no window holder: it runs only while
        no window can be open (``state.uno_open`` empty and ``state._has_windows()``
        false), when the AEC environment would offer the decision to the current player;
        when a window may be open it hands the table to the AEC environment
        (:meth:`_run_bots`).
        """
        st = t.st
        p = t.learner
        hand_episode = self._hand_episode
        cap = self._cap
        fast = t.fast
        rngs = t.rngs
        while True:
            if st.phase == GAME_OVER:
                self._end(i, t)
                return
            if hand_episode and (st._hand_later is not None or st._last_hand is not t.hand_mark):
                self._end(i, t)
                return
            if t.steps >= cap:
                self._end(i, t)
                return
            if st.uno_open or (st._windows and st._has_windows()):
                e = t.env
                e._asked = []
                e._prefix = []
                e._decide()
                self._run_bots(t)
                self._finish(i, t)
                return
            s = st.turn
            if s == p:
                break
            if fast[s]:
                # the random bot needs only the legal actions: the same choice from the same
                # generator as RandomBot.choose on the seat's view, without building the view
                st.step(random_action(st.legal_actions(s), rngs[s]), s)
            else:
                bot = t.bots[s]
                choice = bot.choose(st.view(s), rngs[s])
                if choice is None:
                    raise RuntimeError(f"bot {bot.name!r} returned no action for its turn")
                st.step(choice, s)
            t.steps += 1
        # the learner's own turn, no window: its mask and observation
        codes: list[int] | None = None
        if not self._throws:  # (Throwdown's plays are built card by card: the AEC env's)
            legal = st.legal_actions(p)
            try:
                codes = list(map(t.get, legal))
            except KeyError:  # an action not seen yet
                codes = self._codes(t, legal)
        if codes is None:  # slots the AEC environment must build
            e = t.env
            e._asked = []
            e._prefix = []
            e._offer(p, False)
            e.agent_selection = e.possible_agents[p]
            t.direct = False
            self._terminated[i] = False
            self._truncated[i] = False
            self._rewards[i] = 0.0
            self._hands[i] = st.current_hand()
            e._encode(p)
            return
        t.legal = legal
        t.codes = codes
        mf = self._mask_mv
        for c in codes:
            mf[c] = 1
        t.direct = True
        hand_no = st.current_hand() if self._hand_number else st.hand_no
        self._hands_mv[i] = hand_no
        # the observation: what raw_env._encode writes for a seat that is to act, with no
        # window, no throw in progress and no Uno window open (see _sync_hand for the hand)
        hand = st.hands[p]
        if hand != t.snap:
            self._sync_hand(t, hand)
        b = t.row
        b[:] = t.tbuf  # zeros, the hand counts, own turn, the learner to act: one copy
        top_ix, hist_ix, o_color, o_cw, o_phase, o_drew, o_table = self._tabs
        disc = st.discard
        if disc:
            b[top_ix[disc[-1]]] = 1.0
            under = len(disc) - 1
            if under >= 4 and self._four:  # the usual case, unrolled
                h1, h2, h3, h4 = hist_ix
                b[h1[disc[-2]]] = 1.0
                b[h2[disc[-3]]] = 1.0
                b[h3[disc[-4]]] = 1.0
                b[h4[disc[-5]]] = 1.0
            elif under:
                if self._buried:
                    under -= st.buried_cards()
                k = -1
                for ix in hist_ix[:under]:
                    k -= 1
                    b[ix[disc[k]]] = 1.0
        c = st.color
        if c >= 0:
            b[o_color + c] = 1.0
        if st.direction == 1:
            b[o_cw] = 1.0
        phase = st.phase
        b[o_phase + phase] = 1.0
        if st.drew:
            b[o_drew] = 1.0
        hands = st.hands
        active = st.active
        scores = st.scores
        revealed = st.revealed
        for s, base in self._rot[p]:
            b[base] = len(hands[s])
            if active[s]:
                b[base + 1] = 1.0
                if revealed[s]:
                    t.env._encode_revealed(p, s, base)
            b[base + 3] = scores[s]
        b[self._dealer_ix[p][st.dealer]] = 1.0
        if phase == RESPONSE or self._rare:
            self._encode_rare(t, phase)
        b[o_table] = len(st.draw_pile)
        b[o_table + 1] = hand_no
        b[o_table + 2] = st.hand_size

    def _encode_rare(self, t: _Table, phase: int) -> None:
        """Sections most positions leave at zero: infections, a 69, a pending attack."""
        st = t.st
        p = t.learner
        e = t.env
        b = t.row
        n = self.players
        o = e._o_seats
        if self._infections:
            infections = st.infection_counts()
            if any(infections):
                for s in range(n):
                    b[o + 4 + ((s - p) % n) * _NSEAT] = infections[s]
        if self._sixty_nine:
            sn = st.window_seat()
            if sn >= 0:
                b[e._o_sn + (sn - p) % n] = 1.0
        if phase == RESPONSE:
            pending = st.pending()
            if pending is not None:
                e._encode_attack(pending, p)

    def _codes(self, t: _Table, legal: Sequence[Action]) -> list[int] | None:
        """Flat mask indices of the learner's ``legal`` actions, filling the cache.

        An action without a slot maps to the spare byte after the masks; None when an
        action needs the AEC environment's judgement (a window action).
        """
        cache = t.cache
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        p = t.learner
        lay = self.layout
        out: list[int] = []
        for a in legal:
            code = cache.get(a)
            if code is None:
                if a.kind in _CHECKED_KINDS:
                    return None
                slot = lay.slot_of(a, p)
                code = t.off + slot if slot >= 0 else self._no_slot
                cache[a] = code
            out.append(code)
        return out

    def _uno_twin(self, t: _Table, j: int) -> Action:
        """The action of a slot that several actions share: the one with the Uno call."""
        codes = t.codes
        code = codes[j]
        a = t.legal[j]
        for jj in range(j + 1, len(codes)):
            if codes[jj] == code and t.legal[jj].uno:
                a = t.legal[jj]
        return a

    def _sync_hand(self, t: _Table, hand: list[int]) -> None:
        """Bring the template's hand counts to ``hand`` (cards added, or a recount)."""
        snap = t.snap
        tb = t.tbuf
        hix = t.hix
        ns = len(snap)
        if len(hand) > ns and hand[:ns] == snap:  # cards drawn
            new = hand[ns:]
            for f in new:
                tb[hix[f]] += 1.0
            snap += new
            return
        lo = self._hand_lo
        tb[lo: lo + len(self._hand_zeros)] = self._hand_zeros
        for f in hand:
            tb[hix[f]] += 1.0
        t.snap = list(hand)

    def _sync(self, t: _Table) -> None:
        """Bring the AEC environment of ``t`` up to the decision the direct path built."""
        if t.direct and not t.done:
            e = t.env
            e._asked = []
            e._prefix = []
            e._offer(t.learner, False)
            e.agent_selection = e.possible_agents[t.learner]

    def _illegal_end(self, i: int, t: _Table) -> None:
        """A masked slot ended the episode.

        The decision stays: a hand episode goes on from it, with its mask (``saved``).
        """
        self._sync(t)
        t.saved = bytes(self._prev_mask[i])
        t.done = True
        self._rewards[i] = -1.0
        self._terminated[i] = True
        self._truncated[i] = False
        self._mask[i] = 0

    def _run_bots(self, t: _Table) -> None:
        """Bots decide until the learner must (or the episode ends), through the AEC env."""
        e = t.env
        learner = t.learner
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
                choice = random_action(st.legal_actions(s), rngs[s]) if s == st.turn else None
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

    def _out(self) -> Obs:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        return {"seat": self._seats.copy(), "_seat": every, "hand": self._hands.copy(),
                "_hand": every.copy()}
