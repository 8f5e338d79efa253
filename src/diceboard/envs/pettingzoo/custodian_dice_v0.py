"""Custodian Dice as the PettingZoo AEC environment ``custodian_dice_v0``.

>>> from diceboard.envs.pettingzoo import custodian_dice_v0
>>> env = custodian_dice_v0.env(variant="chaos")
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection
((42, 5, 5), True, 'player_0')
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv, ParallelEnv

from diceboard.envs.pettingzoo.base import DiceboardAECEnv, Observation, parallel, wrap


class raw_env(DiceboardAECEnv):
    """Custodian Dice without PettingZoo's wrappers (see :class:`DiceboardAECEnv`);
    ``player_0`` is White, ``player_1`` Black."""

    metadata: ClassVar[dict[str, Any]] = {
        **DiceboardAECEnv.metadata,
        "name": "custodian_dice_v0",
    }
    game_name = "custodian"


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The AEC environment (game options and environment settings as keywords)."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv[str, Observation, int]:
    """The parallel view of :func:`env`: one decision per parallel step (``max_cycles``
    counts parallel steps)."""
    return parallel(raw_env, **kwargs)
