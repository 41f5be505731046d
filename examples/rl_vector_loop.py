"""A CleanRL-style training loop on :class:`hotdeath.rl.VectorEnv`, in numpy.

``VectorEnv`` is a ``gymnasium.vector.VectorEnv``: code written for Gymnasium's vector API
(CleanRL's single-file PPO scripts, a JAX or PyTorch loop of your own) uses it as it uses
``gymnasium.make_vec``, Gymnasium's vector wrappers included.  This loop has CleanRL's
shape: ``RecordEpisodeStatistics`` around the batch, rollout buffers of ``num_steps`` ×
``num_envs``, returns computed backwards through the ``next_done`` flags, one update per
rollout.  The policy is a linear softmax over the *legal* slots (the mask is applied to
the logits) trained by REINFORCE with a mean baseline, so the example needs nothing but
numpy; swap in your network and PPO's loss where the comments say.  Heads-up standard
Uno, one-hand episodes, against ``random``.

    python examples/rl_vector_loop.py                              # 300 updates
    python examples/rl_vector_loop.py --updates 2 --num-steps 8    # a smoke run (the tests)

The last line printed is a JSON summary (updates, episodes finished, their mean return
over the last updates).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import gymnasium
import numpy as np

from hotdeath.rl import VectorEnv

Array = np.ndarray[Any, Any]


def masked_probs(weights: Array, obs: Array, mask: Array) -> Array:
    """Softmax of ``obs @ weights`` over each row's legal slots (0 elsewhere).

    A row with no legal slot (a table whose episode just ended: its next action is ignored,
    Gymnasium's ``NEXT_STEP`` autoreset) gets all slots.
    """
    logits = np.log1p(np.abs(obs)) @ weights
    legal = np.where(mask.any(axis=1, keepdims=True), mask > 0, True)
    logits = np.where(legal, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    out: Array = p / p.sum(axis=1, keepdims=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Run the loop, print and return the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--num-steps", type=int, default=128, help="rollout length")
    parser.add_argument("--updates", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        VectorEnv(args.num_envs, "standard", players=2, opponents="random", episode="hand",
                  options={"rounds": 1}))
    rng = np.random.default_rng(args.seed)
    n_obs = envs.single_observation_space["observation"].shape[0]  # type: ignore[index]
    n_act = int(envs.single_action_space.n)  # type: ignore[attr-defined]
    weights = np.zeros((n_obs, n_act))
    shape = (args.num_steps, args.num_envs)
    obs_buf = np.zeros((*shape, n_obs), dtype=np.float32)
    mask_buf = np.zeros((*shape, n_act), dtype=np.int8)
    act_buf = np.zeros(shape, dtype=np.int64)
    rew_buf = np.zeros(shape)
    done_buf = np.zeros(shape)
    returns_seen: list[float] = []
    next_obs, _ = envs.reset(seed=args.seed)
    next_done = np.zeros(args.num_envs)
    for update in range(args.updates):
        for step in range(args.num_steps):  # the rollout
            obs_buf[step] = next_obs["observation"]  # VectorEnv overwrites its arrays: copy
            mask_buf[step] = next_obs["action_mask"]
            done_buf[step] = next_done  # the step starts a new episode (Gymnasium's NEXT_STEP)
            probs = masked_probs(weights, obs_buf[step], mask_buf[step])
            action = (probs.cumsum(axis=1) > rng.random((args.num_envs, 1))).argmax(axis=1)
            act_buf[step] = action
            next_obs, reward, terminated, truncated, infos = envs.step(action)
            rew_buf[step] = reward
            next_done = np.logical_or(terminated, truncated).astype(float)
            if "episode" in infos:  # RecordEpisodeStatistics: the episodes that ended
                finished = infos["_episode"]
                returns_seen += [float(r) for r in infos["episode"]["r"][finished]]
        # returns, backwards through the episode ends (CleanRL computes its GAE here)
        ret = np.zeros(shape)
        running = np.zeros(args.num_envs)
        for step in reversed(range(args.num_steps)):
            running = rew_buf[step] + running * (1.0 - next_done if step == args.num_steps - 1
                                                 else 1.0 - done_buf[step + 1])
            ret[step] = running
        # the update (CleanRL: minibatches of PPO's clipped loss; here one REINFORCE step)
        flat_obs = obs_buf.reshape(-1, n_obs)
        flat_mask = mask_buf.reshape(-1, n_act)
        flat_act = act_buf.reshape(-1)
        adv = (ret - ret.mean()).reshape(-1)
        probs = masked_probs(weights, flat_obs, flat_mask)
        grad_logits = -probs
        grad_logits[np.arange(len(flat_act)), flat_act] += 1.0
        weights += args.lr * (np.log1p(np.abs(flat_obs)).T @ (grad_logits * adv[:, None]))
        weights /= max(1.0, float(np.abs(weights).max()) / 10.0)  # keep the logits tame
        if (update + 1) % 50 == 0:
            recent = returns_seen[-200:]
            print(f"update {update + 1}: {len(returns_seen)} episodes, mean return of the "
                  f"last {len(recent)} {np.mean(recent) if recent else 0.0:+.3f}", flush=True)
    envs.close()
    recent = returns_seen[-200:]
    summary = {"updates": args.updates, "episodes": len(returns_seen),
               "recent_mean_return": round(float(np.mean(recent)), 3) if recent else 0.0}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
