"""A small, fast random number generator for the kernels' random playouts: splitmix64.

The C reference of ``bench custodian --against-c`` (benchmarks/c/custodian_ref.c) draws its
random actions the same way, so that the comparison is of the same work per ply: one
splitmix64 step and a multiply-shift onto ``[0, n)`` (Lemire's method without the rejection
step: its bias, below n / 2**32, does not matter for benchmarks and playouts).

The generator's whole state is one ``uint64`` in a one-element array, so compiled code keeps
it without allocating. Compiled, the arithmetic wraps modulo 2**64 like C's; as plain Python
(``NUMBA_DISABLE_JIT=1``) numpy's scalars would warn on that overflow, so a second version
does the same arithmetic on Python ints.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel.jit import jit_disabled, njit, njit_borrowing

__all__ = ["below", "new_rng"]

_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1

# numba types a uint64 mixed with an int64 as float64: every constant is a uint64 already
_U_GOLDEN = np.uint64(_GOLDEN)
_U_MIX1 = np.uint64(_MIX1)
_U_MIX2 = np.uint64(_MIX2)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)


@njit
def new_rng(seed: int) -> np.ndarray:
    """A generator seeded with ``seed`` (``0 <= seed < 2**63``)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    return rng


@njit_borrowing
def _below_compiled(rng: np.ndarray, n: int) -> int:
    z = rng[0] + _U_GOLDEN
    rng[0] = z
    z = (z ^ (z >> _U30)) * _U_MIX1
    z = (z ^ (z >> _U27)) * _U_MIX2
    z = z ^ (z >> _U31)
    return int(((z >> _U32) * np.uint64(n)) >> _U32)


def _below_python(rng: np.ndarray, n: int) -> int:
    z = (int(rng[0]) + _GOLDEN) & _MASK
    rng[0] = z
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    z ^= z >> 31
    return ((z >> 32) * int(n)) >> 32


#: ``below(rng, n)``: a random int in ``[0, n)`` for ``0 < n < 2**32``, advancing ``rng``
below = _below_python if jit_disabled() else _below_compiled
