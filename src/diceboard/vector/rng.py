"""Per-game random streams for the chance events of the batched simulator.

Each game in a batch owns one 64-bit xorshift state, so its dice do not depend on the batch
size, the thread that steps it or the other games. The streams are seeded from the batch
seed and the game's index with SplitMix64 (in Python, once), and advanced inside the compiled
kernels with shifts and xors only (which wrap silently both compiled and as plain Python).
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import njit

_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def seed_streams(seed: int, first: int, count: int) -> np.ndarray:
    """The initial states of streams ``first … first + count - 1`` of batch seed ``seed``
    (never 0, which is a fixed point of xorshift)."""
    base = _splitmix64(int(seed) & _MASK64)
    states = np.empty(count, dtype=np.uint64)
    for k in range(count):
        s = _splitmix64(base ^ _splitmix64(first + k))
        states[k] = s if s != 0 else 0x9E3779B97F4A7C15
    return states


@njit
def next_u64(rng: np.ndarray, i: int) -> np.uint64:
    """Advance stream ``i`` of ``rng`` (xorshift64) and return its new state."""
    x = rng[i]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[i] = x
    return np.uint64(x)


@njit
def below(rng: np.ndarray, i: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` from stream ``i`` (``n`` < 2**31), taken from the high
    32 bits by a multiply-shift."""
    hi = next_u64(rng, i) >> np.uint64(32)
    return int((hi * np.uint64(n)) >> np.uint64(32))
