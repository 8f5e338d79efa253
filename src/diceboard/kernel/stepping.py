"""The game API's kernel calls, written once: one compiled call per state made.

The Python API (:mod:`diceboard.core.game`) builds an immutable state per move. Each numba
call from Python costs far more than the work inside it, and each array argument adds to that
cost, so a state is one ``int64`` buffer that holds everything the API asks of the kernel,
and one call makes the next state's buffer whole:

==================================  ==================================================
``buf[:STATE_LEN]``                 the kernel's state array
``buf[STATE_LEN]``                  ``nhist``: the length of the repetition history
``buf[STATE_LEN + 1 : lo]``         the history (``lo = STATE_LEN + 1 + nhist``)
``buf[lo : lo + n]``                the ``n`` legal action ids (chance outcomes at a
                                    chance node), in the kernel's order
``buf[lo + n : lo + 2 * n]``        their notation keys, for games whose binding has
                                    ``LEGAL_WIDTH == 2`` (Chase: a key names a turn's text)
==================================  ==================================================

:func:`advance` checks an action against the legal ones, copies the state and history into
the caller's new buffer, steps and lists the new state's legal actions: the whole of
``play`` in one call. :func:`pack` makes the buffer of a state given as arrays (a parsed
position, a start). Both return a packed code (:func:`unpack` in Python), which gives the
API the lengths and the state's flags as one Python int, with no numpy scalar to read.
The caller allocates the buffers (``STATE_LEN + 2 + nhist + LEGAL_WIDTH * MAX_LEGAL`` for
the state after one more action) and trims them to the length the code gives.

They are templates (:mod:`.specialise`), compiled once per game by :func:`compile_stepping`
from the game's binding (``step``, ``legal_keyed``, ``STATE_LEN``, ``LEGAL_WIDTH``). The
kernel's own functions are always called with writable arrays (views of the new buffer), so
the API adds no read-only specialisation of the rules (a read-only array is a type of its
own to numba).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from diceboard.kernel import CHANCE, RESULT
from diceboard.kernel.specialise import specialise, template

__all__ = [
    "FLAG_CHANCE",
    "FLAG_TERMINAL",
    "LEGAL_BITS",
    "Stepping",
    "advance",
    "compile_stepping",
    "pack",
]

#: bits of the packed code that hold the number of legal actions (every MAX_LEGAL is below)
LEGAL_BITS = 12
#: the code's flag bits: the game is over; the state's chance flag is set
FLAG_TERMINAL = 1
FLAG_CHANCE = 2

#: the game's binding; replaced by each game's own in the compiled copies
game: Any = None


@template
def _finish(out: np.ndarray, opts: np.ndarray, nhist: int) -> int:
    """List the legal actions (and keys) of the state in ``out`` after its history of
    ``nhist`` entries; the packed code of the whole buffer."""
    state_len = game.STATE_LEN
    state = out[:state_len]
    n = game.legal_keyed(state, opts, out, state_len + 1 + nhist)
    flags = 0
    if state[RESULT] != 0:
        flags |= FLAG_TERMINAL
    if state[CHANCE] != 0:
        flags |= FLAG_CHANCE
    return (((nhist << LEGAL_BITS) | n) << 2) | flags


@template
def pack(state: np.ndarray, history: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """Write the buffer of ``state`` with its repetition ``history`` into ``out`` (at least
    ``STATE_LEN + 1 + len(history) + LEGAL_WIDTH * MAX_LEGAL`` long); its packed code."""
    state_len = game.STATE_LEN
    nhist = history.shape[0]
    out[:state_len] = state
    out[state_len] = nhist
    out[state_len + 1 : state_len + 1 + nhist] = history
    return _finish(out, opts, nhist)


@template
def advance(buf: np.ndarray, opts: np.ndarray, action: int, out: np.ndarray) -> int:
    """If ``action`` is one of the legal actions of the state buffer ``buf`` (which is not
    changed), write the buffer of the state after it into ``out`` (at least one entry longer
    than ``buf``'s state and history, plus ``LEGAL_WIDTH * MAX_LEGAL``) and return its packed
    code; else, or if the game is over, return -1."""
    state_len = game.STATE_LEN
    if buf[RESULT] != 0:
        return -1
    nhist = buf[state_len]
    lo = state_len + 1 + nhist
    n = (buf.shape[0] - lo) // game.LEGAL_WIDTH
    found = False
    for i in range(lo, lo + n):
        if buf[i] == action:
            found = True
            break
    if not found:
        return -1
    out[:lo] = buf[:lo]
    grown = out[state_len + 1 : lo + 1]
    after = out[:state_len]
    nhist = game.step(after, opts, action, grown, nhist)
    out[state_len] = nhist
    return _finish(out, opts, nhist)


def unpack(code: int) -> tuple[int, int, int]:
    """``(nhist, n, flags)`` of a packed code: the history's length, the number of legal
    actions and the flag bits (:data:`FLAG_TERMINAL`, :data:`FLAG_CHANCE`)."""
    return code >> (LEGAL_BITS + 2), (code >> 2) & ((1 << LEGAL_BITS) - 1), code & 3


class Stepping(NamedTuple):
    """The calls compiled for one game."""

    pack: Any
    advance: Any


def compile_stepping(game_name: str, binding: ModuleType) -> Stepping:
    """The templates of this module compiled for ``game_name``, whose kernel ``binding``
    provides (each compiles, or loads from numba's cache, on its first call)."""
    if int(binding.MAX_LEGAL) >= 1 << LEGAL_BITS:
        raise ValueError(f"{game_name}: MAX_LEGAL must be below {1 << LEGAL_BITS}")
    compiled = specialise(
        game_name,
        binding,
        [sys.modules[__name__]],
        module_name=f"diceboard.kernel._{game_name}_stepping",
    )
    return Stepping(pack=compiled["pack"], advance=compiled["advance"])
