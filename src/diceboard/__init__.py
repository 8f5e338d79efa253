"""diceboard: engines, notation, records and players for Custodian Dice and Chase.

>>> import diceboard
>>> game = diceboard.game("custodian", variant="chaos")
>>> state = game.start(seed=7)
>>> state.is_chance(), state.to_move
(False, 'W')
>>> diceboard.games.names()
('custodian', 'chase')

The package root loads only the game API. The computer players (:func:`agent`) and the
rendering layer are imported when first used, so ``import diceboard`` (or importing a rules
kernel) never pays for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diceboard import games
from diceboard.core import (
    DiceboardError,
    Game,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    Move,
    MoveKind,
    NotationError,
    OptionError,
    Outcome,
    PositionError,
    RecordError,
    State,
)
from diceboard.games import game

if TYPE_CHECKING:
    from diceboard.ai import agent

__version__ = "0.1.0"

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
    "Outcome",
    "PositionError",
    "RecordError",
    "State",
    "__version__",
    "agent",
    "game",
    "games",
]


def _svg(state: State) -> str:
    """A state's SVG board (for Jupyter), drawn by the rendering layer loaded on first use."""
    from diceboard.rendering.svg import render

    return render(state)


State.svg_renderer = _svg


def __getattr__(name: str) -> Any:
    # the AI loads numba's search engine: only when a program asks for an agent
    if name == "agent":
        from diceboard.ai import agent

        return agent
    raise AttributeError(f"module 'diceboard' has no attribute {name!r}")
