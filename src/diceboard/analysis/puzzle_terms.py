"""What a puzzle's answer is and how clear it must be: a move's *family* (the move without
the face a step turns to) and the game's margin (three quarters of a die in calibrated win
probability, at most :data:`MARGIN`). Shared by the puzzle generator
(:mod:`diceboard.analysis.puzzles`) and its rating (:mod:`diceboard.analysis.puzzle_rating`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable

from diceboard.analysis.calibration import win_probability
from diceboard.core.move import Move, MoveKind

#: the most win probability the solution must give over the best other move
MARGIN = 0.2
#: the margin in dice: the solution is worth this much of a die more than any other move
MARGIN_DICE = 0.75


@functools.cache
def die_worth(name: str) -> float:
    """What one die more is worth in the game ``name``, in calibrated win probability: the
    win probability of an even position with one die more, less one half (from the
    evaluation's material weight and the game's calibration)."""
    from diceboard import games
    from diceboard.ai.engine.evaluation import EVAL_LIMIT
    from diceboard.ai.weights import weights_for

    feature = int(games.component(name, "ai").MATERIAL_FEATURE)
    weight = float(weights_for(name, "fitted")[feature])
    return win_probability(name, EVAL_LIMIT * math.tanh(weight / 2.0)) - 0.5


def margin(name: str) -> float:
    """The win probability by which a puzzle's solution must beat every other move in the
    game ``name``: :data:`MARGIN_DICE` of a die, at most :data:`MARGIN`."""
    return min(MARGIN, MARGIN_DICE * die_worth(name))


def family(move: Move) -> Hashable:
    """What a solver names when answering: the move without the face a step turns to (a
    placement keeps its face: which die goes where is the question)."""
    face = move.face if move.kind is MoveKind.PLACEMENT else None
    return (
        move.kind,
        move.from_square,
        move.to_square,
        move.direction,
        move.absorbed,
        move.exchange,
        face,
    )
