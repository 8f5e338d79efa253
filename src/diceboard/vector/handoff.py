"""The compiled side of a crew (:mod:`diceboard.vector.crew`): handing the chunks of one
call of a batch loop to threads that wait for them in compiled code.

A batch loop (:mod:`diceboard.vector.kernels`) runs over a range of rows. To run it on
several threads at once, the calling thread (the *lead*) hands every other thread of the
crew (a *follower*) one chunk, runs the first chunk itself and waits until every chunk is
done. Threads that sleep between calls and are woken by the operating system cost tens of
microseconds each way on a virtual machine (measured here: 60-110 µs a call at batch 4,096,
a tenth of the work), and a Python thread must also take the GIL again before it can run
anything. So the two sides meet in compiled code, without the GIL, through a small int64
*control* array that both poll with atomic loads (:mod:`diceboard.vector.atomics`):

* follower ``w`` owns the cache line ``control[w * ROW : (w + 1) * ROW]``; ``GO`` there is
  the number of the last call handed to it (or ``LEFT`` when it has stopped polling), and
  ``DONE`` the last call it finished;
* the lead hands call ``seq`` out by swapping each follower's ``GO`` from ``seq - 1`` to
  ``seq`` (with compare-and-swap: a follower that has meanwhile given up polling, and so will
  not see it, set ``LEFT``, and the lead then runs that chunk itself), runs its own chunk and
  polls every ``DONE`` for ``seq``;
* a follower runs its chunk (the loop called from Python with its own range), lets go of
  the call's arguments and then, in :func:`finish_and_poll`, publishes ``DONE`` and polls
  ``GO`` for the next call — for a bounded number of rounds (about a third of a
  millisecond), after which it swaps ``GO`` to ``LEFT`` and returns, so that a follower never
  burns a core for long when no work comes: its Python thread then sleeps until the crew
  wakes it (the slow way).

A follower takes the GIL twice a call, each time while the lead runs compiled code without
it, so that neither waits: after its chunk (the lead is still in the loop, waiting for that
``DONE``), and when it sees the next call (the lead is in its own chunk). It lets go of the
arguments before it publishes ``DONE`` so that nothing of a finished call stays referenced:
a functional step recycles a dropped state's arrays only when nobody else holds them
(:mod:`diceboard.vector.spares`).

The lead's part runs inside the batch loop itself, which therefore takes, after its range
``lo, hi``, the call's ``control``, ``seq``, ``bounds`` and ``spins`` and runs its rows as
``for lo, hi in chunks`` through :func:`first_chunk` and :func:`next_chunk`, ending with
:func:`chunks_done`. A wrapper around the loop would have been simpler to read, but numba
optimises a compiled callee again inside every caller: wrappers cost the loops' whole
compilation twice (3.7 s more on a cold cache). With ``seq == 0`` (a follower's chunk, or one
thread) a loop runs just ``lo <= i < hi``: :data:`SOLO` are the arguments for that.
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import njit
from diceboard.vector.atomics import atomic_load, atomic_store, compare_and_swap, spin_pause

__all__ = [
    "DONE",
    "GO",
    "LEFT",
    "ROW",
    "SOLO",
    "await_done",
    "chunks_done",
    "finish_and_poll",
    "first_chunk",
    "next_chunk",
    "recall",
    "spin",
]

#: int64 entries per follower in the control array: one 64-byte cache line each, so that
#: one follower's polling never contends with another's writes
ROW = 8
#: offsets within a follower's row
GO = 0
DONE = 1
#: ``GO`` of a follower that no longer polls (its thread sleeps until woken)
LEFT = -1

#: ``control, seq, bounds, spins`` of a loop call that runs its own range and nothing else
SOLO = (np.zeros(ROW, dtype=np.int64), 0, np.zeros(2, dtype=np.int64), 0)


@njit
def first_chunk(
    control: np.ndarray, seq: int, bounds: np.ndarray, lo: int, hi: int
) -> tuple[int, int]:
    """The lead's part before its first row: hand call ``seq`` (when it is one, ``seq > 0``)
    to every follower that still polls. Returns the rows to run first: the first chunk of
    ``bounds``, or ``lo, hi`` without a call."""
    if seq <= 0:
        return lo, hi
    for w in range(1, bounds.shape[0] - 1):
        compare_and_swap(control, w * ROW + GO, seq - 1, seq)
    return bounds[0], bounds[1]


@njit
def next_chunk(
    control: np.ndarray, seq: int, bounds: np.ndarray, after: int
) -> tuple[int, int, int]:
    """The lead's next chunk after chunk ``after``: that of a follower that had left before
    call ``seq`` was handed to it (published done at once: nothing else runs it). Returns
    ``(chunk, lo, hi)``, or ``(-1, 0, 0)`` when there is none (or no call)."""
    if seq <= 0:
        return -1, 0, 0
    for w in range(after + 1, bounds.shape[0] - 1):
        at = w * ROW
        if atomic_load(control, at + GO) == LEFT and atomic_load(control, at + DONE) != seq:
            atomic_store(control, at + DONE, seq)
            return w, bounds[w], bounds[w + 1]
    return -1, 0, 0


@njit
def chunks_done(control: np.ndarray, seq: int, bounds: np.ndarray, spins: int) -> bool:
    """The lead's part after its rows: poll until every follower has finished call ``seq``
    (``True``; at once without a call), or for at most ``spins`` rounds (``False``)."""
    if seq <= 0:
        return True
    return await_done(control, seq, bounds.shape[0] - 1, spins)


@njit
def await_done(control: np.ndarray, seq: int, chunks: int, spins: int) -> bool:
    """Poll until followers ``1 .. chunks - 1`` have all finished call ``seq`` or left
    without it (``True``), or for at most ``spins`` rounds (``False``). (A follower that
    left before the lead handed it the call had its chunk run by the lead.)"""
    rounds = 0
    for w in range(1, chunks):
        at = w * ROW
        while atomic_load(control, at + DONE) != seq and atomic_load(control, at + GO) != LEFT:
            rounds += 1
            if rounds >= spins:
                return False
            spin_pause()
    return True


@njit
def finish_and_poll(control: np.ndarray, worker: int, seq: int, spins: int) -> int:
    """Publish follower ``worker``'s chunk of call ``seq`` done and poll for the next call.
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
        spin_pause()


@njit
def recall(control: np.ndarray, seq: int, chunks: int) -> None:
    """Take call ``seq`` back from the followers that have not been handed it (the lead
    failed before it could): they leave, as after polling in vain."""
    for w in range(1, chunks):
        compare_and_swap(control, w * ROW + GO, seq - 1, LEFT)


@njit
def spin(control: np.ndarray, rounds: int) -> int:
    """``rounds`` polling rounds of an entry that does not change (to measure how long a
    round takes). Returns the entry."""
    seen = 0
    for _ in range(rounds):
        seen = atomic_load(control, 0)
        spin_pause()
    return seen
