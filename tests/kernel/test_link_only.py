"""A kernel function's copy for compiled callers is link-only
(:mod:`diceboard.kernel.link_only`): no machine code or whole-module optimisation of its own,
only its IR in numba's cache; its callers link it, run it and get the same results, whether
the copy was compiled in the same process or loaded from numba's cache by another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numba.core import codegen as numba_codegen
from numba.core.caching import NullCache
from numba.core.registry import cpu_target

from diceboard.kernel import link_only
from diceboard.kernel.jit import for_callers, jit_disabled, njit
from tests.scripts import outputs_of_runs

pytestmark = pytest.mark.skipif(jit_disabled(), reason="only compiled code has copies")


def _weight(a: np.ndarray, k: int) -> int:
    return int(a[k]) * 2 + 1


def _fresh(func: Any) -> Any:
    """``njit(func)``, compiled afresh (not loaded from numba's cache) in each run."""
    compiled = njit(func)
    for dispatcher in {compiled, for_callers(compiled)}:
        dispatcher._cache = NullCache()
    return compiled


def _library(dispatcher: Any) -> Any:
    (result,) = dispatcher.overloads.values()
    return result.library


def test_it_is_numbas_jit_library_once_the_kernel_package_is_imported() -> None:
    assert numba_codegen.JITCPUCodegen._library_class is link_only.KernelLibrary
    assert link_only._agrees()
    assert link_only.install()


def test_a_copy_has_no_machine_code_and_its_callers_run_it() -> None:
    weight = _fresh(_weight)

    def total(a: np.ndarray) -> int:
        return weight(a, 0) + weight(a, 1)  # type: ignore[no-any-return]

    compiled_total = _fresh(total)
    assert compiled_total(np.array([5, 7], dtype=np.int64)) == 26
    copy = _library(for_callers(weight))
    caller = _library(compiled_total)
    assert copy.link_only and not caller.link_only
    (name,) = [f.name for f in copy.get_defined_functions() if "_weight" in f.name]
    assert copy.get_pointer_to_function(name) == 0
    engine = copy.codegen._engine
    assert not engine.is_symbol_defined(name)  # never handed to the execution engine
    # the caller has the copy's code in its own module (inlined), not a call to it
    assert not any(f.is_declaration and "_weight" in f.name for f in caller._final_module.functions)
    # and Python still calls the function itself, compiled with an entry point of its own
    assert weight(np.array([4], dtype=np.int64), 0) == 9
    assert not _library(weight).link_only


def test_numbas_cache_keeps_a_copys_ir_alone_and_reads_it_back() -> None:
    weight = _fresh(_weight)

    def total(a: np.ndarray) -> int:
        return weight(a, 1)  # type: ignore[no-any-return]

    assert _fresh(total)(np.array([5, 7], dtype=np.int64)) == 15
    copy = _library(for_callers(weight))
    name, kind, data = copy.serialize_using_object_code()
    assert (name, kind) == (copy.name, link_only.LINK_ONLY_KIND)
    assert isinstance(data, bytes)
    loaded = copy.codegen.unserialize_library((name, kind, data))
    assert isinstance(loaded, link_only.KernelLibrary) and loaded.link_only
    functions = [str(f) for f in loaded._get_module_for_linking().functions]
    assert functions == [str(f) for f in copy._get_module_for_linking().functions]
    assert any(name.split(".")[0] in f for f in functions)


def test_a_link_only_entry_under_another_name_is_refused() -> None:
    codegen = cpu_target.target_context.codegen()
    with pytest.raises(ValueError, match="link-only library for 'step'"):
        codegen.unserialize_library(("step", link_only.LINK_ONLY_KIND, b""))


def test_uninstalled_copies_compile_as_numbas_own_libraries() -> None:
    try:
        link_only.uninstall()
        assert numba_codegen.JITCPUCodegen._library_class is numba_codegen.JITCodeLibrary
        weight = _fresh(_weight)

        def total(a: np.ndarray) -> int:
            return weight(a, 0)  # type: ignore[no-any-return]

        assert _fresh(total)(np.array([3], dtype=np.int64)) == 7
        assert not isinstance(_library(for_callers(weight)), link_only.KernelLibrary)
    finally:
        assert link_only.install()


MODULE = """
import numpy as np
from diceboard.kernel.jit import for_callers, njit

@njit
def weight(a, k):
    return int(a[k]) * 2 + 1

@njit
def total(a):
    return weight(a, 0) + weight(a, 1)

@njit
def first(a):
    return weight(a, 0)
"""

# the first process compiles the copy inside `total`, and numba caches both
FIRST = """
import numpy as np, kernels
print(kernels.total(np.array([5, 7], dtype=np.int64)))
"""

# the second compiles a new caller, `first`, on the copy that it loads from the cache (the
# copy's machine code is nowhere: the caller must link the cached IR), and loads `total`
SECOND = """
import numpy as np, kernels
from diceboard.kernel.jit import for_callers
a = np.array([4, 6], dtype=np.int64)
print(kernels.first(a), kernels.total(a))
copy = for_callers(kernels.weight)
print(sum(copy._cache_hits.values()), sum(copy._cache_misses.values()))
print(sum(kernels.first._cache_misses.values()), sum(kernels.total._cache_hits.values()))
"""


@pytest.mark.slow
def test_a_new_caller_links_a_copy_loaded_from_the_cache(tmp_path: Path) -> None:
    outputs = outputs_of_runs(tmp_path, MODULE, (FIRST, SECOND))
    # 9 + 13 = 22 then 9, 9 + 13; the copy loaded (1 hit, no miss); `first` compiled,
    # `total` loaded
    assert outputs == [["26"], ["9", "22", "1", "0", "1", "1"]]
