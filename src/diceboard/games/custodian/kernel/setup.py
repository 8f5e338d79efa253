"""The setup of Custodian Dice: the ten setup rolls and the placement of the rolled dice."""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.hashing import rehash
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    HAND,
    PENDING_SQ,
    PHASE_PLACEMENT,
    PHASE_PLAY,
    PHASE_ROLLS,
    STATE_LEN,
    UNROLLED,
)
from diceboard.kernel import CHANCE, PHASE, PLY, TO_MOVE, njit_borrowing


@njit_borrowing
def home_rank(player: int) -> int:
    """Rank index of a player's home rank: 0 (rank 1) for White, 4 (rank 5) for Black."""
    return 0 if player == 0 else 4


@njit_borrowing
def new_game(state: np.ndarray) -> None:
    """Fill ``state`` with the very first state: before any roll, ten dice unrolled."""
    for i in range(STATE_LEN):
        state[i] = 0
    state[PHASE] = PHASE_ROLLS
    state[CHANCE] = 1
    state[PENDING_SQ] = -1
    state[UNROLLED] = 5
    state[UNROLLED + 1] = 5
    rehash(state)


@njit_borrowing
def hand_size(state: np.ndarray, player: int) -> int:
    """Rolled dice that ``player`` still has to place."""
    n = 0
    for face in range(6):
        n += state[HAND + 6 * player + face]
    return n


@njit_borrowing
def apply_setup_roll(state: np.ndarray, face: int, placement_rolled: bool) -> None:
    """One setup roll: White's five dice are rolled first, then Black's. Under placement
    ``rolled`` the die goes straight onto the next empty square of its home rank (files a to e);
    otherwise it joins the player's hand. The last roll starts placement (or play)."""
    player = 0 if state[UNROLLED] > 0 else 1
    state[UNROLLED + player] -= 1
    if placement_rolled:
        rank = home_rank(player)
        for f in range(5):
            sq = f * 5 + rank
            if state[BOARD + sq] == 0:
                state[BOARD + sq] = face if player == 0 else -face
                break
    else:
        state[HAND + 6 * player + face - 1] += 1
    if state[UNROLLED] == 0 and state[UNROLLED + 1] == 0:
        state[CHANCE] = 0
        state[TO_MOVE] = 0
        state[PHASE] = PHASE_PLAY if placement_rolled else PHASE_PLACEMENT
    rehash(state)


@njit_borrowing
def apply_placement(state: np.ndarray, face: int, sq: int) -> bool:
    """Place a die from the hand; return True when this completed the placement phase."""
    player = state[TO_MOVE]
    state[HAND + 6 * player + face - 1] -= 1
    state[BOARD + sq] = face if player == 0 else -face
    state[PLY] += 1
    done = False
    if hand_size(state, player) == 0:
        if player == 0 and hand_size(state, 1) > 0:
            state[TO_MOVE] = 1
        else:
            state[TO_MOVE] = 0
            state[PHASE] = PHASE_PLAY
            done = True
    rehash(state)
    return done
