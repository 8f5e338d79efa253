"""The game API's two kernel calls, written once: a state's legal actions, and the state
after one checked action.

The Python API (:mod:`diceboard.core.game`) builds an immutable state per move. Each numba
call from Python costs far more than the work inside it, so each of these does in one call
what took the API several: :func:`legal_array` copies the (read-only) state, lists its legal
actions and returns them as an array of exactly that length; :func:`checked_step` checks that
the action is legal, copies the state and its repetition history with one spare slot, steps
and returns both new arrays.

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

__all__ = ["Stepping", "checked_step", "compile_stepping", "legal_array"]

#: the game's binding; replaced by each game's own in the compiled copies
game: Any = None


@template
def legal_array(state: np.ndarray, opts: np.ndarray) -> np.ndarray:
    """The legal action ids of ``state`` (a new array of exactly their number)."""
    work = state.copy()
    buf = np.empty(game.MAX_LEGAL, dtype=np.int64)
    n = game.legal_actions(work, opts, buf)
    return buf[:n].copy()


@template
def checked_step(
    state: np.ndarray,
    opts: np.ndarray,
    legal: np.ndarray,
    action: int,
    history: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The state array and repetition history after ``action``, if it is one of ``legal``
    (the legal actions of ``state``; ``state`` and ``history`` are left unchanged); two empty
    arrays if it is not, or if the game is over."""
    if state[RESULT] != 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    found = False
    for i in range(legal.shape[0]):
        if legal[i] == action:
            found = True
            break
    if not found:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    after = state.copy()
    nhist = history.shape[0]
    # one spare slot for the hash the step may record
    grown = np.empty(nhist + 1, dtype=np.int64)
    grown[:nhist] = history
    n = game.step(after, opts, action, grown, nhist)
    return after, grown[:n]


class Stepping(NamedTuple):
    """The two calls compiled for one game."""

    legal_array: Any
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
    return Stepping(legal_array=compiled["legal_array"], checked_step=compiled["checked_step"])
