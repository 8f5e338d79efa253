"""Game bindings for search: per game, the rules kernel's entry points plus evaluation
features, as :mod:`diceboard.ai.engine.contract` describes. A game's binding is its ``ai``
component (``diceboard/games/<game>/ai.py``), found through the registry."""

from __future__ import annotations

from types import ModuleType

from diceboard.core.errors import OptionError
from diceboard.games import canonical_name, component


def binding(game_name: str) -> ModuleType:
    """The binding module of ``game_name`` (a registered name or alias).

    >>> binding("chase").__name__
    'diceboard.games.chase.ai'
    """
    try:
        name = canonical_name(game_name)
        module: ModuleType = component(name, "ai")
    except OptionError:
        raise OptionError(f"no computer player knows the game {game_name!r}") from None
    return module
