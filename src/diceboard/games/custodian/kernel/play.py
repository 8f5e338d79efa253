"""Applying one action (a decision or a chance outcome) to a Custodian Dice state in place."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.captures import resolve_captures
from diceboard.games.custodian.kernel.endings import check_move_end
from diceboard.games.custodian.kernel.hashing import cell_key, rehash, to_move_key
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    JUMP,
    LAST_PASS,
    NDIR,
    NEIGHBOUR,
    NSQ,
    OPT_CAPTURE_SINGLE,
    OPT_NO_CAPTURE_LIMIT,
    OPT_PLACEMENT_ROLLED,
    OPT_ROLL_FACES,
    PASS,
    PENDING,
    PENDING_SQ,
    PHASE_PLAY,
    PHASE_ROLLS,
    PLACE,
    STEP_ROLL,
    STEP_TURN,
)
from diceboard.games.custodian.kernel.setup import apply_placement, apply_setup_roll
from diceboard.kernel import CHANCE, CLOCK, HASH, PHASE, PLY, TO_MOVE, njit_borrowing, push_history


@njit_borrowing
def step(state: np.ndarray, opts: np.ndarray, action: int, history: np.ndarray, nhist: int) -> int:
    """Apply ``action`` (assumed legal) to ``state`` in place.

    ``history[:nhist]`` holds the hashes of the play-phase positions since the last capture;
    the function updates it and returns its new length. When the action completes a move, the
    end of the game is checked and recorded in the state.

    The options are read first and the functions it calls take what they need of them as
    numbers: an array argument costs a compiled call two atomic reference-count operations
    unless numba can prune them, which it can only in a function that calls nothing that
    does not compile into it (see :func:`_finish_move`).
    """
    single = opts[OPT_CAPTURE_SINGLE] == 1
    roll = opts[OPT_ROLL_FACES] == 1
    rolled = opts[OPT_PLACEMENT_ROLLED] == 1
    limit = opts[OPT_NO_CAPTURE_LIMIT]
    if action < PLACE and not roll:
        # a step or a jump: most plies of a game
        sign = 1 if state[TO_MOVE] == 0 else -1
        if action >= JUMP:
            rel = action - JUMP
            frm = rel // NDIR
            d = rel % NDIR
            to = NEIGHBOUR[NEIGHBOUR[frm, d], d]  # a legal jump lands two squares on
            new_face = 7 - state[BOARD + frm] * sign
        else:
            rel = action - STEP_TURN
            frm = rel // 150
            to = (rel // 6) % NSQ
            new_face = rel % 6 + 1
        # the hash follows the move incrementally: the die leaves frm and lands on to
        state[HASH] ^= cell_key(frm, state[BOARD + frm]) ^ cell_key(to, sign * new_face)
        state[BOARD + frm] = 0
        state[BOARD + to] = sign * new_face
        state[PLY] += 1
        state[CLOCK] += 1
        nhist = _finish_move(state, history, nhist, to, False, single, limit)
    elif action >= CHANCE_OUTCOME:
        face = action - CHANCE_OUTCOME + 1
        if state[PHASE] == PHASE_ROLLS:
            apply_setup_roll(state, face, rolled)
            if state[PHASE] == PHASE_PLAY:
                nhist = push_history(state, history, nhist, True)
        else:
            # the roll after a Chaos move completes that move
            sq = state[PENDING_SQ]
            sign = 1 if state[BOARD + sq] > 0 else -1
            state[BOARD + sq] = sign * face
            state[PENDING_SQ] = -1
            state[CHANCE] = 0
            rehash(state)
            nhist = _finish_move(state, history, nhist, sq, False, single, limit)
    elif action >= PASS:
        state[PLY] += 1
        state[CLOCK] += 1
        nhist = _finish_move(state, history, nhist, -1, True, single, limit)
    elif action >= PLACE:
        rel = action - PLACE
        if apply_placement(state, rel // NSQ + 1, rel % NSQ):
            nhist = push_history(state, history, nhist, True)
    else:
        # a step in Chaos: complete only after its roll, a chance node with the die showing "?"
        sign = 1 if state[TO_MOVE] == 0 else -1
        if action >= JUMP:
            rel = action - JUMP
            frm = rel // NDIR
            d = rel % NDIR
            to = NEIGHBOUR[NEIGHBOUR[frm, d], d]
        else:
            rel = action - STEP_ROLL
            frm = rel // NSQ
            to = rel % NSQ
        state[BOARD + frm] = 0
        state[PLY] += 1
        state[CLOCK] += 1
        state[BOARD + to] = sign * PENDING
        state[PENDING_SQ] = to
        state[CHANCE] = 1
        rehash(state)
    return nhist


@njit_borrowing
def _finish_move(
    state: np.ndarray,
    history: np.ndarray,
    nhist: int,
    sq: int,
    is_pass: bool,
    single: bool,
    limit: int,
) -> int:
    """The end of a completed move (``sq`` the square the die moved to, -1 for a pass): its
    captures, the turn passing, the history and the end of the game."""
    captured = 0
    if sq >= 0:
        captured = resolve_captures(state, sq, single)
    if captured > 0:
        state[CLOCK] = 0
    two_passes = is_pass and state[LAST_PASS] == 1
    state[LAST_PASS] = 1 if is_pass else 0
    state[TO_MOVE] = 1 - state[TO_MOVE]
    # HASH is up to date but for the player to move (the move and its captures kept it)
    state[HASH] ^= to_move_key()
    nhist = push_history(state, history, nhist, captured > 0)
    check_move_end(state, history, nhist, two_passes, captured > 0, limit)
    return nhist
