"""Custodian Dice kernel: the state array, the options array and the action-id space.

Squares are indexed file-major, ``sq = file * 5 + rank`` (``a1`` = 0, ``a2`` = 1, … ``e5`` = 24),
so that ascending indices are also the order of square names as strings. Generating moves in
index order therefore yields them already sorted by their notation.

A board cell holds 0 (empty), ``+face`` for a White die or ``-face`` for a Black die; the face
``PENDING`` (7) stands for the ``?`` of a die whose Chaos roll has not happened yet.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import HEADER_LEN

# --- the state array -------------------------------------------------------------------------
BOARD = HEADER_LEN  # 25 cells
NSQ = 25
PENDING_SQ = BOARD + NSQ  # square of the die awaiting its Chaos roll, or -1
LAST_PASS = PENDING_SQ + 1  # 1 when the previous move was a pass
HAND = LAST_PASS + 1  # HAND + 6 * player + (face - 1): rolled dice not yet placed
UNROLLED = HAND + 12  # UNROLLED + player: dice not yet rolled
STATE_LEN = UNROLLED + 2

PENDING = 7

# phases (header field PHASE)
PHASE_ROLLS = 0
PHASE_PLACEMENT = 1
PHASE_PLAY = 2

# --- the options array ---------------------------------------------------------------------
OPT_JUMPING = 0  # 1 = jumps allowed
OPT_ROLL_FACES = 1  # 1 = Chaos: dice are rolled after moving
OPT_SELF_AVOIDING = 2  # 1 = path option "self-avoiding"
OPT_CAPTURE_SINGLE = 3  # 1 = capture option "single"
OPT_PLACEMENT_ROLLED = 4  # 1 = placement option "rolled"
OPT_NO_CAPTURE_LIMIT = 5  # 0 = off
OPTS_LEN = 6

# --- action ids ----------------------------------------------------------------------------
#: step that turns the die: from * 150 + to * 6 + (face - 1)
STEP_TURN = 0
#: step in Chaos (face rolled afterwards): from * 25 + to
STEP_ROLL = STEP_TURN + NSQ * NSQ * 6
#: jump over an adjacent die: from * 4 + direction (W, S, N, E)
JUMP = STEP_ROLL + NSQ * NSQ
#: place a die from the hand: (face - 1) * 25 + square
PLACE = JUMP + NSQ * 4
#: pass (only when no step or jump exists)
PASS = PLACE + 6 * NSQ
#: chance outcome: the die shows face = id - CHANCE_OUTCOME + 1
CHANCE_OUTCOME = PASS + 1
NUM_ACTIONS = CHANCE_OUTCOME + 6

#: size of a buffer that can hold every legal action of any position
MAX_LEGAL = 640

# --- geometry ------------------------------------------------------------------------------
# directions in the order that makes jump destinations ascend: W, S, N, E
DIR_DFILE = np.array([-1, 0, 0, 1], dtype=np.int64)
DIR_DRANK = np.array([0, -1, 1, 0], dtype=np.int64)
NDIR = 4


def _neighbour_table() -> np.ndarray:
    table = np.full((NSQ, NDIR), -1, dtype=np.int64)
    for sq in range(NSQ):
        f, r = divmod(sq, 5)
        for d in range(NDIR):
            nf, nr = f + DIR_DFILE[d], r + DIR_DRANK[d]
            if 0 <= nf < 5 and 0 <= nr < 5:
                table[sq, d] = nf * 5 + nr
    return table


#: NEIGHBOUR[sq, d]: the square next to ``sq`` in direction ``d``, or -1 off the board
NEIGHBOUR = _neighbour_table()
FULL_MASK = (1 << NSQ) - 1


RANK1_MASK = sum(1 << (f * 5) for f in range(5))
RANK5_MASK = sum(1 << (f * 5 + 4) for f in range(5))


def square_name(sq: int) -> str:
    """``0`` -> ``"a1"``."""
    f, r = divmod(sq, 5)
    return "abcde"[f] + str(r + 1)
