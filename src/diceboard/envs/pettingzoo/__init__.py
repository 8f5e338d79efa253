"""PettingZoo AEC environments for both games (needs the ``diceboard[rl]`` extra).

- :mod:`.custodian_dice_v0` — Custodian Dice (``variant=``, ``jumping=`` … as keywords)
- :mod:`.chase_v0` — Chase

Each module has ``env(**kwargs)`` (wrapped with PettingZoo's order checks), ``raw_env``
and ``parallel_env(**kwargs)``, like PettingZoo's own environments.
"""

from diceboard.envs.pettingzoo import chase_v0, custodian_dice_v0
from diceboard.envs.pettingzoo.base import DiceboardAECEnv

__all__ = ["DiceboardAECEnv", "chase_v0", "custodian_dice_v0"]
