"""Shared infrastructure of the rules kernels.

Every game's kernel keeps its whole state in one small ``int64`` numpy array. The first
``HEADER_LEN`` entries have the same meaning in every game, so the generic Python wrapper
(:mod:`diceboard.core.kernel_game`), search and the batched simulator can read them without
knowing the game:

========  =================================================================
index     meaning
========  =================================================================
TO_MOVE   0 or 1: the player who decides next (while a chance event is
          pending, the player who moved)
RESULT    0 ongoing, 1 first player won, 2 second player won, 3 draw
REASON    an index into :data:`REASONS` (0 while the game goes on)
CLOCK     the no-capture clock of the position string
PLY       the ply counter of the position string
HASH      64-bit Zobrist hash of the position (board, player to move,
          phase, hand, pending roll), kept up to date by every kernel call
CHANCE    1 when the next event is a chance outcome, else 0
PHASE     game-specific phase number
========  =================================================================
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel.jit import (
    compile_for_callers,
    for_callers,
    njit,
    njit_borrowing,
    njit_inlined,
)

__all__ = [
    "CHANCE",
    "CLOCK",
    "HASH",
    "HEADER_LEN",
    "PHASE",
    "PLY",
    "REASON",
    "REASONS",
    "REASON_BLOCKED",
    "REASON_ELIMINATION",
    "REASON_IMMOBILIZED",
    "REASON_NO_CAPTURE_LIMIT",
    "REASON_REPETITION",
    "RESULT",
    "RESULT_DRAW",
    "RESULT_FIRST",
    "RESULT_NONE",
    "RESULT_SECOND",
    "TO_MOVE",
    "compile_for_callers",
    "count_in_history",
    "for_callers",
    "njit",
    "njit_borrowing",
    "njit_inlined",
    "push_history",
    "zobrist_keys",
]

TO_MOVE = 0
RESULT = 1
REASON = 2
CLOCK = 3
PLY = 4
HASH = 5
CHANCE = 6
PHASE = 7
HEADER_LEN = 8

RESULT_NONE = 0
RESULT_FIRST = 1
RESULT_SECOND = 2
RESULT_DRAW = 3

REASON_ELIMINATION = 1
REASON_BLOCKED = 2
REASON_REPETITION = 3
REASON_NO_CAPTURE_LIMIT = 4
REASON_IMMOBILIZED = 5
#: Outcome reasons by code, as the API spells them.
REASONS = ("", "elimination", "blocked", "repetition", "no-capture-limit", "immobilized")


def zobrist_keys(seed: int, count: int) -> np.ndarray:
    """``count`` fixed pseudo-random 64-bit keys; the same on every machine and run."""
    rng = np.random.Generator(np.random.PCG64(seed))
    return rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=count, dtype=np.int64)


@njit_borrowing
def count_in_history(history: np.ndarray, n: int, key: int) -> int:
    """How many of the first ``n`` hashes in ``history`` equal ``key``."""
    c = 0
    for i in range(n):
        if history[i] == key:
            c += 1
    return c


@njit_borrowing
def push_history(state: np.ndarray, history: np.ndarray, nhist: int, reset: bool) -> int:
    """Record the position of ``state`` (its HASH) for the repetition rule and return the new
    history length. ``reset`` (the number of dice changed) starts a new history. A full buffer
    drops its oldest entry (only the fixed-size buffers of search and simulation fill up)."""
    if reset or nhist == 0:
        history[0] = state[HASH]
        return 1
    if nhist == history.shape[0]:
        for i in range(nhist - 1):
            history[i] = history[i + 1]
        nhist -= 1
    history[nhist] = state[HASH]
    return nhist + 1
