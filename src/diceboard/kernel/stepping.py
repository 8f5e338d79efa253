"""The game API's kernel calls, written once: one compiled call per state made.

The Python API (:mod:`diceboard.core.game`) builds an immutable state per move. Each numba
call from Python costs far more than the work inside it, and each array argument adds to that
cost, so a state is one read-only ``int64`` buffer that holds everything the API asks of the
kernel, and one call makes the next state's buffer whole:

==================================  ==================================================
``buf[:STATE_LEN]``                 the kernel's state array
``buf[STATE_LEN]``                  ``nhist``: the length of the repetition history
``buf[STATE_LEN + 1 : lo]``         the history (``lo = STATE_LEN + 1 + nhist``)
``buf[lo : lo + n]``                the ``n`` legal action ids (chance outcomes at a
                                    chance node), in the kernel's order
``buf[lo + n : lo + 2 * n]``        their notation keys, for games whose binding has
                                    ``LEGAL_WIDTH == 2`` (Chase: a key names a turn's text)
==================================  ==================================================

:func:`advance` checks an action against the legal ones, copies the state and history,
steps and lists the new state's legal actions: the whole of ``play`` in one call. A game's
``pack`` (:func:`packer`) makes the buffer of a state given as arrays (a parsed position, a
start) through the same compiled function, with the action :data:`PACK`. Both return
``(lo, n, flags, buf)``: the API reads the lengths and the state's flags as Python ints, with
no numpy scalar to convert, and gets the buffer made in compiled code, just long enough and
already read-only (:func:`frozen`), with no numpy call of its own to allocate, trim or lock
it.

:func:`advance` is a template (:mod:`.specialise`), compiled once per game by
:func:`compile_stepping` from the game's binding (``step``, ``legal_keyed``, ``STATE_LEN``,
``MAX_LEGAL``, ``LEGAL_WIDTH``). The kernel's own functions are always called with writable
arrays (views of a work buffer), so the API adds no read-only specialisation of the rules (a
read-only array is a type of its own to numba). :func:`direct` finds the compiled function a
call runs, so that the API's hot call skips numba's dispatcher.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple, cast

import numpy as np
from numba.core import types
from numba.core.extending import intrinsic
from numba.core.imputils import impl_ret_borrowed

from diceboard.kernel import CHANCE, RESULT
from diceboard.kernel.arrays import copy_into
from diceboard.kernel.jit import jit_disabled
from diceboard.kernel.specialise import specialise, template

__all__ = [
    "FLAG_CHANCE",
    "FLAG_TERMINAL",
    "PACK",
    "Made",
    "Stepping",
    "advance",
    "compile_stepping",
    "direct",
    "packer",
]

#: the flag bits: the game is over; the state's chance flag is set
FLAG_TERMINAL = 1
FLAG_CHANCE = 2

#: the game's binding; replaced by each game's own in the compiled copies
game: Any = None

#: the action that asks :func:`advance` for the buffer of a state given with its history
#: alone (no action id is negative)
PACK = -1


#: what pack and advance return: ``(lo, n, flags, buf)``, where the legal actions begin in
#: the buffer, how many there are, the flag bits (-1: the action was refused) and the buffer
Made = tuple[int, int, int, np.ndarray]


def _frozen_python(buf: np.ndarray) -> np.ndarray:
    """``buf``, made read-only in place (:func:`frozen` without the compiler)."""
    buf.setflags(write=False)
    return buf


if jit_disabled():
    frozen = _frozen_python
else:

    @intrinsic  # type: ignore[misc]
    def frozen(typingctx: Any, buf: Any) -> Any:
        """``buf`` as a read-only array: the same array, typed read-only, so that numba
        hands it to Python with numpy's write flag cleared (nothing is copied)."""
        if not isinstance(buf, types.Array):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return impl_ret_borrowed(  # type: ignore[no-untyped-call]
                context, builder, signature.return_type, args[0]
            )

        return buf.copy(readonly=True)(buf), codegen


@template
def _finish(work: np.ndarray, opts: np.ndarray, nhist: int) -> Made:
    """List the legal actions (and keys) of the state in ``work`` after its history of
    ``nhist`` entries, and copy the filled part of ``work`` into the state's buffer."""
    state_len = game.STATE_LEN
    state = work[:state_len]
    lo = state_len + 1 + nhist
    n = game.legal_keyed(state, opts, work, lo)
    flags = 0
    if state[RESULT] != 0:
        flags |= FLAG_TERMINAL
    if state[CHANCE] != 0:
        flags |= FLAG_CHANCE
    length = lo + n * game.LEGAL_WIDTH
    buf = np.empty(length, dtype=np.int64)
    copy_into(buf, work, length)
    return lo, n, flags, frozen(buf)


