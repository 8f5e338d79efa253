"""Zobrist hashing of Custodian Dice positions."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import BOARD, HAND, NSQ, UNROLLED
from diceboard.kernel import HASH, PHASE, TO_MOVE, njit_borrowing, zobrist_keys

_CELL_KEYS = 0  # NSQ * 15: value + 7
_TO_MOVE_KEY = _CELL_KEYS + NSQ * 15
_PHASE_KEYS = _TO_MOVE_KEY + 1  # 3
_HAND_KEYS = _PHASE_KEYS + 3  # player * 36 + (face - 1) * 6 + count (count 1..5)
_UNROLLED_KEYS = _HAND_KEYS + 72  # player * 6 + count
KEYS: np.ndarray = zobrist_keys(0xC057_0D1A, _UNROLLED_KEYS + 12)


@njit_borrowing
def cell_key(sq: int, value: int) -> int:
    """The key of a die ``value`` (signed face, non-zero) on ``sq``: XOR it in or out."""
    return KEYS[_CELL_KEYS + sq * 15 + value + 7]


@njit_borrowing
def to_move_key() -> int:
    """The key XORed in while the second player is to move."""
    return KEYS[_TO_MOVE_KEY]


@njit_borrowing
def full_hash(state: np.ndarray) -> int:
    """The Zobrist hash of ``state`` (board, player to move, phase and hands)."""
    h = 0
    for sq in range(NSQ):
        v = state[BOARD + sq]
        if v != 0:
            h ^= KEYS[_CELL_KEYS + sq * 15 + v + 7]
    if state[TO_MOVE] == 1:
        h ^= KEYS[_TO_MOVE_KEY]
    h ^= KEYS[_PHASE_KEYS + state[PHASE]]
    for p in range(2):
        for face in range(6):
            c = state[HAND + 6 * p + face]
            if c > 0:
                h ^= KEYS[_HAND_KEYS + p * 36 + face * 6 + c]
        u = state[UNROLLED + p]
        if u > 0:
            h ^= KEYS[_UNROLLED_KEYS + p * 6 + u]
    return h


@njit_borrowing
def rehash(state: np.ndarray) -> None:
    """Store the hash of ``state`` in its HASH field."""
    state[HASH] = full_hash(state)
