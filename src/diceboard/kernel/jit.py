"""The one place that decides how kernel functions are compiled.

Kernels are compiled with ``numba.njit(cache=True)`` in nopython mode. With the environment
variable ``NUMBA_DISABLE_JIT=1`` numba returns the plain functions, so the same source runs as
ordinary Python (slow, but traceable and measurable by coverage).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def njit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))


def jit_disabled() -> bool:
    """True when numba runs kernels as plain Python (``NUMBA_DISABLE_JIT=1``)."""
    return bool(getattr(numba.config, "DISABLE_JIT", False))
