"""Whole turns of a position whose player must absorb first, as numbers for the notation
layer: every distinct way to complete the absorption (its canonical hex sequence), and the
notation key of each move or transfer that may follow it.

Two absorb sequences that raise the dice to the same faces are the same turn prefix; its
canonical sequence is the smallest, hex by hex. A depth-first search that tries the hexes in
ascending order meets the sequences in that order, so the first sequence to reach a final
position is its canonical one. The search keeps an explicit stack (numba caches no recursive
function); at most ``DICE_PER_SIDE`` absorb steps make a prefix, as each raises another die.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.describe import notation_key
from diceboard.games.chase.kernel.geometry import NHEX
from diceboard.games.chase.kernel.layout import (
    ABSORB,
    BOARD,
    DICE_PER_SIDE,
    MAX_LEGAL,
    PHASE_ABSORB,
    STATE_LEN,
)
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel import PHASE, njit
from diceboard.kernel.arrays import copy_into, copy_whole

#: the most steps an absorption prefix takes
MAX_PREFIX = DICE_PER_SIDE


@njit
def _same_board(a: np.ndarray, b: np.ndarray) -> bool:
    for sq in range(BOARD, BOARD + NHEX):  # noqa: SIM110  (numba compiles no generator here)
        if a[sq] != b[sq]:
            return False
    return True


@njit
def absorption_turns(
    state: np.ndarray, opts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The turns of ``state`` (its player to move must absorb; the array is not changed).

    Returns ``(prefixes, lengths, starts, keys)``: completion ``i``'s canonical hex sequence
    is ``prefixes[i, :lengths[i]]``, in the order of those sequences, and the notation keys of
    the acts that may follow it are ``keys[starts[i]:starts[i + 1]]``, in notation order.
    """
    stack = np.empty((MAX_PREFIX + 1, STATE_LEN), dtype=np.int64)
    moves = np.empty((MAX_PREFIX + 1, MAX_LEGAL), dtype=np.int64)
    counts = np.zeros(MAX_PREFIX + 1, dtype=np.int64)
    index = np.zeros(MAX_PREFIX + 1, dtype=np.int64)
    no_history = np.zeros(1, dtype=np.int64)
    capacity = 16
    finals = np.empty((capacity, STATE_LEN), dtype=np.int64)
    prefixes = np.full((capacity, MAX_PREFIX), -1, dtype=np.int64)
    lengths = np.zeros(capacity, dtype=np.int64)
    found = 0
    copy_whole(stack[0], state)
    counts[0] = legal_actions(stack[0], opts, moves[0])
    index[0] = 0
    level = 0
    while level >= 0:
        if index[level] == counts[level]:
            level -= 1
            continue
        a = moves[level, index[level]]
        index[level] += 1
        child = stack[level + 1]
        copy_whole(child, stack[level])
        step(child, opts, a, no_history, 1)  # an absorb step touches no history
        if child[PHASE] == PHASE_ABSORB:
            level += 1
            counts[level] = legal_actions(child, opts, moves[level])
            index[level] = 0
            continue
        seen = False
        for j in range(found):
            if _same_board(finals[j], child):
                seen = True
                break
        if seen:
            continue
        if found == capacity:
            capacity *= 2
            grown_finals = np.empty((capacity, STATE_LEN), dtype=np.int64)
            for j in range(found):
                copy_whole(grown_finals[j], finals[j])
            finals = grown_finals
            grown_prefixes = np.full((capacity, MAX_PREFIX), -1, dtype=np.int64)
            for j in range(found):
                copy_whole(grown_prefixes[j], prefixes[j])
            prefixes = grown_prefixes
            grown_lengths = np.zeros(capacity, dtype=np.int64)
            copy_into(grown_lengths, lengths, found)
            lengths = grown_lengths
        copy_whole(finals[found], child)
        for k in range(level + 1):
            prefixes[found, k] = moves[k, index[k] - 1] - ABSORB
        lengths[found] = level + 1
        found += 1
    starts = np.zeros(found + 1, dtype=np.int64)
    keys = np.empty(found * MAX_LEGAL, dtype=np.int64)
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    total = 0
    for i in range(found):
        n = legal_actions(finals[i], opts, acts)
        for k in range(n):
            keys[total] = notation_key(finals[i], acts[k])
            total += 1
        starts[i + 1] = total
    return prefixes[:found].copy(), lengths[:found].copy(), starts, keys[:total].copy()


@njit
def legal_keys(state: np.ndarray, opts: np.ndarray, legal: np.ndarray, keys: np.ndarray) -> int:
    """Write the legal action ids of ``state`` (which is not changed) into ``legal`` and the
    notation key of each into ``keys``, in one call; how many there are."""
    work = state.copy()
    n = legal_actions(work, opts, legal)
    for i in range(n):
        keys[i] = notation_key(work, legal[i])
    return n
