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

A kernel function called from compiled code with a constant argument (``record(trace, 0, 0,
n)``) would by numba's default get a specialisation of its own for that constant's literal
type, beside the one for a plain ``int64``: measured on a cold cache, a third of the kernels'
compiled functions were such copies (``shift`` four times, one per direction constant). The
dispatchers made here compile the plain-typed signature first and let the call convert the
constant; only a function that cannot be typed without the literal gets the literal copy.

Numba also makes a Python entry point for every function it compiles, whoever calls it. A
kernel function is mostly called from other kernel functions only, so each has a copy for
compiled callers, compiled without one (:func:`for_callers`): compiled code types, compiles
and links the copy, Python calls compile the function itself, and the two never share a
compiled version (the copy has a name of its own, and so its own cache files). The copy is
compiled only to be linked into its callers (:mod:`diceboard.kernel.link_only`).

Importing this module also makes one of numba's compiler's own steps faster, with the same
result (:mod:`diceboard.kernel.compiler_speedup`), makes the copies for compiled callers
link-only (:mod:`diceboard.kernel.link_only`), and lets compiled code hand arrays back to
Python without calling into Python for each (:mod:`diceboard.kernel.array_return`).
"""

from __future__ import annotations

import functools
import types as pytypes
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import numba
from numba.core import errors, types
from numba.core.registry import CPUDispatcher
from numba.extending import register_jitable as _register_jitable

from diceboard.kernel import array_return, compiler_speedup, link_only
from diceboard.kernel.cache import STAMP_ATTR, install_locators
from diceboard.kernel.cachedir import compiled_sources_digest
from diceboard.kernel.link_only import CALLERS_SUFFIX

# a cold compile spends a tenth of its Python time hashing numba's compiler flags: faster,
# with the same result, wherever this numba's flags are as expected (see the module)
compiler_speedup.install()
# a copy for compiled callers is only linked into them: no machine code or whole-module
# optimisation of its own, a fifth of a cold compile (see the module)
link_only.install()
# numba unpickles numpy.ndarray at every array a compiled function returns: read from the
# function's constants instead, 0.4 us less a returned array (see the module)
array_return.install()

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def _compiled_stamp() -> bytes:
    return compiled_sources_digest().encode()


class KernelDispatcher(CPUDispatcher):  # type: ignore[misc]
    """Numba's CPU dispatcher, except that a call from compiled code is typed with its
    arguments' plain types (``int64`` rather than ``Literal[int](0)``) first, so that
    constants passed in do not each cost a compiled copy (see the module docstring), and
    is compiled and linked from the function's copy for compiled callers
    (:func:`for_callers`), where it has one."""

    #: the copy that compiled code calls, a :class:`KernelDispatcher` with no Python entry
    #: point (``None`` on that copy, and on an inlined function)
    _for_callers: Any = None

    def get_call_template(self, args: Any, kws: Any) -> Any:
        if self._for_callers is not None:
            return self._for_callers.get_call_template(args, kws)
        unliteral: Callable[[Any], Any] = types.unliteral
        plain = tuple(unliteral(a) for a in args)
        plain_kws = {k: unliteral(v) for k, v in kws.items()}
        can_compile = bool(getattr(self, "_can_compile", True))
        if can_compile and (plain != tuple(args) or plain_kws != kws):
            try:
                return super().get_call_template(plain, plain_kws)
            except errors.TypingError:  # it needs the literal (a constant index, say)
                pass
        return super().get_call_template(args, kws)

    def get_overload(self, sig: Any) -> Any:
        # what numba's lowering of a call from compiled code looks the callee up by
        if self._for_callers is not None:
            return self._for_callers.get_overload(sig)
        return super().get_overload(sig)


#: how every kernel function is compiled. No C-callable wrapper: numba makes one per compiled
#: function for ``cfunc``-style use (a function's address, first-class function values), which
#: nothing here does; leaving it out saves a tenth of a cold start's compiling (measured with
#: ``diceboard bench startup --compiles``: the server's warm-up 13.3 CPU s instead of 14.7)
TARGET_OPTIONS = {"nopython": True, "nogil": True, "no_cfunc_wrapper": True}


def njit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache, stamped with the digest of
    every compiled source (a specialised copy keeps the narrower stamp it was given)."""
    return _dispatcher(func, TARGET_OPTIONS)


#: :data:`TARGET_OPTIONS` without numba's runtime (NRT), for :func:`njit_borrowing`
BORROWING_OPTIONS = {**TARGET_OPTIONS, "_nrt": False}


