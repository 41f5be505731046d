"""Self-play training of the ``neural`` bot: deep Monte Carlo over the AEC environments.

The learner is an action-value network ``Q(observation) -> one value per action slot``
(:class:`hotdeath.bots.neural.Model`), regressed on *final returns*: every decision a
learner seat made in a hand is labelled with what the hand brought that seat against the
table (Hot Death, lowest total wins: the mean points of the other seats less its own;
standard Uno: its points less the others' mean), in hundreds of points.  Acting greedily
on that value with a little exploration (epsilon-greedy) and evaluating the new policy
again is policy iteration by Monte Carlo, the method of DouZero (Zha et al., 2021).

One *iteration*: ``tables`` tables each play one game (``hands`` hands at most) with the
network of the moment in the learner seats, then the learner takes ``epochs`` passes of
Adam steps over the decisions they made.  Seats are filled per game: with probability
``sparring`` one learner against the ladder's bots (``heuristic:strong`` and
``heuristic:expert``), otherwise every seat the learner, each seat but one replaced with
probability ``past`` by one of its past selves (snapshots of earlier iterations).  The
first ``warm`` iterations play the learner seats with ``heuristic:expert`` (with the same
exploration): the network first learns the value of the expert's play, then improves on
it.

Every table's game follows from ``(seed, iteration, table)`` alone, so an iteration is a
pure function of the network, the snapshots and that triple: the tables may be played in
this process, in a process pool (``backend="process"``, ``workers`` > 1) or as Ray tasks
(``backend="ray"``) with the same result, and a run resumes from its checkpoint exactly as
if it had not stopped.  The actors need numpy only (the network is evaluated with
:meth:`Model.values`'s arithmetic); the learner uses JAX and Optax (the ``train`` extra).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import resource
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from hotdeath import __version__
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import seat_rng, worth_offering
from hotdeath.bots.neural import Model, pick_slot
from hotdeath.errors import HotDeathError
from hotdeath.rl.aec import raw_env
from hotdeath.variants import DEFAULT_VARIANT, get_variant

FORMAT: Final = "hotdeath-train/1"
"""The ``format`` of a run's checkpoint header."""

BACKENDS: Final = ("process", "ray")
TARGETS: Final = ("branch", "played")
ROLLOUTS: Final = ("self", "expert")

F32 = npt.NDArray[np.float32]
Params = list[tuple[F32, F32]]

_LEARNER: Final = 0
_PAST: Final = 1
_BOT: Final = 2


