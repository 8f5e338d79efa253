"""Zobrist hashing of Chase positions: the board and the player to move.

That is exactly what the repetition rule compares; everything else in the state array (counts,
totals, phase) follows from those two.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.geometry import NHEX
from diceboard.games.chase.kernel.layout import BOARD
from diceboard.kernel import TO_MOVE, njit_borrowing, zobrist_keys

#: CELL_KEYS[hex * 13 + value + 6]: the key of ``value`` (-6…6, 0 keyed too) on ``hex``
CELL_KEYS: np.ndarray = zobrist_keys(0xC4A5E, NHEX * 13)
#: the key XORed in while Red is to move
RED_TO_MOVE_KEY: int = int(zobrist_keys(0xC4A5F, 1)[0])


@njit_borrowing
def cell_key(hex_index: int, value: int) -> int:
    """The Zobrist key of ``value`` on ``hex_index``."""
    return CELL_KEYS[hex_index * 13 + value + 6]


@njit_borrowing
def full_hash(state: np.ndarray) -> int:
    """The Zobrist hash of ``state``, computed from scratch."""
    h = 0
    for sq in range(NHEX):
        h ^= cell_key(sq, state[BOARD + sq])
    if state[TO_MOVE] == 1:
        h ^= RED_TO_MOVE_KEY
    return h
