"""Legal actions of a Chase state, and whether a player has any legal turn at all.

Actions come out in the order of their notation: absorb actions by hex; otherwise, hex by hex
in board order, a die's moves written with ``-`` (by landing hex, then direction name), then
the transfers in which it is the first die (by its new face, then its partner), then its
captures — exactly how ``-`` < ``=`` < ``x`` sort.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.absorption import absorb, lowest_face, next_lowest, unabsorb
from diceboard.games.chase.kernel.board import pop_hex, side_sign
from diceboard.games.chase.kernel.bump import chain_stays_out_within
from diceboard.games.chase.kernel.geometry import (
    CANDIDATE_CHAMBER_DISTANCE,
    CANDIDATE_DIR,
    CANDIDATE_LAND,
    MOVE_CANDIDATES,
    N_MOVE_CANDIDATES,
    N_UPPER,
    NDIR,
    NEIGHBOUR,
    NHEX,
    PAIR_DIRS,
    UPPER,
    UPPER_BITS,
    UPPER_PAIR,
)
from diceboard.games.chase.kernel.layout import (
    ABSORB,
    BOARD,
    COUNT,
    DICE_PER_SIDE,
    MOVE,
    OCCUPIED,
    PHASE_ABSORB,
    SIDE_OCCUPIED,
    TRANSFER,
)
from diceboard.games.chase.kernel.movement import (
    MOVE_CAPTURE,
    MOVE_QUIET,
    candidate_clear,
    candidate_path_clear,
    landing_flags,
    landing_status,
)
from diceboard.games.chase.kernel.transfer import NEW_FACES, can_transfer
from diceboard.kernel import PHASE, RESULT, TO_MOVE, njit_borrowing, njit_inlined
from diceboard.kernel.bits import lowest_bit_index


@njit_borrowing
def legal_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of ``state`` into ``out`` and return how many there are
    (none once the game is over)."""
    if state[RESULT] != 0:
        return 0
    if state[PHASE] == PHASE_ABSORB:
        return absorb_actions(state, out)
    return act_actions(state, out)


@njit_borrowing
def absorb_actions(state: np.ndarray, out: np.ndarray) -> int:
    """The lowest dice of the player to move, each one only if raising it still leaves a
    legal turn to complete. Each candidate is tried on ``state`` itself and undone (no
    scratch array to allocate); ``state`` is as it was on return."""
    low = lowest_face(state)
    sign = side_sign(state[TO_MOVE])
    n = 0
    sq = next_lowest(state, low, 0)
    while sq >= 0:
        absorb(state, sq)
        legal = has_legal_turn(state)
        unabsorb(state, sq, low * sign)
        if legal:
            out[n] = ABSORB + sq
            n += 1
        sq = next_lowest(state, low, sq + 1)
    return n


