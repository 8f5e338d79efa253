"""Custodian Dice for the search templates: the rules kernel plus position features.

The features see the board from the player to move ("mine" minus "theirs"). Where they need
to know where dice can go they ask the kernel (:func:`step_destinations`, :func:`jump_target`);
the sandwich patterns they count are heuristics for the evaluation, not rules: the kernel alone
decides what a move captures.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel import legal_actions, step
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    FULL_MASK,
    HAND,
    MAX_LEGAL,
    NDIR,
    NEIGHBOUR,
    NSQ,
    NUM_ACTIONS,
    OPT_JUMPING,
    OPT_NO_CAPTURE_LIMIT,
    OPT_SELF_AVOIDING,
    PENDING,
    PHASE_PLAY,
    STATE_LEN,
    UNROLLED,
)
from diceboard.games.custodian.kernel.walks import jump_target, occupied_mask, step_destinations
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

#: what each feature counts (all "mine minus theirs" unless said otherwise)
FEATURE_NAMES: tuple[str, ...] = (
    "material",  # dice (on the board, in hand or still to roll)
    "tempo",  # 1: having the move
    "mobility",  # (die, destination) pairs of steps plus jumps
    "attacks",  # enemy dice that one move of mine could sandwich (single sandwiches)
    "threats",  # my dice that one enemy move could sandwich
    "centre",  # dice on the nine central squares
    "edge",  # dice on the rim (off the central nine)
    "pairs",  # orthogonally adjacent pairs of one's own dice
    "low_faces",  # dice showing 1 or 2
)
NUM_FEATURES = len(FEATURE_NAMES)
MATERIAL_FEATURE = 0

#: the network's sparse inputs (:func:`net_inputs`), seen from the player to move: a die on
#: the board by (owner, face 1-6 or the pending "?", square), a die in hand by (owner, face,
#: copy), a die still to roll by (owner, copy), the phase, and "I move first"
_IN_BOARD = 0
_IN_HAND = _IN_BOARD + 2 * 7 * NSQ
_IN_UNROLLED = _IN_HAND + 2 * 6 * 5
_IN_PHASE = _IN_UNROLLED + 2 * 5
_IN_FIRST = _IN_PHASE + 3
NET_INPUTS = _IN_FIRST + 1
#: most inputs active at once (ten dice, the phase, the side)
NET_MAX_ACTIVE = 16


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
}

# the nine central squares b2..d4 (sq = file * 5 + rank)
_CENTRE_MASK = sum(1 << (f * 5 + r) for f in range(1, 4) for r in range(1, 4))
# opposite of each direction in the kernel's order W, S, N, E
_OPPOSITE = np.array([3, 2, 1, 0], dtype=np.int64)
# how safe a square is from sandwiches: a corner never (2), the rim along one line only (1)
_SHELTER = np.array(
    [
        2 if f in (0, 4) and r in (0, 4) else 1 if f in (0, 4) or r in (0, 4) else 0
        for f in range(5)
        for r in range(5)
    ],
    dtype=np.int64,
)
#: the endgame term's weights (logit units, per weak die): its shelter, its distance from the
#: nearest attacker, its moves; the weaker side's dice count from ENDGAME_MAX_WEAK down
ENDGAME_SHELTER = 0.35
ENDGAME_DISTANCE = 0.12
ENDGAME_MOBILITY = 0.04
ENDGAME_MAX_WEAK = 3


@njit
def progress_limit(opts: np.ndarray) -> int:
    """The no-capture limit (0 = none)."""
    return int(opts[OPT_NO_CAPTURE_LIMIT])


@njit
def extends_turn(action: int) -> bool:
    """Every Custodian decision is a whole move."""
    return False


@njit
def _die_reach(state: np.ndarray, opts: np.ndarray, sq: int, face: int, empty: int) -> int:
    """Squares the die on ``sq`` can move to (steps and jumps), as a mask."""
    mask = 0
    if face != PENDING:
        mask = step_destinations(sq, face, empty | (1 << sq), opts[OPT_SELF_AVOIDING] == 1)
    if opts[OPT_JUMPING] == 1:
        for d in range(NDIR):
            land = jump_target(state, sq, d)
            if land >= 0:
                mask |= 1 << land
    return mask


@njit
def _reach(state: np.ndarray, opts: np.ndarray, sign: int, empty: int) -> tuple[int, int, int]:
    """For the side ``sign``: the squares some die can move to, the squares two or more can,
    and the number of (die, destination) pairs."""
    union = 0
    twice = 0
    pairs = 0
    for sq in range(NSQ):
        face = state[BOARD + sq] * sign
        if face <= 0:
            continue
        mask = _die_reach(state, opts, sq, face, empty)
        twice |= union & mask
        union |= mask
        pairs += popcount(mask)
    return union, twice, pairs


@njit
def _sandwichable(
    state: np.ndarray, opts: np.ndarray, sign: int, empty: int, union: int, twice: int
) -> int:
    """Dice of the side ``-sign`` that one move of side ``sign`` could sandwich between the
    moving die and a die of its own already in place (one die between, the simplest capture)."""
    count = 0
    for sq in range(NSQ):
        if state[BOARD + sq] * sign >= 0:
            continue
        for d in range(NDIR):
            anchor = NEIGHBOUR[sq, d]
            target = NEIGHBOUR[sq, _OPPOSITE[d]]
            if anchor < 0 or target < 0:
                continue
            anchor_face = state[BOARD + anchor] * sign
            if anchor_face <= 0 or state[BOARD + target] != 0 or not (union >> target) & 1:
                continue
            # the anchor stays put: another die must be the one that reaches the target
            if (twice >> target) & 1 or not (
                _die_reach(state, opts, anchor, anchor_face, empty) >> target
            ) & 1:
                count += 1
                break
    return count


@njit
def features(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> None:
    """The features of :data:`FEATURE_NAMES` for the player to move, into ``out``."""
    me = state[TO_MOVE]
    sign = 1 if me == 0 else -1
    empty = ~occupied_mask(state) & FULL_MASK
    my_union, my_twice, my_pairs = _reach(state, opts, sign, empty)
    their_union, their_twice, their_pairs = _reach(state, opts, -sign, empty)
    material = 0
    centre = 0
    edge = 0
    pairs = 0
    low = 0
    for sq in range(NSQ):
        v = state[BOARD + sq] * sign
        if v == 0:
            continue
        s = 1 if v > 0 else -1
        material += s
        if (_CENTRE_MASK >> sq) & 1:
            centre += s
        else:
            edge += s
        face = v * s
        if face <= 2:
            low += s
        # count each adjacent pair once: look east (d=3) and north (d=2) only
        for d in range(2, 4):
            nb = NEIGHBOUR[sq, d]
            if nb >= 0 and state[BOARD + nb] * sign * s > 0:
                pairs += s
    # dice not on the board yet count as material
    mine = 0 if me == 0 else 1
    for face in range(6):
        material += state[HAND + 6 * mine + face] - state[HAND + 6 * (1 - mine) + face]
    material += state[UNROLLED + mine] - state[UNROLLED + 1 - mine]
    out[0] = material
    out[1] = 1.0
    out[2] = my_pairs - their_pairs
    out[3] = _sandwichable(state, opts, sign, empty, my_union, my_twice)
    out[4] = _sandwichable(state, opts, -sign, empty, their_union, their_twice)
    out[5] = centre
    out[6] = edge
    out[7] = pairs
    out[8] = low


@njit
def endgame(state: np.ndarray, opts: np.ndarray) -> float:
    """What the linear features miss in an ending, as a logit for the player to move: with
    more dice than the opponent and three or fewer against them, the opponent's dice are
    worth less to it the more exposed they are (a corner can never be sandwiched, the rim
    only along it), the closer its own dice stand to them and the fewer moves they have left
    (a side that must move a sheltered die out of its corner loses it). Zero in the setup,
    with equal dice, or with more than three on the weaker side. The same term with the
    opposite sign is what the weaker side plays for: shelter, distance and moves."""
    if state[PHASE] != PHASE_PLAY:
        return 0.0
    me = state[TO_MOVE]
    sign = 1 if me == 0 else -1
    mine = 0
    theirs = 0
    for sq in range(NSQ):
        v = state[BOARD + sq] * sign
        if v > 0:
            mine += 1
        elif v < 0:
            theirs += 1
    if mine == theirs or min(mine, theirs) > ENDGAME_MAX_WEAK:
        return 0.0
    strong = sign if mine > theirs else -sign
    empty = ~occupied_mask(state) & FULL_MASK
    exposure = 0.0
    for sq in range(NSQ):
        face = state[BOARD + sq] * -strong
        if face <= 0:
            continue
        nearest = 8
        for other in range(NSQ):
            if state[BOARD + other] * strong > 0:
                d = abs(other // 5 - sq // 5) + abs(other % 5 - sq % 5)
                nearest = min(nearest, d)
        moves = popcount(_die_reach(state, opts, sq, face, empty))
        exposure -= (
            ENDGAME_SHELTER * _SHELTER[sq]
            + ENDGAME_DISTANCE * (nearest - 1)
            + ENDGAME_MOBILITY * moves
        )
    return exposure if mine > theirs else -exposure


@njit
def net_inputs(state: np.ndarray, opts: np.ndarray, out: np.ndarray, start: int) -> int:
    """The indices of the network's active inputs (each worth 1) into ``out[start:]`` (as
    floats: it shares the evaluation's scratch buffer); returns how many. The board is seen
    from the player to move: for Black the ranks are mirrored, so that one's own back rank
    is always rank 1 (the rules are symmetric under this mirror)."""
    me = state[TO_MOVE]
    sign = 1 if me == 0 else -1
    n = 0
    for sq in range(NSQ):
        v = state[BOARD + sq] * sign
        if v == 0:
            continue
        owner = 0 if v > 0 else 1
        face = v if v > 0 else -v
        msq = sq if me == 0 else (sq // 5) * 5 + 4 - sq % 5
        out[start + n] = _IN_BOARD + (owner * 7 + face - 1) * NSQ + msq
        n += 1
    for owner in range(2):
        player = me if owner == 0 else 1 - me
        for face in range(6):
            for copy in range(min(int(state[HAND + 6 * player + face]), 5)):
                out[start + n] = _IN_HAND + (owner * 6 + face) * 5 + copy
                n += 1
        for copy in range(min(int(state[UNROLLED + player]), 5)):
            out[start + n] = _IN_UNROLLED + owner * 5 + copy
            n += 1
    out[start + n] = _IN_PHASE + min(max(int(state[PHASE]), 0), 2)
    n += 1
    if me == 0:
        out[start + n] = _IN_FIRST
        n += 1
    return n
