"""Whole random games inside the kernel, for the benchmark and for fast simulations.

Each game's kernel has its own copy of this loop: numba cannot cache a function that takes
another game's kernel functions as arguments or closes over them, so sharing it would mean
recompiling on every start.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.layout import MAX_LEGAL
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel import RESULT, njit, push_history


@njit
def random_playouts(
    start: np.ndarray, opts: np.ndarray, games: int, seed: int, max_actions: int
) -> np.ndarray:
    """Play ``games`` games from ``start``, each action drawn uniformly from the legal ones
    (absorb decisions included). Returns ``[decisions, chance events (always 0), games
    finished, first-player wins, second-player wins, draws]``."""
    np.random.seed(seed)
    state = start.copy()
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    history = np.empty(4096, dtype=np.int64)
    totals = np.zeros(6, dtype=np.int64)
    for _ in range(games):
        state[:] = start
        nhist = push_history(state, history, 0, True)
        for _ in range(max_actions):
            if state[RESULT] != 0:
                break
            n = legal_actions(state, opts, buf)
            totals[0] += 1
            nhist = step(state, opts, buf[np.random.randint(0, n)], history, nhist)
        if state[RESULT] != 0:
            totals[2] += 1
            totals[2 + state[RESULT]] += 1
    return totals
