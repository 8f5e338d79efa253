"""Playing strength levels 1 (a beginner who blunders) to 8, in every game, and above them
levels that only some games have (:data:`EXTRA_LEVELS`: level 9, see each game's
``LEVEL_SPECS``); :func:`game_levels` is what one game's menu offers.

Each level is an agent spec per game: the game's search binding (``games/<game>/ai.py``)
declares them in ``LEVEL_SPECS`` (level -> spec), and ``level:N`` plays the spec of the game
it is asked about (:class:`diceboard.ai.specs.LevelAgent`). This module holds the data only.
Level 8 spends at most 2 seconds a move (1.8 s budget, kept to within 10 %).

Below level 8 a level is weaker in two ways: it searches less, and one move in so many it is
careless (``epsilon``: a uniformly random move instead of the searched one), the way chess
engines' skill levels weaken them. Search alone does not separate the upper levels of
Custodian Dice: between two careful players nearly every game ends in a draw (a die in a
corner cannot be sandwiched, and the defender's last dice can shelter there), so a level
beats the one below by punishing its slips. The carelessness halves from each level to the
next; ``benchmarks/ladder.py`` measures the steps (see the README).
"""

from __future__ import annotations

from typing import NamedTuple

from diceboard.ai.bindings import binding
from diceboard.core.errors import OptionError


class Level(NamedTuple):
    """One strength level, as the menus describe it."""

    #: what the level is, in a few words
    about: str


#: level -> what it is; the spec each game plays at a level is in its binding's LEVEL_SPECS
LEVELS: dict[int, Level] = {
    1: Level("a beginner: nine moves in ten at random, else the best-looking one"),
    2: Level("looks one move ahead, three moves in four at random"),
    3: Level("looks one move ahead, every other move at random"),
    4: Level("looks two moves ahead, one move in three at random"),
    5: Level("looks three moves ahead, one move in five at random"),
    6: Level("a fifth of a second a move, one move in ten at random"),
    7: Level("half a second a move, one move in twenty at random"),
    8: Level("1.8 s a move, never careless (the strongest where a game has no level 9)"),
}

#: levels above :data:`LEVELS` that only some games declare (a game's menu offers them where
#: it does, :func:`game_levels`): level -> what it is. Level 9's first move waits for its
#: search to compile or load (the server warms up the levels' alpha-beta search only)
EXTRA_LEVELS: dict[int, Level] = {
    9: Level("the strongest: a stronger search, 1.8 s a move, slower to start"),
}


def check_level(level: int) -> None:
    """Raise :class:`~diceboard.core.OptionError` unless ``level`` is one of :data:`LEVELS`
    or :data:`EXTRA_LEVELS`."""
    if level not in LEVELS and level not in EXTRA_LEVELS:
        raise OptionError(
            f"level {level} does not exist: levels are 1 to {max(LEVELS)}"
            f" (and {', '.join(map(str, EXTRA_LEVELS))} in the games that declare it)"
        )


def game_levels(game_name: str) -> dict[int, Level]:
    """The levels ``game_name`` has (:data:`LEVELS` and those of :data:`EXTRA_LEVELS` it
    declares), weakest first, with what each is: what a menu of that game offers.

    >>> sorted(game_levels("chase"))
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    table = {**LEVELS, **EXTRA_LEVELS}
    return {level: table[level] for level in sorted(level_specs(game_name)) if level in table}


def level_specs(game_name: str) -> dict[int, str]:
    """Level -> agent spec, as the game ``game_name`` declares it (``LEVEL_SPECS``).

    >>> level_specs("chase")[8]
    'alphabeta:time=1.8'
    """
    table: dict[int, str] = binding(game_name).LEVEL_SPECS
    return table


def level_spec(level: int, game_name: str) -> str:
    """The agent spec that ``level`` plays in ``game_name``."""
    check_level(level)
    spec = level_specs(game_name).get(level)
    if spec is None:
        raise OptionError(
            f"the game {game_name} has no level {level}: its levels are "
            f"{min(level_specs(game_name))} to {max(level_specs(game_name))}"
        )
    return spec
