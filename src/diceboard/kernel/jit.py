"""The one place that decides how kernel functions are compiled.

Kernels are compiled with ``numba.njit(cache=True)`` in nopython mode. With the environment
variable ``NUMBA_DISABLE_JIT=1`` numba returns the plain functions, so the same source runs as
ordinary Python (slow, but traceable and measurable by coverage).

Numba stamps a cached function with its own source file only, so a kernel function that
compiles in another module's function (``step`` calling the endings) could load a stale entry
after that module changed. Every kernel function is therefore stamped with the digest of all
compiled sources (:func:`~diceboard.kernel.cachedir.compiled_sources_digest`, through the
locators of :mod:`diceboard.kernel.cache`): any edit to compiled code recompiles on next use,
wherever numba keeps its cache (``__pycache__`` by default, or ``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

from diceboard.kernel.cache import STAMP_ATTR, install_locators
from diceboard.kernel.cachedir import compiled_sources_digest

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def _compiled_stamp() -> bytes:
    return compiled_sources_digest().encode()


def njit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache, stamped with the digest of
    every compiled source (a specialised copy keeps the narrower stamp it was given)."""
    if not hasattr(func, STAMP_ATTR):
        setattr(func, STAMP_ATTR, _compiled_stamp())
    install_locators()
    return cast(F, numba.njit(cache=True, nogil=True)(func))


def jit_disabled() -> bool:
    """True when numba runs kernels as plain Python (``NUMBA_DISABLE_JIT=1``)."""
    return bool(getattr(numba.config, "DISABLE_JIT", False))
