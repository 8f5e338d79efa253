"""Wall-clock time inside compiled search code.

Numba's nopython mode has no clock, so :func:`now` steps into object mode for one call to
:func:`time.perf_counter` (about a microsecond; search calls it every thousand nodes or so).
Object-mode blocks are cached with the function (checked with numba 0.68), and with
``NUMBA_DISABLE_JIT=1`` the block is plain Python.
"""

from __future__ import annotations

import time
import warnings

import numba
from numba.core.errors import NumbaWarning

# Searches are compiled with nogil=True so that other threads run while they think; their
# brief object-mode clock reads take the GIL back, which numba reports with this warning.
warnings.filterwarnings(
    "ignore", message="Code running in object mode won't allow parallel", category=NumbaWarning
)


# not diceboard.kernel.njit: its nogil=True has no meaning for an object-mode block and
# makes numba warn
@numba.njit(cache=True)
def now() -> float:
    """Seconds of :func:`time.perf_counter`, the clock that deadlines are set on."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t
