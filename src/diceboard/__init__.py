"""diceboard: engines, notation, records and players for Custodian Dice and Chase.

>>> import diceboard
>>> game = diceboard.game("custodian", variant="chaos")
>>> state = game.start(seed=7)
>>> state.is_chance(), state.to_move
(False, 'W')
"""

from diceboard import rendering  # noqa: F401 - sets State.svg_renderer (Jupyter)
from diceboard.ai import agent
from diceboard.core import (
    DiceboardError,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    NotationError,
    OptionError,
    Outcome,
    PositionError,
    RecordError,
    State,
)
from diceboard.games import game

__version__ = "0.1.0"

__all__ = [
    "DiceboardError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "OptionError",
    "Outcome",
    "PositionError",
    "RecordError",
    "State",
    "__version__",
    "agent",
    "game",
]
