"""Copying between arrays in compiled code without numba's slice assignment.

``dst[i:j] = src`` in compiled code makes numba compile, for the mismatch of the two shapes,
an error message that formats both shapes as text (``raise_with_shape_context``): f-strings,
``str`` and ``repr`` of ints, string joins and concatenation, about 5 CPU seconds of a cold
start on the 2-core machine, compiled again in every process that compiles a function with a
slice assignment (numba does not cache those overloads). :func:`copy_into` and
:func:`copy_whole` are the same copies as plain loops, with constant error messages.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel.jit import njit_borrowing

__all__ = ["copy_into", "copy_whole"]


@njit_borrowing
def copy_into(dst: np.ndarray, src: np.ndarray, n: int) -> None:
    """``dst[:n] = src[:n]`` for one-dimensional arrays that do not overlap (or where ``dst``
    starts before ``src``, as the loop copies forward). Raises ``ValueError`` when either
    array is shorter than ``n`` (compiled code does not check indices: the copy would read or
    write past an end)."""
    if n < 0 or n > dst.shape[0] or n > src.shape[0]:
        raise ValueError("copy_into: an array is shorter than the count copied")
    for i in range(n):
        dst[i] = src[i]


@njit_borrowing
def copy_whole(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for one-dimensional arrays of the same length that do not overlap.
    Raises ``ValueError`` when the lengths differ."""
    if dst.shape[0] != src.shape[0]:
        raise ValueError("copy_whole: the arrays' lengths differ")
    for i in range(src.shape[0]):
        dst[i] = src[i]
