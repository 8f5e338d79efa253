"""Threads that run the blocks of a batch loop's call, handed over in compiled code.

A :class:`Crew` of ``size`` threads is the calling thread (the lead) and ``size - 1``
follower threads of its own. :meth:`Crew.run` calls a batch loop as the lead of a call on the
calling thread; the followers join it, and all take blocks of rows until none is left (see
:mod:`diceboard.vector.handoff` for the protocol and the figures). A follower then polls for
the next call in compiled code for about a third of a millisecond (:data:`FOLLOWER_POLL_US`)
before it goes to sleep on an event, from which the next call wakes it the slow way. In the
usual loop (a step, some Python, the next step) the followers never sleep, and a call costs
a few microseconds of handing over instead of two wake-ups by the operating system.

One call at a time: a crew that another thread is using runs the loop on the calling thread
alone. An error in a block is raised by :meth:`Crew.run` after every other block taken has
finished (no block is taken after it). With ``NUMBA_DISABLE_JIT=1`` there is no crew
(:func:`crew_of` returns ``None``): a plain-Python loop holds the GIL, and threads would not
run it any faster.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from diceboard.kernel.jit import jit_disabled
from diceboard.vector import handoff
from diceboard.vector.handoff import DONE, GO, JOINED, LEFT, ROW, SOLO

__all__ = ["FOLLOWER_POLL_US", "LEAD_POLL_US", "Crew", "crew_of"]

#: how long a follower polls for the next call before it sleeps (microseconds): longer
#: than the Python a simulation loop runs between two steps, short enough that a follower
#: whose crew has no more work gives its core back at once on a busy machine
FOLLOWER_POLL_US = 300.0
#: how long the lead polls for the followers' chunks before it waits in short sleeps
LEAD_POLL_US = 200.0
#: the sleep between two polls of a lead whose followers are late (a busy machine)
LEAD_SLEEP_S = 20e-6
#: blocks a call is cut into per thread: the threads take them in turn, so that a thread
#: that gets no core for a while (a busy machine) holds up at most the block it is in
BLOCKS_PER_THREAD = 8
#: the fewest rows of a block (fewer blocks for small batches)
MIN_BLOCK_ROWS = 32


class _Job(NamedTuple):
    loop: Any
    args: tuple[Any, ...]
    batch: int
    bounds: np.ndarray
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


def block_bounds(batch: int, size: int) -> np.ndarray:
    """The first row of each block of a call over ``batch`` rows by ``size`` threads (and
    ``batch`` last): :data:`BLOCKS_PER_THREAD` blocks a thread, of at least
    :data:`MIN_BLOCK_ROWS` rows (at least one block a thread)."""
    blocks = max(size, min(size * BLOCKS_PER_THREAD, batch // MIN_BLOCK_ROWS))
    blocks = min(blocks, max(batch, 1))
    return np.array([b * batch // blocks for b in range(blocks + 1)], dtype=np.int64)


class Crew:
    """The calling thread and ``size - 1`` followers that run the blocks of one call at a
    time."""

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
        #: the call each follower is to join (the latest; cleared when the call is over)
        self._jobs: list[_Job | None] = [None] * size
        #: per follower, the call in which its loop raised and the error
        self._errors: list[tuple[int, BaseException] | None] = [None] * size
        self._wake = [threading.Event() for _ in range(size)]
        self._busy = threading.Lock()
        #: the blocks' first rows (and the batch size) per batch size run so far
        self._bounds: dict[int, np.ndarray] = {}
        for w in range(1, size):
            threading.Thread(
                target=self._follower, args=(w,), name=f"diceboard-vector-{w}", daemon=True
            ).start()

    def run(self, loop: Any, args: tuple[Any, ...], batch: int) -> bool:
        """The batch loop ``loop(*args, lo, hi, ...)`` over ``0 <= i < batch``, its blocks
        shared out among the crew's threads; returns when every block has finished (raising
        a follower's error, if any). Returns whether the call ran as calls in a row do: on
        every thread, none of them woken the slow way (a follower that had gone to sleep
        joins late, so such a call says little about how fast the crew is)."""
        if not self._busy.acquire(blocking=False):
            loop(*args, 0, batch, *SOLO)
            return False
        try:
            return self._run(loop, args, batch)
        finally:
            self._busy.release()

    def _run(self, loop: Any, args: tuple[Any, ...], batch: int) -> bool:
        size = self.size
        control = self._control
        # numbered before anything is handed out: whatever happens below, the next call has
        # a number no follower has seen
        seq = self._seq = self._seq + 1
        bounds = self._bounds.get(batch)
        if bounds is None:
            bounds = self._bounds[batch] = block_bounds(batch, size)
        blocks = bounds.shape[0] - 1
        handoff.open_call(control, seq, blocks)
        job = _Job(loop, args, batch, bounds, seq)
        for w in range(1, size):
            self._jobs[w] = job
        woken = False
        for w in range(1, size):
            if control[w * ROW + GO] == LEFT:
                # asleep: handed the call here and woken the slow way (a follower that
                # leaves after this look is left out by the lead's compare-and-swap)
                control[w * ROW + GO] = seq
                self._wake[w].set()
                woken = True
        try:
            done = loop(*args, 0, batch, control, seq, bounds, self._lead_spins)
        except BaseException:
            # a block of the lead's failed, or the loop could not start: no block is taken
            # any more, and those taken finish before anything goes on
            handoff.close_call(control, seq, blocks)
            self._wait(seq, blocks)
            raise
        finally:
            for w in range(1, size):
                self._jobs[w] = None
        if not done or self._late_joiners(seq):
            self._wait(seq, blocks)
        for entry in self._errors:
            if entry is not None and entry[0] == seq:
                raise entry[1]
        return not woken

    def _late_joiners(self, seq: int) -> bool:
        """Whether a follower joined call ``seq`` after the loop's own wait looked and has
        not let go of it yet. The call is no longer handed out (its job is cleared): a
        follower that joins from now on finds nothing to hold. Read here, in Python, after
        the job was cleared, as the follower publishes its joining before it looks the job
        up, both under the interpreter lock, so that one of the two sees the other."""
        control = self._control
        return any(
            control[w * ROW + JOINED] == seq and control[w * ROW + DONE] != seq
            for w in range(1, self.size)
        )

    def _wait(self, seq: int, blocks: int) -> None:
        """Wait, polling and sleeping in turn, until every block of call ``seq`` has
        finished (an interrupt waits too: the blocks still write to the caller's arrays)."""
        interrupted: BaseException | None = None
        while not handoff.await_call(self._control, seq, blocks, self._lead_spins):
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
                seq = handed
                # joined before the call is looked up, so that a lead finishing the call
                # meanwhile waits for this thread to let go of its arguments (see
                # _late_joiners); the latest call may be newer than the one handed
                control[w * ROW + JOINED] = seq
                job = self._jobs[w]
                while job is not None and job.seq != seq:
                    seq = job.seq
                    control[w * ROW + JOINED] = seq
                    job = self._jobs[w]
                # None: the call is over already (its blocks were taken by the others)
                if job is not None:
                    try:
                        # a follower's number in the crew goes where a range's start would
                        job.loop(*job.args, w, job.batch, control, -seq, job.bounds, 0)
                    except BaseException as error:  # raised by Crew.run in the calling thread
                        self._errors[w] = (seq, error)
                        handoff.close_call(control, seq, job.bounds.shape[0] - 1)
                # nothing of the call stays referenced while this thread polls
                del job
                handed = int(handoff.finish_and_poll(control, w, seq, self._follower_spins))


_crews: dict[int, Crew] = {}
_crews_lock = threading.Lock()


def _forget_crews() -> None:
    """In a forked child: the crews' threads stayed in the parent, so the child makes its own
    (a fork copies only the thread that forked)."""
    global _crews_lock
    _crews.clear()
    _crews_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_crews)


def crew_of(size: int) -> Crew | None:
    """The crew of ``size`` threads (made on first use), or ``None`` without compilation."""
    if jit_disabled() or size < 2:
        return None
    with _crews_lock:
        crew = _crews.get(size)
        if crew is None:
            crew = _crews[size] = Crew(size)
        return crew
