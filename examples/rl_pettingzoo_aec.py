"""Every seat a learner: hotdeath's PettingZoo AEC environment, for multi-agent code.

``hotdeath.rl.env()`` is a PettingZoo AEC environment, the API that multi-agent libraries
wrap (Tianshou's and RLlib's PettingZoo wrappers, AgileRL) and that a self-play loop of your
own drives directly: one agent per seat, ``agent_iter()`` naming the agent to act
(out-of-turn windows, such as catching a missed Uno call, are agent turns too), an
observation ``{"observation", "action_mask"}`` for each decision, and each agent's reward
when its game ends.  PettingZoo's own ``api_test`` and ``seed_test`` pass on every variant
(tests/test_rl.py).  This example plays four-seat Hot Death with one policy per agent
(uniformly random over the legal slots for two seats; for the other two the first legal
slot that is not a draw), where a library would call each agent's network, and prints each
agent's total reward.

    python examples/rl_pettingzoo_aec.py                   # 20 games
    python examples/rl_pettingzoo_aec.py --games 1         # a smoke run (the tests)

The last line printed is a JSON summary (games, total reward per agent).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from hotdeath.rl import env

Array = np.ndarray[Any, Any]
Policy = Callable[[Array, Array], int]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the games, print and return the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    game = env(variant="hotdeath", players=4, reward="game", max_steps=50_000)
    rng = np.random.default_rng(args.seed)
    draw_slot = game.unwrapped.layout.names.index("draw")  # the slots in words: layout.names

    def random_policy(_obs: Array, mask: Array) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    def eager_policy(_obs: Array, mask: Array) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[0] if len(legal) == 1 else legal[legal != draw_slot][0])

    policies: dict[str, Policy] = {a: (random_policy if i % 2 else eager_policy)
                                   for i, a in enumerate(game.possible_agents)}
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for g in range(args.games):
        game.reset(seed=args.seed + g)
        for agent in game.agent_iter():
            obs, reward, terminated, truncated, _info = game.last()
            totals[agent] += reward
            if terminated or truncated:
                game.step(None)
                continue
            game.step(policies[agent](obs["observation"], obs["action_mask"]))
    game.close()
    summary = {"games": args.games, "total_reward": totals}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
