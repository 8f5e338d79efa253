"""Perft, whole random games and the game API's kernel calls for Chase: the shared
templates of :mod:`diceboard.kernel.drivers` and :mod:`diceboard.kernel.stepping` compiled for
this game's rules.

This module is also their binding (the ``game`` they call): it provides the kernel entry
points and sizes they need, ``legal_actions``, ``step``, ``legal_keyed``, ``STATE_LEN``,
``MAX_LEGAL`` and ``LEGAL_WIDTH``.
"""

from __future__ import annotations

import sys

import numpy as np

from diceboard.games.chase.kernel.describe import notation_key
from diceboard.games.chase.kernel.layout import MAX_LEGAL, STATE_LEN
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel import njit_borrowing
from diceboard.kernel.drivers import compile_drivers
from diceboard.kernel.stepping import compile_stepping

__all__ = [
    "LEGAL_WIDTH",
    "MAX_LEGAL",
    "STATE_LEN",
    "advance",
    "legal_actions",
    "legal_keyed",
    "pack",
    "perft",
    "random_playouts",
    "step",
]

#: the game API's state buffer holds each legal action's notation key after the ids: two
#: actions may share a text (a move's key names its face and whether it captures)
LEGAL_WIDTH = 2


@njit_borrowing
def legal_keyed(state: np.ndarray, opts: np.ndarray, out: np.ndarray, start: int) -> int:
    """The legal action ids of ``state`` into ``out[start:start + n]`` and their notation
    keys into ``out[start + n:start + 2 * n]``; ``n``, how many there are."""
    n = legal_actions(state, opts, out[start:])
    for i in range(n):
        out[start + n + i] = notation_key(state, out[start + i])
    return n


perft, random_playouts = compile_drivers("chase", sys.modules[__name__])
pack, advance = compile_stepping("chase", sys.modules[__name__])
