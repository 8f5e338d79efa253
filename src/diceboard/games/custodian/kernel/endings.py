"""The end of a Custodian Dice game, checked after every completed play-phase move in the
order of the rules: elimination, blocked, repetition, no-capture limit."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import BOARD, NSQ, OPT_NO_CAPTURE_LIMIT, PHASE_PLAY
from diceboard.kernel import (
    CHANCE,
    CLOCK,
    HASH,
    PHASE,
    REASON,
    REASON_BLOCKED,
    REASON_ELIMINATION,
    REASON_NO_CAPTURE_LIMIT,
    REASON_REPETITION,
    RESULT,
    RESULT_DRAW,
    RESULT_FIRST,
    RESULT_NONE,
    RESULT_SECOND,
    njit,
    njit_borrowing,
)


@njit_borrowing
def dice_count(state: np.ndarray, player: int) -> int:
    """Dice of ``player`` (0 White, 1 Black) on the board."""
    sign = 1 if player == 0 else -1
    n = 0
    for sq in range(NSQ):
        if state[BOARD + sq] * sign > 0:
            n += 1
    return n


@njit_borrowing
def check_end(
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    two_passes: bool,
) -> None:
    """Decide whether the game is over after a move and record the result in ``state``."""
    check_move_end(state, history, nhist, two_passes, True, opts[OPT_NO_CAPTURE_LIMIT])


@njit_borrowing
def check_move_end(
    state: np.ndarray,
    history: np.ndarray,
    nhist: int,
    two_passes: bool,
    captured: bool,
    limit: int,
) -> None:
    """:func:`check_end` after a move that ``captured`` or not: the dice are counted only after
    a capture, since only a capture removes dice in the play phase (a move that took nothing
    cannot have left a player with fewer than two, the end having been checked before).

    Written so that numba can drop the reference counting of its array arguments (atomic
    operations, a good part of a ply's time): each array is read on every path, in one place,
    and the function has one exit, so each argument's incref and decref pair up."""
    seen = 0
    key = state[HASH]
    for i in range(nhist):
        if history[i] == key:
            seen += 1
    result = RESULT_NONE
    reason = 0
    if captured:
        white = 0
        black = 0
        for sq in range(NSQ):
            v = state[BOARD + sq]
            if v > 0:
                white += 1
            elif v < 0:
                black += 1
        if white < 2:
            result = RESULT_SECOND
            reason = REASON_ELIMINATION
        elif black < 2:
            result = RESULT_FIRST
            reason = REASON_ELIMINATION
    if result != RESULT_NONE:
        pass
    elif two_passes:
        result = RESULT_DRAW
        reason = REASON_BLOCKED
    elif seen >= 3:
        result = RESULT_DRAW
        reason = REASON_REPETITION
    elif limit > 0 and state[CLOCK] >= limit:
        result = RESULT_DRAW
        reason = REASON_NO_CAPTURE_LIMIT
    if result != RESULT_NONE:
        state[RESULT] = result
        state[REASON] = reason


@njit
def check_static_end(state: np.ndarray, opts: np.ndarray) -> None:
    """The end checks that a position alone can decide (used when a position is parsed):
    elimination and the no-capture limit, in play-phase positions without a pending roll."""
    if state[PHASE] != PHASE_PLAY or state[CHANCE] == 1:
        return
    # no history: an empty view, not a new array (an allocation here made the server's first
    # compile compile numpy's zeros, 0.2 s of a cold start)
    check_end(state, opts, state[:0], 0, False)