@njit_borrowing
def act_actions(state: np.ndarray, out: np.ndarray) -> int:
    """The moves and transfers of the player to move, in notation order."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    own = SIDE_OCCUPIED + 2 * player
    occupied0, occupied1 = state[OCCUPIED], state[OCCUPIED + 1]
    own0, own1 = state[own], state[own + 1]
    dice = state[COUNT + player]
    n = 0
    for word in range(2):  # the player's dice in board order
        bits = own0 if word == 0 else own1
        while bits:
            sq, bits = pop_hex(word, bits)
            face = state[BOARD + sq] * sign
            # Every candidate slot of the die is settled at once, into one bit each (j: the
            # j-th candidate in notation order), with no branch on what a path or a landing
            # hex holds: random positions make those branches unpredictable, and the
            # branch-free loop made move generation 1.06x as fast. Slots past the die's
            # candidates are masked off. A bump whose chain cannot reach the chamber is
            # settled here too (in random games 84 % of the bumps and splits, 3.4 a
            # position: walking each one took a quarter of move generation).
            count = N_MOVE_CANDIDATES[sq, face]
            quiet = 0  # legal, written with "-"
            captures = 0
            walks = 0  # a split, or a bump whose chain might end in the chamber
            for j in range(NDIR):
                clear = candidate_path_clear(occupied0, occupied1, sq, face, j) & (j < count)
                land = MOVE_CANDIDATES[sq, face, j, CANDIDATE_LAND]
                target = state[BOARD + land] * sign
                stop, capture, walk = landing_flags(target, land)
                safe = (target > 0) & chain_stays_out_within(
                    CANDIDATE_CHAMBER_DISTANCE[sq, face, j], dice
                )
                quiet |= int(clear & (stop | safe)) << j
                captures |= int(clear & capture) << j
                walks |= int(clear & (walk ^ safe)) << j  # (a safe bump is a walk)
            while walks:  # seldom: a call each
                j = lowest_bit_index(walks)
                walks &= walks - 1
                d = MOVE_CANDIDATES[sq, face, j, CANDIDATE_DIR]
                if landing_status(state, sq, d, face, player)[0] == MOVE_QUIET:
                    quiet |= 1 << j
            base = MOVE + sq * NDIR
            n = _append_candidates(out, n, base, sq, face, quiet)
            if UPPER_BITS[sq, 0] & own0 | UPPER_BITS[sq, 1] & own1:
                n = transfers_led_by(state, sq, face, sign, out, n)
            n = _append_candidates(out, n, base, sq, face, captures)
    return n


@njit_borrowing
def _append_candidates(out: np.ndarray, n: int, base: int, sq: int, face: int, chosen: int) -> int:
    """Append the moves of the candidates whose bits are set in ``chosen``, in slot order;
    the new length. Each slot's move is written and counted only if chosen (no branch): a
    write past the end of the list is overwritten by the next or left past it, and the list
    never comes near the end of ``out`` (MAX_LEGAL has room for more than the most legal
    actions a position has, 180, and the six slots of a die)."""
    for j in range(NDIR):
        out[n] = base + MOVE_CANDIDATES[sq, face, j, CANDIDATE_DIR]
        n += (chosen >> j) & 1
    return n


@njit_inlined
def transfers_led_by(
    state: np.ndarray, lo: int, face: int, sign: int, out: np.ndarray, n: int
) -> int:
    """Append the transfers whose first hex in board order is ``lo`` (showing ``face``), by
    its new face and then by partner, as the notation sorts."""
    # What each friendly partner allows, read once (move generation calls this for every
    # die): 16 bits a partner j, its new faces for ``lo`` as bits 1..6, the pair's total at
    # bits 8..11 and at bit 12 whether the pair's anchor is ``lo``
    partners = 0
    faces_any = 0
    count = 0
    last = 0
    for j in range(N_UPPER[lo]):
        other = state[BOARD + UPPER[lo, j]] * sign
        if other <= 0:
            continue
        faces = NEW_FACES[face, other]
        anchored = 1 if UPPER_PAIR[lo, j] // len(PAIR_DIRS) == lo else 0
        partners |= (faces | (face + other) << 8 | anchored << 12) << (16 * j)
        faces_any |= faces
        count += 1
        last = j
    if count == 1:
        # one partner (87 % of the dice that have any, in random games): its transfers in
        # the order of the new face, written as _append_candidates writes moves
        info = partners >> (16 * last)
        base = TRANSFER + UPPER_PAIR[lo, last] * 6 - 1
        for new_face in range(1, 7):
            out[n] = base + _anchor_face(info, new_face)
            n += (faces_any >> new_face) & 1
        return n
    while faces_any:
        new_face = lowest_bit_index(faces_any)
        faces_any &= faces_any - 1
        for j in range(N_UPPER[lo]):
            info = (partners >> (16 * j)) & 0xFFFF
            if not (info >> new_face) & 1:
                continue
            out[n] = TRANSFER + UPPER_PAIR[lo, j] * 6 + _anchor_face(info, new_face) - 1
            n += 1
    return n


@njit_borrowing
def _anchor_face(info: int, new_face: int) -> int:
    """The face of a transfer's anchor when the die on ``lo`` takes ``new_face``, from a
    partner's ``info`` (see :func:`transfers_led_by`): the new face itself when ``lo`` is
    the anchor, else the rest of the pair's total."""
    return new_face if (info >> 12) & 1 else ((info >> 8) & 0xF) - new_face


