"""Perft and whole random games for Custodian Dice: the shared drivers of
:mod:`diceboard.kernel.drivers` compiled for this game's rules.

This module is also the drivers' binding (the ``game`` they call): it provides the kernel
entry points and sizes they need, ``legal_actions``, ``step``, ``STATE_LEN`` and ``MAX_LEGAL``.
"""

from __future__ import annotations

import sys

from diceboard.games.custodian.kernel.layout import MAX_LEGAL, STATE_LEN
from diceboard.games.custodian.kernel.movegen import legal_actions
from diceboard.games.custodian.kernel.play import step
from diceboard.kernel.drivers import compile_drivers

__all__ = ["MAX_LEGAL", "STATE_LEN", "legal_actions", "perft", "random_playouts", "step"]

perft, random_playouts = compile_drivers("custodian", sys.modules[__name__])