def njit_borrowing(func: F) -> F:
    """:func:`njit` for a kernel function that only borrows its arrays: it allocates none
    (numba refuses to compile one that does), makes no view it returns or keeps, and
    returns numbers. Numba's runtime is left out, and with it the reference counting of
    the array arguments: two atomic operations per array at each call, about 15 ns each
    here, which numba's pruning removes only in a function with one exit and no call that
    LLVM does not inline (no rules kernel of any size qualifies). Safe because the caller
    holds every array for the whole call, as every caller of a kernel function does.
    Measured on Chase's ``has_legal_turn``, a dispatcher over one call: 61 ns a position
    with the counting, 31 without. ``tests/kernel/test_refcount.py`` checks the compiled
    code of the hot ones."""
    return _dispatcher(func, BORROWING_OPTIONS)


def njit_inlined(func: F) -> F:
    """:func:`njit_borrowing` for a kernel function with one caller in a hot loop, whose body
    numba copies into that caller (``inline="always"``) rather than calling it: a call passes
    each array as seven machine words, and the call costs more than a short body. Measured
    on Chase's transfers, called for most dice of every move generation: move generation
    1.05x as fast inlined, the batched simulator's step 1.03-1.05x. Not for a function with
    several callers (each copy is compiled again) or a big body (a bigger loop, whose
    registers spill: Chase's landing_status inlined as well made move generation slower)."""
    return _dispatcher(func, {**BORROWING_OPTIONS, "inline": "always"})


def register_jitable(func: F) -> F:
    """``func`` itself for Python callers, compiled into the compiled functions that call it
    (numba's ``register_jitable``): for a small helper that both sides use, which Python
    calls at no compiler's cost."""
    return _register_jitable(func)


def _dispatcher(func: F, options: Mapping[str, bool | str]) -> F:
    if jit_disabled():
        return func
    if not hasattr(func, STAMP_ATTR):
        setattr(func, STAMP_ATTR, _compiled_stamp())
    install_locators()
    dispatcher = _cached(KernelDispatcher, func, options)
    if "inline" not in options:  # an inlined function's body is copied, never called
        dispatcher._for_callers = _cached(
            CallersCopy, _callers_copy(func), {**options, "no_cpython_wrapper": True}
        )
    return cast(F, dispatcher)


def _cached(
    kind: type[KernelDispatcher], func: Callable[..., Any], options: Mapping[str, bool | str]
) -> KernelDispatcher:
    # a copy of the options each: a dispatcher keeps the dict it is given as its own
    dispatcher = kind(py_func=func, locals={}, targetoptions=dict(options))
    dispatcher.enable_caching()
    return dispatcher


class CallersCopy(KernelDispatcher):
    """The dispatcher of a kernel function's copy for compiled callers (:func:`for_callers`).
    Its compiled code has no Python entry point, so Python may not call it."""

    def __call__(self, *args: Any, **kws: Any) -> Any:
        raise TypeError(
            f"{self.py_func.__qualname__} is compiled for compiled callers only (it has no"
            " Python entry point): call the kernel function itself"
        )


def _callers_copy(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` under another qualified name (the same code, globals and stamp)."""
    copy = pytypes.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__dict__.update(func.__dict__)
    copy.__module__ = func.__module__
    copy.__doc__ = func.__doc__
    copy.__qualname__ = func.__qualname__ + CALLERS_SUFFIX
    return copy


def for_callers(function: F) -> F:
    """What a call to ``function`` from compiled code runs: the kernel function's copy for
    compiled callers, or ``function`` itself (an inlined one, or any function under
    ``NUMBA_DISABLE_JIT=1``).

    Numba makes a Python entry point (a CPython wrapper, which unboxes each argument) for
    every function it compiles, whoever calls it; the wrapper of a function with many array
    arguments is a third the size of its body. A kernel function is mostly called from other
    kernel functions only, so each has a copy compiled without it, which compiled callers
    type, compile and link, while Python calls compile the function itself. Measured on an
    empty cache against compiling every function with its wrapper: the server's warm-up of
    every game 13.4-15.0 CPU s instead of 16.0-16.9, a computer worker's 7.4-7.9 instead of
    8.2-10.0. A warm-up that compiles a function ahead of its compiled callers compiles this
    copy (:func:`compile_for_callers`), not the function."""
    found = getattr(function, "_for_callers", None)
    return cast(F, found) if found is not None else function


def compile_for_callers(function: Any, args: tuple[Any, ...]) -> None:
    """Compile (or load from numba's cache) ``function`` for compiled callers that pass
    ``args``' types, as they will call it (see :func:`for_callers`); nothing under
    ``NUMBA_DISABLE_JIT=1``."""
    target = for_callers(function)
    if jit_disabled() or not hasattr(target, "compile"):
        return
    target.compile(tuple(target.typeof_pyval(a) for a in args))


def jit_disabled() -> bool:
    """True when numba runs kernels as plain Python (``NUMBA_DISABLE_JIT=1``)."""
    return bool(getattr(numba.config, "DISABLE_JIT", False))
