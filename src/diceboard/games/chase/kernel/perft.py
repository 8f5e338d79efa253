"""Perft: counting action sequences, the standard check of a move generator.

Each game's kernel has its own copy of this loop: numba cannot cache a function that takes
another game's kernel functions as arguments or closes over them, so sharing it would mean
recompiling on every start.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.layout import MAX_LEGAL, STATE_LEN
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel import njit


@njit
def perft(state: np.ndarray, opts: np.ndarray, depth: int, history: np.ndarray, nhist: int) -> int:
    """The number of action sequences of length ``depth`` from ``state``. Absorb decisions
    count as actions of their own; a finished game ends a sequence early and is not counted.

    An explicit stack instead of recursion keeps the function cacheable by numba.
    """
    if depth == 0:
        return 1
    states = np.empty((depth + 1, STATE_LEN), dtype=np.int64)
    actions = np.empty((depth, MAX_LEGAL), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    hists = np.empty((depth + 1, history.shape[0] + depth), dtype=np.int64)
    nhists = np.zeros(depth + 1, dtype=np.int64)
    states[0, :] = state
    hists[0, :nhist] = history[:nhist]
    nhists[0] = nhist
    counts[0] = legal_actions(states[0], opts, actions[0])
    level = 0
    total = 0
    while level >= 0:
        if index[level] == counts[level]:
            level -= 1
            continue
        a = actions[level, index[level]]
        index[level] += 1
        if level == depth - 1:
            total += 1
            continue
        child = states[level + 1]
        child[:] = states[level]
        hists[level + 1, : nhists[level]] = hists[level, : nhists[level]]
        nhists[level + 1] = step(child, opts, a, hists[level + 1], nhists[level])
        level += 1
        counts[level] = legal_actions(child, opts, actions[level])
        index[level] = 0
    return total
