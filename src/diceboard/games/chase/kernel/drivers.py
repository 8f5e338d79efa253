"""Perft, whole random games and the game API's two kernel calls for Chase: the shared
templates of :mod:`diceboard.kernel.drivers` and :mod:`diceboard.kernel.stepping` compiled for
this game's rules.

This module is also their binding (the ``game`` they call): it provides the kernel entry
points and sizes they need, ``legal_actions``, ``step``, ``STATE_LEN`` and ``MAX_LEGAL``.
"""

from __future__ import annotations

import sys

from diceboard.games.chase.kernel.layout import MAX_LEGAL, STATE_LEN
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel.drivers import compile_drivers
from diceboard.kernel.stepping import compile_stepping

__all__ = [
    "MAX_LEGAL",
    "STATE_LEN",
    "checked_step",
    "legal_actions",
    "legal_into",
    "perft",
    "random_playouts",
    "step",
]

perft, random_playouts = compile_drivers("chase", sys.modules[__name__])
legal_into, checked_step = compile_stepping("chase", sys.modules[__name__])
