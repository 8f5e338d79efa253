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
from diceboard.core.game import Game, PendingRoll, State
from diceboard.core.info import GameInfo, OptionInfo, VariantInfo
from diceboard.core.move import Move, MoveKind
from diceboard.core.outcome import Outcome

__all__ = [
    "DiceboardError",
    "Game",
    "GameInfo",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "NotationError",
    "OptionError",
    "OptionInfo",
    "Outcome",
    "PendingRoll",
    "PositionError",
    "RecordError",
    "State",
    "VariantInfo",
]
