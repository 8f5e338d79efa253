"""Writing the board: every change of a hex goes through :func:`put`, which keeps the fields
that follow from the board (counts, totals, occupancy, hash) up to date, so no rule
recomputes them."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.geometry import HEX_BIT, HEX_WORD, NHEX, WORD_BITS
from diceboard.games.chase.kernel.hashing import RED_TO_MOVE_KEY, cell_key, full_hash
from diceboard.games.chase.kernel.layout import (
    BOARD,
    COUNT,
    FULL_TOTAL,
    OCCUPIED,
    PHASE_ABSORB,
    PHASE_ACT,
    SIDE_OCCUPIED,
    TOTAL,
)
from diceboard.kernel import HASH, PHASE, TO_MOVE, njit_borrowing
from diceboard.kernel.bits import lowest_bit_index


@njit_borrowing
def side_sign(player: int) -> int:
    """+1 for Blue (player 0), -1 for Red: the sign of that player's cells."""
    return 1 - 2 * player


@njit_borrowing
def pop_hex(word: int, bits: int) -> tuple[int, int]:
    """The lowest hex of ``bits``, an occupancy word (number ``word``: see
    :data:`.geometry.HEX_BIT`), and ``bits`` without it: ``while bits: sq, bits =
    pop_hex(word, bits)`` visits its hexes in board order."""
    return word * WORD_BITS + lowest_bit_index(bits), bits & (bits - 1)


@njit_borrowing
def put(state: np.ndarray, hex_index: int, value: int) -> None:
    """Set a hex to ``value`` (0, ``+face`` Blue, ``-face`` Red)."""
    old = state[BOARD + hex_index]
    word = HEX_WORD[hex_index]
    bit = HEX_BIT[hex_index]
    if old > 0:
        state[COUNT] -= 1
        state[TOTAL] -= old
        state[SIDE_OCCUPIED + word] ^= bit
    elif old < 0:
        state[COUNT + 1] -= 1
        state[TOTAL + 1] += old
        state[SIDE_OCCUPIED + 2 + word] ^= bit
    if value > 0:
        state[COUNT] += 1
        state[TOTAL] += value
        state[SIDE_OCCUPIED + word] ^= bit
    elif value < 0:
        state[COUNT + 1] += 1
        state[TOTAL + 1] -= value
        state[SIDE_OCCUPIED + 2 + word] ^= bit
    if (old == 0) != (value == 0):
        state[OCCUPIED + word] ^= bit
    state[HASH] ^= cell_key(hex_index, old) ^ cell_key(hex_index, value)
    state[BOARD + hex_index] = value


@njit_borrowing
def set_phase(state: np.ndarray) -> None:
    """PHASE: absorb while the player to move totals less than 25, else act."""
    short = state[TOTAL + state[TO_MOVE]] < FULL_TOTAL
    state[PHASE] = PHASE_ABSORB if short else PHASE_ACT


@njit_borrowing
def pass_turn(state: np.ndarray) -> None:
    """Hand the turn to the other player."""
    state[TO_MOVE] = 1 - state[TO_MOVE]
    state[HASH] ^= RED_TO_MOVE_KEY
    set_phase(state)


@njit_borrowing
def refresh(state: np.ndarray) -> None:
    """Recompute counts, totals, occupancy, hash and phase from the board and the player to
    move (after the board was filled directly, as a parser does)."""
    for p in range(2):
        state[COUNT + p] = 0
        state[TOTAL + p] = 0
        state[OCCUPIED + p] = 0
        state[SIDE_OCCUPIED + 2 * p] = 0
        state[SIDE_OCCUPIED + 2 * p + 1] = 0
    for sq in range(NHEX):
        v = state[BOARD + sq]
        if v != 0:
            state[OCCUPIED + HEX_WORD[sq]] |= HEX_BIT[sq]
        if v > 0:
            state[COUNT] += 1
            state[TOTAL] += v
            state[SIDE_OCCUPIED + HEX_WORD[sq]] |= HEX_BIT[sq]
        elif v < 0:
            state[COUNT + 1] += 1
            state[TOTAL + 1] -= v
            state[SIDE_OCCUPIED + 2 + HEX_WORD[sq]] |= HEX_BIT[sq]
    state[HASH] = full_hash(state)
    set_phase(state)
