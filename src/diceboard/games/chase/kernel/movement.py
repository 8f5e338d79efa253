"""Moves: a die with face v goes exactly v steps in a straight line (wrapping east–west,
ricocheting off rows a and i). Every hex it passes before the last must be empty and not the
chamber; the last decides: empty (stop), enemy (capture), friendly (bump), chamber (split).
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import put, side_sign
from diceboard.games.chase.kernel.bump import chain_end, chain_stays_out, push
from diceboard.games.chase.kernel.chamber import split, split_end
from diceboard.games.chase.kernel.geometry import (
    CANDIDATE_MASK,
    CHAMBER,
    HEX_BIT,
    HEX_WORD,
    MOVE_CANDIDATES,
    PATH,
    PATH_HEADING,
    PATH_MASK,
)
from diceboard.games.chase.kernel.layout import BOARD, COUNT, OCCUPIED
from diceboard.games.chase.kernel.trace import record
from diceboard.kernel import TO_MOVE, njit_borrowing

# what move_status finds
MOVE_QUIET = 0  # legal, written with "-": an empty hex, a bump or the chamber
MOVE_CAPTURE = 1  # legal, written with "x": the landing hex holds an enemy die
MOVE_BLOCKED = 2  # a die stands on a hex the path passes (that hex is returned)
MOVE_THROUGH_CHAMBER = 3  # the path passes the chamber before its last step
MOVE_INTO_CHAMBER = 4  # a bump chain would push the die on the returned hex into the chamber


# the chamber is never occupied but blocks every path: it is hex 40, a bit of word 0
assert HEX_WORD[CHAMBER] == 0
_CHAMBER_BIT = int(HEX_BIT[CHAMBER])


@njit_borrowing
def path_clear(state: np.ndarray, frm: int, d: int, face: int) -> bool:
    """Whether every hex a die with ``face`` passes from ``frm`` in direction ``d`` before its
    last step is empty and not the chamber (two bitset tests)."""
    mask = PATH_MASK[frm, d, face]
    blocked = mask[0] & (state[OCCUPIED] | _CHAMBER_BIT) | mask[1] & state[OCCUPIED + 1]
    return blocked == 0


@njit_borrowing
def path_obstacle(state: np.ndarray, frm: int, d: int, face: int) -> tuple[int, int]:
    """The first thing in the way of a path that is not clear: ``(MOVE_THROUGH_CHAMBER,
    chamber)`` or ``(MOVE_BLOCKED, hex of the die)``."""
    for k in range(face - 1):
        p = PATH[frm, d, k]
        if p == CHAMBER:
            return MOVE_THROUGH_CHAMBER, p
        if state[BOARD + p] != 0:
            return MOVE_BLOCKED, p
    return MOVE_QUIET, -1  # not reached: called only for a path that is not clear


@njit_borrowing
def move_status(state: np.ndarray, frm: int, d: int) -> tuple[int, int]:
    """Whether the die on ``frm`` (of the player to move) may move in direction ``d``:
    ``(MOVE_QUIET or MOVE_CAPTURE, landing hex)`` when it may, else the reason and the hex
    at fault."""
    player = state[TO_MOVE]
    return die_move_status(state, frm, d, state[BOARD + frm] * side_sign(player), player)


@njit_borrowing
def die_move_status(state: np.ndarray, frm: int, d: int, face: int, player: int) -> tuple[int, int]:
    """:func:`move_status` for a die of ``player`` showing ``face`` (move generation knows
    both already).

    Move generation does not call this: it tests each path with :func:`candidate_clear`
    and settles an empty or enemy landing hex itself (:func:`landing_kind`), never looking
    for an obstacle (which only the message of an illegal move needs)."""
    if not path_clear(state, frm, d, face):
        status, where = path_obstacle(state, frm, d, face)
    else:
        status, where = landing_status(state, frm, d, face, player)
    return status, where


# what a move's last step meets (landing_kind)
LAND_STOP = 0  # an empty hex: the die stops there
LAND_CAPTURE = 1  # an enemy die, captured
LAND_WALK = 2  # a friendly die to bump or the chamber: the move goes on (a chain, a split)


@njit_borrowing
def landing_kind(target: int, land: int) -> int:
    """What the last step of a move meets on ``land``, where ``target`` is the die there as
    the moving side sees it (its face, negative for an enemy die, 0 for none)."""
    _, capture, walk = landing_flags(target, land)
    return LAND_CAPTURE * int(capture) + LAND_WALK * int(walk)


@njit_borrowing
def landing_flags(target: int, land: int) -> tuple[bool, bool, bool]:
    """:func:`landing_kind` as three flags, exactly one of them true: whether the die stops,
    captures or walks on (a bump or a split). Computed without branches: move generation
    settles six candidates of a die at once (the chamber is never occupied, so its hex has
    no die to capture)."""
    return (target == 0) & (land != CHAMBER), target < 0, (target > 0) | (land == CHAMBER)


@njit_borrowing
def landing_status(state: np.ndarray, frm: int, d: int, face: int, player: int) -> tuple[int, int]:
    """:func:`die_move_status` for a path known to be clear (:func:`path_clear`): what the
    last step meets decides (move generation calls this only for a clear path that lands on
    a friendly die or the chamber)."""
    sign = side_sign(player)
    status = MOVE_QUIET
    land = PATH[frm, d, face - 1]
    kind = landing_kind(state[BOARD + land] * sign, land)
    where = land
    if kind == LAND_CAPTURE:
        status = MOVE_CAPTURE
    elif kind == LAND_WALK:
        heading = PATH_HEADING[frm, d, face - 1]
        if land == CHAMBER:
            end = split_end(state, face, heading, sign, state[COUNT + player], frm)
        elif chain_stays_out(land, heading, state[COUNT + player]):
            end = land  # a bump whose chain cannot reach the chamber: no need to walk it
        else:
            end = chain_end(state, land, heading, sign, frm, -1)
        if end < 0:
            status = MOVE_INTO_CHAMBER
            where = -1 - end
    return status, where


@njit_borrowing
def candidate_clear(state: np.ndarray, frm: int, face: int, j: int) -> bool:
    """:func:`path_clear` for the ``j``-th move candidate of a die with ``face`` on ``frm``
    (:data:`~.geometry.MOVE_CANDIDATES`, whose paths never pass the chamber)."""
    return candidate_path_clear(state[OCCUPIED], state[OCCUPIED + 1], frm, face, j)


@njit_borrowing
def candidate_path_clear(occupied0: int, occupied1: int, frm: int, face: int, j: int) -> bool:
    """:func:`candidate_clear` given the two occupancy words (read once for every candidate)."""
    blocked = (
        MOVE_CANDIDATES[frm, face, j, CANDIDATE_MASK] & occupied0
        | MOVE_CANDIDATES[frm, face, j, CANDIDATE_MASK + 1] & occupied1
    )
    return blocked == 0


@njit_borrowing
def play_move(state: np.ndarray, frm: int, d: int, trace: np.ndarray) -> int:
    """Move the die on ``frm`` in direction ``d`` (assumed legal), resolving bumps, captures
    and the split; the player to move is unchanged. Records the path and every displaced die
    in ``trace`` and returns the trace length."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    face = state[BOARD + frm] * sign
    # the spare for a split is counted with the moving die still on the board
    dice_on_board = state[COUNT + player]
    put(state, frm, 0)
    ntrace = record(trace, 0, 0, frm)
    for k in range(face):
        ntrace = record(trace, ntrace, 0, PATH[frm, d, k])
    land = PATH[frm, d, face - 1]
    heading = PATH_HEADING[frm, d, face - 1]
    if land == CHAMBER:
        ntrace, _ = split(state, face, heading, sign, dice_on_board, trace, ntrace, 0)
    else:
        ntrace, _ = push(state, sign * face, land, heading, trace, ntrace, 0)
    return ntrace
