"""The search's clock (:mod:`diceboard.ai.engine.clock`) reads the clock that deadlines are set
on, :func:`time.perf_counter`; on Linux compiled code reads it without object mode (and so
without the interpreter lock)."""

from __future__ import annotations

import sys
import time
from typing import Any

import numba
import pytest

from diceboard.ai.engine import clock
from diceboard.kernel.jit import jit_disabled


@numba.njit(nogil=True)
def _read() -> float:
    return clock.now()  # type: ignore[no-any-return]


def _between_two_reads(read: Any) -> tuple[float, float, float]:
    read()  # compiled before the clock starts
    before = time.perf_counter()
    value = float(read())
    after = time.perf_counter()
    return before, value, after


@pytest.mark.skipif(jit_disabled(), reason="compiled code only")
def test_compiled_code_reads_perf_counters_clock() -> None:
    before, value, after = _between_two_reads(_read)
    assert before <= value <= after


def test_python_reads_perf_counters_clock() -> None:
    before, value, after = _between_two_reads(clock.now if jit_disabled() else _read.py_func)
    assert before <= value <= after


@pytest.mark.skipif(
    jit_disabled() or not sys.platform.startswith("linux"), reason="compiled code on Linux"
)
def test_on_linux_the_clock_is_read_without_object_mode() -> None:
    assert time.get_clock_info("perf_counter").implementation == "clock_gettime(CLOCK_MONOTONIC)"
    assert clock.DIRECT
    body = _compiled_body(next(iter(_read.inspect_llvm().values())))
    assert "@clock_gettime" in body
    # object mode takes the interpreter lock back and calls into Python
    assert "numba_gil_ensure" not in body
    assert "PyObject_Call" not in body


def _compiled_body(ir: str) -> str:
    """The LLVM IR of the compiled function itself, without its Python and C entry points
    (which take the interpreter lock back to raise an error)."""
    (body,) = [
        function
        for function in ir.split("\ndefine ")[1:]
        if "_read" in (first := function.splitlines()[0])
        and "@_ZN7cpython" not in first
        and "@cfunc." not in first
    ]
    return body