@njit_borrowing
def has_act(state: np.ndarray) -> bool:
    """Whether the player to move (having absorbed) has a legal move or transfer."""
    player = state[TO_MOVE]
    sign = side_sign(player)
    own = SIDE_OCCUPIED + 2 * player
    for word in range(2):
        bits = state[own + word]
        while bits:
            sq, bits = pop_hex(word, bits)
            face = state[BOARD + sq] * sign
            for k in range(len(PAIR_DIRS)):
                p = NEIGHBOUR[sq, PAIR_DIRS[k]]
                if p >= 0:
                    b = state[BOARD + p] * sign
                    if b > 0 and can_transfer(face, b):
                        return True
            for j in range(N_MOVE_CANDIDATES[sq, face]):
                d = MOVE_CANDIDATES[sq, face, j, CANDIDATE_DIR]
                if (
                    candidate_clear(state, sq, face, j)
                    and landing_status(state, sq, d, face, player)[0] <= MOVE_CAPTURE
                ):
                    return True
    return False


@njit_borrowing
def has_legal_turn(state: np.ndarray) -> bool:
    """Whether the player to move has a legal turn: some way to absorb (if it must) after
    which a move or transfer is legal."""
    if state[PHASE] != PHASE_ABSORB:
        return has_act(state)
    return _absorption_leads_to_an_act(state)


# The search below keeps, for each absorb step taken, the hex raised and its face before, in
# two int64 words of LEVEL_BITS-bit fields (a hex < 128, a face < 8): no stack array to
# allocate. At most DICE_PER_SIDE steps (each raises another die), LEVELS_PER_WORD a word.
_HEX_BITS = 7
_LEVEL_BITS = _HEX_BITS + 3
_LEVELS_PER_WORD = 6
assert 2 * _LEVELS_PER_WORD >= DICE_PER_SIDE and _LEVEL_BITS * _LEVELS_PER_WORD < 63
assert (1 << _HEX_BITS) > NHEX


@njit_borrowing
def _absorption_leads_to_an_act(state: np.ndarray) -> bool:
    """A depth-first search over the absorb choices, made on ``state`` itself and undone
    step by step (it is as it was on return): is there an act at the end of one?"""
    sign = side_sign(state[TO_MOVE])
    low_word = 0  # levels 0 .. _LEVELS_PER_WORD - 1
    high_word = 0  # the levels after those
    level = 0
    start = 0
    found = False
    while True:
        if state[PHASE] != PHASE_ABSORB:
            if has_act(state):
                found = True
                break
        else:
            sq = next_lowest(state, lowest_face(state), start)
            if sq >= 0:
                packed = sq | (state[BOARD + sq] * sign) << _HEX_BITS
                shift = (level % _LEVELS_PER_WORD) * _LEVEL_BITS
                if level < _LEVELS_PER_WORD:
                    low_word |= packed << shift
                else:
                    high_word |= packed << shift
                absorb(state, sq)
                level += 1
                start = 0
                continue
        if level == 0:
            break
        level -= 1
        start = _undo_level(state, level, low_word, high_word, sign) + 1
        shift = (level % _LEVELS_PER_WORD) * _LEVEL_BITS
        if level < _LEVELS_PER_WORD:
            low_word &= ~(((1 << _LEVEL_BITS) - 1) << shift)
        else:
            high_word &= ~(((1 << _LEVEL_BITS) - 1) << shift)
    while level > 0:  # found: undo every step still taken
        level -= 1
        _undo_level(state, level, low_word, high_word, sign)
    return found


@njit_borrowing
def _undo_level(state: np.ndarray, level: int, low_word: int, high_word: int, sign: int) -> int:
    """Undo the absorb step of ``level`` recorded in the two words; the hex it raised."""
    word = low_word if level < _LEVELS_PER_WORD else high_word
    packed = (word >> ((level % _LEVELS_PER_WORD) * _LEVEL_BITS)) & ((1 << _LEVEL_BITS) - 1)
    sq = packed & ((1 << _HEX_BITS) - 1)
    unabsorb(state, sq, (packed >> _HEX_BITS) * sign)
    return sq
