"""A small seeded random generator for compiled search (xorshift32).

Kept in a one-element ``int64`` array so that a search can carry it between calls. Every
value stays below 2**32, so the arithmetic is the same in compiled code and in plain Python
(``NUMBA_DISABLE_JIT=1``): a seed gives the same moves either way.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import njit

_MASK32 = 0xFFFFFFFF


def new_rng(seed: int) -> np.ndarray:
    """A generator state for ``seed`` (any int; 0 is mapped to a non-zero state)."""
    state = (seed * 0x9E3779B1 + 0x7F4A7C15) & _MASK32
    return np.array([state or 0x6A09E667], dtype=np.int64)


@njit
def next_u32(rng: np.ndarray) -> int:
    """The next 32-bit value (Marsaglia's xorshift32, triple 13/17/5)."""
    x = int(rng[0])
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    rng[0] = x
    return x


@njit
def below(rng: np.ndarray, n: int) -> int:
    """A random integer in ``range(n)`` (``n`` ≥ 1)."""
    return next_u32(rng) % n


@njit
def uniform(rng: np.ndarray) -> float:
    """A random float in [0, 1)."""
    return next_u32(rng) / 4294967296.0
