"""Applying one action to a Chase state in place."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.absorption import absorb
from diceboard.games.chase.kernel.board import pass_turn
from diceboard.games.chase.kernel.endings import check_end
from diceboard.games.chase.kernel.geometry import NDIR
from diceboard.games.chase.kernel.layout import ABSORB, COUNT, MOVE, TRANSFER
from diceboard.games.chase.kernel.movement import play_move
from diceboard.games.chase.kernel.transfer import play_transfer
from diceboard.kernel import CLOCK, PLY, njit_borrowing, push_history


@njit_borrowing
def step(state: np.ndarray, opts: np.ndarray, action: int, history: np.ndarray, nhist: int) -> int:
    """Apply ``action`` (assumed legal) to ``state`` in place.

    An absorb action only raises a die (the turn goes on). A move or transfer ends the turn:
    the ply and clock advance (the clock restarts when the number of dice changed — a capture
    or a dividing split — and so does the repetition history), the other player is to move,
    and the end of the game is checked. ``history[:nhist]`` holds the hashes of the positions
    since the number of dice last changed; returns its new length.
    """
    if action >= ABSORB:
        absorb(state, action - ABSORB)
        return nhist
    blue, red = state[COUNT], state[COUNT + 1]
    if action >= TRANSFER:
        play_transfer(state, action)
    else:
        rel = action - MOVE
        # a trace with no rows records nothing (play draws nothing): a view of no entries
        # of the state itself, so that no array is allocated
        play_move(state, rel // NDIR, rel % NDIR, state[:0])
    changed = state[COUNT] != blue or state[COUNT + 1] != red
    state[PLY] += 1
    state[CLOCK] = 0 if changed else state[CLOCK] + 1
    pass_turn(state)
    nhist = push_history(state, history, nhist, changed)
    check_end(state, opts, history, nhist)
    return nhist
