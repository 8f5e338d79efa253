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
    RESULT_SECOND,
    count_in_history,
    njit,
)


@njit
def dice_count(state: np.ndarray, player: int) -> int:
    """Dice of ``player`` (0 White, 1 Black) on the board."""
    sign = 1 if player == 0 else -1
    n = 0
    for sq in range(NSQ):
        if state[BOARD + sq] * sign > 0:
            n += 1
    return n


@njit
def check_end(
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    two_passes: bool,
) -> None:
    """Decide whether the game is over after a move and record the result in ``state``."""
    white = 0
    black = 0
    for sq in range(NSQ):
        v = state[BOARD + sq]
        if v > 0:
            white += 1
        elif v < 0:
            black += 1
    if white < 2:
        state[RESULT] = RESULT_SECOND
        state[REASON] = REASON_ELIMINATION
    elif black < 2:
        state[RESULT] = RESULT_FIRST
        state[REASON] = REASON_ELIMINATION
    elif two_passes:
        state[RESULT] = RESULT_DRAW
        state[REASON] = REASON_BLOCKED
    elif count_in_history(history, nhist, state[HASH]) >= 3:
        state[RESULT] = RESULT_DRAW
        state[REASON] = REASON_REPETITION
    elif opts[OPT_NO_CAPTURE_LIMIT] > 0 and state[CLOCK] >= opts[OPT_NO_CAPTURE_LIMIT]:
        state[RESULT] = RESULT_DRAW
        state[REASON] = REASON_NO_CAPTURE_LIMIT


@njit
def check_static_end(state: np.ndarray, opts: np.ndarray) -> None:
    """The end checks that a position alone can decide (used when a position is parsed):
    elimination and the no-capture limit, in play-phase positions without a pending roll."""
    if state[PHASE] != PHASE_PLAY or state[CHANCE] == 1:
        return
    check_end(state, opts, np.zeros(1, dtype=np.int64), 0, False)
