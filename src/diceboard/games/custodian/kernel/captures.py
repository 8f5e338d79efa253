"""Custodial capture: sandwiching opposing dice along a line through the moved die."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import BOARD, NDIR, NEIGHBOUR
from diceboard.kernel import njit


@njit
def resolve_captures(state: np.ndarray, sq: int, single: bool) -> int:
    """Remove the opposing dice sandwiched by the die on ``sq``; return how many were taken.

    Along each of the four lines from ``sq``: an unbroken row of opposing dice followed by one
    of the mover's dice is captured (only a row of exactly one under ``single``). All four lines
    are judged on the board as it was before any removal.
    """
    mover = 1 if state[BOARD + sq] > 0 else -1
    # collect first, remove afterwards, so that the lines are judged on the same board
    victims = np.empty(16, dtype=np.int64)
    nv = 0
    for d in range(NDIR):
        run = 0
        cur = NEIGHBOUR[sq, d]
        while cur >= 0 and state[BOARD + cur] * mover < 0:
            run += 1
            cur = NEIGHBOUR[cur, d]
        if run == 0 or cur < 0 or state[BOARD + cur] * mover <= 0:
            continue
        if single and run != 1:
            continue
        cur = NEIGHBOUR[sq, d]
        for _ in range(run):
            victims[nv] = cur
            nv += 1
            cur = NEIGHBOUR[cur, d]
    for i in range(nv):
        state[BOARD + victims[i]] = 0
    return nv
