"""Where a Custodian die can go: steps (walks of exactly ``face`` squares) and jumps.

Boards are handled as 25-bit masks (bit ``sq`` set = square occupied or reachable).
"""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import (
    BIT_INDEX,
    BOARD,
    FULL_MASK,
    NDIR,
    NEIGHBOUR,
    NSQ,
    RANK1_MASK,
    RANK5_MASK,
)
from diceboard.kernel import njit


@njit
def occupied_mask(state: np.ndarray) -> int:
    """Bit ``sq`` set for every square that holds a die."""
    m = 0
    for sq in range(NSQ):
        if state[BOARD + sq] != 0:
            m |= 1 << sq
    return m


@njit
def side_masks(state: np.ndarray) -> tuple[int, int]:
    """Bit masks of the squares holding White's dice and Black's, in one pass."""
    white = 0
    black = 0
    for sq in range(NSQ):
        v = state[BOARD + sq]
        if v > 0:
            white |= 1 << sq
        elif v < 0:
            black |= 1 << sq
    return white, black


@njit
def lowest_square(mask: int) -> int:
    """The square of the lowest set bit of a non-zero ``mask``."""
    return BIT_INDEX[(mask & -mask) % 37]


@njit
def popcount(mask: int) -> int:
    """Set bits of ``mask``."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit
def shift(mask: int, d: int) -> int:
    """Move every bit of ``mask`` one square in direction ``d`` (W, S, N, E), dropping those
    that leave the board."""
    if d == 0:
        return mask >> 5
    if d == 1:
        return (mask & ~RANK1_MASK) >> 1
    if d == 2:
        return (mask & ~RANK5_MASK) << 1
    return (mask << 5) & FULL_MASK


@njit
def step_destinations(start: int, length: int, empty: int, self_avoiding: bool) -> int:
    """Mask of the squares where a walk of exactly ``length`` orthogonal steps from ``start``
    can end, entering only squares of ``empty`` (which includes the vacated ``start``).

    A walk never steps straight back to the square it has just left. Under ``self_avoiding`` it
    also never enters a square twice (``start`` included); otherwise it may cross itself and
    end where it began.
    """
    if self_avoiding:
        return _self_avoiding(start, length, empty & ~(1 << start))
    # Dynamic programming over (square, last direction): layer[d] holds the squares that a walk
    # of the current length reaches with its last step in direction d.
    l0 = shift(1 << start, 0) & empty
    l1 = shift(1 << start, 1) & empty
    l2 = shift(1 << start, 2) & empty
    l3 = shift(1 << start, 3) & empty
    for _ in range(length - 1):
        # a step in direction d may follow any step except one in the opposite direction 3 - d
        n0 = shift(l0 | l1 | l2, 0) & empty
        n1 = shift(l0 | l1 | l3, 1) & empty
        n2 = shift(l0 | l2 | l3, 2) & empty
        n3 = shift(l1 | l2 | l3, 3) & empty
        l0, l1, l2, l3 = n0, n1, n2, n3
    return l0 | l1 | l2 | l3


@njit
def _self_avoiding(start: int, length: int, free: int) -> int:
    """Ends of the self-avoiding walks of exactly ``length`` steps from ``start`` through the
    squares of ``free`` (an explicit depth-first search; numba's cache cannot hold recursion)."""
    sq_at = np.empty(length + 1, dtype=np.int64)
    next_dir = np.zeros(length + 1, dtype=np.int64)
    visited = np.empty(length + 1, dtype=np.int64)
    sq_at[0] = start
    visited[0] = free
    depth = 0
    result = 0
    while depth >= 0:
        if depth == length:
            result |= 1 << sq_at[depth]
            depth -= 1
            continue
        d = next_dir[depth]
        if d == NDIR:
            depth -= 1
            continue
        next_dir[depth] = d + 1
        nxt = NEIGHBOUR[sq_at[depth], d]
        if nxt >= 0 and (visited[depth] >> nxt) & 1:
            depth += 1
            sq_at[depth] = nxt
            visited[depth] = visited[depth - 1] & ~(1 << nxt)
            next_dir[depth] = 0
    return result


@njit
def jump_target(state: np.ndarray, sq: int, d: int) -> int:
    """The landing square of a jump from ``sq`` in direction ``d``, or -1 if there is none:
    the adjacent square must hold a die (either colour) and the one beyond must be empty."""
    over = NEIGHBOUR[sq, d]
    if over < 0 or state[BOARD + over] == 0:
        return -1
    land = NEIGHBOUR[over, d]
    if land < 0 or state[BOARD + land] != 0:
        return -1
    return land
