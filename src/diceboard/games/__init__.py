"""The games: one folder each, holding its rules kernel, notation, game API and the parts the
other layers need (search features, observation encoding, board drawing), declared in its
``info.py`` and listed in :mod:`.registry`.

>>> import diceboard
>>> diceboard.games.names()
('custodian', 'chase')
>>> diceboard.games.info("chase").player_names
('Blue', 'Red')
"""

from __future__ import annotations

from typing import Any

from diceboard.core.game import Game
from diceboard.core.info import GameInfo
from diceboard.games.registry import by_title, canonical_name, component, info, infos, names

__all__ = [
    "GameInfo",
    "by_title",
    "canonical_name",
    "component",
    "game",
    "info",
    "infos",
    "names",
]


def game(name: str, variant: str | None = None, **options: Any) -> Game:
    """The game ``name`` (a registered name or alias) with a variant and options.

    An unknown game, variant, option or option value raises
    :class:`~diceboard.core.OptionError` (a ``ValueError``) that says what is accepted.
    """
    game_class = component(canonical_name(name), "game")
    made: Game = game_class(variant, **options)
    return made
