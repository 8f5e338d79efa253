"""The Custodian Dice rules kernel: the single source of rule truth for this game.

All functions work on an ``int64`` state array (layout in :mod:`.layout`) and an ``int64``
options array, compile with numba in nopython mode and also run as plain Python.

- :func:`new_game` — the first state, before any roll
- :func:`legal_actions` — legal action ids into a preallocated buffer
- :func:`step` — apply an action in place, keep the repetition history, detect the end
- :func:`full_hash` — the 64-bit Zobrist hash (also kept in the state's HASH field)
"""

from diceboard.games.custodian.kernel.drivers import (
    LEGAL_WIDTH,
    advance,
    pack,
    perft,
    random_playouts,
)
from diceboard.games.custodian.kernel.endings import check_end, check_static_end, dice_count
from diceboard.games.custodian.kernel.hashing import full_hash, rehash
from diceboard.games.custodian.kernel.layout import MAX_LEGAL, NUM_ACTIONS, OPTS_LEN, STATE_LEN
from diceboard.games.custodian.kernel.movegen import has_step_or_jump, legal_actions
from diceboard.games.custodian.kernel.play import step
from diceboard.games.custodian.kernel.setup import new_game

__all__ = [
    "LEGAL_WIDTH",
    "MAX_LEGAL",
    "NUM_ACTIONS",
    "OPTS_LEN",
    "STATE_LEN",
    "advance",
    "check_end",
    "check_static_end",
    "dice_count",
    "full_hash",
    "has_step_or_jump",
    "legal_actions",
    "new_game",
    "pack",
    "perft",
    "random_playouts",
    "rehash",
    "step",
]
