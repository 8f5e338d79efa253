"""Chase as the PettingZoo AEC environment ``chase_v0``.

PettingZoo's convention is one importable module per environment, so this module exists
under the game's published name (``info.environments["pettingzoo"]``); what it exports, the
class ``raw_env`` and the functions ``env`` and ``parallel_env``, is made from the registry
(:func:`~diceboard.envs.pettingzoo.base.environment`).

>>> from diceboard.envs.pettingzoo import chase_v0
>>> env = chase_v0.env(no_capture_limit=60)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection
((24, 9, 9), True, 'player_0')
"""

from __future__ import annotations

from diceboard.envs.pettingzoo.base import environment

__all__ = ["env", "parallel_env", "raw_env"]

raw_env, env, parallel_env = environment(__name__)
