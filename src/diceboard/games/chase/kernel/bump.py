"""Bumps: a die arriving on a friendly die takes its hex and pushes it one step on, with the
heading it arrived with; the pushed die does the same in turn (a bump chain).

A chain ends on an empty hex or by capturing an enemy die. A chain that would push a die into
the chamber makes the whole move illegal, so legality is decided before anything moves
(:func:`chain_end`) and the move is then played (:func:`push`).

Chains always end: each hex a chain has passed keeps a friendly die, so a chain could only
run forever around a closed line of friendly dice. Rows other than ``e`` are entered east or
west only by a die of that row, whose own hex is left empty; row ``e`` runs into the chamber;
and a slanting line closes only after more than 16 distinct hexes, while a side has 10 dice.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import put
from diceboard.games.chase.kernel.geometry import (
    CHAMBER,
    CHAMBER_DISTANCE,
    STEP_HEADING,
    STEP_TO,
)
from diceboard.games.chase.kernel.layout import BOARD
from diceboard.games.chase.kernel.trace import record
from diceboard.kernel import njit_borrowing


@njit_borrowing
def chain_stays_out(hex_index: int, heading: int, dice: int) -> bool:
    """Whether a chain arriving on ``hex_index`` with ``heading`` surely ends before the
    chamber, its side having ``dice`` dice on the board (the moving die included): to push a
    die into it the chain needs a friendly die on every hex of its line up to the chamber,
    more dice than the side has besides the moving one. (False: walk it with
    :func:`chain_end`.)"""
    return chain_stays_out_within(CHAMBER_DISTANCE[hex_index, heading], dice)


@njit_borrowing
def chain_stays_out_within(distance: int, dice: int) -> bool:
    """:func:`chain_stays_out` for a chain whose line reaches the chamber after ``distance``
    steps (its :data:`~.geometry.CHAMBER_DISTANCE`)."""
    return distance + 1 > dice - 1


@njit_borrowing
def chain_end(
    state: np.ndarray, hex_index: int, heading: int, sign: int, vacated: int, filled: int
) -> int:
    """Where the chain started by a die of side ``sign`` arriving on ``hex_index`` with
    ``heading`` stops (the hex itself when it is empty or holds an enemy die).

    The board is read as it is except that ``vacated`` (the moving die's start, or -1) counts
    as empty and ``filled`` (a hex an earlier chain of the same move ended on, or -1) as
    friendly; the chain itself only shifts friendly dice along its line, so nothing else
    changes before it has passed. Returns ``-1 - h`` when the die on ``h`` would be pushed into
    the chamber.
    """
    cur = hex_index
    head = heading
    while True:
        if cur == filled:
            occupant = sign
        elif cur == vacated:
            occupant = 0
        else:
            occupant = state[BOARD + cur]
        if occupant * sign <= 0:
            return cur
        nxt = STEP_TO[cur, head]
        head = STEP_HEADING[cur, head]
        if nxt == CHAMBER:
            return -1 - cur
        cur = nxt


@njit_borrowing
def push(
    state: np.ndarray,
    value: int,
    hex_index: int,
    heading: int,
    trace: np.ndarray,
    ntrace: int,
    segment: int,
) -> tuple[int, int]:
    """Put the die ``value`` on ``hex_index``, arriving with ``heading``, and play out the
    chain (assumed legal): a friendly die there is pushed on, an enemy die captured.

    Each pushed die is recorded in ``trace`` as a new segment ``[from, to]``. Returns the
    trace length and the last segment number.
    """
    carry = value
    cur = hex_index
    head = heading
    while True:
        before = state[BOARD + cur]
        put(state, cur, carry)
        if before * carry <= 0:  # empty, or an enemy die now captured
            return ntrace, segment
        nxt = STEP_TO[cur, head]
        head = STEP_HEADING[cur, head]
        segment += 1
        ntrace = record(trace, ntrace, segment, cur)
        ntrace = record(trace, ntrace, segment, nxt)
        carry = before
        cur = nxt
