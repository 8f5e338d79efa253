"""Perft, whole random games and the game API's kernel calls for Custodian Dice: the shared
templates of :mod:`diceboard.kernel.drivers` and :mod:`diceboard.kernel.stepping` compiled for
this game's rules.

This module is also their binding (the ``game`` they call): it provides the kernel entry
points and sizes they need, ``legal_actions``, ``step``, ``legal_keyed``, ``STATE_LEN``,
``MAX_LEGAL`` and ``LEGAL_WIDTH``.
"""

from __future__ import annotations

import sys

import numpy as np

from diceboard.games.custodian.kernel.layout import MAX_LEGAL, STATE_LEN
from diceboard.games.custodian.kernel.movegen import legal_actions
from diceboard.games.custodian.kernel.play import step
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

#: the game API's state buffer holds the legal action ids alone: a Move is named by its id
LEGAL_WIDTH = 1


@njit_borrowing
def legal_keyed(state: np.ndarray, opts: np.ndarray, out: np.ndarray, start: int) -> int:
    """The legal action ids of ``state`` into ``out[start:]``; how many there are."""
    return legal_actions(state, opts, out[start:])


perft, random_playouts = compile_drivers("custodian", sys.modules[__name__])
pack, advance = compile_stepping("custodian", sys.modules[__name__])
