"""Wall-clock time inside compiled search code.

Numba's nopython mode has no clock. Where :func:`time.perf_counter` is
``clock_gettime(CLOCK_MONOTONIC)`` on a 64-bit machine (Linux), :func:`now` calls that C
function itself, from compiled code (about 20 ns; the search calls it every thousand nodes or
so): no object mode, so the search never takes the interpreter lock back to read the time,
and a cold start compiles one small function instead of an object-mode block and the function
lifted out of it (0.26 of a computer worker's 9.5 CPU s on an empty cache). Elsewhere it steps
into object mode for one call to :func:`time.perf_counter` (about a microsecond; object-mode
blocks are cached with the function, checked with numba 0.68). With ``NUMBA_DISABLE_JIT=1``
it is plain Python.
"""

from __future__ import annotations

import sys
import time
import warnings
from typing import Any

import numba
from llvmlite import ir
from numba.core import cgutils as numba_cgutils
from numba.core import types
from numba.core.errors import NumbaWarning
from numba.core.extending import intrinsic

from diceboard.kernel.jit import jit_disabled, njit_borrowing

# Searches are compiled with nogil=True so that other threads run while they think; an
# object-mode clock read takes the GIL back, which numba reports with this warning.
warnings.filterwarnings(
    "ignore", message="Code running in object mode won't allow parallel", category=NumbaWarning
)


def _perf_counter_is_clock_gettime() -> bool:
    """Whether :func:`time.perf_counter` reads ``clock_gettime(CLOCK_MONOTONIC)`` into a
    ``struct timespec`` of two 64-bit integers (Linux on a 64-bit machine)."""
    implementation = time.get_clock_info("perf_counter").implementation
    return (
        sys.platform.startswith("linux")
        and sys.maxsize > 2**32
        and implementation == "clock_gettime(CLOCK_MONOTONIC)"
        and hasattr(time, "CLOCK_MONOTONIC")
    )


#: numba's LLVM IR helpers (numba is untyped)
cgutils: Any = numba_cgutils


@intrinsic  # type: ignore[misc]
def _monotonic_ns(typingctx: Any) -> Any:
    """``CLOCK_MONOTONIC``'s time in nanoseconds, from ``clock_gettime`` (compiled code
    only)."""
    int64 = ir.IntType(64)
    timespec = ir.LiteralStructType([int64, int64])  # tv_sec, tv_nsec

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        function_type = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(
            builder.module, function_type, "clock_gettime"
        )
        spec = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(ir.IntType(32), time.CLOCK_MONOTONIC), spec])
        seconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(int64, 1_000_000_000)), nanoseconds)

    return types.int64(), codegen


def _python_now() -> float:
    """Seconds of :func:`time.perf_counter`, the clock that deadlines are set on."""
    return time.perf_counter()


def _object_mode_now() -> float:
    """Seconds of :func:`time.perf_counter`, the clock that deadlines are set on."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


def _clock_gettime_now() -> float:
    """Seconds of :func:`time.perf_counter`, the clock that deadlines are set on."""
    return _monotonic_ns() / 1e9  # type: ignore[call-arg, no-any-return]


#: whether :func:`now` reads the clock without object mode
DIRECT = not jit_disabled() and _perf_counter_is_clock_gettime()

now: Any
if jit_disabled():
    now = _python_now
elif DIRECT:
    now = njit_borrowing(_clock_gettime_now)
else:
    # not diceboard.kernel.njit: its nogil=True has no meaning for an object-mode block and
    # makes numba warn
    now = numba.njit(cache=True)(_object_mode_now)
