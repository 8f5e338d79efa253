"""Custodial capture: sandwiching opposing dice along a line through the moved die."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.hashing import cell_key
from diceboard.games.custodian.kernel.layout import BOARD, NDIR, NEIGHBOUR
from diceboard.kernel import HASH, njit_borrowing
from diceboard.kernel.bits import lowest_bit_index


@njit_borrowing
def resolve_captures(state: np.ndarray, sq: int, single: bool) -> int:
    """Remove the opposing dice sandwiched by the die on ``sq``; return how many were taken.

    Along each of the four lines from ``sq``: an unbroken row of opposing dice followed by one
    of the mover's dice is captured (only a row of exactly one under ``single``). All four lines
    are judged on the board as it was before any removal. The state's HASH field is updated
    for every die removed.
    """
    mover = 1 if state[BOARD + sq] > 0 else -1
    # collect first (as a mask: nothing allocated), remove afterwards, so that the lines are
    # judged on the same board
    victims = 0
    for d in range(NDIR):
        run = 0
        line = 0
        cur = NEIGHBOUR[sq, d]
        while cur >= 0 and state[BOARD + cur] * mover < 0:
            run += 1
            line |= 1 << cur
            cur = NEIGHBOUR[cur, d]
        if run == 0 or cur < 0 or state[BOARD + cur] * mover <= 0:
            continue
        if single and run != 1:
            continue
        victims |= line
    nv = 0
    h = state[HASH]
    while victims:
        v = lowest_bit_index(victims)
        victims &= victims - 1
        h ^= cell_key(v, state[BOARD + v])
        state[BOARD + v] = 0
        nv += 1
    state[HASH] = h
    return nv
