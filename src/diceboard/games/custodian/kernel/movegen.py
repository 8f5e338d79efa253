"""Legal actions of a Custodian Dice state, written into a preallocated buffer."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    FULL_MASK,
    JUMP,
    NDIR,
    NSQ,
    OPT_JUMPING,
    OPT_ROLL_FACES,
    OPT_SELF_AVOIDING,
    PASS,
    PHASE_PLACEMENT,
    STEP_ROLL,
    STEP_TURN,
)
from diceboard.games.custodian.kernel.setup import placement_actions
from diceboard.games.custodian.kernel.walks import (
    jump_target,
    lowest_square,
    occupied_mask,
    side_masks,
    step_destinations,
)
from diceboard.kernel import CHANCE, PHASE, RESULT, TO_MOVE, njit


@njit
def legal_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of ``state`` into ``out`` and return how many there are.

    At a chance node these are the six roll outcomes; in a finished game there are none.
    Decisions come out in the order of their notation strings.
    """
    if state[RESULT] != 0:
        return 0
    if state[CHANCE] == 1:
        for k in range(6):
            out[k] = CHANCE_OUTCOME + k
        return 6
    if state[PHASE] == PHASE_PLACEMENT:
        return placement_actions(state, out)
    return play_actions(state, opts, out)


@njit
def play_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Steps and jumps of the player to move, or the forced ``pass`` when there are none.
    Loops over the set bits of the masks (the mover's dice, each die's destinations), in
    ascending square order, so that the moves come out sorted by their notation."""
    white, black = side_masks(state)
    sign = 1 if state[TO_MOVE] == 0 else -1
    own = white if sign == 1 else black
    empty = ~(white | black) & FULL_MASK
    roll = opts[OPT_ROLL_FACES] == 1
    jumping = opts[OPT_JUMPING] == 1
    self_avoiding = opts[OPT_SELF_AVOIDING] == 1
    n = 0
    while own:
        sq = lowest_square(own)
        own &= own - 1
        face = state[BOARD + sq] * sign
        dests = step_destinations(sq, face, empty | (1 << sq), self_avoiding)
        while dests:
            to = lowest_square(dests)
            dests &= dests - 1
            if roll:
                out[n] = STEP_ROLL + sq * NSQ + to
                n += 1
            else:
                base = STEP_TURN + sq * 150 + to * 6 - 1
                for new_face in range(1, 7):
                    if new_face != face and new_face != 7 - face:
                        out[n] = base + new_face
                        n += 1
        if jumping:
            for d in range(NDIR):
                if jump_target(state, sq, d) >= 0:
                    out[n] = JUMP + sq * NDIR + d
                    n += 1
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@njit
def has_step_or_jump(state: np.ndarray, opts: np.ndarray) -> bool:
    """Whether the player to move has any move besides ``pass``."""
    sign = 1 if state[TO_MOVE] == 0 else -1
    empty = ~occupied_mask(state) & FULL_MASK
    for sq in range(NSQ):
        face = state[BOARD + sq] * sign
        if face <= 0:
            continue
        if step_destinations(sq, face, empty | (1 << sq), opts[OPT_SELF_AVOIDING] == 1) != 0:
            return True
        if opts[OPT_JUMPING] == 1:
            for d in range(NDIR):
                if jump_target(state, sq, d) >= 0:
                    return True
    return False
