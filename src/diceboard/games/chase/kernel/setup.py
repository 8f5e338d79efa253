"""The standard start of Chase."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import refresh
from diceboard.games.chase.kernel.geometry import NCOLS, NROWS
from diceboard.games.chase.kernel.layout import BOARD, STATE_LEN
from diceboard.kernel import njit

#: the faces on a home row, columns 1 to 9 (25 in all; the tenth die is a spare)
HOME_FACES = np.array([1, 2, 3, 4, 5, 4, 3, 2, 1], dtype=np.int64)


@njit
def new_game(state: np.ndarray) -> None:
    """Fill ``state`` with the standard start: Blue on row a, Red on row i, Blue to move."""
    for i in range(STATE_LEN):
        state[i] = 0
    for col in range(NCOLS):
        state[BOARD + col] = HOME_FACES[col]
        state[BOARD + (NROWS - 1) * NCOLS + col] = -HOME_FACES[col]
    refresh(state)
