"""The compile log records numba's compilations: one per function and signature, nested ones
inside the function that compiled them in, and nothing loaded from the cache."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from diceboard.kernel.compile_log import CompileLog
from diceboard.kernel.jit import KernelDispatcher, jit_disabled

pytestmark = pytest.mark.skipif(jit_disabled(), reason="nothing compiles without the JIT")


def _dispatcher(func: Any) -> Any:
    return KernelDispatcher(py_func=func, locals={}, targetoptions={"nopython": True})


def _inner(a: np.ndarray, k: int) -> int:
    return int(a[k])


def test_nested_compilations_are_counted_apart_and_summed_per_function() -> None:
    inner = _dispatcher(_inner)

    def outer(a: np.ndarray) -> int:
        return inner(a, 0) + inner(a, 1)  # type: ignore[no-any-return]

    compiled = _dispatcher(outer)
    with CompileLog() as log:
        compiled(np.arange(3))
        compiled(np.arange(4.0))  # a second signature of both
        compiled(np.arange(5))  # compiled already: nothing new
    rows = {row.function.rsplit(".", 1)[-1]: row for row in log.table()}
    assert rows["outer"].count == 2 and rows["_inner"].count == 2
    assert len(set(rows["outer"].signatures)) == 2
    for row in (rows["outer"], rows["_inner"]):
        assert 0.0 < row.exclusive_s <= row.inclusive_s
    outer_runs = [c for c in log.compilations if c.function.endswith("outer")]
    inner_total = sum(c.inclusive_s for c in log.compilations if c.function.endswith("_inner"))
    # what outer compiled in: _inner, and any of numba's own helpers it needed
    assert sum(c.inclusive_s - c.exclusive_s for c in outer_runs) >= inner_total * (1 - 1e-9)


def test_nothing_is_recorded_outside_the_log() -> None:
    compiled = _dispatcher(_inner)
    with CompileLog() as log:
        pass
    compiled(np.arange(2), 1)
    assert log.compilations == []
