"""What numba compiles, and how long each function takes: a record of numba's compile events.

Numba announces each compilation of a function for one signature (``numba:compile``, from
:mod:`numba.core.event`); a compilation that types a call to another function compiles that
one inside it. :class:`CompileLog` records every compilation while it is active, with its
inclusive seconds (its callees' compilations included) and exclusive seconds (without them),
and :meth:`CompileLog.table` sums them per function: where a cold start's time goes, and
which functions get more than one specialisation (a read-only array, another integer type).
Loads from numba's cache are not compilations and are not recorded.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from numba.core import event

__all__ = ["Compilation", "CompileLog", "FunctionCompiles"]


@dataclass(frozen=True)
class Compilation:
    """One function compiled for one signature."""

    function: str
    signature: str
    inclusive_s: float
    exclusive_s: float


@dataclass
class FunctionCompiles:
    """A function's compilations, summed."""

    function: str
    count: int = 0
    inclusive_s: float = 0.0
    exclusive_s: float = 0.0
    signatures: list[str] = field(default_factory=list)


def _name(dispatcher: Any) -> str:
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return str(dispatcher)
    return f"{func.__module__}.{func.__qualname__}".removeprefix("diceboard.")


class CompileLog(event.Listener):  # type: ignore[misc]
    """Records numba's compilations while it is entered (``with CompileLog() as log``)."""

    def __init__(self) -> None:
        super().__init__()
        self.compilations: list[Compilation] = []
        # per open compilation: name, signature, start, seconds of nested compilations
        self._open: list[list[Any]] = []

    def on_start(self, ev: Any) -> None:
        self._open.append(
            [_name(ev.data["dispatcher"]), str(ev.data.get("args")), time.perf_counter(), 0.0]
        )

    def on_end(self, ev: Any) -> None:
        if not self._open:
            return
        name, signature, started, nested = self._open.pop()
        seconds = time.perf_counter() - started
        if self._open:
            self._open[-1][3] += seconds
        self.compilations.append(Compilation(name, signature, seconds, seconds - nested))

    def __enter__(self) -> CompileLog:
        register: Callable[[str, Any], None] = event.register
        register("numba:compile", self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        unregister: Callable[[str, Any], None] = event.unregister
        unregister("numba:compile", self)

    def table(self) -> list[FunctionCompiles]:
        """The compilations summed per function, the most exclusive seconds first."""
        by_function: dict[str, FunctionCompiles] = defaultdict(lambda: FunctionCompiles(""))
        for c in self.compilations:
            entry = by_function[c.function]
            entry.function = c.function
            entry.count += 1
            entry.inclusive_s += c.inclusive_s
            entry.exclusive_s += c.exclusive_s
            entry.signatures.append(c.signature)
        return sorted(by_function.values(), key=lambda e: -e.exclusive_s)
