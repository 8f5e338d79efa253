"""Legal actions of a Chase state, and whether a player has any legal turn at all.

Actions come out in the order of their notation: absorb actions by hex; otherwise, hex by hex
in board order, a die's moves written with ``-`` (by landing hex, then direction name), then
the transfers in which it is the first die (by its new face, then its partner), then its
captures — exactly how ``-`` < ``=`` < ``x`` sort.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.absorption import absorb, lowest_face, next_lowest
from diceboard.games.chase.kernel.board import side_sign
from diceboard.games.chase.kernel.geometry import (
    DIR_ORDER,
    N_STARTS,
    N_UPPER,
    NDIR,
    NEIGHBOUR,
    NHEX,
    PAIR_DIRS,
    STARTS,
    UPPER,
    UPPER_PAIR,
)
from diceboard.games.chase.kernel.layout import (
    ABSORB,
    BOARD,
    DICE_PER_SIDE,
    MOVE,
    PHASE_ABSORB,
    STATE_LEN,
    TRANSFER,
)
from diceboard.games.chase.kernel.movement import (
    MOVE_CAPTURE,
    MOVE_QUIET,
    die_move_status,
)
from diceboard.games.chase.kernel.transfer import can_transfer, new_face_range
from diceboard.kernel import PHASE, RESULT, TO_MOVE, njit


@njit
def legal_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of ``state`` into ``out`` and return how many there are
    (none once the game is over)."""
    if state[RESULT] != 0:
        return 0
    if state[PHASE] == PHASE_ABSORB:
        return absorb_actions(state, out)
    return act_actions(state, out)


@njit
def absorb_actions(state: np.ndarray, out: np.ndarray) -> int:
    """The lowest dice of the player to move, each one only if raising it still leaves a
    legal turn to complete."""
    low = lowest_face(state)
    child = np.empty(STATE_LEN, dtype=np.int64)
    n = 0
    sq = next_lowest(state, low, 0)
    while sq >= 0:
        child[:] = state
        absorb(child, sq)
        if has_legal_turn(child):
            out[n] = ABSORB + sq
            n += 1
        sq = next_lowest(state, low, sq + 1)
    return n


@njit
def act_actions(state: np.ndarray, out: np.ndarray) -> int:
    """The moves and transfers of the player to move, in notation order."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    n = 0
    for sq in range(NHEX):
        face = state[BOARD + sq] * sign
        if face <= 0:
            continue
        captures = 0  # bit j: the j-th direction in notation order captures
        for j in range(N_STARTS[sq]):
            d = DIR_ORDER[sq, face, j]
            status = die_move_status(state, sq, d, face, player)[0]
            if status == MOVE_QUIET:
                out[n] = MOVE + sq * NDIR + d
                n += 1
            elif status == MOVE_CAPTURE:
                captures |= 1 << j
        n = transfers_led_by(state, sq, face, sign, out, n)
        for j in range(N_STARTS[sq]):
            if (captures >> j) & 1:
                out[n] = MOVE + sq * NDIR + DIR_ORDER[sq, face, j]
                n += 1
    return n


@njit
def transfers_led_by(
    state: np.ndarray, lo: int, face: int, sign: int, out: np.ndarray, n: int
) -> int:
    """Append the transfers whose first hex in board order is ``lo`` (showing ``face``), by
    its new face and then by partner, as the notation sorts."""
    # the friendly partners first (most dice have none): bit j for UPPER[lo, j]
    partners = 0
    for j in range(N_UPPER[lo]):
        if state[BOARD + UPPER[lo, j]] * sign > 0:
            partners |= 1 << j
    if partners == 0:
        return n
    for new_face in range(1, 7):
        if new_face == face:
            continue
        for j in range(N_UPPER[lo]):
            if not (partners >> j) & 1:
                continue
            total = face + state[BOARD + UPPER[lo, j]] * sign
            least, most = new_face_range(total)
            if not least <= new_face <= most:
                continue
            pair = UPPER_PAIR[lo, j]
            anchor_face = new_face if pair // len(PAIR_DIRS) == lo else total - new_face
            out[n] = TRANSFER + pair * 6 + anchor_face - 1
            n += 1
    return n


@njit
def has_act(state: np.ndarray) -> bool:
    """Whether the player to move (having absorbed) has a legal move or transfer."""
    sign = side_sign(state[TO_MOVE])
    for sq in range(NHEX):
        a = state[BOARD + sq] * sign
        if a <= 0:
            continue
        for k in range(len(PAIR_DIRS)):
            p = NEIGHBOUR[sq, PAIR_DIRS[k]]
            if p >= 0:
                b = state[BOARD + p] * sign
                if b > 0 and can_transfer(a, b):
                    return True
    player = state[TO_MOVE]
    for sq in range(NHEX):
        face = state[BOARD + sq] * sign
        if face <= 0:
            continue
        for d in range(NDIR):
            if STARTS[sq, d] and die_move_status(state, sq, d, face, player)[0] <= MOVE_CAPTURE:
                return True
    return False


@njit
def has_legal_turn(state: np.ndarray) -> bool:
    """Whether the player to move has a legal turn: some way to absorb (if it must) after
    which a move or transfer is legal."""
    if state[PHASE] != PHASE_ABSORB:
        return has_act(state)
    return _absorption_leads_to_an_act(state)


@njit
def _absorption_leads_to_an_act(state: np.ndarray) -> bool:
    """A depth-first search over the absorb choices with an explicit stack (each step
    raises a different die, so it is at most 10 deep): is there an act at the end of one?"""
    stack = np.empty((DICE_PER_SIDE + 1, STATE_LEN), dtype=np.int64)
    resume = np.zeros(DICE_PER_SIDE + 1, dtype=np.int64)
    stack[0, :] = state
    level = 0
    while level >= 0:
        cur = stack[level]
        if cur[PHASE] != PHASE_ABSORB:
            if has_act(cur):
                return True
            level -= 1
            continue
        sq = next_lowest(cur, lowest_face(cur), resume[level])
        if sq < 0:
            level -= 1
            continue
        resume[level] = sq + 1
        level += 1
        stack[level, :] = cur
        absorb(stack[level], sq)
        resume[level] = 0
    return False
