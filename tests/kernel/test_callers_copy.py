"""A kernel function has a copy for compiled callers, compiled without a Python entry point
(:func:`~diceboard.kernel.jit.for_callers`): compiled code calls the copy, Python calls the
function, and the two never share a compiled version, in memory or in numba's cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numba.core.caching import NullCache

from diceboard.kernel.jit import (
    CALLERS_SUFFIX,
    compile_for_callers,
    for_callers,
    jit_disabled,
    njit,
    njit_inlined,
)
from tests.scripts import outputs_of_runs

pytestmark = pytest.mark.skipif(jit_disabled(), reason="only compiled code has copies")


def _fresh(func: Any) -> Any:
    """``njit(func)``, it and its copy compiled afresh in each run (numba shows no code of a
    function it loaded from its cache)."""
    compiled = njit(func)
    for dispatcher in {compiled, for_callers(compiled)}:
        dispatcher._cache = NullCache()
    return compiled


def _defines(dispatcher: object) -> list[str]:
    """The functions the compiled code of ``dispatcher``'s one signature defines."""
    ir = next(iter(dispatcher.inspect_llvm().values()))  # type: ignore[attr-defined]
    return [line for line in ir.splitlines() if line.startswith("define")]


def _has_python_entry(dispatcher: object) -> bool:
    """Whether ``dispatcher``'s compiled code defines a Python entry point (numba's CPython
    wrapper, whose mangled name starts so)."""
    return any("@_ZN7cpython" in line for line in _defines(dispatcher))


def _weight(a: np.ndarray, k: int) -> int:
    return int(a[k]) * 2


def _inlined_weight(a: np.ndarray, k: int) -> int:
    return int(a[k]) * 3


def test_compiled_callers_compile_and_call_the_copy_not_the_function() -> None:
    weight = _fresh(_weight)

    def total(a: np.ndarray) -> int:
        return weight(a, 0) + weight(a, 1)  # type: ignore[no-any-return]

    assert _fresh(total)(np.array([5, 7], dtype=np.int64)) == 24
    assert weight.signatures == []  # type: ignore[attr-defined]
    copy = for_callers(weight)
    assert copy is not weight
    assert len(copy.signatures) == 1  # type: ignore[attr-defined]
    assert copy.py_func.__qualname__.endswith(CALLERS_SUFFIX)  # type: ignore[attr-defined]
    # the copy has no Python entry point; the function called from Python has one
    assert not _has_python_entry(copy)
    assert weight(np.array([4], dtype=np.int64), 0) == 8
    with pytest.raises(TypeError, match="compiled callers only"):
        copy(np.array([4], dtype=np.int64), 0)
    assert _has_python_entry(weight)


def test_compile_for_callers_compiles_the_copy_only() -> None:
    weight = _fresh(_weight)
    compile_for_callers(weight, (np.zeros(2, dtype=np.int64), 1))
    assert weight.signatures == []  # type: ignore[attr-defined]
    assert len(for_callers(weight).signatures) == 1  # type: ignore[attr-defined]


def test_an_inlined_function_has_no_copy() -> None:
    inlined = njit_inlined(_inlined_weight)
    assert for_callers(inlined) is inlined


def test_the_copy_and_the_function_keep_apart_in_the_cache() -> None:
    weight = njit(_weight)
    copy = for_callers(weight)
    index = weight._cache._cache_file._index_name  # type: ignore[attr-defined]
    copy_index = copy._cache._cache_file._index_name  # type: ignore[attr-defined]
    assert index != copy_index


MODULE = """
import numpy as np
from diceboard.kernel.jit import njit

@njit
def weight(a, k):
    return int(a[k]) * 2

@njit
def total(a):
    return weight(a, 0) + weight(a, 1)
"""

FIRST = """
import numpy as np, kernels
print(kernels.total(np.array([5, 7], dtype=np.int64)))
"""

# a process that finds the copy in the cache (compiled by the first) and calls the function
# from Python: were they one cache entry, it would get code with no entry point and crash
SECOND = """
import numpy as np, kernels
print(kernels.weight(np.array([4], dtype=np.int64), 0), kernels.total(np.array([1, 2])))
"""


@pytest.mark.slow
def test_a_function_called_from_python_after_its_copy_was_cached_runs(tmp_path: Path) -> None:
    outputs = outputs_of_runs(tmp_path, MODULE, (FIRST, SECOND))
    assert outputs == [["24"], ["8", "6"]]
    assert any((tmp_path / "cache").rglob("*for_callers*.nbi"))
