"""Small compiled look-ups the game API uses on kernel arrays (a numba call costs a fraction
of the numpy expression or the Python-list round trip it replaces)."""

from __future__ import annotations

import numpy as np

from diceboard.kernel.jit import njit

__all__ = ["contains"]


@njit
def contains(values: np.ndarray, value: int) -> bool:
    """Whether ``value`` is one of ``values`` (a 1-d int64 array)."""
    for i in range(values.shape[0]):  # noqa: SIM110  (numba compiles no generator here)
        if values[i] == value:
            return True
    return False
