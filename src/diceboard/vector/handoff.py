"""The compiled side of a crew (:mod:`diceboard.vector.crew`): handing one call of a batch
loop to threads that wait for it in compiled code, and sharing its rows out in blocks.

A batch loop (:mod:`diceboard.vector.kernels`) runs over rows. To run one call on several
threads at once, the calling thread (the *lead*) hands the call to every other thread of the
crew (a *follower*), and all of them take *blocks* of rows until none is left. Threads that
sleep between calls and are woken by the operating system cost tens of microseconds each way
on a virtual machine (measured here: 60-110 µs a call at batch 4,096, a tenth of the work),
and a Python thread must also take the GIL again before it can run anything. So the threads
meet in compiled code, without the GIL, through a small int64 *control* array that they poll
with atomic loads (:mod:`diceboard.vector.atomics`), one cache line (:data:`ROW` entries)
per thread:

* follower ``w``'s row holds ``GO``, the number of the last call handed to it (``LEFT`` when
  it has stopped polling), ``JOINED`` and ``DONE``, the last call it joined and the last it
  is done with (it has let go of the call's arguments);
* every thread's row holds ``OWN``, the next of the blocks it owns, tagged with the call's
  number. A thread takes its own blocks first (the rows it stepped last call are in its
  core's cache), then the others' (with compare-and-swap, so that each block is taken once),
  and counts each block it finishes in the lead's row (``FINISHED``);
* the lead opens call ``seq`` (:func:`open_call`), hands it to every follower still polling
  by swapping ``GO`` to ``seq`` (a follower that gives up polling meanwhile wins the swap and
  is left out: its blocks are taken by the others), takes blocks, and then polls until every
  block has finished and every follower that joined is done;
* a follower that sees the call returns to Python for its arguments (the lead is in compiled
  code by then, without the GIL), takes blocks, lets go of the arguments, and in
  :func:`finish_and_poll` publishes ``DONE`` and polls ``GO`` for the next call — for about a
  third of a millisecond, after which it swaps ``GO`` to ``LEFT`` and its thread sleeps until
  the crew wakes it (the slow way), so that a follower never burns a core for long when no
  work comes.

Blocks rather than one fixed chunk per thread because of busy machines: a thread that gets
no core for a while holds up a call only by the block it is in, and the others take the
rest. For the same reason a thread that has polled for a while (:data:`EAGER_ROUNDS`) yields
its core now and then: the scheduler charges polling as work and may keep the very thread
it waits for off the core. Measured with ``while True: pass`` on the other core of this
2-core machine, two threads forced made 0.54× the steps of one (Custodian Dice, one fixed
chunk each, polling without yielding), then 0.87× (blocks), then 1.01× (yielding too).

A stale follower (one that sees a call only after it is over) takes nothing: a block's tag
must be its call's. A follower lets go of the arguments before it publishes ``DONE``, and
the lead waits for that, so that nothing of a finished call stays referenced: a functional
step recycles a dropped state's arrays only when nobody else holds them
(:mod:`diceboard.vector.spares`).

The lead's and the followers' parts run inside the batch loop itself, which therefore takes,
after its range ``lo, hi``, the call's ``control``, ``seq``, ``bounds`` (the blocks' first
rows) and ``spins``, and runs its rows block by block through :func:`first_chunk` and
:func:`next_chunk`, ending with :func:`chunks_done`. A wrapper around the loop would have been
simpler to read, but numba optimises a compiled callee again inside every caller: wrappers
cost the loops' whole compilation twice (3.7 s more on a cold cache). With ``seq == 0`` (one
thread) a loop runs just ``lo <= i < hi``: :data:`SOLO` are the arguments for that.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import njit
from diceboard.vector.atomics import (
    atomic_load,
    atomic_store,
    compare_and_swap,
    fetch_add,
    spin_pause,
    yield_core,
)

__all__ = [
    "DONE",
    "FAILED",
    "FINISHED",
    "GO",
    "JOINED",
    "LEFT",
    "OWN",
    "ROW",
    "SOLO",
    "TAG",
    "await_call",
    "chunks_done",
    "close_call",
    "finish_and_poll",
    "first_chunk",
    "next_chunk",
    "open_call",
    "spin",
    "take_block",
]

#: int64 entries per row of the control array: one 64-byte cache line each, so that one
#: thread's polling never contends with another's writes
ROW = 8
#: the call's entries, in row 0 (the lead's): the blocks finished, and the last call in
#: which a block failed
FINISHED = 1
FAILED = 2
#: the entries of follower ``w``'s row ``w``: the last call handed to it (``LEFT`` when it
#: has stopped polling), the last call it has finished with, and the last it joined
GO = 0
DONE = 1
JOINED = 2
#: in every thread's row: the next of the blocks it owns (tagged with the call's number:
#: ``seq * TAG + block``). Thread ``w`` of ``n`` owns blocks ``w * blocks // n`` up to
#: ``(w + 1) * blocks // n``, takes those first and then the others' (from the front): rows
#: that a thread stepped last call are in its core's cache
OWN = 3
#: ``GO`` of a follower that no longer polls (its thread sleeps until woken)
LEFT = -1
#: the factor of a call's number in the tagged ``NEXT`` (more blocks than that are never cut)
TAG = 1 << 24

#: polling rounds before a poller starts giving its core to other runnable threads (every
#: :data:`YIELD_EVERY` rounds): on a busy machine a thread that polls is charged for it by
#: the scheduler and may keep the thread it waits for off the core
EAGER_ROUNDS = 2048
YIELD_EVERY = 64

#: ``control, seq, bounds, spins`` of a loop call that runs its own range and nothing else
SOLO = (np.zeros(ROW, dtype=np.int64), 0, np.zeros(2, dtype=np.int64), 0)


@njit
def open_call(control: np.ndarray, seq: int, blocks: int) -> None:
    """Set call ``seq``'s block counters (each thread's first owned block), before anything
    is handed out."""
    threads = control.shape[0] // ROW
    for w in range(threads):
        atomic_store(control, w * ROW + OWN, seq * TAG + w * blocks // threads)
    atomic_store(control, FINISHED, 0)


@njit
def close_call(control: np.ndarray, seq: int, blocks: int) -> None:
    """Let no more blocks of call ``seq`` be taken (a block failed)."""
    threads = control.shape[0] // ROW
    for w in range(threads):
        atomic_store(control, w * ROW + OWN, seq * TAG + (w + 1) * blocks // threads)
    atomic_store(control, FAILED, seq)


@njit
def first_chunk(
    control: np.ndarray, seq: int, bounds: np.ndarray, lo: int, hi: int
) -> tuple[int, int, int]:
    """A batch loop's part before its first row. In a crew call ``lo`` is the thread's
    number in the crew (0: the lead, with ``seq > 0``; a follower has ``seq < 0``, for call
    ``-seq``). The lead hands the call to every follower that still polls; then the thread
    takes its first block. Returns ``(block, lo, hi)``: the block's number and rows (``-1``
    when none is left), or ``(0, lo, hi)`` without a call (``seq == 0``)."""
    if seq == 0:
        return 0, lo, hi
    if seq > 0:
        for w in range(1, control.shape[0] // ROW):
            at = w * ROW + GO
            handed = atomic_load(control, at)
            # a follower that leaves meanwhile wins the swap and is left out
            if handed != LEFT and handed != seq:
                compare_and_swap(control, at, handed, seq)
    return take_block(control, abs(seq), bounds, lo)


@njit
def take_block(
    control: np.ndarray, call: int, bounds: np.ndarray, first: int
) -> tuple[int, int, int]:
    """The next block of call ``call``, from thread ``first``'s blocks if any is left, else
    from the next thread's, and so on: ``(block, lo, hi)``, or ``(-1, 0, 0)`` when every
    block has been taken or the crew has gone on to another call."""
    threads = control.shape[0] // ROW
    blocks = bounds.shape[0] - 1
    for k in range(threads):
        owner = (first + k) % threads
        at = owner * ROW + OWN
        end = (owner + 1) * blocks // threads
        while True:
            tagged = atomic_load(control, at)
            block = tagged - call * TAG
            if block < 0 or block >= end:
                break
            if compare_and_swap(control, at, tagged, tagged + 1):
                return block, bounds[block], bounds[block + 1]
    return -1, 0, 0


@njit
def next_chunk(
    control: np.ndarray, seq: int, bounds: np.ndarray, block: int
) -> tuple[int, int, int]:
    """A batch loop's part after each block: count block ``block`` finished and take the
    next, from the same owner's blocks first (as :func:`first_chunk`; ``(-1, 0, 0)`` without
    a call)."""
    if seq == 0:
        return -1, 0, 0
    fetch_add(control, FINISHED, 1)
    threads = control.shape[0] // ROW
    blocks = bounds.shape[0] - 1
    owner = 0
    while (owner + 1) * blocks // threads <= block:
        owner += 1
    return take_block(control, abs(seq), bounds, owner)


@njit
def chunks_done(control: np.ndarray, seq: int, bounds: np.ndarray, spins: int) -> bool:
    """A batch loop's part after its last block: as the lead, poll until every block of the
    call has finished (``True``), or for at most ``spins`` rounds (``False``: the caller
    waits on with :func:`await_call`). ``True`` at once for a follower or without a call."""
    if seq <= 0:
        return True
    return await_call(control, seq, bounds.shape[0] - 1, spins)


@njit
def await_call(control: np.ndarray, seq: int, blocks: int, spins: int) -> bool:
    """Poll until call ``seq`` is over (``True``), or for at most ``spins`` rounds
    (``False``): its ``blocks`` blocks have finished (or one failed: ``FAILED`` is ``seq``,
    and the caller closed the call) and every follower that joined it is done with it (it
    has let go of the call's arguments)."""
    rounds = 0
    while atomic_load(control, FINISHED) < blocks and atomic_load(control, FAILED) != seq:
        rounds += 1
        if rounds >= spins:
            return False
        backoff(rounds)
    for w in range(1, control.shape[0] // ROW):
        at = w * ROW
        while atomic_load(control, at + JOINED) == seq and atomic_load(control, at + DONE) != seq:
            rounds += 1
            if rounds >= spins:
                return False
            backoff(rounds)
    return True


@njit
def finish_and_poll(control: np.ndarray, worker: int, seq: int, spins: int) -> int:
    """Publish follower ``worker`` done with call ``seq`` and poll for the next call.
    Returns that call's number, or ``LEFT`` after ``spins`` rounds without one (the follower
    has then left: the lead will not hand it anything)."""
    at = worker * ROW
    atomic_store(control, at + DONE, seq)
    rounds = 0
    while True:
        handed = atomic_load(control, at + GO)
        if handed != seq:
            return handed
        rounds += 1
        if rounds >= spins and compare_and_swap(control, at + GO, seq, LEFT):
            return LEFT
        backoff(rounds)


@njit
def backoff(rounds: int) -> None:
    """Wait a little in polling round ``rounds``: the CPU's spin-wait hint, and after
    :data:`EAGER_ROUNDS` rounds now and then a yield of the core."""
    if rounds >= EAGER_ROUNDS and rounds % YIELD_EVERY == 0:
        yield_core()
    else:
        spin_pause()


@njit
def spin(control: np.ndarray, rounds: int) -> int:
    """``rounds`` polling rounds of an entry that does not change (to measure how long a
    round takes). Returns the entry."""
    seen = 0
    for _ in range(rounds):
        seen = atomic_load(control, 0)
        spin_pause()
    return seen
