"""The arrays of a dropped batch state, kept for the next functional step.

A functional :func:`~diceboard.vector.step` (``donate=False``) hands back new arrays and leaves
the old state as it was. Allocating them afresh each step is most of what makes it slower than
stepping in place: arrays of this size are memory the C library maps from the system on every
allocation and returns on every free, so each step pays a page fault for every page it
writes (Custodian Dice at batch 4,096: about 10 MB a step, a functional step 2.5 times as long
as one in place). In the usual loop, ``state = step(state, actions)``, the state before the
old one has just been dropped: its arrays are exactly the size the next step needs, already
mapped, and nobody can see them any more. :class:`Spares` keeps them for that step.

An array is kept only when nothing but the dropped state refers to it: a caller that kept one
of a state's arrays (or a view of it, or handed it to another library that holds on to it)
keeps it untouched, and that state's arrays are then left to the allocator as before. Only
CPython with the GIL counts references the way this check needs; elsewhere nothing is kept.
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


_RECYCLING = recycling()
_OWN_REFERENCES = _own_references()


class Spares:
    """At most ``limit`` sets of arrays of the dropped states of one batch, for its next
    states."""

    __slots__ = ("_lock", "_sets", "limit")

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self._sets: list[tuple[np.ndarray, ...]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sets)

    def keep(self, arrays: tuple[np.ndarray, ...]) -> None:
        """Keep ``arrays`` (a dropped state's, in a fixed order) if there is room and nothing
        but that state (one attribute each) and the tuple holds any of them."""
        if not _RECYCLING or len(self._sets) >= self.limit:
            return
        if any(count != _OWN_REFERENCES for count in _references(arrays)):
            return
        if any(array.base is not None or not array.flags.writeable for array in arrays):
            return
        with self._lock:
            if len(self._sets) < self.limit:
                self._sets.append(arrays)

    def take(self) -> tuple[np.ndarray, ...] | None:
        """A kept set of arrays (their contents are whatever the dropped state left in
        them), or ``None``."""
        with self._lock:
            return self._sets.pop() if self._sets else None