class TrainingError(HotDeathError):
    """A training run that cannot go on as asked (a bad setting, a checkpoint that differs)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.code, self.message))


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run's result (the checkpoint records it).

    The number of iterations is not part of it: a run with more iterations extends one
    with fewer.  Sizes are per iteration.
    """

    variant: str = DEFAULT_VARIANT
    players: int = 4
    preset: str = ""
    seed: int = 0
    tables: int = 16
    """Games per iteration (each table plays one game)."""
    hands: int = 0
    """Hands per game at most (0: the whole game)."""
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    batch: int = 512
    epochs: int = 2
    """Passes of the learner over each iteration's decisions."""
    targets: str = "branch"
    """``branch``: at a learner decision every legal slot is valued by playing the hand on
    from a copy of the table (the same cards to come and the same dice for every slot);
    ``played``: only the slot played, by the hand's result (plain deep Monte Carlo)."""
    branch: float = 1.0
    """With ``targets="branch"``: the share of learner decisions that are branched."""
    unbranched: bool = False
    """With ``targets="branch"`` and ``branch`` < 1: the decisions that are not branched
    are kept too, with no value, for the imitation head alone (they cost one expert move
    each instead of a branch); False: they are dropped."""
    playouts: int = 1
    """With ``targets="branch"``: playouts per legal slot, their returns averaged.  The first
    plays the table's own cards to come; each further one reshuffles the draw pile (and
    the table's shuffles and dice) from a seed of its own, the same way for every slot, so
    the slots still meet the same luck within a playout and the noise of a value falls as
    the square root of the playouts (the cost grows with them)."""
    rollout: str = "self"
    """Who plays the network's seats in a branch: ``self`` (the network: policy
    iteration) or ``expert`` (``heuristic:expert``: the values are those of one move
    followed by the expert's play, cheaper and steadier while the network is young)."""
    prior: float = 0.05
    """Weight of the imitation head in the score the learner plays by: ``Q + prior·logit``
    (``logit``: the network's imitation of ``heuristic:expert``); 0: values alone."""
    margin: float = 0.0
    """The learner plays the slot of best score only if it leads the imitation's favourite
    by more than this (:func:`hotdeath.bots.neural.pick_slot`); 0: the best score."""
    imitation: float = 0.1
    """Weight of the imitation loss (cross-entropy on the expert's slot) in the total."""
    huber: float = 1.0
    """The Huber loss's threshold, in the values' units: errors beyond it count linearly
    (a large one fits the mean of heavy-tailed returns; a small one leans to the median)."""
    replay: int = 1
    """The learner's minibatches are drawn from the decisions of the last ``replay``
    iterations (1: the iteration's own); each iteration takes ``epochs`` passes' worth of
    its own decisions in minibatches."""
    centered: bool = False
    """Fit the branch values of a decision as their mean and their differences from it
    (the luck the slots share, the same cards and dice, drops out of the differences);
    False: each value on its own."""
    epsilon: float = 0.02
    """Exploration: the chance that a learner decision is a uniformly random legal slot."""
    warm: int = 2
    """Iterations whose learner seats play ``heuristic:expert`` (value of the expert)."""
    sparring: float = 0.5
    """Share of the games with one learner seat against the ladder's bots."""
    sparring_bots: tuple[str, ...] = ("heuristic:strong", "heuristic:expert")
    past: float = 0.3
    """In self-play games, the chance that a seat is played by a past self."""
    pool: int = 6
    """Past selves kept (a snapshot every ``snapshot_every`` iterations, oldest dropped)."""
    snapshot_every: int = 5
    scale: float = 100.0
    """Points per unit of return."""
    max_hand_moves: int = 4000
    """A hand longer than this (a two-survivor lock) is dropped and the game abandoned."""
    rollout_moves: int = 600
    """A branch whose hand runs longer than this drops the decision's values."""

    def check(self) -> None:
        """``TrainingError`` (``bad_option``) naming the first setting out of range."""
        v = get_variant(self.variant)
        opts = v.resolve_options(self.preset or None, None)
        v.check_players(self.players, opts)
        if get_variant(self.variant).kit.throws:
            raise TrainingError("bad_option", f"{self.variant}: plays built card by card "
                                "(Throwdown) are not supported by the neural bot")
        checks = [
            ("seed", self.seed >= 0), ("tables", self.tables >= 1), ("hands", self.hands >= 0),
            ("hidden", bool(self.hidden) and all(h >= 1 for h in self.hidden)),
            ("targets", self.targets in TARGETS), ("branch", 0 < self.branch <= 1),
            ("rollout", self.rollout in ROLLOUTS), ("playouts", self.playouts >= 1),
            ("prior", self.prior >= 0), ("imitation", self.imitation >= 0),
            ("margin", self.margin >= 0), ("huber", self.huber > 0),
            ("replay", self.replay >= 1),
            ("lr", 0 < self.lr < 1), ("batch", self.batch >= 1), ("epochs", self.epochs >= 1),
            ("epsilon", 0 <= self.epsilon <= 1), ("warm", self.warm >= 0),
            ("sparring", 0 <= self.sparring <= 1), ("past", 0 <= self.past <= 1),
            ("pool", self.pool >= 0), ("snapshot_every", self.snapshot_every >= 1),
            ("scale", self.scale > 0), ("max_hand_moves", self.max_hand_moves >= 10),
            ("rollout_moves", self.rollout_moves >= 10),
        ]
        for name, ok in checks:
            if not ok:
                raise TrainingError("bad_option", f"{name} is out of range: "
                                    f"{getattr(self, name)!r}")
        for spec in self.sparring_bots:
            try:
                make_bot(spec)
            except ValueError as e:
                raise TrainingError("bad_option", f"sparring bot {spec!r}: {e}") from None

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values."""
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        d["sparring_bots"] = list(self.sparring_bots)
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainConfig:
        """The settings :meth:`to_json` wrote."""
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in data.items() if k in known}
        d["hidden"] = tuple(d.get("hidden", ()))
        d["sparring_bots"] = tuple(d.get("sparring_bots", ()))
        return cls(**d)


# --------------------------------------------------------------------------- the network


def forward(params: Params, x: F32) -> F32:
    """The network on already transformed inputs (``sign(x)·log(1+|x|)``), numpy."""
    last = len(params) - 1
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < last:
            np.maximum(x, 0.0, out=x)
    return x


def scores(out: F32, prior: float) -> F32:
    """What the learner plays by, from the network's two heads: ``Q + prior·logit``."""
    k = out.shape[-1] // 2
    res: F32 = out[..., :k] + prior * out[..., k:]
    return res


def squash(obs: F32) -> F32:
    """The input transform of the network (raw counts and points to ``sign·log1p``)."""
    out: F32 = np.sign(obs) * np.log1p(np.abs(obs))
    return out


