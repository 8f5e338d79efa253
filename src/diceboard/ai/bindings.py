"""Game bindings for search: per game, the rules kernel's entry points plus evaluation
features, as :mod:`diceboard.ai.engine.contract` describes."""

from __future__ import annotations

import importlib
from types import ModuleType

from diceboard.core.errors import OptionError

#: game name -> module that binds it
MODULES = {
    "custodian": "diceboard.ai.bindings.custodian",
    "chase": "diceboard.ai.bindings.chase",
}


def binding(game_name: str) -> ModuleType:
    """The binding module of ``game_name``."""
    path = MODULES.get(game_name)
    if path is None:
        raise OptionError(f"no computer player knows the game {game_name!r}")
    return importlib.import_module(path)
