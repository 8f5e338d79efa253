"""The kernels' dispatcher compiles one signature per argument types, not one per constant: a
kernel function called from compiled code with a constant (``record(trace, 0, n)``) is typed
with the plain ``int64``, unless it cannot be typed without the literal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from diceboard.kernel.jit import KernelDispatcher, jit_disabled, njit

pytestmark = pytest.mark.skipif(jit_disabled(), reason="signatures exist only compiled")


def _dispatcher(func: Any) -> Any:
    # not cached: each test sees its own compilations, whatever the cache holds
    return KernelDispatcher(py_func=func, locals={}, targetoptions={"nopython": True})


def _add(a: np.ndarray, k: int) -> int:
    return int(a[k]) + k


def _pick(pair: tuple[int, float], i: int) -> float:
    return pair[i]  # a heterogeneous tuple: only a literal index types


def test_constants_passed_from_compiled_code_share_the_plain_signature() -> None:
    add = _dispatcher(_add)

    def caller(a: np.ndarray) -> int:
        return add(a, 0) + add(a, 1) + add(a, 2)  # type: ignore[no-any-return]

    assert _dispatcher(caller)(np.array([10, 20, 30])) == 63
    assert [str(s) for s in add.signatures] == [
        "(Array(int64, 1, 'C', False, aligned=True), int64)"
    ]


def test_a_function_that_needs_the_literal_still_gets_it() -> None:
    pick = _dispatcher(_pick)

    def caller() -> float:
        return pick((1, 2.5), 1)  # type: ignore[no-any-return]

    assert _dispatcher(caller)() == 2.5
    assert len(pick.signatures) == 1
    assert "Literal[int](1)" in str(pick.signatures[0])


def test_njit_makes_a_cached_kernel_dispatcher() -> None:
    def triple(x: int) -> int:
        return 3 * x

    compiled = njit(triple)
    assert isinstance(compiled, KernelDispatcher)
    assert compiled._cache is not None  # type: ignore[attr-defined]
    assert compiled(14) == 42


def _count_positive(a: np.ndarray) -> int:
    n = 0
    for i in range(a.shape[0]):
        n += a[i] > 0
    return n


def _allocate(n: int) -> int:
    a = np.zeros(n, dtype=np.int64)
    return int(a.sum())


def test_a_borrowing_kernel_runs_without_numba_runtime_and_keeps_no_reference() -> None:
    import sys

    from numba.core import errors

    from diceboard.kernel.jit import njit_borrowing

    compiled = njit_borrowing(_count_positive)
    assert isinstance(compiled, KernelDispatcher)
    assert compiled.targetoptions["_nrt"] is False
    a = np.array([3, -1, 2, 0], dtype=np.int64)
    before = sys.getrefcount(a)
    assert [compiled(a) for _ in range(100)] == [2] * 100
    assert sys.getrefcount(a) == before
    # one that allocates is refused when it compiles, not run without the runtime
    with pytest.raises(errors.TypingError):
        njit_borrowing(_allocate)(3)
