"""Atomic loads, stores and compare-and-swap on int64 array elements, for compiled code.

Threads of :mod:`diceboard.vector.crew` hand work to each other through a small int64
array that compiled code polls. A plain load in a polling loop may be hoisted out of the
loop by the compiler (nothing in the loop writes it), and a plain store need not become
visible in program order, so numba's ordinary indexing does not do. These are LLVM's atomic
instructions (acquire loads, release stores, an acquire-release compare-and-swap and
fetch-and-add), made
available to numba as intrinsics, plus the CPU's spin-wait hint.

With ``NUMBA_DISABLE_JIT=1`` (plain Python, where an intrinsic cannot run) they are ordinary
indexing, which the GIL makes safe there.
"""

from __future__ import annotations

import os
import platform
from typing import Any

import numpy as np

from diceboard.kernel.jit import jit_disabled

__all__ = [
    "atomic_load",
    "atomic_store",
    "compare_and_swap",
    "fetch_add",
    "spin_pause",
    "yield_core",
]

#: whether the CPU has x86's ``pause`` (the spin-wait hint); elsewhere the hint is left out
_X86 = platform.machine().lower() in {"x86_64", "amd64", "i386", "i686"}
#: whether the C library has ``sched_yield`` (giving the core to another runnable thread)
_POSIX = os.name == "posix"


def _plain_load(array: np.ndarray, index: int) -> int:
    return int(array[index])


def _plain_store(array: np.ndarray, index: int, value: int) -> None:
    array[index] = value


def _plain_compare_and_swap(array: np.ndarray, index: int, expected: int, new: int) -> bool:
    if array[index] != expected:
        return False
    array[index] = new
    return True


def _plain_fetch_add(array: np.ndarray, index: int, value: int) -> int:
    before = int(array[index])
    array[index] = before + value
    return before


def _plain_pause() -> None:
    return None


def _plain_yield() -> None:
    if _POSIX:
        os.sched_yield()


def _intrinsics() -> tuple[Any, Any, Any, Any, Any, Any]:
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    item_pointer: Any = cgutils.get_item_pointer
    insert_function: Any = cgutils.get_or_insert_function

    def element_pointer(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_type = sig.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        return item_pointer(context, builder, array_type, array, [args[1]])

    def check(array: Any) -> None:
        if not (isinstance(array, types.Array) and array.dtype == types.int64):
            raise TypeError(f"atomic operations take an int64 array, not {array}")

    @intrinsic
    def load(typingctx: Any, array: Any, index: Any) -> Any:
        check(array)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            return builder.load_atomic(element_pointer(context, builder, sig, args), "acquire", 8)

        return types.int64(array, types.intp), codegen

    @intrinsic
    def store(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
        check(array)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            pointer = element_pointer(context, builder, sig, args)
            builder.store_atomic(args[2], pointer, "release", 8)
            return context.get_dummy_value()

        return types.void(array, types.intp, types.int64), codegen

    @intrinsic
    def swap(typingctx: Any, array: Any, index: Any, expected: Any, new: Any) -> Any:
        check(array)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            pointer = element_pointer(context, builder, sig, args)
            result = builder.cmpxchg(pointer, args[2], args[3], "acq_rel", "acquire")
            return builder.extract_value(result, 1)

        return types.boolean(array, types.intp, types.int64, types.int64), codegen

    @intrinsic
    def add(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
        check(array)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            pointer = element_pointer(context, builder, sig, args)
            return builder.atomic_rmw("add", pointer, args[2], "acq_rel")

        return types.int64(array, types.intp, types.int64), codegen

    @intrinsic
    def yield_core(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            # POSIX's sched_yield, resolved by name when the code is linked (no address is
            # baked into numba's cache)
            if _POSIX:
                name = "sched_yield"
                call = insert_function(builder.module, ir.FunctionType(ir.IntType(32), []), name)
                builder.call(call, [])
            return context.get_dummy_value()

        return types.void(), codegen

    @intrinsic
    def pause(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            if _X86:
                hint = insert_function(
                    builder.module, ir.FunctionType(ir.VoidType(), []), "llvm.x86.sse2.pause"
                )
                builder.call(hint, [])
            return context.get_dummy_value()

        return types.void(), codegen

    return load, store, swap, add, pause, yield_core


if jit_disabled():
    atomic_load, atomic_store, compare_and_swap, fetch_add, spin_pause, yield_core = (
        _plain_load,
        _plain_store,
        _plain_compare_and_swap,
        _plain_fetch_add,
        _plain_pause,
        _plain_yield,
    )
else:
    atomic_load, atomic_store, compare_and_swap, fetch_add, spin_pause, yield_core = _intrinsics()
