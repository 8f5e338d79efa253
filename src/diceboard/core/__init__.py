"""The game API shared by every game: moves, outcomes, states, games and errors."""

from diceboard.core.errors import (
    DiceboardError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
)
from diceboard.core.game import Game, State
from diceboard.core.move import Move
from diceboard.core.outcome import Outcome

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
]
