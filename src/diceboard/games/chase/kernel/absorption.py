"""Absorption: a side whose dice total 25 − d after losing dice raises its lowest dice before
it acts. Each absorb step picks one of the lowest dice (any one of them when tied) and raises
it by min(d, 6 − face); the steps go on until d = 0."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import pop_hex, put, set_phase, side_sign
from diceboard.games.chase.kernel.geometry import WORD_BITS
from diceboard.games.chase.kernel.layout import BOARD, FULL_TOTAL, SIDE_OCCUPIED, TOTAL
from diceboard.kernel import TO_MOVE, njit_borrowing


@njit_borrowing
def missing_pips(state: np.ndarray) -> int:
    """How many pips the player to move still has to absorb (0 when it totals 25)."""
    return max(0, FULL_TOTAL - state[TOTAL + state[TO_MOVE]])


@njit_borrowing
def lowest_face(state: np.ndarray) -> int:
    """The lowest face among the dice of the player to move (7 when it has none)."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    own = SIDE_OCCUPIED + 2 * player
    low = 7
    # the side's dice from its occupancy words, not a scan of the 81 hexes: the absorb
    # searches of move generation ask for them at every step
    for word in range(2):
        bits = state[own + word]
        while bits:
            sq, bits = pop_hex(word, bits)
            low = min(low, state[BOARD + sq] * sign)
    return low


@njit_borrowing
def next_lowest(state: np.ndarray, low: int, start: int) -> int:
    """The first hex from ``start`` on that holds a die of the player to move showing
    ``low``, or -1."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    own = SIDE_OCCUPIED + 2 * player
    for word in range(2):
        skip = start - word * WORD_BITS  # the word's bits below ``start``
        if skip >= WORD_BITS:
            continue
        bits = state[own + word]
        if skip > 0:
            bits &= ~((1 << skip) - 1)
        while bits:
            sq, bits = pop_hex(word, bits)
            if state[BOARD + sq] * sign == low:
                return sq
    return -1


@njit_borrowing
def absorb(state: np.ndarray, hex_index: int) -> None:
    """Raise the die on ``hex_index`` (assumed one of the lowest) by as many missing pips
    as it can take."""
    sign = side_sign(state[TO_MOVE])
    face = state[BOARD + hex_index] * sign
    raised = min(missing_pips(state), 6 - face)
    put(state, hex_index, sign * (face + raised))
    set_phase(state)


@njit_borrowing
def unabsorb(state: np.ndarray, hex_index: int, value: int) -> None:
    """Undo :func:`absorb`: put the die on ``hex_index`` back to ``value`` (its signed cell
    before) and the phase with it (the hash and totals follow the board)."""
    put(state, hex_index, value)
    set_phase(state)
