"""sb3-contrib's MaskablePPO on :class:`hotdeath.rl.SingleAgentEnv`, as the env is.

Stable-Baselines3 takes one Gymnasium environment (its own ``VecEnv`` classes batch it);
``SingleAgentEnv`` fits as it is: its observation is a ``Dict`` of the encoded view and
the action mask (SB3's ``MultiInputPolicy``), and it has the ``action_masks()`` method that
MaskablePPO asks for the legal slots before each step.  Heads-up standard Uno, one-hand
games, against the ``random`` bot.  sb3-contrib needs PyTorch, which ``hotdeath`` does not
install::

    pip install "hotdeath[rl]" sb3-contrib
    python examples/rl_maskable_ppo.py                       # 20,000 steps, 200 games
    python examples/rl_maskable_ppo.py --steps 128 --eval-games 2   # a smoke run (the tests)

The last line printed is a JSON summary (steps trained, evaluation games, win rate).
"""

from __future__ import annotations

import argparse
import json
import time

from sb3_contrib import MaskablePPO

from hotdeath.rl import SingleAgentEnv


def make_env() -> SingleAgentEnv:
    """The learner in seat 0 against ``random``: heads-up standard Uno, one hand a game."""
    return SingleAgentEnv("standard", players=2, opponents="random", options={"rounds": 1})


def evaluate(model: MaskablePPO, games: int, seed: int) -> float:
    """The share of ``games`` one-hand games the trained policy wins (seeds ``seed`` on)."""
    env = make_env()
    wins = 0
    for g in range(games):
        obs, _info = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            action, _state = model.predict(obs, action_masks=env.action_masks())
            obs, reward, terminated, truncated, _info = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    return wins / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="learner decisions to train")
    parser.add_argument("--n-steps", type=int, default=512, help="PPO rollout length")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.monotonic()
    model = MaskablePPO("MultiInputPolicy", make_env(), n_steps=min(args.n_steps, args.steps),
                        batch_size=64, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.steps)
    trained = time.monotonic() - start
    summary = {"steps": args.steps, "training_minutes": round(trained / 60, 2),
               "eval_games": args.eval_games,
               "eval_win_rate": evaluate(model, args.eval_games, 1_000_000 + args.seed)}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
