"""Helping numba drop the reference counting of a kernel function's array arguments.

Numba increments an array argument's reference count when a compiled function starts and
decrements it after the array's last use: two atomic operations per array and call, about
15 ns each on the 2-core machine, as much as a Custodian move generation when several
functions deep. Its pruning pass removes such a pair only when nothing can happen between
them (no call to a compiled function that LLVM did not inline, whose error path would leave
early) and the decrement follows the increment on every path (one place, not one per
branch). :func:`released` gives an array one last use at the single exit of a function.

A kernel function that calls others LLVM does not inline (a move generation calling the
rule of bumps) cannot be written so; those that allocate nothing are compiled without
numba's runtime instead (:func:`~diceboard.kernel.jit.njit_borrowing`), which leaves no
reference counting to prune.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel.jit import njit_borrowing

__all__ = ["released"]


@njit_borrowing
def released(array: np.ndarray, value: int) -> int:
    """``value``. Returned last from a kernel function, it is the last use of ``array`` on
    every path, so that numba's pruning drops the pair of reference-count operations."""
    return value
