"""The end of a Chase game, checked after every turn in the order of the rules: elimination
(either side down to four dice), repetition (a position's third occurrence since the number of
dice last changed; unless the option ``OPT_NO_REPETITION`` turns it off), the no-capture
limit, and immobilization of the player to move."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.layout import (
    COUNT,
    ELIMINATION_COUNT,
    OPT_NO_CAPTURE_LIMIT,
    OPT_NO_REPETITION,
)
from diceboard.games.chase.kernel.movegen import has_legal_turn
from diceboard.kernel import (
    CLOCK,
    HASH,
    REASON,
    REASON_ELIMINATION,
    REASON_IMMOBILIZED,
    REASON_NO_CAPTURE_LIMIT,
    REASON_REPETITION,
    RESULT,
    RESULT_DRAW,
    RESULT_FIRST,
    RESULT_SECOND,
    TO_MOVE,
    count_in_history,
    njit,
    njit_borrowing,
)


@njit_borrowing
def check_end(state: np.ndarray, opts: np.ndarray, history: np.ndarray, nhist: int) -> None:
    """Decide whether the game is over after a turn and record the result in ``state``
    (``history[:nhist]`` already holds the new position)."""
    if state[COUNT] <= ELIMINATION_COUNT:
        state[RESULT], state[REASON] = RESULT_SECOND, REASON_ELIMINATION
    elif state[COUNT + 1] <= ELIMINATION_COUNT:
        state[RESULT], state[REASON] = RESULT_FIRST, REASON_ELIMINATION
    elif opts[OPT_NO_REPETITION] == 0 and count_in_history(history, nhist, state[HASH]) >= 3:
        state[RESULT], state[REASON] = RESULT_DRAW, REASON_REPETITION
    elif opts[OPT_NO_CAPTURE_LIMIT] > 0 and state[CLOCK] >= opts[OPT_NO_CAPTURE_LIMIT]:
        state[RESULT], state[REASON] = RESULT_DRAW, REASON_NO_CAPTURE_LIMIT
    elif not has_legal_turn(state):
        # the player to move loses: RESULT_FIRST + 1 - to_move is the other player's win
        state[RESULT], state[REASON] = RESULT_FIRST + 1 - state[TO_MOVE], REASON_IMMOBILIZED


@njit
def check_static_end(state: np.ndarray, opts: np.ndarray) -> None:
    """The end checks that a position alone can decide (a parsed position has no history):
    elimination, the no-capture limit and immobilization."""
    # an empty view, not a new array: an allocation here made the server's first compile
    # compile numpy's zeros (0.2 s of a cold start); a length that is not a literal
    # constant keeps numba to the one compiled check_end
    no_history = state[:0]
    check_end(state, opts, no_history, no_history.shape[0])
