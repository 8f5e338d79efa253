"""Chase for the search templates: the rules kernel plus position features.

The features see the board from the player to move ("mine" minus "theirs"). Where dice can
go comes from the kernel's paths (:data:`PATH`, :func:`path_clear`); the counts built on them
are heuristics for the evaluation, not rules: the kernel alone decides what is legal.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel import legal_actions, step
from diceboard.games.chase.kernel.geometry import (
    CHAMBER,
    HEX_BIT,
    HEX_WORD,
    NDIR,
    NEIGHBOUR,
    NHEX,
    PATH,
    STARTS,
)
from diceboard.games.chase.kernel.layout import (
    ABSORB,
    BOARD,
    COUNT,
    MAX_LEGAL,
    NUM_ACTIONS,
    OPT_NO_CAPTURE_LIMIT,
    PHASE_ABSORB,
    STATE_LEN,
)
from diceboard.games.chase.kernel.movement import path_clear
from diceboard.kernel import PHASE, TO_MOVE, njit
from diceboard.kernel.bits import popcount

__all__ = [
    "FEATURE_NAMES",
    "LEVEL_SPECS",
    "MATERIAL_FEATURE",
    "MAX_LEGAL",
    "NET_INPUTS",
    "NET_MAX_ACTIVE",
    "NUM_ACTIONS",
    "NUM_FEATURES",
    "STATE_LEN",
    "endgame",
    "extends_turn",
    "features",
    "legal_actions",
    "net_inputs",
    "progress_limit",
    "step",
]

#: what each feature counts (all "mine minus theirs")
FEATURE_NAMES: tuple[str, ...] = (
    "material",  # dice on the board
    "tempo",  # 1: having the move
    "mobility",  # moves with a clear path (die and direction)
    "attacks",  # enemy dice that a clear move of mine lands on (a capture)
    "threats",  # my dice that a clear enemy move lands on
    "chamber",  # clear moves that land on the chamber (a split)
    "ones",  # dice showing 1 (the weakest; they absorb first)
    "high_faces",  # dice showing 5 or 6 (long reach)
    "middle",  # dice on the three middle rows d, e, f
    "guarded",  # dice next to a friendly die
)
NUM_FEATURES = len(FEATURE_NAMES)
MATERIAL_FEATURE = 0

#: the network's sparse inputs (:func:`net_inputs`), seen from the player to move: a die by
#: (owner, face, hex), whether the player must absorb first, and "I move first"
_IN_BOARD = 0
_IN_ABSORB = _IN_BOARD + 2 * 6 * NHEX
_IN_FIRST = _IN_ABSORB + 1
NET_INPUTS = _IN_FIRST + 1
#: most inputs active at once (twenty dice, the phase, the side)
NET_MAX_ACTIVE = 24


#: level -> the agent spec this game plays at that level (:mod:`diceboard.ai.levels`)
LEVEL_SPECS: dict[int, str] = {
    1: "greedy:epsilon=0.9",
    2: "greedy:epsilon=0.75",
    3: "greedy:epsilon=0.5",
    4: "alphabeta:depth=2,epsilon=0.35",
    5: "alphabeta:depth=3,epsilon=0.2",
    6: "alphabeta:time=0.2,epsilon=0.1",
    7: "alphabeta:time=0.5,epsilon=0.05",
    8: "alphabeta:time=1.8",
    # PUCT with the linear evaluation against level 8 at 1.8 s a move: +19 -1 in 20 games
    # (seeds 12 and 13, docs/ai.md); at 0.2 s a move only 51.5 % in 200 games
    9: "puct:time=1.8,eval=linear",
}

_ROW_OF = np.array([h // 9 for h in range(NHEX)], dtype=np.int64)


@njit
def progress_limit(opts: np.ndarray) -> int:
    """The no-capture limit (0 = none)."""
    return int(opts[OPT_NO_CAPTURE_LIMIT])


@njit
def extends_turn(action: int) -> bool:
    """An absorb action leaves the turn to finish with a move or transfer."""
    return action >= ABSORB


@njit
def _side_reach(state: np.ndarray, sign: int, enemy: int) -> tuple[int, int, int, int]:
    """For the side ``sign``: (moves whose path is clear, moves that land on the chamber, and
    the enemy hexes that a clear move lands on as two bitset words). A clear path is nearly
    always a legal move (a bump chain into the chamber is the rare exception), which is
    close enough for an evaluation."""
    moves = 0
    chamber = 0
    hit0 = 0
    hit1 = 0
    for sq in range(NHEX):
        face = state[BOARD + sq] * sign
        if face <= 0:
            continue
        for d in range(NDIR):
            if not STARTS[sq, d] or not path_clear(state, sq, d, face):
                continue
            moves += 1
            land = PATH[sq, d, face - 1]
            if land == CHAMBER:
                chamber += 1
            elif state[BOARD + land] * sign < 0:
                if HEX_WORD[land] == 0:
                    hit0 |= HEX_BIT[land]
                else:
                    hit1 |= HEX_BIT[land]
    return moves, chamber, hit0, hit1


@njit
def features(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> None:
    """The features of :data:`FEATURE_NAMES` for the player to move, into ``out``."""
    me = state[TO_MOVE]
    sign = 1 - 2 * me
    my_moves, my_chamber, a0, a1 = _side_reach(state, sign, -sign)
    their_moves, their_chamber, t0, t1 = _side_reach(state, -sign, sign)
    ones = 0
    high = 0
    middle = 0
    guarded = 0
    for sq in range(NHEX):
        v = state[BOARD + sq] * sign
        if v == 0:
            continue
        s = 1 if v > 0 else -1
        face = v * s
        if face == 1:
            ones += s
        elif face >= 5:
            high += s
        if 3 <= _ROW_OF[sq] <= 5:
            middle += s
        for d in range(NDIR):
            nb = NEIGHBOUR[sq, d]
            if nb >= 0 and state[BOARD + nb] * sign * s > 0:
                guarded += s
                break
    out[0] = state[COUNT + me] - state[COUNT + 1 - me]
    out[1] = 1.0
    out[2] = my_moves - their_moves
    out[3] = popcount(a0) + popcount(a1)
    out[4] = popcount(t0) + popcount(t1)
    out[5] = my_chamber - their_chamber
    out[6] = ones
    out[7] = high
    out[8] = middle
    out[9] = guarded


@njit
def endgame(state: np.ndarray, opts: np.ndarray) -> float:
    """No endgame term in Chase (``eval=endgame`` plays as ``eval=linear``): its endings are
    decided by the features already there, captures and mobility."""
    return 0.0


@njit
def net_inputs(state: np.ndarray, opts: np.ndarray, out: np.ndarray, start: int) -> int:
    """The indices of the network's active inputs (each worth 1) into ``out[start:]`` (as
    floats: it shares the evaluation's scratch buffer); returns how many. The board is seen
    from the player to move: for Red the rows are mirrored (a to i), so that one's own home
    row is always row i (the board and the rules are symmetric under this mirror)."""
    me = state[TO_MOVE]
    sign = 1 - 2 * me
    n = 0
    for sq in range(NHEX):
        v = state[BOARD + sq] * sign
        if v == 0:
            continue
        owner = 0 if v > 0 else 1
        face = v if v > 0 else -v
        msq = sq if me == 0 else (8 - sq // 9) * 9 + sq % 9
        out[start + n] = _IN_BOARD + (owner * 6 + face - 1) * NHEX + msq
        n += 1
    if state[PHASE] == PHASE_ABSORB:
        out[start + n] = _IN_ABSORB
        n += 1
    if me == 0:
        out[start + n] = _IN_FIRST
        n += 1
    return n
