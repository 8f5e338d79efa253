"""A kernel function's copy for compiled callers is compiled only to be linked into them.

Numba compiles every function it is asked for into a code library of its own, which it then
finishes as if Python were to call it: it optimises the whole module again with everything the
function calls linked in, generates its machine code, and caches that machine code with the
module's IR beside it. A copy for compiled callers (:func:`~diceboard.kernel.jit.for_callers`)
is never called through a pointer: each caller links the copy's IR into its own module, and
optimises and generates code for the whole of it once more. The copy's own module
optimisation and machine code are work nobody uses.

:class:`KernelLibrary` is numba's JIT code library, except that a library named as such a
copy (its name ends in :data:`CALLERS_SUFFIX`) is *link-only*: its functions are optimised
one by one as numba always does, but its module is not optimised again as a whole, no machine
code is made of it, and numba's cache keeps its IR alone (a kind of entry of its own, which
only this class reads). The caller's whole-module optimisation, which inlines the copy, does
what the copy's would have done. Measured with ``benchmarks/link_only.py`` (the package loaded
both ways in one process, no cache, the same work compiled): both games' random games,
alpha-beta and batched simulator compiled in 34.9 instead of 44.1 CPU s, and the compiled code
ran as fast (each piece timed with both loads' code in interleaved rounds: 0.98-1.13x the old
code's speed).

Numba still points each compiled function's environment (a global of its module) at its
Python-side ``Environment`` once compiled or loaded; a link-only library defines those
globals in a small module of their own, so that it can.

:func:`install` makes this the class of numba's JIT code libraries (the kernel package
imports do it), where this numba's library has the methods this class relies on; otherwise
copies compile as numba's own libraries, more slowly (to code as fast).
"""

from __future__ import annotations

from typing import Any

import llvmlite.binding as ll
from llvmlite import ir as llvmir
from numba.core import cgutils
from numba.core import codegen as numba_codegen

#: what the name of a kernel function's copy for compiled callers adds to the function's own
#: (numba names the copy's code library, compiled code and cache files by it)
CALLERS_SUFFIX = ".for_callers"

#: the kind of numba cache entry that holds a link-only library (numba's own are "object"
#: and "bitcode")
LINK_ONLY_KIND = "diceboard-link-only"

#: how numba names the global that points at a compiled function's ``Environment``
_ENVIRONMENT_PREFIX = "_ZN08NumbaEnv"

#: numba's null constant of an LLVM type (numba is untyped)
_null: Any = cgutils.get_null_value

#: numba's JIT code library, which :class:`KernelLibrary` extends
_NumbaLibrary: Any = numba_codegen.JITCodeLibrary

#: what :class:`KernelLibrary` relies on in numba's library
_RELIED_ON = (
    "_optimize_final_module",
    "_finalize_final_module",
    "_finalize_dynamic_globals",
    "_verify_declare_only_symbols",
    "_get_module_for_linking",
    "get_pointer_to_function",
    "serialize_using_object_code",
    "_unserialize",
)


class KernelLibrary(_NumbaLibrary):  # type: ignore[misc]
    """Numba's JIT code library; link-only where its name ends in :data:`CALLERS_SUFFIX`
    (see the module docstring)."""

    def __init__(self, codegen: Any, name: str) -> None:
        super().__init__(codegen, name)
        #: whether this library is only ever linked into its callers
        self.link_only = name.endswith(CALLERS_SUFFIX)

    def _optimize_final_module(self) -> None:
        # a link-only module is optimised whole inside each caller, with the caller
        if not self.link_only:
            super()._optimize_final_module()

    def _finalize_final_module(self) -> None:
        if not self.link_only:
            super()._finalize_final_module()
            return
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._define_environments()
        self._finalized = True

    def _define_environments(self) -> None:
        """Give the execution engine the module's ``Environment`` globals not defined there
        yet (numba sets them by their address), in a module of nothing else."""
        engine = self._codegen._engine
        names = [
            gv.name
            for gv in self._final_module.global_variables
            if gv.name.startswith(_ENVIRONMENT_PREFIX)
            and not gv.is_declaration
            and not engine.is_symbol_defined(gv.name)
        ]
        if not names:
            return
        module = self._codegen._create_empty_module(self.name + ".environments")
        for name in names:
            # as numba declares it (BaseContext.declare_env_global)
            gv = llvmir.GlobalVariable(module, cgutils.voidptr_t, name=name)
            gv.linkage = "common"
            gv.initializer = _null(gv.type.pointee)
        self._codegen._add_module(ll.parse_assembly(str(module)))
        engine.finalize_object()

    def get_pointer_to_function(self, name: str) -> int:
        """The address of the compiled function ``name``; 0 in a link-only library, which
        has no machine code (numba makes a Python entry point of that address, which a
        copy's dispatcher never calls)."""
        if not self.link_only:
            return int(super().get_pointer_to_function(name))
        self._ensure_finalized()
        return 0

    def serialize_using_object_code(self) -> tuple[str, str, Any]:
        """What numba's cache keeps of this library: a link-only library's IR, ready to link
        (numba's own: the machine code and that IR)."""
        if not self.link_only:
            return super().serialize_using_object_code()  # type: ignore[no-any-return]
        return (self.name, LINK_ONLY_KIND, self._get_module_for_linking().as_bitcode())

    @classmethod
    def _unserialize(cls, codegen: Any, state: tuple[str, str, Any]) -> KernelLibrary:
        name, kind, data = state
        if kind != LINK_ONLY_KIND:
            return super()._unserialize(codegen, state)  # type: ignore[no-any-return]
        library = codegen.create_library(name)
        if not (isinstance(library, KernelLibrary) and library.link_only):
            raise ValueError(f"numba's cache holds a link-only library for {name!r}")
        library._final_module = ll.parse_bitcode(data)
        library._shared_module = library._final_module  # stored as it is linked
        library._finalize_final_module()
        return library


def _agrees() -> bool:
    """Whether this numba's JIT code library and codegen are as :class:`KernelLibrary`
    expects."""
    jit_codegen: Any = numba_codegen.JITCPUCodegen
    return getattr(jit_codegen, "_library_class", None) in (_NumbaLibrary, KernelLibrary) and all(
        callable(getattr(_NumbaLibrary, name, None)) for name in _RELIED_ON
    )


def install() -> bool:
    """Make :class:`KernelLibrary` the class of numba's JIT code libraries; whether it is."""
    jit_codegen: Any = numba_codegen.JITCPUCodegen
    if jit_codegen._library_class is KernelLibrary:
        return True
    if not _agrees():
        return False
    jit_codegen._library_class = KernelLibrary
    return True


def uninstall() -> None:
    """Give numba its own JIT code library back (libraries made meanwhile stay as they are)."""
    jit_codegen: Any = numba_codegen.JITCPUCodegen
    jit_codegen._library_class = _NumbaLibrary
