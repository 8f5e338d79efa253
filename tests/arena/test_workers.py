"""Worker processes leave Ctrl-C to the process that started them (``core.workers``): a
worker is born with the signal held back, and ignores it once started, so a terminal's
Ctrl-C, which reaches the whole process group, neither kills one nor prints its traceback;
and a worker whose parent was killed outright exits instead of waiting for work for ever."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest

from diceboard.core.workers import WorkerContext, ignore_interrupts, interrupts_held
from tests.proc import ends_when_its_parent_is_killed, needs_proc

needs_masks = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask"), reason="no signal masks on this platform"
)


def _held_back() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def _interrupt_myself() -> int:
    os.kill(os.getpid(), signal.SIGINT)
    return os.getpid()


@needs_masks
def test_holding_interrupts_restores_the_threads_mask() -> None:
    assert not _held_back()
    with interrupts_held():
        assert _held_back()
    assert not _held_back()


@needs_masks
def test_a_worker_is_born_with_ctrl_c_held_back_and_then_ignores_it() -> None:
    # without an initializer the worker keeps the signal held back, as it was born
    with ProcessPoolExecutor(1, mp_context=WorkerContext()) as pool:
        assert pool.submit(_held_back).result(timeout=120)
    with ProcessPoolExecutor(1, mp_context=WorkerContext(), initializer=ignore_interrupts) as pool:
        assert not pool.submit(_held_back).result(timeout=120)
        # interrupted, the worker carries on: the same process answers the next task
        first = pool.submit(_interrupt_myself).result(timeout=60)
        assert pool.submit(os.getpid).result(timeout=60) == first
    assert not _held_back()  # the starting thread has its mask back


@needs_proc
def test_a_worker_exits_when_its_parent_is_killed() -> None:
    """As ``diceboard match --workers 2`` killed with SIGTERM (which ends a Python process
    before any clean-up) left its two idle workers behind, for ever."""
    # (SIGTERM: no clean-up in the parent)
    assert ends_when_its_parent_is_killed(
        "import os, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from diceboard.core.workers import WorkerContext, start_worker\n"
        "pool = ProcessPoolExecutor(1, mp_context=WorkerContext(), initializer=start_worker,"
        " initargs=(os.getpid(),))\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "time.sleep(120)\n",
        signal.SIGTERM,
    )
