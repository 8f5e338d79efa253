"""How many threads a batch runs on.

A batch loop is a compiled loop over a range of rows (``lo <= i < hi``), compiled without
the GIL. Several threads run it on contiguous chunks of the batch: the calling thread takes
the first chunk and the followers of a crew (:mod:`diceboard.vector.crew`) the others, handed
over in compiled code, so the same compiled code runs whatever the thread count, and nothing
needs numba's threading layers (whose parallel copies of the loops took seconds more to
compile, and whose OpenMP layer stalled on busy cores). A call ends only when every block
of it has finished, so on a machine whose cores other programs keep busy a thread that waits
for a core holds the call up by the block it is in. Which is faster
therefore depends on the machine's load at the moment, and :class:`ThreadChoice` measures
it: each batch loop of a batch (its :class:`~diceboard.vector.state.BatchConfig`) now and
then times two calls in a row, one each way, runs the way their ratios favour, and measures
less and less often while the choice holds, so that more threads are never slower than one
for long.

Small batches (below ``2 * MIN_GAMES_PER_THREAD`` games) always run on the calling thread.
The most threads a batch uses is :func:`get_threads` (the cores this process may run on,
unless :func:`set_threads` chose another number).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from diceboard.vector.crew import crew_of
from diceboard.vector.handoff import SOLO

__all__ = [
    "MAX_THREADS",
    "MIN_GAMES_PER_THREAD",
    "BatchCall",
    "ThreadChoice",
    "forced_threads",
    "get_threads",
    "run_batch_loop",
    "set_threads",
    "threads_for",
]

#: games per thread below which a batch runs on fewer threads: waking threads costs more than
#: a few games take, and on a busy machine a thread that waits for a core stalls the batch
MIN_GAMES_PER_THREAD = 128
#: the most threads :func:`set_threads` accepts
MAX_THREADS = 256
#: calls between two measured pairs of calls (one each way): the first, and the longest
PROBE_FIRST = 4
PROBE_LONGEST = 512
#: weight of a new pair in the running mean of the log ratio of their seconds
SMOOTHING = 0.3
#: calls in a row that did not run as usual after which they are measured after all
COLD_IN_A_ROW = 3
#: how much faster (log of serial over parallel seconds) the crew must measure to be chosen:
#: where the two ways are about as fast (a busy machine), noisy pairs would otherwise keep
#: turning the choice over and run the crew about half the time when it is a little slower
#: (measured beside a busy process: Custodian Dice's default 0.96x one thread, the crew
#: forced 0.96x); a crew that is only this much faster is worth little
PARALLEL_MARGIN = math.log(1.03)

#: how much faster (log of serial over parallel seconds) one pair must find the crew, while
#: one thread is chosen, to bring the next pair near although the running mean still favours
#: one thread: more than a pair's noise beside a busy process, less than a crew on an idle
#: machine (1.7-1.9x)
CLEARLY_FASTER = math.log(1.25)

#: set by :func:`forced_threads` (benchmarks): run every loop on exactly this many threads
_forced: int | None = None
#: set by :func:`set_threads`
_threads: int | None = None


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def get_threads() -> int:
    """The most threads a batch loop runs on: :func:`set_threads`'s number, or else the
    cores this process may run on."""
    return _threads if _threads is not None else _cores()


def set_threads(threads: int | None) -> None:
    """Run batch loops on at most ``threads`` threads (``None``: as many as there are
    cores). Raises ``ValueError`` for a number outside 1 .. :data:`MAX_THREADS`."""
    global _threads
    if threads is not None and (
        not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS
    ):
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    _threads = threads


def threads_for(batch: int) -> int:
    """The most threads a batch of ``batch`` games keeps busy: :func:`get_threads`, at most
    one per :data:`MIN_GAMES_PER_THREAD` games."""
    if _forced is not None:
        return max(1, min(_forced, batch))
    return max(1, min(get_threads(), batch // MIN_GAMES_PER_THREAD))


@contextmanager
def forced_threads(threads: int) -> Iterator[None]:
    """Within the block, run every batch loop on exactly ``threads`` threads (below
    ``2 * MIN_GAMES_PER_THREAD`` games on one), without measuring: for benchmarks that
    compare thread counts."""
    global _forced
    before = _forced
    _forced = threads
    try:
        yield
    finally:
        _forced = before


class ThreadChoice:
    """One thread or all of them, decided call by call from measured pairs of calls (one
    instance per batch loop and batch configuration).

    The two ways are compared in *pairs*: two calls in a row, one each way (in turn, which
    goes first), whose ratio of seconds enters a running mean of the log ratio. Two calls in a
    row do about the same work, whereas one call now and one a hundred calls ago need not
    (every game of a new batch starts together, so the work per call drifts as the games go
    on), and a ratio from one pair is not fooled by that drift. Between pairs every call runs
    the way the mean favours; pairs come every :data:`PROBE_FIRST` calls at first and half as
    often after each pair that agrees with the choice, up to every :data:`PROBE_LONGEST`
    calls; a pair that disagrees (see :func:`_pair_agrees`) brings the next one
    :data:`PROBE_FIRST` calls near, so a change of the machine's load turns the choice over
    within a few pairs.
    """

    __slots__ = (
        "_calls",
        "_cold",
        "_first",
        "_interval",
        "_log_ratio",
        "_next_pair",
        "_pair",
        "_seen",
    )

    def __init__(self) -> None:
        #: running mean of log(parallel seconds / serial seconds) over the measured pairs
        self._log_ratio: float | None = None
        #: calls made per way (the first of each is compilation and warm-up: not measured)
        self._seen: dict[bool, int] = {False: 0, True: 0}
        self._calls = 0
        self._interval = PROBE_FIRST
        self._next_pair = 0
        #: the way the current pair measures first (alternates from pair to pair)
        self._first = True
        #: the current pair's first call, (way, seconds), until its second is measured
        self._pair: tuple[bool, float] | None = None
        #: calls in a row that did not run as usual (see :meth:`record`)
        self._cold = 0

    def parallel(self) -> bool:
        """The way the measured pairs favour (parallel until there is one; then only if
        it is faster by :data:`PARALLEL_MARGIN`)."""
        return self._log_ratio is None or _favours_crew(self._log_ratio)

    def pick(self) -> bool:
        """Whether the next call should run in parallel."""
        self._calls += 1
        for way in (True, False):
            if self._seen[way] < 1:
                return way
        if self._pair is not None:
            return not self._pair[0]
        if self._calls >= self._next_pair:
            return self._first
        return self.parallel()

    def record(self, parallel: bool, seconds: float, usual: bool = True) -> None:
        """The call just made (``parallel`` or not) took ``seconds``. A call that did not run
        as calls in a row do (``usual=False``: its threads had to be woken the slow way) is
        left out, unless :data:`COLD_IN_A_ROW` such calls came in a row: then that is how
        calls run here (a program that does much between two calls), and they count."""
        if usual:
            self._cold = 0
        else:
            self._cold += 1
            if self._cold < COLD_IN_A_ROW:
                return
        self._seen[parallel] += 1
        if self._seen[parallel] == 1:
            return
        if self._pair is None:
            if self._calls >= self._next_pair and parallel == self._first:
                self._pair = (parallel, seconds)
            return
        way, first = self._pair
        self._pair = None
        self._first = not self._first
        if way == parallel:  # not the pair's second call (cannot happen through pick)
            return
        par, ser = (first, seconds) if way else (seconds, first)
        ratio = math.log(max(par, 1e-9) / max(ser, 1e-9))
        if self._log_ratio is None:  # the first pair: nothing to agree with yet
            self._log_ratio = ratio
            agrees = True
        else:
            before = self.parallel()
            self._log_ratio += SMOOTHING * (ratio - self._log_ratio)
            agrees = _pair_agrees(before, ratio, self.parallel())
        self._interval = min(self._interval * 2, PROBE_LONGEST) if agrees else PROBE_FIRST
        self._next_pair = self._calls + self._interval

    def parallel_share(self) -> float | None:
        """Parallel seconds per call over serial, from the measured pairs (``None`` before
        the first); below 1 means parallel is the faster now."""
        return None if self._log_ratio is None else math.exp(self._log_ratio)


def _pair_agrees(crew_before: bool, pair_log_ratio: float, crew_after: bool) -> bool:
    """Whether a measured pair agrees with the choice it was measured under, so that the
    pairs may come less often; one that disagrees brings the next pair near.

    On the crew, a pair that finds one thread the faster disagrees by itself (without
    turning the choice over: one pair can be noise), so that a crew that has become the
    slower is left within a few pairs. On one thread, a pair disagrees where it turns the
    running mean over to the crew or finds the crew clearly faster (by
    :data:`CLEARLY_FASTER`, as a machine that gets idle does), not where it favours the crew
    by a little: on a busy machine, where the two ways are about as fast and the crew's
    calls now and then wait for a core, such pairs came by chance and had the crew run in
    pairs every few calls, each a call that risked such a wait (beside a busy process, 25 s
    of Custodian Dice's steps at batch 4,096: 656, 1,676 and 2,331 calls of 15,000-19,000 on
    the crew; now 350, 195 and 66)."""
    if crew_before:
        return _favours_crew(pair_log_ratio)
    return not crew_after and pair_log_ratio >= -CLEARLY_FASTER


def _favours_crew(log_ratio: float) -> bool:
    """Whether a log ratio of parallel over serial seconds (one pair's, or their mean) is
    low enough to run the crew: below ``-PARALLEL_MARGIN``."""
    return log_ratio < -PARALLEL_MARGIN


def run_batch_loop(choice: ThreadChoice, batch: int, loop: Any, *args: Any) -> None:
    """Run the batch loop ``loop(*args, lo, hi, ...)`` over the rows ``0 <= i < batch`` on
    one thread or on several (contiguous chunks, one per thread), whichever ``choice`` finds
    faster now on this machine."""
    with BatchCall(choice, batch) as call:
        call.run(loop, *args)


class BatchCall:
    """One call of a batch's loops that run one after the other (a step's legality check,
    then the step), as a context: ``choice`` picks one thread or several for all of them and
    times them together, so that a light loop beside a heavy one neither measures a way of
    its own nor wakes the crew for itself. A call left by an exception is not measured. (A
    class, not a generator: at batch 1 a step is a few dozen microseconds.)"""

    __slots__ = ("_began", "_choice", "_way", "batch", "chunks", "usual")

    def __init__(self, choice: ThreadChoice, batch: int) -> None:
        self.batch = batch
        #: whether every loop ran as calls in a row do (see :meth:`ThreadChoice.record`)
        self.usual = True
        self._began = 0.0
        most = 1 if batch < 2 * MIN_GAMES_PER_THREAD else threads_for(batch)
        if _forced is not None or most <= 1:
            self._choice: ThreadChoice | None = None
            self._way = False
            self.chunks = most
        else:
            self._choice = choice
            self._way = choice.pick()
            self.chunks = most if self._way else 1

    def __enter__(self) -> BatchCall:
        if self._choice is not None:
            self._began = time.perf_counter()
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if self._choice is not None and kind is None:
            # a parallel call after a stretch of calls on one thread finds the crew asleep:
            # measured as it is, it would keep the choice on one thread where the crew is
            # the faster
            self._choice.record(self._way, time.perf_counter() - self._began, self.usual)

    def run(self, loop: Any, *args: Any) -> None:
        """Run the batch loop ``loop(*args, lo, hi, ...)`` over the call's rows."""
        if not run_in_chunks(loop, args, self.batch, self.chunks):
            self.usual = False


def run_in_chunks(loop: Any, args: tuple[Any, ...], batch: int, chunks: int) -> bool:
    """The batch loop ``loop(*args, lo, hi, ...)`` on ``chunks`` contiguous chunks of
    ``0 .. batch``: at once, by the crew of that many threads (:mod:`diceboard.vector.crew`),
    or one after the other on the calling thread when the loops are plain Python
    (``NUMBA_DISABLE_JIT=1``, where the GIL would run them one at a time anyway). Returns
    when all have finished (raising the first error, if any), with whether the call ran as
    calls in a row do (see :meth:`~diceboard.vector.crew.Crew.run`)."""
    crew = crew_of(chunks) if chunks > 1 else None
    if crew is not None:
        return crew.run(loop, args, batch)
    first: BaseException | None = None
    for c in range(chunks):
        try:
            loop(*args, c * batch // chunks, (c + 1) * batch // chunks, *SOLO)
        except Exception as error:  # the others still run: the same rows as on threads
            first = first or error
    if first is not None:
        raise first
    return True
