"""Arrays handed back to Python without a call into Python for each one.

When compiled code returns an array to Python, numba makes the numpy array with
``NRT_adapt_ndarray_to_python_acqref``, passing the array's Python type (``numpy.ndarray``).
Numba's own boxer (``numba.core.boxing.box_array``) gets that type by unpickling it at run
time: every returned array calls numba's ``_numba_unpickle`` Python function from C, which
makes two bytes objects and an int, looks the type up in a memo dictionary and hands it back
(and the reference it hands back is never released). Measured here, a compiled function that
copies a 40-int array and returns it takes 1.00 µs a call that way and 0.60 µs without: that
call is most of what handing a new state back costs, and every ``play`` of the game API does
it (``advance`` returns the next state's buffer).

:func:`install` puts a boxer in numba's place that reads the type from the compiled
function's environment constants, as numba's boxer already reads the array's dtype: one list
item, borrowed. The array made is the same (same type, dtype, shape, strides, writeability,
owner). A cached function keeps its environment's constants in numba's cache, so a function
loaded from the cache needs nothing more. Functions compiled before :func:`install` keep
numba's way; this module is in the kernel package, so its own text is part of the cache stamp
of every kernel function (:mod:`diceboard.kernel.cachedir`) and no cached kernel compiled the
other way is loaded.

Installed only where numba's array boxer is the one this replaces and the helpers it calls
are there; otherwise arrays are boxed as numba does.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba.core import boxing, cgutils, pythonapi, types
from numba.np import numpy_support

__all__ = ["box_array", "install", "installed", "uninstall"]

_NUMBA_BOX_ARRAY = boxing.box_array
_ADAPT = "NRT_adapt_ndarray_to_python_acqref"
#: numba is untyped
_alloca_once_value: Any = cgutils.alloca_once_value


def box_array(typ: types.Array, val: Any, c: Any) -> Any:
    """Numba's array boxer, with the array's Python type read from the environment."""
    if not c.context.enable_nrt:
        # without numba's runtime an array is always a view of its Python parent
        return _NUMBA_BOX_ARRAY(typ, val, c)
    env = c.env_manager
    dtype_ptr = env.read_const(env.add_const(numpy_support.as_dtype(typ.dtype)))
    type_ptr = env.read_const(env.add_const(typ.box_type))
    api = c.pyapi
    int32 = ir.IntType(32)
    fnty = ir.FunctionType(api.pyobj, [api.voidptr, api.pyobj, int32, int32, api.pyobj])
    adapt = api._get_function(fnty, name=_ADAPT)
    array_ptr = _alloca_once_value(c.builder, val)
    ndim = c.context.get_constant(types.int32, typ.ndim)
    writable = c.context.get_constant(types.int32, int(typ.mutable))
    boxed = c.builder.call(
        adapt, [c.builder.bitcast(array_ptr, api.voidptr), type_ptr, ndim, writable, dtype_ptr]
    )
    # the Python array now holds the runtime's reference (as numba's boxer does)
    c.context.nrt.decref(c.builder, typ, val)
    return boxed


def _registry() -> dict[type, Any]:
    functions: dict[type, Any] = pythonapi._boxers.functions
    return functions


def _agrees() -> bool:
    """Whether this numba boxes arrays with the boxer this replaces, through the helpers
    :func:`box_array` calls, and makes the array with the C function :func:`box_array`
    calls, taking the arguments it passes (its own boxer's code names that function and
    takes the same arguments): a numba that makes arrays otherwise keeps its own boxer."""
    adapt = getattr(pythonapi.PythonAPI, "nrt_adapt_ndarray_to_python", None)
    code = getattr(adapt, "__code__", None)
    return (
        _registry().get(types.Array) in (_NUMBA_BOX_ARRAY, box_array)
        and code is not None
        and _ADAPT in code.co_consts
        and code.co_varnames[: code.co_argcount] == ("self", "aryty", "ary", "dtypeptr")
        and callable(getattr(pythonapi.PythonAPI, "_get_function", None))
        and callable(getattr(pythonapi.EnvironmentManager, "add_const", None))
        and callable(getattr(pythonapi.EnvironmentManager, "read_const", None))
    )


def install() -> bool:
    """Box arrays with :func:`box_array` in every function compiled from now on; whether
    it is so."""
    if installed():
        return True
    if not _agrees():
        return False
    _registry()[types.Array] = box_array
    return True


def installed() -> bool:
    """Whether arrays are boxed with :func:`box_array`."""
    return _registry().get(types.Array) is box_array


def uninstall() -> None:
    """Give numba its own array boxer back (functions compiled meanwhile keep theirs)."""
    _registry()[types.Array] = _NUMBA_BOX_ARRAY
