"""Bit tricks the kernels share: a board or a set of choices as the bits of one ``int64``."""

from __future__ import annotations

from typing import Any

from diceboard.kernel.jit import jit_disabled, njit_borrowing

__all__ = ["lowest_bit_index", "popcount"]


def _python_trailing_zeros(mask: int) -> int:
    m = int(mask)
    return (m & -m).bit_length() - 1


# Compiled code counts the trailing zeros with one instruction (LLVM's cttz); as plain Python
# (NUMBA_DISABLE_JIT=1) numba's intrinsic cannot be called, so an int method does it.
_trailing_zeros: Any = _python_trailing_zeros
if not jit_disabled():
    from numba.cpython.unsafe.numbers import trailing_zeros

    _trailing_zeros = trailing_zeros


@njit_borrowing
def lowest_bit_index(mask: int) -> int:
    """The index of the lowest set bit of a non-zero ``mask``.

    >>> lowest_bit_index(0b10100)
    2
    """
    return _trailing_zeros(mask)


@njit_borrowing
def popcount(mask: int) -> int:
    """Set bits of ``mask``.

    >>> popcount(0b10110)
    3
    """
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n
