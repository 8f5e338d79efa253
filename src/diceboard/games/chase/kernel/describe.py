"""What an action does in a given state, as numbers the notation layer turns into text: a
key that names each distinct notation (so the game API can intern its Move objects), and the
trace of the dice a move displaces (for drawing it)."""

from __future__ import annotations

import numpy as np

from diceboard.games.chase.kernel.board import side_sign
from diceboard.games.chase.kernel.geometry import NDIR, NHEX, NPAIR, PATH
from diceboard.games.chase.kernel.layout import ABSORB, BOARD, MOVE, TRANSFER
from diceboard.games.chase.kernel.movement import play_move
from diceboard.games.chase.kernel.transfer import transfer_hexes
from diceboard.kernel import TO_MOVE, njit, njit_borrowing

# notation keys: a move key names the die's face and whether it lands on an enemy die; a
# transfer key both new faces; an absorb key the hex
KEY_MOVE = 0  # + (move * 6 + face - 1) * 2 + capture
KEY_TRANSFER = KEY_MOVE + NHEX * NDIR * 12  # + (pair * 6 + anchor face - 1) * 6 + partner face - 1
KEY_ABSORB = KEY_TRANSFER + NPAIR * 36  # + hex
NUM_KEYS = KEY_ABSORB + NHEX


@njit_borrowing
def notation_key(state: np.ndarray, action: int) -> int:
    """The notation key of ``action`` in ``state``, or -1 when the dice it names are not
    there (for the player to move)."""
    sign = side_sign(state[TO_MOVE])
    if action >= ABSORB:
        return KEY_ABSORB + action - ABSORB
    if action >= TRANSFER:
        anchor, partner, face = transfer_hexes(action)
        if partner < 0:
            return -1
        a = state[BOARD + anchor] * sign
        b = state[BOARD + partner] * sign
        other = a + b - face
        if a <= 0 or b <= 0 or not 1 <= other <= 6:
            return -1
        return KEY_TRANSFER + (action - TRANSFER) * 6 + other - 1
    frm = (action - MOVE) // NDIR
    face = state[BOARD + frm] * sign
    if face <= 0:
        return -1
    land = PATH[frm, (action - MOVE) % NDIR, face - 1]
    capture = 1 if state[BOARD + land] * sign < 0 else 0
    return KEY_MOVE + ((action - MOVE) * 6 + face - 1) * 2 + capture


@njit
def notation_keys(state: np.ndarray, actions: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = notation_key(state, actions[i])`` for every action given."""
    for i in range(actions.shape[0]):
        out[i] = notation_key(state, actions[i])


@njit
def move_trace(state: np.ndarray, action: int, trace: np.ndarray) -> int:
    """Play the move ``action`` (legal) on ``state`` (a scratch copy), recording its trace
    (see :mod:`.trace`); returns the number of rows."""
    rel = action - MOVE
    return play_move(state, rel // NDIR, rel % NDIR, trace)
