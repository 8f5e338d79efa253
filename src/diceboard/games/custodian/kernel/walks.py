"""Where a Custodian die can go: steps (walks of exactly ``face`` squares) and jumps.

Boards are handled as 25-bit masks (bit ``sq`` set = square occupied or reachable).
"""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import (
    BOARD,
    FULL_MASK,
    NDIR,
    NEIGHBOUR,
    NSQ,
    RANK1_MASK,
    RANK5_MASK,
)
from diceboard.kernel import njit_borrowing


@njit_borrowing
def occupied_mask(state: np.ndarray) -> int:
    """Bit ``sq`` set for every square that holds a die."""
    m = 0
    for sq in range(NSQ):
        if state[BOARD + sq] != 0:
            m |= 1 << sq
    return m


@njit_borrowing
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


@njit_borrowing
def step_destinations(start: int, length: int, empty: int, self_avoiding: bool) -> int:
    """Mask of the squares where a walk of exactly ``length`` orthogonal steps from ``start``
    can end, entering only squares of ``empty`` (which includes the vacated ``start``).

    A walk never steps straight back to the square it has just left. Under ``self_avoiding`` it
    also never enters a square twice (``start`` included); otherwise it may cross itself and
    end where it began.
    """
    if self_avoiding:
        return self_avoiding_ends(start, length, empty & ~(1 << start))
    return no_reversal_ends(start, length, empty)


@njit_borrowing
def no_reversal_ends(start: int, length: int, empty: int) -> int:
    """:func:`step_destinations` under the path option ``no-reversal``."""
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


#: the longest walk :func:`self_avoiding_ends` can follow (its stacks are packed in 64 bits);
#: a die walks at most 6
MAX_WALK = 11


@njit_borrowing
def self_avoiding_ends(start: int, length: int, free: int) -> int:
    """Ends of the self-avoiding walks of exactly ``length`` (at most :data:`MAX_WALK`) steps
    from ``start`` through the squares of ``free``: an explicit depth-first search (numba's
    cache cannot hold recursion) whose stacks are packed into integers, 5 bits a square and
    3 bits a direction, so that nothing is allocated."""
    squares = start  # the square at each depth of the walk
    tried = 0  # how many directions each depth has tried
    depth = 0
    result = 0
    while depth >= 0:
        sq = (squares >> (5 * depth)) & 31
        if depth == length:
            result |= 1 << sq
            free |= 1 << sq  # back off the last square: it can be entered again
            depth -= 1
            continue
        d = (tried >> (3 * depth)) & 7
        if d == NDIR:
            if depth > 0:
                free |= 1 << sq
            depth -= 1
            continue
        tried += 1 << (3 * depth)
        nxt = NEIGHBOUR[sq, d]
        if nxt >= 0 and (free >> nxt) & 1:
            depth += 1
            keep = (1 << (5 * depth)) - 1
            squares = (squares & keep) | (nxt << (5 * depth))
            tried &= (1 << (3 * depth)) - 1
            free &= ~(1 << nxt)
    return result


@njit_borrowing
def jumpers(own: int, occupied: int, empty: int, d: int) -> int:
    """The dice of ``own`` that can jump in direction ``d``: the next square that way holds a
    die and the one beyond is empty. Whole masks at once, so that move generation reads no
    board cell for its jumps."""
    back = NDIR - 1 - d  # shifting the other way: a square's bit lands on its neighbour's
    return own & shift(shift(empty, back) & occupied, back)


@njit_borrowing
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