@template
def _refused(like: np.ndarray) -> Made:
    """What :func:`advance` returns for an action it does not play."""
    return 0, 0, -1, frozen(like[:0].copy())


@template
def advance(buf: np.ndarray, opts: np.ndarray, action: int) -> Made:
    """If ``action`` is one of the legal actions of the state buffer ``buf`` (which is not
    changed), the buffer of the state after it; else, or if the game is over, flags -1 and
    an empty buffer. With ``action`` :data:`PACK`, ``buf`` holds a state and its history
    alone, and the buffer made is that state's (see :func:`packer`)."""
    state_len = game.STATE_LEN
    nhist = buf[state_len]
    lo = state_len + 1 + nhist
    if action == PACK:
        # a state's own buffer from its arrays: its legal actions are still to be listed
        work = np.empty(lo + game.LEGAL_WIDTH * game.MAX_LEGAL, dtype=np.int64)
        copy_into(work, buf, lo)
        return _finish(work, opts, nhist)
    if buf[RESULT] != 0:
        return _refused(buf)
    n = (buf.shape[0] - lo) // game.LEGAL_WIDTH
    found = False
    for i in range(lo, lo + n):
        if buf[i] == action:
            found = True
            break
    if not found:
        return _refused(buf)
    # the state and its history, with room for one more entry and the legal actions
    work = np.empty(lo + 1 + game.LEGAL_WIDTH * game.MAX_LEGAL, dtype=np.int64)
    copy_into(work, buf, lo)
    nhist = game.step(work[:state_len], opts, action, work[state_len + 1 : lo + 1], nhist)
    work[state_len] = nhist
    return _finish(work, opts, nhist)


def packer(advance: Callable[..., Made], state_len: int) -> Callable[..., Made]:
    """The game's ``pack(state, history, opts)``: the buffer of ``state`` with its repetition
    ``history`` (neither is changed), made by ``advance`` (the game's compiled
    :func:`advance`) from a read-only copy of the two, with the action :data:`PACK`.

    A compiled function of its own would cost a cold start its compiling (its own copy of the
    game's move generation, optimised again): half a second for Custodian, on the way to the
    first game a server can answer. A state is packed only when it is made from arrays (a
    start, a parsed position), never in play."""

    def pack(state: np.ndarray, history: np.ndarray, opts: np.ndarray) -> Made:
        nhist = history.shape[0]
        raw = np.empty(state_len + 1 + nhist, dtype=np.int64)
        raw[:state_len] = state
        raw[state_len] = nhist
        raw[state_len + 1 :] = history
        # read-only, as every state buffer that the game API hands advance: one signature
        raw.flags.writeable = False
        return advance(raw, opts, PACK)

    return pack


def direct(function: Any, args: tuple[Any, ...]) -> Callable[..., Any]:
    """What calling ``function`` (a compiled kernel function) with ``args`` runs: its
    compiled version for their types (compiled, or loaded from numba's cache, now), to be
    called with no dispatcher in between (``function`` itself without the compiler).

    Numba's dispatcher works out the types of a call's arguments on every call, which costs
    a third of the game API's kernel call. The function handed back converts its arguments
    to the types found here without checking them again, so it must be called only with
    arguments of the same types: the game API passes its own buffers, always C-contiguous
    read-only ``int64`` arrays, and Python ints.
    """
    if jit_disabled() or not hasattr(function, "compile"):
        return cast(Callable[..., Any], function)
    signature = tuple(function.typeof_pyval(a) for a in args)
    key = (function, signature)
    found = _FOUND.get(key)
    if found is None:
        # numba's compile() takes its global compiler lock even for a signature it has, so
        # that a server building a game while another game's kernels compile in its warm-up
        # thread would wait for them: each (function, signature) is looked up once
        found = _FOUND[key] = cast(Callable[..., Any], function.compile(signature))
    return found


#: what :func:`direct` found, by function and signature
_FOUND: dict[tuple[Any, tuple[Any, ...]], Callable[..., Any]] = {}


class Stepping(NamedTuple):
    """The calls compiled for one game."""

    pack: Any
    advance: Any


def compile_stepping(game_name: str, binding: ModuleType) -> Stepping:
    """The templates of this module compiled for ``game_name``, whose kernel ``binding``
    provides (each compiles, or loads from numba's cache, on its first call)."""
    compiled = specialise(
        game_name,
        binding,
        [sys.modules[__name__]],
        module_name=f"diceboard.kernel._{game_name}_stepping",
    )
    advance = compiled["advance"]
    return Stepping(pack=packer(advance, int(binding.STATE_LEN)), advance=advance)
