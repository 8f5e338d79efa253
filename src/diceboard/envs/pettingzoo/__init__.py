"""PettingZoo AEC environments for every registered game (needs the ``diceboard[rl]`` extra).

One module per game, named as the game's ``info.environments["pettingzoo"]``:

- :mod:`.custodian_dice_v0` — Custodian Dice (``variant=``, ``jumping=`` … as keywords)
- :mod:`.chase_v0` — Chase

Each module has ``env(**kwargs)`` (wrapped with PettingZoo's order checks), ``raw_env``
and ``parallel_env(**kwargs)``, like PettingZoo's own environments; :func:`env_module` gives
a game's module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from diceboard import games
from diceboard.envs.pettingzoo.base import DiceboardAECEnv


def env_module(name: str) -> ModuleType:
    """The PettingZoo environment module of the registered game ``name`` (or an alias)."""
    return importlib.import_module(f"{__name__}.{games.info(name).environments['pettingzoo']}")


def _import_all() -> list[str]:
    return [
        env_module(name).__name__.rpartition(".")[2]
        for name in games.names()
        if "pettingzoo" in games.info(name).environments
    ]


__all__ = ["DiceboardAECEnv", "env_module", *_import_all()]
