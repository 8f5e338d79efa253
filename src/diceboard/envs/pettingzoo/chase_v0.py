"""Chase as the PettingZoo AEC environment ``chase_v0``.

>>> from diceboard.envs.pettingzoo import chase_v0
>>> env = chase_v0.env(no_capture_limit=60)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection
((24, 9, 9), True, 'player_0')
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv, ParallelEnv

from diceboard.envs.pettingzoo.base import DiceboardAECEnv, Observation, parallel, wrap


class raw_env(DiceboardAECEnv):
    """Chase without PettingZoo's wrappers (see :class:`DiceboardAECEnv`);
    ``player_0`` is Blue, ``player_1`` Red."""

    metadata: ClassVar[dict[str, Any]] = {
        **DiceboardAECEnv.metadata,
        "name": "chase_v0",
    }
    game_name = "chase"


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The AEC environment (game options and environment settings as keywords)."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv[str, Observation, int]:
    """The parallel view of :func:`env`: one decision per parallel step (``max_cycles``
    counts parallel steps)."""
    return parallel(raw_env, **kwargs)
