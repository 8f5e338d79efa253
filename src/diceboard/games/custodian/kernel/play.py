"""Applying one action (a decision or a chance outcome) to a Custodian Dice state in place."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.captures import resolve_captures
from diceboard.games.custodian.kernel.endings import check_end
from diceboard.games.custodian.kernel.hashing import cell_key, rehash, to_move_key
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    JUMP,
    LAST_PASS,
    NDIR,
    NSQ,
    OPT_CAPTURE_SINGLE,
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
from diceboard.games.custodian.kernel.walks import jump_target
from diceboard.kernel import CHANCE, CLOCK, HASH, PHASE, PLY, TO_MOVE, njit, push_history


@njit
def step(state: np.ndarray, opts: np.ndarray, action: int, history: np.ndarray, nhist: int) -> int:
    """Apply ``action`` (assumed legal) to ``state`` in place.

    ``history[:nhist]`` holds the hashes of the play-phase positions since the last capture;
    the function updates it and returns its new length. When the action completes a move, the
    end of the game is checked and recorded in the state.
    """
    if action >= CHANCE_OUTCOME:
        face = action - CHANCE_OUTCOME + 1
        if state[PHASE] == PHASE_ROLLS:
            apply_setup_roll(state, face, opts[OPT_PLACEMENT_ROLLED] == 1)
            if state[PHASE] == PHASE_PLAY:
                return push_history(state, history, nhist, True)
            return nhist
        # the roll after a Chaos move completes that move
        sq = state[PENDING_SQ]
        sign = 1 if state[BOARD + sq] > 0 else -1
        state[BOARD + sq] = sign * face
        state[PENDING_SQ] = -1
        state[CHANCE] = 0
        rehash(state)
        return _finish_move(state, opts, sq, history, nhist, False)
    if action >= PASS:
        state[PLY] += 1
        state[CLOCK] += 1
        return _finish_move(state, opts, -1, history, nhist, True)
    if action >= PLACE:
        rel = action - PLACE
        if apply_placement(state, rel // NSQ + 1, rel % NSQ):
            return push_history(state, history, nhist, True)
        return nhist
    sign = 1 if state[TO_MOVE] == 0 else -1
    roll = opts[OPT_ROLL_FACES] == 1
    if action >= JUMP:
        rel = action - JUMP
        frm = rel // NDIR
        to = jump_target(state, frm, rel % NDIR)
        new_face = 7 - state[BOARD + frm] * sign
    elif action >= STEP_ROLL:
        rel = action - STEP_ROLL
        frm = rel // NSQ
        to = rel % NSQ
        new_face = 0
    else:
        rel = action - STEP_TURN
        frm = rel // 150
        to = (rel // 6) % NSQ
        new_face = rel % 6 + 1
    # the hash follows the move incrementally: the die leaves frm and lands on to
    state[HASH] ^= cell_key(frm, state[BOARD + frm])
    state[BOARD + frm] = 0
    state[PLY] += 1
    state[CLOCK] += 1
    if roll:
        # the move is complete only after its roll: a chance node with the die showing "?"
        state[BOARD + to] = sign * PENDING
        state[PENDING_SQ] = to
        state[CHANCE] = 1
        rehash(state)
        return nhist
    state[BOARD + to] = sign * new_face
    state[HASH] ^= cell_key(to, sign * new_face)
    return _finish_move(state, opts, to, history, nhist, False)


@njit
def _finish_move(
    state: np.ndarray, opts: np.ndarray, sq: int, history: np.ndarray, nhist: int, is_pass: bool
) -> int:
    captured = 0
    if sq >= 0:
        captured = resolve_captures(state, sq, opts[OPT_CAPTURE_SINGLE] == 1)
    if captured > 0:
        state[CLOCK] = 0
    two_passes = is_pass and state[LAST_PASS] == 1
    state[LAST_PASS] = 1 if is_pass else 0
    state[TO_MOVE] = 1 - state[TO_MOVE]
    # HASH is up to date but for the player to move (the move and its captures kept it)
    state[HASH] ^= to_move_key()
    nhist = push_history(state, history, nhist, captured > 0)
    check_end(state, opts, history, nhist, two_passes)
    return nhist
