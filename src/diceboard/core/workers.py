"""Worker processes that leave Ctrl-C to the process that started them.

A terminal sends Ctrl-C to every process of its foreground group: to a tournament's or a
server's workers as well as to the program itself. A worker interrupted while it waits for
work prints a traceback of the pool's internals, and one interrupted mid-task only makes the
parent's stop messier; the parent stops its workers itself. So a worker is started with the
signal held back (inherited from the thread that starts it, so it covers the new process's
first seconds of imports too) and ignores it from its first task on.

A parent ended outright (SIGKILL, or SIGTERM, whose default ends a Python process before any
clean-up) cannot stop its workers: a pool's idle workers then waited for work for ever. So a
worker also watches its parent and exits once it is gone. :func:`start_worker` is the pool's
initializer that does both.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from multiprocessing.context import SpawnContext, SpawnProcess


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back from the calling thread meanwhile (delivered after, not lost)."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows: no signal masks, nothing held)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def ignore_interrupts() -> None:
    """In a worker: ignore Ctrl-C from now on (one that came while it was held is dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def start_worker(parent: int) -> None:
    """A pool's initializer (``initargs=(os.getpid(),)``): ignore Ctrl-C, and exit once the
    process ``parent`` is gone (its pid is passed in: it may already be gone by the time a
    freshly spawned worker gets here)."""
    ignore_interrupts()
    threading.Thread(
        target=_exit_with_parent, args=(parent,), name="parent-watch", daemon=True
    ).start()


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


class WorkerProcess(SpawnProcess):
    """A spawned process that is born with Ctrl-C held back."""

    def start(self) -> None:
        with interrupts_held():
            super().start()


class WorkerContext(SpawnContext):
    """The spawn start method (no fork: forking a process that runs threads can deadlock),
    with :class:`WorkerProcess` processes: the ``mp_context`` of a worker pool."""

    Process = WorkerProcess
