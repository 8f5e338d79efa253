"""Chase: rules kernel, options, position strings, notation, the game API, and the
parts other layers use (search features, observation encoding, board drawing); ``info.py``
declares it to the registry.

The game classes are loaded on first use, so importing the kernel loads only the kernel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diceboard.games.chase.game import ChaseGame, ChaseState

__all__ = ["ChaseGame", "ChaseState"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from diceboard.games.chase import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
