"""``hotdeath_v0`` under PettingZoo's module naming: ``hotdeath_v0.env()``, ``raw_env``.

>>> from hotdeath.rl import hotdeath_v0
>>> e = hotdeath_v0.env(variant="standard", players=2)
>>> e.reset(seed=1)
>>> sorted(e.agents)
['player_0', 'player_1']
"""

from __future__ import annotations

from hotdeath.rl.aec import env, raw_env

__all__ = ["env", "raw_env"]
