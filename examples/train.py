"""Teach a small masked policy-gradient agent to beat the random bot at heads-up Uno.

REINFORCE with a learned baseline, written in numpy only: a one-hidden-layer network with a
policy head (a softmax over the *legal* slots: illegal logits are masked out) and a value
head (the baseline), trained with Adam on batches of whole hands.  The environment is
:class:`hotdeath.rl.SingleAgentEnv`: standard Uno (``official`` preset), two players, the
learner against ``random``.  Training episodes are one-hand games (``rounds=1``, reward +1
for a win and -1 for a loss); evaluation plays one-hand games and whole games to 500 points
with the trained (sampled) policy, or the greedy one with ``--greedy``.

    python examples/train.py                       # train 5 minutes, then evaluate
    python examples/train.py --envs 16             # collect hands from a VectorEnv of 16
    python examples/train.py --iterations 2 --eval-games 20   # a smoke run (CI)

With ``--envs N`` (N > 1) training hands come from :class:`hotdeath.rl.VectorEnv`: N tables
stepped together, the policy evaluated on the whole batch of observations at once.

The last line printed is a JSON summary (training games, minutes, win rates).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from hotdeath.rl import SingleAgentEnv, VectorEnv

Array = np.ndarray[Any, Any]


def features(obs: Array) -> Array:
    """Squash raw counts and scores: sign(x) * log(1 + |x|)."""
    return np.sign(obs) * np.log1p(np.abs(obs))


class Net:
    """Shared tanh layer, a policy head over the action slots and a value head."""

    def __init__(self, n_in: int, n_act: int, hidden: int, rng: np.random.Generator) -> None:
        self.p: dict[str, Array] = {
            "W1": rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, hidden)),
            "b1": np.zeros(hidden),
            "W2": rng.normal(0.0, 0.01, (hidden, n_act)),
            "b2": np.zeros(n_act),
            "Wv": np.zeros((hidden, 1)),
            "bv": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def probs(self, x: Array, mask: Array) -> Array:
        """Action probabilities for one observation (zero on illegal slots)."""
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = h @ self.p["W2"] + self.p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        e = np.exp(logits - logits.max())
        return e / e.sum()

    def batch_probs(self, x: Array, mask: Array) -> Array:
        """Action probabilities for a batch of observations (rows without a legal slot: 0)."""
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = np.where(mask > 0, h @ self.p["W2"] + self.p["b2"], -1e9)
        e = np.exp(logits - logits.max(axis=1, keepdims=True)) * (mask > 0)
        total = e.sum(axis=1, keepdims=True)
        return e / np.where(total > 0, total, 1.0)

    def update(self, x: Array, masks: Array, acts: Array, returns: Array, lr: float,
               entropy: float, value_coef: float = 0.5) -> tuple[float, float]:
        """One Adam step on a batch; returns (mean |advantage|, mean entropy)."""
        p = self.p
        b = len(x)
        h = np.tanh(x @ p["W1"] + p["b1"])
        logits = np.where(masks > 0, h @ p["W2"] + p["b2"], -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (masks > 0)
        pr = e / e.sum(axis=1, keepdims=True)
        value = (h @ p["Wv"] + p["bv"])[:, 0]
        adv = returns - value
        logp = np.log(np.where(pr > 0, pr, 1.0))
        ent = -(pr * logp).sum(axis=1)
        onehot = np.zeros_like(pr)
        onehot[np.arange(b), acts] = 1.0
        # d/dlogits of -(adv * log pi(a)) - entropy * H
        d_logits = (pr - onehot) * adv[:, None]
        d_logits += entropy * pr * (logp + ent[:, None])
        d_logits *= (masks > 0)
        d_logits /= b
        d_value = value_coef * (value - returns)[:, None] / b
        grads = {
            "W2": h.T @ d_logits,
            "b2": d_logits.sum(axis=0),
            "Wv": h.T @ d_value,
            "bv": d_value.sum(axis=0),
        }
        dh = (d_logits @ p["W2"].T + d_value @ p["Wv"].T) * (1.0 - h * h)
        grads["W1"] = x.T @ dh
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return float(np.abs(adv).mean()), float(ent.mean())


def play(env: SingleAgentEnv, net: Net, rng: np.random.Generator, seed: int, greedy: bool,
         trace: list[tuple[Array, Array, int]] | None) -> float:
    """Play one episode; append (features, mask, slot) per decision to ``trace``."""
    obs, _ = env.reset(seed=seed)
    total = 0.0
    while True:
        x = features(obs["observation"])
        mask = obs["action_mask"]
        pr = net.probs(x, mask)
        if greedy:
            a = int(np.argmax(pr))
        else:
            a = int(np.searchsorted(np.cumsum(pr), rng.random() * pr.sum()))
            a = min(a, len(pr) - 1)
            if not mask[a]:
                a = int(np.argmax(pr))
        if trace is not None:
            trace.append((x, mask, a))
        obs, r, term, trunc, _ = env.step(a)
        total += r
        if term or trunc:
            return total


Episode = tuple[list[tuple[Array, Array, int]], float]


class VectorCollector:
    """Whole one-hand episodes from a :class:`VectorEnv`, the policy run on the batch."""

    def __init__(self, envs: int, seed: int) -> None:
        self.venv = VectorEnv(envs, "standard", options={"rounds": 1}, opponents="random")
        self.obs, _ = self.venv.reset(seed=seed)
        self.open: list[list[tuple[Array, Array, int]]] = [[] for _ in range(envs)]
        self.resetting = np.zeros(envs, bool)

    def collect(self, net: Net, rng: np.random.Generator, episodes: int) -> list[Episode]:
        """Step every table until ``episodes`` episodes have ended; return them."""
        done: list[Episode] = []
        while len(done) < episodes:
            x = features(self.obs["observation"])
            mask = self.obs["action_mask"].copy()
            pr = net.batch_probs(x, mask)
            cum = np.cumsum(pr, axis=1)
            u = rng.random(len(pr)) * cum[:, -1]
            acts = np.minimum((cum < u[:, None]).sum(axis=1), pr.shape[1] - 1)
            for i in np.flatnonzero(~self.resetting):
                self.open[i].append((x[i], mask[i], int(acts[i])))
            self.obs, r, term, trunc, _ = self.venv.step(acts)
            ended = term | trunc
            for i in np.flatnonzero(ended):
                done.append((self.open[i], float(r[i])))
                self.open[i] = []
            self.resetting = ended.copy()
        return done


def evaluate(net: Net, games: int, rounds: int, seed: int, greedy: bool) -> float:
    """Win rate over ``games`` games (``rounds`` hands each; 0: to 500 points).

    A game cut short by the environment's step limit counts as a loss.
    """
    env = SingleAgentEnv("standard", options={"rounds": rounds}, opponents="random")
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        play(env, net, rng, seed + g, greedy, None)
        wins += env.learner in env.aec.state.winners
    return wins / games


def main() -> None:
    """Train, evaluate, print a JSON summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=1_000_000, help="most training batches")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    ap.add_argument("--batch", type=int, default=32, help="hands per training batch")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--eval-games", type=int, default=2000, help="one-hand evaluation games")
    ap.add_argument("--eval-full-games", type=int, default=0,
                    help="evaluation games to 500 points (0: skip)")
    ap.add_argument("--greedy", action="store_true",
                    help="evaluate the most probable slot instead of sampling the policy")
    ap.add_argument("--envs", type=int, default=1,
                    help="tables stepped together in a VectorEnv (1: one SingleAgentEnv)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", default="", help="write the trained weights to this .npz file")
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    env = SingleAgentEnv("standard", options={"rounds": 1}, opponents="random")
    n_in = env.observation_space["observation"].shape[0]
    net = Net(n_in, int(env.action_space.n), args.hidden, rng)
    start = time.perf_counter()
    games = 0
    wins = 0.0
    it = 0
    collector = VectorCollector(args.envs, args.seed) if args.envs > 1 else None
    for it in range(1, args.iterations + 1):
        xs: list[Array] = []
        ms: list[Array] = []
        acts: list[int] = []
        rets: list[float] = []
        if collector is not None:
            batch = collector.collect(net, rng, args.batch)
        else:
            batch = []
            for _ in range(args.batch):
                trace: list[tuple[Array, Array, int]] = []
                r = play(env, net, rng, args.seed * 10_000_019 + games, False, trace)
                batch.append((trace, r))
        for trace, r in batch:
            games += 1
            wins += r > 0
            for x, m, a in trace:
                xs.append(x)
                ms.append(m)
                acts.append(a)
                rets.append(r)
        adv, ent = net.update(np.array(xs), np.array(ms), np.array(acts), np.array(rets),
                              args.lr, args.entropy)
        minutes = (time.perf_counter() - start) / 60
        if it % 20 == 0 or it == 1:
            print(f"iter {it}: {games} hands, {minutes:.1f} min, training win rate "
                  f"{wins / games:.3f}, |adv| {adv:.3f}, entropy {ent:.3f}", flush=True)
        if minutes >= args.minutes:
            break
    train_minutes = (time.perf_counter() - start) / 60
    if args.save:
        np.savez(args.save, **net.p)
    t0 = time.perf_counter()
    rate = evaluate(net, args.eval_games, 1, 10**9 + args.seed, args.greedy)
    print(f"one-hand games: win rate {rate:.3f} over {args.eval_games}", flush=True)
    full = None
    if args.eval_full_games:
        full = evaluate(net, args.eval_full_games, 0, 2 * 10**9, args.greedy)
    summary = {
        "iterations": it,
        "training_hands": games,
        "training_minutes": round(train_minutes, 2),
        "eval_games": args.eval_games,
        "eval_win_rate": round(rate, 4),
        "eval_full_games": args.eval_full_games,
        "eval_full_win_rate": None if full is None else round(full, 4),
        "eval_policy": "greedy" if args.greedy else "sampled",
        "eval_minutes": round((time.perf_counter() - t0) / 60, 2),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
