"""The arrays of a dropped batch state, kept for the next functional step.

A functional :func:`~diceboard.vector.step` (``donate=False``) hands back new arrays and leaves
the old state as it was. Allocating them afresh each step is most of what makes it slower than
stepping in place: arrays of this size are memory the C library maps from the system on every
allocation and returns on every free, so each step pays a page fault for every page it
writes (Custodian Dice at batch 4,096: about 10 MB a step, a functional step 2.5 times as long
as one in place). In the usual loop, ``state = step(state, actions)``, the state before the
old one has just been dropped: its arrays are exactly the size the next step needs, already
mapped, and nobody can see them any more. :class:`Spares` keeps them for that step.

An array is reused only when nothing but the dropped state refers to it: a caller that kept
one of a state's arrays (or a view of it, or handed it to another library that holds on to it)
keeps it untouched, and that state's arrays are then left to the allocator as before. A set
held by something else when its state is dropped is looked at again when the next step takes
one (only the latest such set is kept for that): a thread of the simulator's crew may hold the
arrays of the step it helped with for a moment after the step returns, until it has the
interpreter lock back to let go (beside a busy process, one step in a few hundred), and by the
next step it has let go; a caller's own reference is still there then, and the set is dropped.
Only CPython with the GIL counts references the way this check needs; elsewhere nothing is
kept.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

__all__ = ["Spares", "recycling"]


def recycling() -> bool:
    """Whether this interpreter counts references so that an unshared array can be told
    (CPython, with the GIL)."""
    gil = getattr(sys, "_is_gil_enabled", None)
    return sys.implementation.name == "cpython" and (gil is None or gil())


def _references(arrays: tuple[np.ndarray, ...]) -> list[int]:
    return [sys.getrefcount(array) for array in arrays]


class _Holder:
    __slots__ = ("array",)
    array: np.ndarray


def _own_references() -> int:
    """The references an array held only by a state's attribute has while :meth:`Spares.keep`
    counts it (the attribute, the tuple of arrays, the counting's own): measured the same way,
    since the interpreter's own share differs between versions."""
    holder = _Holder()
    holder.array = np.empty(1)
    return _references((holder.array,))[0]


def _pending_references() -> int:
    """The references an array held only by the tuple of a set looked at again (the tuple,
    the counting's own) has while :meth:`Spares.take` counts it."""
    return _references((np.empty(1),))[0]


_RECYCLING = recycling()
_OWN_REFERENCES = _own_references()
_PENDING_REFERENCES = _pending_references()


class Spares:
    """At most ``limit`` sets of arrays of the dropped states of one batch, for its next
    states."""

    __slots__ = ("_lock", "_pending", "_sets", "limit", "taken")

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self._sets: list[tuple[np.ndarray, ...]] = []
        #: the latest set that something else held when its state was dropped
        self._pending: tuple[np.ndarray, ...] | None = None
        self._lock = threading.Lock()
        #: how many sets :meth:`take` has handed out
        self.taken = 0

    def __len__(self) -> int:
        """The sets kept that nothing else held when their states were dropped."""
        return len(self._sets)

    def keep(self, arrays: tuple[np.ndarray, ...]) -> None:
        """Keep ``arrays`` (a dropped state's, in a fixed order) if there is room and they are
        its own arrays: for the next step if nothing but that state (one attribute each) and
        the tuple holds any of them, else to be looked at again then."""
        if not _RECYCLING or len(self._sets) >= self.limit:
            return
        if any(array.base is not None or not array.flags.writeable for array in arrays):
            return
        unshared = all(count == _OWN_REFERENCES for count in _references(arrays))
        with self._lock:
            if len(self._sets) >= self.limit:
                return
            if unshared:
                self._sets.append(arrays)
            else:
                self._pending = arrays

    def take(self) -> tuple[np.ndarray, ...] | None:
        """A kept set of arrays that nothing else holds (their contents are whatever the
        dropped state left in them), or ``None``."""
        with self._lock:
            if self._sets:
                self.taken += 1
                return self._sets.pop()
            pending, self._pending = self._pending, None
        if pending is None:
            return None
        if any(count != _PENDING_REFERENCES for count in _references(pending)):
            return None  # still held: by the caller, who keeps it untouched
        with self._lock:
            self.taken += 1
        return pending
