"""The chamber ``e5``: a die that ends its move there splits.

Arriving with heading h, the die leaves by the left exit (h turned 120° counter-clockwise) and,
if it divides, a spare leaves by the right exit (120° clockwise). It divides when it shows at
least 2 and its side has a spare (fewer than 10 dice on the board before the move): ceil(v/2)
leaves left, floor(v/2) right; otherwise it leaves whole by the left exit. Each leaving die
steps onto its exit like a bumped die; the left one is resolved completely first.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.bump import chain_end, push
from diceboard.games.chase.kernel.geometry import (
    CHAMBER,
    LEFT_EXIT,
    LEFT_EXIT_HEADING,
    RIGHT_EXIT,
    RIGHT_EXIT_HEADING,
)
from diceboard.games.chase.kernel.layout import DICE_PER_SIDE
from diceboard.games.chase.kernel.trace import record
from diceboard.kernel import njit_borrowing


@njit_borrowing
def divides(face: int, dice_on_board: int) -> bool:
    """Whether a die showing ``face`` splits in two, its side having ``dice_on_board`` dice
    (the moving die included)."""
    return face >= 2 and dice_on_board < DICE_PER_SIDE


@njit_borrowing
def split_end(
    state: np.ndarray, face: int, heading: int, sign: int, dice_on_board: int, vacated: int
) -> int:
    """Whether the split of a die arriving with ``heading`` is legal: 0 if it is, else
    ``-1 - h`` where the die on ``h`` would be pushed back into the chamber. ``vacated`` is
    the moving die's start."""
    left = chain_end(state, LEFT_EXIT[heading], LEFT_EXIT_HEADING[heading], sign, vacated, -1)
    if left < 0 or not divides(face, dice_on_board):
        return min(left, 0)
    right = chain_end(state, RIGHT_EXIT[heading], RIGHT_EXIT_HEADING[heading], sign, vacated, left)
    return min(right, 0)


@njit_borrowing
def split(
    state: np.ndarray,
    face: int,
    heading: int,
    sign: int,
    dice_on_board: int,
    trace: np.ndarray,
    ntrace: int,
    segment: int,
) -> tuple[int, int]:
    """Play the split (assumed legal) of a die of side ``sign`` showing ``face``. Each
    leaving die is recorded in ``trace`` as a segment ``[e5, exit]``."""
    whole = not divides(face, dice_on_board)
    left_face = face if whole else (face + 1) // 2
    ntrace, segment = _leave(
        state,
        sign * left_face,
        LEFT_EXIT[heading],
        LEFT_EXIT_HEADING[heading],
        trace,
        ntrace,
        segment,
    )
    if not whole:
        ntrace, segment = _leave(
            state,
            sign * (face // 2),
            RIGHT_EXIT[heading],
            RIGHT_EXIT_HEADING[heading],
            trace,
            ntrace,
            segment,
        )
    return ntrace, segment


@njit_borrowing
def _leave(
    state: np.ndarray,
    value: int,
    exit_hex: int,
    exit_heading: int,
    trace: np.ndarray,
    ntrace: int,
    segment: int,
) -> tuple[int, int]:
    """One die leaves the chamber onto ``exit_hex`` and behaves like a bumped die there."""
    segment += 1
    ntrace = record(trace, ntrace, segment, CHAMBER)
    ntrace = record(trace, ntrace, segment, exit_hex)
    return push(state, value, exit_hex, exit_heading, trace, ntrace, segment)
