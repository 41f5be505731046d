"""Reinforcement-learning environments for every variant (the ``hotdeath[rl]`` extra).

* :func:`env` / :class:`raw_env`: the PettingZoo AEC environment ``hotdeath_v0`` (every
  seat an agent; out-of-turn windows offered as agent turns with an ``ignore`` action);
* :class:`SingleAgentEnv` (Gymnasium id ``hotdeath/SingleAgent-v0``): one learner against
  bots from :mod:`hotdeath.bots`;
* :class:`VectorEnv`: ``num_envs`` such tables stepped together in Gymnasium's vector API,
  observations written into batch buffers the environment owns and reuses.

Observation layout, action mapping and rewards: ``docs/rl.md``.  The core package never
imports this one; it needs numpy, pettingzoo and gymnasium.
"""

from __future__ import annotations

from hotdeath.rl import hotdeath_v0
from hotdeath.rl.aec import env, raw_env
from hotdeath.rl.single import SingleAgentEnv, register_envs
from hotdeath.rl.spaces import (
    ActionLayout,
    ObservationLayout,
    action_layout,
    observation_layout,
)
from hotdeath.rl.vector import VectorEnv

register_envs()

__all__ = [
    "ActionLayout",
    "ObservationLayout",
    "SingleAgentEnv",
    "VectorEnv",
    "action_layout",
    "env",
    "hotdeath_v0",
    "observation_layout",
    "raw_env",
    "register_envs",
]