def init_params(sizes: Sequence[int], seed: int) -> Params:
    """He-initialised layers of ``sizes`` (inputs, hidden..., outputs).

    The output layer starts at zero, so every first estimate is 0 (an even hand).
    """
    rng = np.random.default_rng([seed, 7])
    out: Params = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        if i == len(sizes) - 2:
            w = np.zeros((a, b), np.float32)
        else:
            w = (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
        out.append((w, np.zeros(b, np.float32)))
    return out


# --------------------------------------------------------------------------- the actors


@dataclass
class Batch:
    """The decisions of the learner seats in one iteration, and what it cost."""

    obs: npt.NDArray[np.float16]
    targets: F32
    """Per decision, the return of each slot that was valued (0 elsewhere)."""
    mask: npt.NDArray[np.uint8]
    """1 where ``targets`` holds a value."""
    legal: npt.NDArray[np.uint8]
    """1 for each legal slot of the decision."""
    expert: npt.NDArray[np.int16]
    """The slot ``heuristic:expert`` plays there (the imitation target)."""
    steps: int = 0
    """Decisions of every seat (the environment steps)."""
    hands: int = 0
    dropped: int = 0
    """Hands dropped at ``max_hand_moves``."""
    cpu: float = 0.0
    sparring_return: float = 0.0
    """Sum of the learner's returns at the tables with bots (one learner seat)."""
    sparring_hands: int = 0

    @property
    def decisions(self) -> int:
        """The learner decisions in the batch."""
        return len(self.obs)

    _ARRAYS: ClassVar[tuple[str, ...]] = ("obs", "targets", "mask", "legal", "expert")

    def save(self, path: Path) -> None:
        """Write the decisions (not the counters) as a compressed ``.npz`` file."""
        tmp = path.with_suffix(".tmp.npz")
        with tmp.open("wb") as f:
            np.savez_compressed(f, **{k: getattr(self, k) for k in self._ARRAYS})
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Batch:
        """The decisions :meth:`save` wrote (``bad_checkpoint`` if the file is not one)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                return cls(*(z[k] for k in cls._ARRAYS))
        except (OSError, KeyError, ValueError) as e:
            raise TrainingError("bad_checkpoint", f"{str(path)!r} is not a run's data: "
                                f"{e}") from None

    @classmethod
    def join(cls, parts: Sequence[Batch]) -> Batch:
        """The batches of several workers, one after the other."""
        return cls(
            np.concatenate([p.obs for p in parts]), np.concatenate([p.targets for p in parts]),
            np.concatenate([p.mask for p in parts]), np.concatenate([p.legal for p in parts]),
            np.concatenate([p.expert for p in parts]), sum(p.steps for p in parts),
            sum(p.hands for p in parts), sum(p.dropped for p in parts),
            sum(p.cpu for p in parts), sum(p.sparring_return for p in parts),
            sum(p.sparring_hands for p in parts),
        )


@dataclass
class _Table:
    env: raw_env
    roles: list[int]
    nets: list[int]
    """Per seat: -1 the current network, k the past self ``k`` (for network seats)."""
    bots: dict[int, Bot]
    rngs: list[random.Random]
    rng: random.Random
    sparring: bool
    mark: object = None
    hands: int = 0
    moves: int = 0
    pending: list[tuple[int, Any, int, F32 | None, list[int], int]] = field(
        default_factory=list)
    """Learner decisions of the hand: seat, observation, slot played, branch values, legal
    slots, the expert's slot."""
    done: bool = False


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class _Actor:
    """Plays the tables of one iteration and returns the learner's decisions."""

    def __init__(self, cfg: TrainConfig, params: Params, past: Sequence[Params],
                 iteration: int) -> None:
        self.cfg = cfg
        self.params = params
        self.past = list(past)
        self.iteration = iteration
        self.warm = iteration < cfg.warm
        self.expert = make_bot("heuristic:expert")
        v = get_variant(cfg.variant)
        goal = v.goal(v.resolve_options(cfg.preset or None, None))
        self.sign = -1.0 if goal.lowest_wins else 1.0
        self.points = goal.lowest_wins is not None
        self.obs: list[Any] = []
        self.targets: list[F32] = []
        self.masks: list[Any] = []
        self.legal: list[Any] = []
        self.expert_slots: list[int] = []
        self.steps = 0
        self.scratch = raw_env(cfg.variant, cfg.preset or None, None, cfg.players, None,
                               "hand", None)
        self.scratch._deal(0)
        self.size = self.scratch.obs_layout.size
        self.slots = self.scratch.layout.size
        self.hands = 0
        self.dropped = 0
        self.spar_sum = 0.0
        self.spar_hands = 0

    def _table(self, index: int) -> _Table:
        cfg = self.cfg
        rng = random.Random(f"hotdeath-train:{cfg.seed}:{self.iteration}:{index}")
        env = raw_env(cfg.variant, cfg.preset or None, None, cfg.players, None, "hand", None)
        n = cfg.players
        game_seed = rng.getrandbits(62)
        sparring = rng.random() < cfg.sparring
        roles = [_LEARNER] * n
        nets = [-1] * n
        bots: dict[int, Bot] = {}
        if sparring:
            me = rng.randrange(n)
            for s in range(n):
                if s != me:
                    roles[s] = _BOT
                    bots[s] = make_bot(rng.choice(cfg.sparring_bots))
        elif self.past:
            keep = rng.randrange(n)
            for s in range(n):
                if s != keep and rng.random() < cfg.past:
                    roles[s] = _PAST
                    nets[s] = rng.randrange(len(self.past))
        env.set_bot_seats(frozenset(bots))
        env._deal(game_seed)
        rngs = [seat_rng(game_seed, s) for s in range(n)]
        t = _Table(env, roles, nets, bots, rngs, rng, sparring)
        t.mark = env.state.last_hand
        return t

    def _returns(self, env: raw_env) -> list[float]:
        """Each seat's return of the hand that just ended at ``env``'s table."""
        last = env.state.last_hand
        n = self.cfg.players
        ret = [0.0] * n
        if last is not None:
            pts = last.points()
            if pts and self.points:
                total = sum(pts)
                for s in range(n):
                    others = (total - pts[s]) / (n - 1)
                    ret[s] = self.sign * (pts[s] - others) / self.cfg.scale
            elif last.winner >= 0:
                team = env.state.team_of(last.winner)
                ret = [1.0 if s in team else -1.0 for s in range(n)]
        return ret

    def _record(self, obs: Any, slot: int, value: float, values: F32 | None,
                legal: list[int], expert: int, played: bool = True) -> None:
        """Keep a decision with its targets.

        The branch ``values``; without them ``value`` for the ``slot`` played
        (``played``) or no value at all (the imitation target alone).
        """
        mask = np.zeros(self.slots, np.uint8)
        lm = np.zeros(self.slots, np.uint8)
        lm[legal] = 1
        self.legal.append(lm)
        self.expert_slots.append(expert)
        if values is None:
            target = np.zeros(self.slots, np.float32)
            if played:
                target[slot] = value
                mask[slot] = 1
        else:
            valued = ~np.isnan(values)
            target = np.where(valued, values, 0.0).astype(np.float32)
            mask[valued] = 1
        self.obs.append(obs)
        self.targets.append(target)
        self.masks.append(mask)

    def _settle(self, t: _Table) -> None:
        """A hand ended: label the learner decisions made in it."""
        ret = self._returns(t.env)
        keep_all = self.cfg.targets == "played" or self.cfg.unbranched
        for seat, obs, slot, values, legal, expert in t.pending:
            if values is not None or keep_all:
                self._record(obs, slot, ret[seat], values, legal, expert,
                             self.cfg.targets == "played")
        if t.sparring:
            me = t.roles.index(_LEARNER)
            self.spar_sum += ret[me]
            self.spar_hands += 1
        t.pending = []
        self.hands += 1

    def _advance(self, t: _Table) -> int:
        """Play bots and forced moves until a network seat decides; return its seat.

        -1 when the table's game is over (or its hand cap is reached).
        """
        e = t.env
        cfg = self.cfg
        while True:
            st = e.state
            if st.last_hand is not t.mark:
                t.mark = st.last_hand
                self._settle(t)
                t.hands += 1
                t.moves = 0
                if cfg.hands and t.hands >= cfg.hands:
                    return -1
            if e._over:
                return -1
            if t.moves >= cfg.max_hand_moves:
                t.pending = []
                self.dropped += 1
                return -1
            s = e._seat
            role = t.roles[s]
            t.moves += 1
            self.steps += 1
            if role == _BOT:
                choice = t.bots[s].choose(st.view(s), t.rngs[s])
                if e._window and choice is not None and not worth_offering(st, s, choice):
                    choice = None
                e.play_engine_action(choice)
                continue
            slots = e._slots
            if len(slots) == 1:
                e.step(slots[0])
                continue
            if role == _LEARNER and self.warm:
                self._expert_move(t, s)
                continue
            return s

    def _expert_move(self, t: _Table, s: int) -> None:
        """A warm-up decision: the expert's move (or exploration), recorded."""
        e = t.env
        slots = e._slots
        expert = self._expert_slot(e, s, t.rngs[s])
        slot = t.rng.choice(slots) if t.rng.random() < self.cfg.epsilon else expert
        e._encode(s)
        obs = squash(e._obs).astype(np.float16)
        t.pending.append((s, obs, slot, self._maybe_branch(t, s), list(slots), expert))
        e.step(slot)

    def _expert_slot(self, e: raw_env, s: int, rng: random.Random) -> int:
        """The slot ``heuristic:expert`` takes at ``e``'s pending decision of seat ``s``."""
        slots = e._slots
        choice = self.expert.choose(e.state.view(s), rng)
        slot = e.layout.slot_of(choice, s) if choice is not None else -1
        if slot not in slots:
            slot = e._ignore_slot if e._window else slots[0]
        return slot

    def _maybe_branch(self, t: _Table, s: int) -> F32 | None:
        """The value of every legal slot of ``s``'s decision (NaN elsewhere), or None.

        Each slot is taken at a copy of the table and the hand played on to its end with
        the same cards to come and the same dice: the difference between two slots is
        not blurred by luck that both would have met.  With ``playouts`` above 1 each
        slot is played that many times, the cards to come reshuffled for each playout
        after the first (the same reshuffle for every slot), and the returns averaged.
        """
        cfg = self.cfg
        if cfg.targets != "branch" or (cfg.branch < 1 and t.rng.random() >= cfg.branch):
            return None
        e = t.env
        st = e.state
        sc = self.scratch
        sc.set_bot_seats(frozenset(t.bots))
        out = np.zeros(self.slots, np.float32)
        luck = [t.rng.getrandbits(62) for _ in range(cfg.playouts - 1)]
        for k in range(cfg.playouts):
            for slot in e._slots:
                sc.state = st.clone()
                rngs = self._luck(sc.state, t.rngs, luck[k - 1] if k else None)
                sc._reset_fields()
                sc._asked = list(e._asked)
                sc._seat = s
                sc._window = e._window
                act = e._slot_act.get(slot)
                if act is not None:
                    sc._apply(s, act)
                else:  # let the window go by
                    sc._asked.append(s)
                    sc._decide()
                ret = self._rollout(sc, t, rngs, st.last_hand)
                if ret is None:
                    return None
                out[slot] += ret[s]
        values = np.full(self.slots, np.nan, np.float32)
        legal = list(e._slots)
        values[legal] = out[legal] / cfg.playouts
        return values

    @staticmethod
    def _luck(state: Any, table_rngs: Sequence[random.Random],
              seed: int | None) -> list[random.Random]:
        """The dice of a branch at ``state``, a copy of the table's.

        Copies of the table's own (``seed`` None), or a playout's own luck: the draw pile
        reshuffled, the game's later shuffles and each seat's dice from ``seed``.
        """
        if seed is None:
            rngs = []
            for r in table_rngs:
                copy = random.Random()
                copy.setstate(r.getstate())
                rngs.append(copy)
            return rngs
        luck = random.Random(seed)
        luck.shuffle(state.draw_pile)
        state.rng.state = luck.getrandbits(64)
        return [random.Random(luck.getrandbits(64)) for _ in table_rngs]

    def _rollout(self, sc: raw_env, t: _Table, rngs: list[random.Random],
                 mark: object) -> list[float] | None:
        """Play the hand on at the scratch table with the table's players.

        The learner seats play greedily.  Every seat's return; None if the hand runs past
        ``rollout_moves`` (or ends the game without a hand result).
        """
        cfg = self.cfg
        for _ in range(cfg.rollout_moves):
            st = sc.state
            if st.last_hand is not mark:
                return self._returns(sc)
            if sc._over:
                break
            s = sc._seat
            role = t.roles[s]
            self.steps += 1
            if role == _BOT:
                choice = t.bots[s].choose(st.view(s), rngs[s])
                if sc._window and choice is not None and not worth_offering(st, s, choice):
                    choice = None
                sc.play_engine_action(choice)
                continue
            slots = sc._slots
            if len(slots) == 1:
                sc.step(slots[0])
                continue
            if (role == _LEARNER and self.warm) or cfg.rollout == "expert":
                sc.step(self._expert_slot(sc, s, rngs[s]))
                continue
            sc._encode(s)
            net = t.nets[s]
            params = self.params if net < 0 else self.past[net]
            out = forward(params, squash(sc._obs[None, :]))[0]
            sc.step(pick_slot(out, sorted(slots), cfg.prior, cfg.margin))
        return None

    def play(self, indices: Sequence[int]) -> Batch:
        """Play the games of tables ``indices`` to their end; the learner's decisions."""
        c0 = _cpu()
        tables = [self._table(i) for i in indices]
        size = self.size
        live = list(tables)
        eps = self.cfg.epsilon
        while live:
            waiting: list[tuple[_Table, int]] = []
            for t in live:
                s = self._advance(t)
                if s < 0:
                    t.done = True
                else:
                    waiting.append((t, s))
            live = [t for t, _ in waiting]
            if not waiting:
                break
            raw = np.empty((len(waiting), size), np.float32)
            for i, (t, s) in enumerate(waiting):
                t.env._encode(s)
                raw[i] = t.env._obs
            x = squash(raw)
            groups: dict[int, list[int]] = {}
            for i, (t, s) in enumerate(waiting):
                groups.setdefault(t.nets[s], []).append(i)
            values: dict[int, F32] = {}
            for net, rows in groups.items():
                params = self.params if net < 0 else self.past[net]
                out = forward(params, x[rows])
                for j, i in enumerate(rows):
                    values[i] = out[j]
            for i, (t, s) in enumerate(waiting):
                slots = t.env._slots
                learner = t.roles[s] == _LEARNER
                if learner and t.rng.random() < eps:
                    slot = t.rng.choice(slots)
                else:
                    slot = pick_slot(values[i], sorted(slots), self.cfg.prior,
                                     self.cfg.margin)
                if learner:
                    expert = self._expert_slot(t.env, s, t.rngs[s])
                    t.pending.append((s, x[i].astype(np.float16), slot,
                                      self._maybe_branch(t, s), list(slots), expert))
                t.env.step(slot)
        k = self.slots
        obs = np.stack(self.obs) if self.obs else np.zeros((0, self.size), np.float16)
        targets = np.stack(self.targets) if self.targets else np.zeros((0, k), np.float32)
        masks = np.stack(self.masks) if self.masks else np.zeros((0, k), np.uint8)
        legal = np.stack(self.legal) if self.legal else np.zeros((0, k), np.uint8)
        labels = np.asarray(self.expert_slots, np.int16)
        return Batch(obs, targets, masks, legal, labels, self.steps, self.hands,
                     self.dropped, _cpu() - c0, self.spar_sum, self.spar_hands)


def play_iteration(cfg: TrainConfig, params: Params, past: Sequence[Params], iteration: int,
                   indices: Sequence[int]) -> Batch:
    """Play the tables ``indices`` of ``iteration`` (a pure function of its arguments)."""
    return _Actor(cfg, params, past, iteration).play(indices)


def _play_task(args: tuple[TrainConfig, Params, list[Params], int, list[int]]) -> Batch:
    return play_iteration(*args)


# --------------------------------------------------------------------------- the learner


class Learner:
    """The network's parameters and Adam's state, updated with JAX (the ``train`` extra)."""

    def __init__(self, cfg: TrainConfig, sizes: Sequence[int]) -> None:
        try:
            import jax
            import jax.numpy as jnp
            import optax
        except ImportError:
            raise TrainingError("missing_extra", "training needs JAX and Optax: "
                                "pip install 'hotdeath[train]'") from None
        self.cfg = cfg
        self.jax = jax
        self.jnp = jnp
        self.opt = optax.chain(optax.clip_by_global_norm(10.0), optax.adam(cfg.lr))
        self.params: Any = [(jnp.asarray(w), jnp.asarray(b))
                            for w, b in init_params(sizes, cfg.seed)]
        self.state: Any = self.opt.init(self.params)
        opt = self.opt

        k = sizes[-1] // 2
        weight = cfg.imitation
        centered = cfg.centered
        delta = cfg.huber

        def loss(params: Any, x: Any, t: Any, m: Any, legal: Any, expert: Any) -> Any:
            h = x
            last = len(params) - 1
            for i, (w, b) in enumerate(params):
                h = h @ w + b
                if i < last:
                    h = jax.nn.relu(h)
            q, logits = h[:, :k], h[:, k:]
            if centered:
                count = jnp.maximum(m.sum(axis=1, keepdims=True), 1.0)
                qm = (q * m).sum(axis=1, keepdims=True) / count
                tm = (t * m).sum(axis=1, keepdims=True) / count
                err = optax.huber_loss(q - qm, t - tm, delta=delta) * m
                level = optax.huber_loss(qm[:, 0], tm[:, 0], delta=delta)
                rows = jnp.maximum((m.sum(axis=1) > 0).sum(), 1.0)
                value_loss = (err.sum() / jnp.maximum(m.sum(), 1.0)
                              + (level * (m.sum(axis=1) > 0)).sum() / rows)
            else:
                err = optax.huber_loss(q, t, delta=delta) * m
                value_loss = err.sum() / jnp.maximum(m.sum(), 1.0)
            logp = jax.nn.log_softmax(jnp.where(legal > 0, logits, -1e9), axis=1)
            ce = -jnp.take_along_axis(logp, expert[:, None], axis=1).mean()
            return value_loss + weight * ce

        def step(params: Any, state: Any, *data: Any) -> Any:
            value, grads = jax.value_and_grad(loss)(params, *data)
            updates, state = opt.update(grads, state, params)
            return optax.apply_updates(params, updates), state, value

        self._step = jax.jit(step)

    def numpy_params(self) -> Params:
        """The parameters as float32 numpy arrays (what the actors and the bot use)."""
        return [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in self.params]

    def fit(self, batch: Batch, rng: np.random.Generator,
            older: Sequence[Batch] = ()) -> float:
        """Minibatch Adam on ``batch`` (and the ``older`` iterations' decisions); the mean loss.

        Without ``older``: ``epochs`` passes over ``batch``.  With them: as many minibatches
        (``epochs`` passes' worth of ``batch``), each drawn at random from all the decisions.
        """
        n = batch.decisions
        bs = self.cfg.batch
        if n == 0:
            return 0.0
        losses = []
        if not older:
            for _ in range(self.cfg.epochs):
                order = rng.permutation(n)
                for lo in range(0, n - bs + 1 if n >= bs else 1, bs):
                    losses.append(self._fit_rows([(batch, order[lo:lo + bs])]))
        else:
            parts = [*older, batch]
            ends = np.cumsum([p.decisions for p in parts])
            total = int(ends[-1])
            steps = max(1, -(-self.cfg.epochs * n // bs))
            for _ in range(steps):
                ix = np.sort(rng.integers(0, total, min(bs, total)))
                which = np.searchsorted(ends, ix, side="right")
                rows = []
                for k in np.unique(which):
                    sel = ix[which == k] - (ends[k - 1] if k else 0)
                    rows.append((parts[int(k)], sel))
                losses.append(self._fit_rows(rows))
        return float(np.mean([float(v) for v in losses]))

    def _fit_rows(self, rows: Sequence[tuple[Batch, npt.NDArray[np.int64]]]) -> Any:
        """One Adam step on the given rows of the given batches; the loss (a JAX scalar)."""
        jnp = self.jnp

        def cat(name: str) -> Any:
            return np.concatenate([getattr(b, name)[ix] for b, ix in rows])

        x = jnp.asarray(cat("obs"), jnp.float32)
        t = jnp.asarray(cat("targets"), jnp.float32)
        m = jnp.asarray(cat("mask"), jnp.float32)
        legal = jnp.asarray(cat("legal"), jnp.float32)
        expert = jnp.asarray(cat("expert").astype(np.int32))
        self.params, self.state, value = self._step(self.params, self.state, x, t, m, legal,
                                                    expert)
        return value

    def leaves(self) -> list[npt.NDArray[Any]]:
        """The optimiser's state as a flat list of arrays (for the checkpoint)."""
        return [np.asarray(x) for x in self.jax.tree_util.tree_leaves(self.state)]

    def restore(self, params: Params, leaves: Sequence[npt.NDArray[Any]]) -> None:
        """Set the parameters and the optimiser's state from a checkpoint."""
        jnp = self.jnp
        self.params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in params]
        tree = self.jax.tree_util.tree_structure(self.state)
        self.state = self.jax.tree_util.tree_unflatten(
            tree, [jnp.asarray(x) for x in leaves])


# --------------------------------------------------------------------------- a run


@dataclass
class IterationLog:
    """One line of a run's log (``log.jsonl``)."""

    iteration: int
    decisions: int
    steps: int
    hands: int
    dropped: int
    loss: float
    sparring_return: float | None
    actor_cpu: float
    learner_cpu: float
    wall: float
    total_cpu: float
    total_steps: int


def _save_checkpoint(path: Path, cfg: TrainConfig, iteration: int, params: Params,
                     leaves: Sequence[npt.NDArray[Any]], pool: Sequence[Params],
                     totals: dict[str, float]) -> None:
    head = {"format": FORMAT, "version": __version__, "config": cfg.to_json(),
            "iteration": iteration, "pool": len(pool), "layers": len(params),
            "leaves": len(leaves), "totals": totals}
    arrays: dict[str, Any] = {"header": np.frombuffer(json.dumps(head).encode(), np.uint8)}
    for i, (w, b) in enumerate(params):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    for i, x in enumerate(leaves):
        arrays[f"opt{i}"] = x
    for k, snap in enumerate(pool):
        for i, (w, b) in enumerate(snap):
            arrays[f"pool{k}_w{i}"], arrays[f"pool{k}_b{i}"] = w, b
    tmp = path.with_suffix(".tmp.npz")
    with tmp.open("wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def _load_checkpoint(path: Path) -> tuple[dict[str, Any], Params, list[npt.NDArray[Any]],
                                          list[Params]]:
    try:
        with np.load(path, allow_pickle=False) as z:
            head = json.loads(bytes(z["header"]).decode())
            layers = int(head["layers"])
            params = [(z[f"w{i}"], z[f"b{i}"]) for i in range(layers)]
            leaves = [z[f"opt{i}"] for i in range(int(head["leaves"]))]
            pool = [[(z[f"pool{k}_w{i}"], z[f"pool{k}_b{i}"]) for i in range(layers)]
                    for k in range(int(head["pool"]))]
    except (OSError, KeyError, ValueError) as e:
        raise TrainingError("bad_checkpoint", f"{str(path)!r} is not a training checkpoint: "
                            f"{e}") from None
    if head.get("format") != FORMAT:
        raise TrainingError("bad_checkpoint", f"{str(path)!r} is not a {FORMAT} checkpoint")
    return head, params, leaves, pool


def _data_path(folder: Path, iteration: int) -> Path:
    """Where a run with ``replay`` > 1 keeps an iteration's decisions."""
    return folder / "data" / f"iter-{iteration:04d}.npz"


def _batches(cfg: TrainConfig, params: Params, pool: list[Params], iteration: int,
             workers: int, backend: str, address: str | None) -> Batch:
    """Play one iteration's tables on ``workers`` (this process, a pool or Ray)."""
    shards = [list(range(w, cfg.tables, workers)) for w in range(min(workers, cfg.tables))]
    if backend == "ray":
        parts = _ray_play(cfg, params, pool, iteration, shards, address)
    elif workers == 1:
        parts = [play_iteration(cfg, params, pool, iteration, shards[0])]
    else:
        parts = _pool_play(cfg, params, pool, iteration, shards)
    return Batch.join(parts)


_POOL: dict[str, Any] = {}


def _pool_play(cfg: TrainConfig, params: Params, pool: list[Params], iteration: int,
               shards: list[list[int]]) -> list[Batch]:
    import multiprocessing

    p = _POOL.get("pool")
    if p is None or _POOL.get("n") != len(shards):
        if p is not None:
            p.terminate()
        ctx = multiprocessing.get_context("spawn")
        p = _POOL["pool"] = ctx.Pool(len(shards))
        _POOL["n"] = len(shards)
    return list(p.map(_play_task, [(cfg, params, pool, iteration, s) for s in shards]))


def _ray_play(cfg: TrainConfig, params: Params, pool: list[Params], iteration: int,
              shards: list[list[int]], address: str | None) -> list[Batch]:
    try:
        import ray
    except ImportError:
        raise TrainingError("ray_missing", "the Ray backend needs Ray: "
                            "pip install 'hotdeath[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = _POOL.get("ray_task")
    if task is None:
        task = _POOL["ray_task"] = ray.remote(play_iteration)
    pref = ray.put(params)
    poolref = ray.put(pool)
    refs = [task.remote(cfg, pref, poolref, iteration, s) for s in shards]
    return list(ray.get(refs))


def shutdown() -> None:
    """Stop the worker pool a run with ``workers`` > 1 started (Ray is left running)."""
    p = _POOL.pop("pool", None)
    if p is not None:
        p.terminate()
        p.join()
    _POOL.pop("n", None)


def train(cfg: TrainConfig, iterations: int, out: str | Path, workers: int = 1,
          backend: str = "process", address: str | None = None,
          save_every: int = 10,
          progress: Callable[[IterationLog], None] | None = None,
          play_prior: float | None = None, play_margin: float | None = None) -> Model:
    """Run (or resume) ``cfg`` to ``iterations`` iterations in the folder ``out``.

    The folder holds ``checkpoint.npz`` (written after every iteration; a run started again
    with the same settings goes on from it, other settings are refused with
    ``resume_mismatch``), ``log.jsonl`` (one :class:`IterationLog` a line),
    ``models/iter-NNNN.npz`` every ``save_every`` iterations and ``model.npz``, the latest
    network as a :class:`~hotdeath.bots.neural.Model` (the bot's file format).
    ``play_prior`` and ``play_margin`` set the imitation weight and the margin the model
    files give the bot (default: the run's ``prior`` and ``margin``); they do not change
    the training.
    """
    cfg.check()
    if play_prior is not None and not (isinstance(play_prior, float | int) and play_prior >= 0):
        raise TrainingError("bad_option", f"play_prior must be >= 0, not {play_prior!r}")
    if play_margin is not None and not (isinstance(play_margin, float | int)
                                        and play_margin >= 0):
        raise TrainingError("bad_option", f"play_margin must be >= 0, not {play_margin!r}")
    if not isinstance(iterations, int) or iterations < 0:
        raise TrainingError("bad_option", f"iterations must be >= 0, not {iterations!r}")
    if backend not in BACKENDS:
        raise TrainingError("bad_backend", f"unknown backend {backend!r} (process, ray)")
    if not isinstance(workers, int) or workers < 1:
        raise TrainingError("bad_workers", f"workers must be >= 1, not {workers!r}")
    folder = Path(out)
    try:
        (folder / "models").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TrainingError("file_error", f"cannot write {str(folder)!r}: {e}") from None
    env = raw_env(cfg.variant, cfg.preset or None, None, cfg.players, None, "hand", None)
    sizes = [env.obs_layout.size, *cfg.hidden, 2 * env.layout.size]
    learner = Learner(cfg, sizes)
    pool: list[Params] = []
    start = 0
    totals = {"cpu": 0.0, "steps": 0.0, "wall": 0.0, "decisions": 0.0}
    ckpt = folder / "checkpoint.npz"
    if ckpt.exists():
        head, params, leaves, pool = _load_checkpoint(ckpt)
        old = TrainConfig.from_json(head["config"])
        if old != cfg:
            diffs = [f"{k}: {getattr(old, k)!r} there, {getattr(cfg, k)!r} now"
                     for k in (f.name for f in fields(cfg)) if getattr(old, k) != getattr(cfg, k)]
            raise TrainingError("resume_mismatch", f"{str(folder)!r} holds a run with other "
                                "settings (" + "; ".join(diffs) + ")")
        learner.restore(params, leaves)
        start = int(head["iteration"])
        totals = {k: float(v) for k, v in head["totals"].items()}
    recent = [Batch.load(_data_path(folder, k))
              for k in range(max(1, start - cfg.replay + 2), start + 1)]
    try:
        for it in range(start, iterations):
            w0 = time.perf_counter()
            params = learner.numpy_params()
            batch = _batches(cfg, params, pool, it, workers, backend, address)
            c0 = _cpu()
            rng = np.random.default_rng([cfg.seed, it, 11])
            loss = learner.fit(batch, rng, recent)
            lcpu = _cpu() - c0
            if cfg.replay > 1:
                (folder / "data").mkdir(exist_ok=True)
                batch.save(_data_path(folder, it + 1))
                recent = [*recent, batch][-(cfg.replay - 1):]
            params = learner.numpy_params()
            if cfg.pool and (it + 1) % cfg.snapshot_every == 0:
                pool = [*pool, params][-cfg.pool:]
            wall = time.perf_counter() - w0
            totals["cpu"] += batch.cpu + lcpu
            totals["steps"] += batch.steps
            totals["wall"] += wall
            totals["decisions"] += batch.decisions
            _save_checkpoint(ckpt, cfg, it + 1, params, learner.leaves(), pool, totals)
            model = to_model(cfg, params, it + 1, totals, play_prior, play_margin)
            model.save(folder / "model.npz")
            if (it + 1) % save_every == 0 or it + 1 == iterations:
                model.save(folder / "models" / f"iter-{it + 1:04d}.npz")
            line = IterationLog(
                it + 1, batch.decisions, batch.steps, batch.hands, batch.dropped,
                round(loss, 5),
                round(batch.sparring_return / batch.sparring_hands, 4)
                if batch.sparring_hands else None,
                round(batch.cpu, 2), round(lcpu, 2), round(wall, 2), round(totals["cpu"], 1),
                int(totals["steps"]))
            with (folder / "log.jsonl").open("a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(line)) + "\n")
            if progress is not None:
                progress(line)
    finally:
        shutdown()
    if ckpt.exists():
        head, params, _, _ = _load_checkpoint(ckpt)
        model = to_model(cfg, params, int(head["iteration"]), head["totals"], play_prior,
                         play_margin)
        model.save(folder / "model.npz")
        return model
    return to_model(cfg, learner.numpy_params(), 0, totals, play_prior, play_margin)


def to_model(cfg: TrainConfig, params: Params, iteration: int,
             totals: dict[str, float], play_prior: float | None = None,
             play_margin: float | None = None) -> Model:
    """The bot's model of a run's parameters, with the run's settings in its header."""
    prior = cfg.prior if play_prior is None else float(play_prior)
    margin = cfg.margin if play_margin is None else float(play_margin)
    meta = {"prior": prior, "margin": margin,
            "training": {"config": cfg.to_json(), "iterations": iteration,
                         "cpu_seconds": round(float(totals.get("cpu", 0.0)), 1),
                         "steps": int(totals.get("steps", 0)),
                         "decisions": int(totals.get("decisions", 0)),
                         "version": __version__}}
    return Model(cfg.variant, cfg.players, [w for w, _ in params], [b for _, b in params], meta)


def iter_log(folder: str | Path) -> Iterator[dict[str, Any]]:
    """The lines of a run's ``log.jsonl``."""
    path = Path(folder) / "log.jsonl"
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def with_overrides(cfg: TrainConfig, **changes: Any) -> TrainConfig:
    """``cfg`` with some settings changed (``None`` values are ignored)."""
    return replace(cfg, **{k: v for k, v in changes.items() if v is not None})


OWN_FLAGS: Final = ("variant", "players", "preset", "seed")
"""Settings of :class:`TrainConfig` that ``hotdeath train`` sets with flags of their own."""


def settable() -> dict[str, Any]:
    """The settings ``NAME=VALUE`` may change: name -> default (``--set`` of the command)."""
    base = TrainConfig()
    return {f.name: getattr(base, f.name) for f in fields(TrainConfig)
            if f.name not in OWN_FLAGS}


def with_settings(cfg: TrainConfig, pairs: Sequence[str]) -> TrainConfig:
    """``cfg`` with the settings ``NAME=VALUE`` of ``pairs`` (later ones win).

    Names are :class:`TrainConfig`'s fields (``-`` may stand for ``_``); a value is read
    as the type of the field's default: a number, ``true``/``false`` (also ``1``/``0``,
    ``yes``/``no``), a word, or comma-separated items (``hidden=256,256``).  An unknown
    name raises ``TrainingError`` ``unknown_setting`` (naming the known ones), a value
    that is not of its type ``bad_option``; ranges are :meth:`TrainConfig.check`'s.
    """
    known = settable()
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in known:
            what = (f"{pair!r} (not NAME=VALUE)" if not eq
                    else f"{name!r} (it has its own flag, --{name})" if name in OWN_FLAGS
                    else repr(name))
            raise TrainingError("unknown_setting", f"unknown training setting {what}; "
                                f"known: {', '.join(sorted(known))}")
        changes[name] = _setting_value(name, text.strip(), known[name])
    return replace(cfg, **changes)


def _setting_value(name: str, text: str, default: Any) -> Any:
    """``text`` read as a value of the type of ``default`` (``bad_option`` if it is not)."""
    try:
        if isinstance(default, bool):
            words = {"true": True, "1": True, "yes": True,
                     "false": False, "0": False, "no": False}
            return words[text.lower()]
        if isinstance(default, tuple):
            item = type(default[0]) if default else str
            return tuple(item(x.strip()) for x in text.split(",") if x.strip())
        if isinstance(default, int | float | str):
            return type(default)(text)
    except (KeyError, ValueError):
        pass
    sample = default[0] if isinstance(default, tuple) and default else default
    kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(
        type(sample), "a word")
    if isinstance(default, tuple):
        kind = f"a list such as {','.join(map(str, default))} (items: {kind})"
    raise TrainingError("bad_option", f"setting {name} takes {kind}, not {text!r}")


__all__ = ["OWN_FLAGS", "Batch", "IterationLog", "Learner", "TrainConfig", "TrainingError",
           "forward", "init_params", "iter_log", "play_iteration", "settable", "squash",
           "to_model", "train", "with_overrides", "with_settings"]
