"""Running a benchmark on one CPU core, so that figures taken in one run compare fairly."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def one_core() -> Iterator[int | None]:
    """Pin this process (and the subprocesses it starts, which inherit the mask) to one of
    the cores it may use; yield that core's number, or ``None`` where the platform cannot pin.
    The previous mask is restored afterwards."""
    get = getattr(os, "sched_getaffinity", None)
    set_ = getattr(os, "sched_setaffinity", None)
    if get is None or set_ is None:
        yield None
        return
    previous = get(0)
    core = max(previous)  # the highest-numbered core: core 0 tends to take the interrupts
    set_(0, {core})
    try:
        yield core
    finally:
        set_(0, previous)
