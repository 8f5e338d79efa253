"""Threads that run the chunks of a batch loop, handed over in compiled code.

A :class:`Crew` of ``size`` threads is the calling thread (the lead) and ``size - 1``
follower threads of its own. :meth:`Crew.run` calls a batch loop as the lead of a call on
the calling thread (it hands out the chunks itself, see :mod:`diceboard.vector.handoff`);
each follower runs its chunk
and then polls for the next call in :func:`~diceboard.vector.handoff.finish_and_poll`, for
about a third of a millisecond (:data:`FOLLOWER_POLL_US`) before it goes to sleep on an
event, from which the next call wakes it the slow way. In the usual loop (a step,
some Python, the next step) the followers never sleep, and a call costs a few microseconds
of handing over instead of two wake-ups by the operating system (see
:mod:`diceboard.vector.handoff` for the protocol and the figures).

One call at a time: a crew that another thread is using runs the loop on the calling
thread alone. An error in a follower's chunk is raised by :meth:`Crew.run` after every chunk
has finished. With ``NUMBA_DISABLE_JIT=1`` there is no crew (:func:`crew_of` returns
``None``): a plain-Python loop holds the GIL, and threads would not run it any faster.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from diceboard.kernel.jit import jit_disabled
from diceboard.vector import handoff
from diceboard.vector.handoff import GO, LEFT, ROW, SOLO

__all__ = ["FOLLOWER_POLL_US", "LEAD_POLL_US", "Crew", "crew_of"]

#: how long a follower polls for the next call before it sleeps (microseconds): longer
#: than the Python a simulation loop runs between two steps, short enough that a follower
#: whose crew has no more work gives its core back at once on a busy machine
FOLLOWER_POLL_US = 300.0
#: how long the lead polls for the followers' chunks before it waits in short sleeps
LEAD_POLL_US = 200.0
#: the sleep between two polls of a lead whose followers are late (a busy machine)
LEAD_SLEEP_S = 20e-6


class _Job(NamedTuple):
    loop: Any
    args: tuple[Any, ...]
    lo: int
    hi: int
    seq: int


@functools.cache
def _rounds_per_us() -> float:
    """Polling rounds per microsecond on this machine (measured once)."""
    control = np.zeros(ROW, dtype=np.int64)
    handoff.spin(control, 1000)  # compiled (or loaded) before it is timed
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        handoff.spin(control, 20_000)
        best = min(best, time.perf_counter() - began)
    return max(20_000 / (best * 1e6), 1.0)


class Crew:
    """The calling thread and ``size - 1`` followers that run chunks of one call at a time."""

    def __init__(self, size: int) -> None:
        if size < 2:
            raise ValueError(f"a crew has at least 2 threads, not {size}")
        self.size = size
        rounds = _rounds_per_us()
        self._follower_spins = max(1, int(FOLLOWER_POLL_US * rounds))
        self._lead_spins = max(1, int(LEAD_POLL_US * rounds))
        self._control = np.zeros(size * ROW, dtype=np.int64)
        for w in range(1, size):
            self._control[w * ROW + GO] = LEFT
        self._seq = 0
        self._jobs: list[_Job | None] = [None] * size
        self._errors: list[BaseException | None] = [None] * size
        self._wake = [threading.Event() for _ in range(size)]
        self._busy = threading.Lock()
        #: the chunks' first rows (and the batch size) per batch size run so far
        self._bounds: dict[int, np.ndarray] = {}
        for w in range(1, size):
            threading.Thread(
                target=self._follower, args=(w,), name=f"diceboard-vector-{w}", daemon=True
            ).start()

    def run(self, loop: Any, args: tuple[Any, ...], batch: int) -> None:
        """The batch loop ``loop(*args, lo, hi, ...)`` over ``0 <= i < batch`` in
        :attr:`size` contiguous chunks at once; returns when every chunk has finished
        (raising a follower's error, if any)."""
        if not self._busy.acquire(blocking=False):
            loop(*args, 0, batch, *SOLO)
            return
        try:
            self._run(loop, args, batch)
        finally:
            self._busy.release()

    def _run(self, loop: Any, args: tuple[Any, ...], batch: int) -> None:
        size = self.size
        seq = self._seq + 1
        # numbered before anything is handed out: whatever happens below, the followers
        # that were handed call seq poll for seq + 1 next
        self._seq = seq
        bounds = self._bounds.get(batch)
        if bounds is None:
            bounds = np.array([c * batch // size for c in range(size + 1)], dtype=np.int64)
            self._bounds[batch] = bounds
        control = self._control
        for w in range(1, size):
            self._jobs[w] = _Job(loop, args, int(bounds[w]), int(bounds[w + 1]), seq)
            self._errors[w] = None
        for w in range(1, size):
            if control[w * ROW + GO] == LEFT:
                # asleep: handed its call here and woken the slow way (a follower that
                # leaves after this look is caught by the lead's compare-and-swap)
                control[w * ROW + GO] = seq
                self._wake[w].set()
        try:
            done = loop(*args, 0, batch, control, seq, bounds, self._lead_spins)
        except BaseException:
            # the lead never started (its compilation failed, say): the followers still
            # polling leave, those already woken run their chunk before anything goes on
            handoff.recall(control, seq, size)
            self._wait(seq)
            raise
        if not done:
            self._wait(seq)
        for error in self._errors:
            if error is not None:
                raise error

    def _wait(self, seq: int) -> None:
        """Wait, polling and sleeping in turn, until every follower has finished call ``seq``
        (an interrupt waits too: the chunks still write to the caller's arrays)."""
        interrupted: BaseException | None = None
        while not handoff.await_done(self._control, seq, self.size, self._lead_spins):
            try:
                time.sleep(LEAD_SLEEP_S)
            except KeyboardInterrupt as error:
                interrupted = error
        if interrupted is not None:
            raise interrupted

    def _follower(self, w: int) -> None:
        control = self._control
        while True:
            self._wake[w].wait()
            self._wake[w].clear()
            handed = int(control[w * ROW + GO])
            while handed != LEFT:
                job = self._jobs[w]
                self._jobs[w] = None
                assert job is not None and job.seq == handed
                try:
                    job.loop(*job.args, job.lo, job.hi, *SOLO)
                except BaseException as error:  # raised by Crew.run in the calling thread
                    self._errors[w] = error
                seq = job.seq
                # nothing of the call stays referenced while this thread polls
                del job
                handed = int(handoff.finish_and_poll(control, w, seq, self._follower_spins))


_crews: dict[int, Crew] = {}
_crews_lock = threading.Lock()


def crew_of(size: int) -> Crew | None:
    """The crew of ``size`` threads (made on first use), or ``None`` without compilation."""
    if jit_disabled() or size < 2:
        return None
    with _crews_lock:
        crew = _crews.get(size)
        if crew is None:
            crew = _crews[size] = Crew(size)
        return crew
