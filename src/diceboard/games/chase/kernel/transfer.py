"""Transfers: two adjacent friendly dice (the east–west wrap included) take new faces with the
same total, each 1…6, the first die's face changed."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import put, side_sign
from diceboard.games.chase.kernel.geometry import MAX_FACE, NEIGHBOUR, PAIR_DIRS, PAIR_PARTNER
from diceboard.games.chase.kernel.layout import BOARD, TRANSFER
from diceboard.kernel import TO_MOVE, njit_borrowing

# what transfer_status finds
TRANSFER_OK = 0
TRANSFER_NOT_ADJACENT = 1
TRANSFER_FIRST_NOT_OWN = 2  # the first hex holds no die of the player to move
TRANSFER_SECOND_NOT_OWN = 3
TRANSFER_BAD_TOTAL = 4  # the new faces do not add up to the old total
TRANSFER_UNCHANGED = 5  # the faces stay as they are
TRANSFER_BAD_FACE = 6  # a new face outside 1…6


@njit_borrowing
def new_face_range(total: int) -> tuple[int, int]:
    """The faces one die of a pair totalling ``total`` can take (the other takes the rest)."""
    return max(1, total - 6), min(6, total - 1)


def _new_faces() -> np.ndarray:
    table = np.zeros((MAX_FACE + 1, MAX_FACE + 1), dtype=np.int64)
    for a in range(1, MAX_FACE + 1):
        for b in range(1, MAX_FACE + 1):
            # the rule's own function, run as plain Python (compiling it here would slow
            # every import down)
            least, most = getattr(new_face_range, "py_func", new_face_range)(a + b)
            table[a, b] = ((1 << (most + 1)) - (1 << least)) & ~(1 << a)
    return table


#: NEW_FACES[a, b]: the faces a die showing ``a`` can take in a transfer with an adjacent
#: die showing ``b``, as bits 1…6 (no bit: the pair has no transfer)
NEW_FACES = _new_faces()


@njit_borrowing
def can_transfer(a: int, b: int) -> bool:
    """Whether dice showing ``a`` and ``b`` have any transfer (all but 1+1 and 6+6)."""
    lo, hi = new_face_range(a + b)
    return hi > lo


@njit_borrowing
def transfer_status(state: np.ndarray, first: int, second: int, f1: int, f2: int) -> int:
    """Whether the dice on ``first`` and ``second`` may take faces ``f1`` and ``f2``."""
    adjacent = False
    for d in range(6):
        if NEIGHBOUR[first, d] == second:
            adjacent = True
    if not adjacent:
        return TRANSFER_NOT_ADJACENT
    sign = side_sign(state[TO_MOVE])
    a = state[BOARD + first] * sign
    b = state[BOARD + second] * sign
    if a <= 0:
        return TRANSFER_FIRST_NOT_OWN
    if b <= 0:
        return TRANSFER_SECOND_NOT_OWN
    if not (1 <= f1 <= 6 and 1 <= f2 <= 6):
        return TRANSFER_BAD_FACE
    if f1 + f2 != a + b:
        return TRANSFER_BAD_TOTAL
    if f1 == a:
        return TRANSFER_UNCHANGED
    return TRANSFER_OK


@njit_borrowing
def transfer_hexes(action: int) -> tuple[int, int, int]:
    """The anchor hex, the partner hex and the anchor's new face of a transfer action."""
    rel = action - TRANSFER
    pair = rel // 6
    return pair // len(PAIR_DIRS), PAIR_PARTNER[pair], rel % 6 + 1


@njit_borrowing
def play_transfer(state: np.ndarray, action: int) -> None:
    """Play a transfer action (assumed legal)."""
    anchor, partner, face = transfer_hexes(action)
    sign = side_sign(state[TO_MOVE])
    total = (state[BOARD + anchor] + state[BOARD + partner]) * sign
    put(state, anchor, sign * face)
    put(state, partner, sign * (total - face))
