"""The game API's two kernel calls, written once: a state's legal actions, and the state
after one checked action.

The Python API (:mod:`diceboard.core.game`) builds an immutable state per move. Each numba
call from Python costs far more than the work inside it, so each of these does in one call
what took the API several: :func:`legal_into` copies the (read-only) state and lists its
legal actions; :func:`checked_step` checks that the action is legal, copies the state and its
repetition history (with one spare slot) into new arrays and steps. The caller allocates the
arrays: an array made inside a compiled function costs more to hand back to Python than
``np.empty`` costs.

They are templates (:mod:`.specialise`), compiled once per game by :func:`compile_stepping`
from the game's binding (``legal_actions``, ``step``, ``MAX_LEGAL``). The kernel's own
functions are always called with writable arrays, so the API adds no read-only
specialisation of the rules (a read-only array is a type of its own to numba).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from diceboard.kernel import RESULT
from diceboard.kernel.specialise import specialise, template

__all__ = ["Stepping", "checked_step", "compile_stepping", "legal_into"]

#: the game's binding; replaced by each game's own in the compiled copies
game: Any = None


@template
def legal_into(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of ``state`` (which may be read-only) into ``out``; how
    many there are."""
    return game.legal_actions(state.copy(), opts, out)


@template
def checked_step(
    state: np.ndarray,
    opts: np.ndarray,
    legal: np.ndarray,
    action: int,
    history: np.ndarray,
    after: np.ndarray,
    grown: np.ndarray,
) -> int:
    """If ``action`` is one of ``legal`` (the legal actions of ``state``), write the state
    after it into ``after`` and the repetition history after it into ``grown`` (one entry
    longer than ``history``) and return the new history's length; else, or if the game is
    over, return -1. ``state`` and ``history`` are left unchanged."""
    if state[RESULT] != 0:
        return -1
    found = False
    for i in range(legal.shape[0]):
        if legal[i] == action:
            found = True
            break
    if not found:
        return -1
    after[:] = state
    nhist = history.shape[0]
    grown[:nhist] = history
    return game.step(after, opts, action, grown, nhist)


class Stepping(NamedTuple):
    """The two calls compiled for one game."""

    legal_into: Any
    checked_step: Any


def compile_stepping(game_name: str, binding: ModuleType) -> Stepping:
    """The templates of this module compiled for ``game_name``, whose kernel ``binding``
    provides (each compiles, or loads from numba's cache, on its first call)."""
    compiled = specialise(
        game_name,
        binding,
        [sys.modules[__name__]],
        module_name=f"diceboard.kernel._{game_name}_stepping",
    )
    return Stepping(legal_into=compiled["legal_into"], checked_step=compiled["checked_step"])
