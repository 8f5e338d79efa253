"""How many threads a batch runs on, and on which threading layer.

A batch loop runs as one parallel region on one or ``N`` of numba's threads (small batches:
serially, with no threading runtime at all). A parallel region ends only when every thread
has finished its chunk, so on a machine whose cores other programs keep busy a thread that
waits for a core stalls the whole call (measured on a loaded 2-core machine: milliseconds per
region, more than a whole step of 4,096 games takes on one thread). Which is faster therefore
depends on the machine's load at the moment, and :class:`ThreadChoice` measures it: each
batch loop of a batch (its :class:`~diceboard.vector.state.BatchConfig`) keeps the recent
seconds per call of both ways, runs the faster one, and now and then tries the other again
(less and less often while it keeps losing), so that more threads are never slower than one
for long.

Small batches (below ``2 * MIN_GAMES_PER_THREAD`` games) always run serially.

The threading layer: numba's ``workqueue`` layer unless the user chose one
(``NUMBA_THREADING_LAYER``). Measured on the loaded 2-core machine, OpenMP's spinning
threads made even one-thread parallel calls several times slower, while ``workqueue``'s
threads sleep when idle; ``tbb`` needs a TBB library that is usually not installed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numba

__all__ = [
    "MIN_GAMES_PER_THREAD",
    "ThreadChoice",
    "choose_threading_layer",
    "forced_threads",
    "run_batch_loop",
    "threads_for",
]

#: games per thread below which a batch runs on fewer threads: waking threads costs more than
#: a few games take, and on a busy machine a thread that waits for a core stalls the batch
MIN_GAMES_PER_THREAD = 128
#: the threading layer the simulator asks numba for when the user has not chosen one
PREFERRED_LAYER = "workqueue"
#: calls between two tries of the way that is not in use: the first, and the longest
PROBE_FIRST = 4
PROBE_LONGEST = 512
#: weight of a new measurement in the running mean of seconds per call
SMOOTHING = 0.3

#: set by :func:`forced_threads` (benchmarks): run every loop on exactly this many threads
_forced: int | None = None


def choose_threading_layer() -> None:
    """Ask numba for :data:`PREFERRED_LAYER` unless the user set ``NUMBA_THREADING_LAYER``
    (effective only before the first parallel call of the process; harmless afterwards)."""
    if os.environ.get("NUMBA_THREADING_LAYER"):
        return
    config: Any = numba.config
    if getattr(config, "THREADING_LAYER", "default") == "default":
        config.THREADING_LAYER = PREFERRED_LAYER


def threads_for(batch: int) -> int:
    """The most threads a batch of ``batch`` games keeps busy: numba's thread count (as set by
    ``numba.set_num_threads``), at most one per :data:`MIN_GAMES_PER_THREAD` games."""
    if _forced is not None:
        return max(1, min(_forced, batch))
    return max(1, min(numba.get_num_threads(), batch // MIN_GAMES_PER_THREAD))


@contextmanager
def forced_threads(threads: int) -> Iterator[None]:
    """Within the block, run every batch loop on exactly ``threads`` threads (the serial copy
    for 1, and below ``2 * MIN_GAMES_PER_THREAD`` games), without measuring: for benchmarks
    that compare thread counts."""
    global _forced
    before = _forced
    _forced = threads
    try:
        yield
    finally:
        _forced = before


class ThreadChoice:
    """One thread or all of them, decided call by call from the measured seconds per call of
    each (one instance per batch loop and batch configuration)."""

    __slots__ = ("_calls", "_cost", "_interval", "_next_probe", "_probing", "_seen")

    def __init__(self) -> None:
        #: running mean of seconds per call, by way (False: one thread, True: all of them)
        self._cost: dict[bool, float] = {}
        #: calls measured per way (the first one of each is compilation and warm-up: dropped)
        self._seen: dict[bool, int] = {False: 0, True: 0}
        self._calls = 0
        self._interval = PROBE_FIRST
        self._next_probe = PROBE_FIRST
        self._probing = False

    def pick(self) -> bool:
        """Whether the next call should run in parallel."""
        self._calls += 1
        for way in (True, False):
            if self._seen[way] < 2:
                return way
        best = self._cost[True] < self._cost[False]
        self._probing = self._calls >= self._next_probe
        return not best if self._probing else best

    def record(self, parallel: bool, seconds: float) -> None:
        """The call just made (``parallel`` or not) took ``seconds``."""
        self._seen[parallel] += 1
        if self._seen[parallel] == 1:
            return
        if parallel not in self._cost:
            self._cost[parallel] = seconds
        elif self._probing:
            # a try of the way not in use: a fresh figure for it; back off while it loses
            self._probing = False
            self._cost[parallel] = seconds
            won = seconds < self._cost[not parallel]
            self._interval = PROBE_FIRST if won else min(self._interval * 2, PROBE_LONGEST)
            self._next_probe = self._calls + self._interval
        else:
            self._cost[parallel] += SMOOTHING * (seconds - self._cost[parallel])

    def parallel_share(self) -> float | None:
        """How the measured costs compare: parallel seconds per call over serial (``None``
        before both are measured); below 1 means parallel is the faster now."""
        if True in self._cost and False in self._cost and self._cost[False] > 0:
            return self._cost[True] / self._cost[False]
        return None


def run_batch_loop(
    choice: ThreadChoice,
    batch: int,
    serial: Callable[..., None],
    parallel: Callable[..., None],
    *args: Any,
) -> None:
    """Run a batch loop on one thread or on several, whichever ``choice`` finds faster now
    on this machine: ``parallel(*args, chunks)`` (the last argument is the number of chunks to
    cut the batch into: one per thread) on all the threads :func:`threads_for` allows, or on
    one thread. One thread calls ``serial(*args, 1)``, the copy compiled without the parallel
    backend (no threading runtime at all): since the step loop keeps its hot path in one
    function, that copy is the faster on one thread (measured on Custodian at batch 4,096:
    about 1.0M steps/s against 0.8M for the parallel copy run on one thread)."""
    most = 1 if batch < 2 * MIN_GAMES_PER_THREAD else threads_for(batch)
    if _forced is not None or most <= 1:
        _call(serial, parallel, args, most)
        return
    way = choice.pick()
    began = time.perf_counter()
    _call(serial, parallel, args, most if way else 1)
    choice.record(way, time.perf_counter() - began)


def _call(
    serial: Callable[..., None], parallel: Callable[..., None], args: tuple[Any, ...], threads: int
) -> None:
    if threads <= 1:
        serial(*args, 1)
    else:
        _call_parallel(parallel, args, threads)


def _call_parallel(parallel: Callable[..., None], args: tuple[Any, ...], threads: int) -> None:
    available = numba.get_num_threads()
    threads = min(threads, int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    if threads == available:
        parallel(*args, threads)
        return
    numba.set_num_threads(threads)
    try:
        parallel(*args, threads)
    finally:
        numba.set_num_threads(available)
