"""Legal actions of a Custodian Dice state, written into a preallocated buffer."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    FULL_MASK,
    HAND,
    JUMP,
    NDIR,
    NSQ,
    OPT_JUMPING,
    OPT_ROLL_FACES,
    OPT_SELF_AVOIDING,
    PASS,
    PHASE_PLACEMENT,
    PLACE,
    STEP_ROLL,
    STEP_TURN,
)
from diceboard.games.custodian.kernel.setup import home_rank
from diceboard.games.custodian.kernel.walks import (
    jump_target,
    jumpers,
    occupied_mask,
    self_avoiding_ends,
    shift,
    step_destinations,
)
from diceboard.kernel import CHANCE, PHASE, RESULT, TO_MOVE, njit_borrowing
from diceboard.kernel.bits import lowest_bit_index


@njit_borrowing
def legal_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of ``state`` into ``out`` and return how many there are.

    At a chance node these are the six roll outcomes; in a finished game there are none.
    Decisions come out in the order of their notation strings: placements face by face and
    squares in name order; steps and jumps die by die in square order, each die's steps by
    destination and new face, then its jumps (W, S, N, E); the forced pass when there is no
    step or jump.

    Written as one function that reads its arrays up front (the options, then the whole
    state into masks) and calls no compiled function but the small ones LLVM inlines: numba
    can then drop the reference counting of its three arrays, atomic operations that cost
    as much as the rest of the move generation (about 15 ns each on the 2-core machine,
    two per array and call).
    """
    roll = opts[OPT_ROLL_FACES] == 1
    jumping = opts[OPT_JUMPING] == 1
    self_avoiding = opts[OPT_SELF_AVOIDING] == 1
    over = state[RESULT] != 0
    chance = state[CHANCE] == 1
    placement = state[PHASE] == PHASE_PLACEMENT
    player = state[TO_MOVE]
    sign = 1 if player == 0 else -1
    own = 0
    other = 0
    # the mover's faces as three bit planes (bit k of a face in plane k), 25 bits each
    face1 = face2 = face4 = 0
    for sq in range(NSQ):
        # without branches: which side a square holds is random in random positions
        v = state[BOARD + sq] * sign
        mine = max(v, 0)
        own |= int(v > 0) << sq
        other |= int(v < 0) << sq
        face1 |= (mine & 1) << sq
        face2 |= ((mine >> 1) & 1) << sq
        face4 |= ((mine >> 2) & 1) << sq
    in_hand = 0  # bit face - 1 set: the mover has a die of that face to place
    for face in range(6):
        if state[HAND + 6 * player + face] > 0:
            in_hand |= 1 << face
    occupied = own | other
    empty = ~occupied & FULL_MASK
    n = 0
    if over:
        pass
    elif chance:
        for k in range(6):
            out[k] = CHANCE_OUTCOME + k
        n = 6
    elif placement:
        rank = home_rank(player)
        for face in range(6):
            if (in_hand >> face) & 1:
                for f in range(5):
                    sq = f * 5 + rank
                    if (empty >> sq) & 1:
                        out[n] = PLACE + face * NSQ + sq
                        n += 1
    else:
        # steps and jumps of the player to move, or the forced pass
        # the dice that can jump, one mask per direction (all zero without jumping)
        jumps_w = jumps_s = jumps_n = jumps_e = 0
        if jumping:
            jumps_w = jumpers(own, occupied, empty, 0)
            jumps_s = jumpers(own, occupied, empty, 1)
            jumps_n = jumpers(own, occupied, empty, 2)
            jumps_e = jumpers(own, occupied, empty, 3)
        n = 0
        while own:
            sq = lowest_bit_index(own)
            own &= own - 1
            face = ((face1 >> sq) & 1) | (((face2 >> sq) & 1) << 1) | (((face4 >> sq) & 1) << 2)
            if self_avoiding:
                dests = self_avoiding_ends(sq, face, empty)
            else:
                # walks.no_reversal_ends, written out: compiled on its own it is too big for LLVM
                # to inline (see above); perft checks the two agree
                free = empty | (1 << sq)
                l0 = shift(1 << sq, 0) & free
                l1 = shift(1 << sq, 1) & free
                l2 = shift(1 << sq, 2) & free
                l3 = shift(1 << sq, 3) & free
                for _ in range(face - 1):
                    n0 = shift(l0 | l1 | l2, 0) & free
                    n1 = shift(l0 | l1 | l3, 1) & free
                    n2 = shift(l0 | l2 | l3, 2) & free
                    n3 = shift(l1 | l2 | l3, 3) & free
                    l0, l1, l2, l3 = n0, n1, n2, n3
                dests = l0 | l1 | l2 | l3
            while dests:
                to = lowest_bit_index(dests)
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
            # jumps in direction order W, S, N, E (the order of their action ids), each
            # written and counted only if the die can jump that way, without a branch: a
            # write past the list is overwritten or left past its end, and the list stays
            # far from the end of ``out`` (at most 5 dice x 19 empty squares x 4 new faces +
            # 20 jumps = 400 legal actions, MAX_LEGAL 640)
            out[n] = JUMP + sq * NDIR
            n += (jumps_w >> sq) & 1
            out[n] = JUMP + sq * NDIR + 1
            n += (jumps_s >> sq) & 1
            out[n] = JUMP + sq * NDIR + 2
            n += (jumps_n >> sq) & 1
            out[n] = JUMP + sq * NDIR + 3
            n += (jumps_e >> sq) & 1
        if n == 0:
            out[0] = PASS
            n = 1
    return n


@njit_borrowing
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
