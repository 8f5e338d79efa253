"""The crew: every row of every call run exactly once, whichever way the followers are
reached (polling, asleep, leaving at the moment they are handed a call), errors raised
after every chunk finished, and a crew that keeps working after one."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

from diceboard.kernel import njit
from diceboard.kernel.jit import jit_disabled
from diceboard.vector import handoff
from diceboard.vector.crew import Crew, block_bounds
from diceboard.vector.handoff import chunks_done, first_chunk, next_chunk
from diceboard.vector.threads import run_in_chunks

pytestmark = [
    pytest.mark.skipif(jit_disabled(), reason="a crew needs compiled kernels"),
    # a crew that lost a call would wait for it for ever
    pytest.mark.timeout(300),
]


@njit
def count_rows(
    counts: np.ndarray,
    fail_from: int,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """A batch loop: ``counts[i] += 1`` for every row it runs; a block that starts at or
    after ``fail_from`` (when it is 0 or more) fails after counting its rows."""
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        for i in range(lo, hi):
            counts[i] += 1
        if 0 <= fail_from <= lo and lo < hi:
            raise ValueError("a chunk failed")
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@pytest.fixture(scope="module")
def counting() -> object:
    return count_rows


@pytest.mark.parametrize("size", [2, 3, 4])
def test_every_row_is_run_once_per_call_whatever_the_pause_between_calls(
    counting: object, size: int
) -> None:
    crew = Crew(size)
    batch = 1000
    counts = np.zeros(batch, dtype=np.int64)
    # no pause (the followers poll), a short one, and one longer than their polling (they
    # leave and are woken the slow way), in an irregular order
    pauses = [0.0, 50e-6, 2e-3, 0.0, 0.0, 1e-3, 300e-6, 0.0] * 12
    for pause in pauses:
        crew.run(counting, (counts, -1), batch)
        time.sleep(pause)
    assert (counts == len(pauses)).all()


def test_a_batch_smaller_than_the_crew_runs_every_row_once(counting: object) -> None:
    assert block_bounds(3, 4).tolist() == [0, 1, 2, 3]
    assert block_bounds(4096, 2).tolist() == [b * 256 for b in range(17)]
    assert block_bounds(100, 2).tolist() == [0, 33, 66, 100]
    crew = Crew(4)
    counts = np.zeros(3, dtype=np.int64)
    for _ in range(20):
        crew.run(counting, (counts, -1), 3)
    assert (counts == 20).all()


@pytest.mark.parametrize("fail_from", [0, 33, 66])
def test_an_error_in_a_block_is_raised_after_every_other_block_finished(
    counting: object, fail_from: int
) -> None:
    crew = Crew(2)
    counts = np.zeros(100, dtype=np.int64)
    for _ in range(3):
        with pytest.raises(ValueError, match="a chunk failed"):
            crew.run(counting, (counts, fail_from), 100)
        # a thread stops at the first block that fails and no block is taken after it (the
        # blocks not yet taken are not run): no row counted twice, at least the failing
        # block's, and nothing runs on after the call has returned
        assert (counts <= 1).all()
        assert counts[fail_from:].any()
        seen = counts.copy()
        time.sleep(0.01)
        assert (counts == seen).all()
        counts[:] = 0
    # the crew goes on working
    for _ in range(5):
        crew.run(counting, (counts, -1), 100)
    assert (counts == 5).all()


def test_a_lead_that_cannot_start_leaves_the_crew_working(counting: object) -> None:
    crew = Crew(3)
    counts = np.zeros(90, dtype=np.int64)
    for _ in range(3):
        crew.run(counting, (counts, -1), 90)
    with pytest.raises(Exception, match=r"(?i)typ|argument"):
        crew.run(counting, (counts, "not a number"), 90)
    for _ in range(3):
        crew.run(counting, (counts, -1), 90)
    # the failed call ran nowhere (a follower woken for it failed the same way); every other
    # call ran everywhere once
    assert (counts == 6).all()


def test_two_threads_sharing_a_crew_each_get_every_row(counting: object) -> None:
    crew = Crew(2)
    counts = [np.zeros(500, dtype=np.int64) for _ in range(2)]

    def calls(mine: np.ndarray) -> None:
        for _ in range(200):
            crew.run(counting, (mine, -1), 500)

    threads = [threading.Thread(target=calls, args=(c,)) for c in counts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for mine in counts:
        assert (mine == 200).all()


def test_chunks_of_plain_loops_run_one_after_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    # as without compilation (NUMBA_DISABLE_JIT=1): no crew
    monkeypatch.setattr("diceboard.vector.threads.crew_of", lambda size: None)
    done: list[tuple[int, int]] = []

    def loop(lo: int, hi: int, *call: object) -> None:
        done.append((lo, hi))
        if lo == 50:
            raise ValueError("chunk 50")

    with pytest.raises(ValueError, match="chunk 50"):
        run_in_chunks(loop, (), 100, 2)
    assert done == [(0, 50), (50, 100)]


def test_the_crews_followers_stop_polling_when_no_work_comes(counting: object) -> None:
    crew = Crew(2)
    counts = np.zeros(10, dtype=np.int64)
    crew.run(counting, (counts, -1), 10)
    # the follower leaves after a third of a millisecond of polling (a busy machine may
    # keep it off its core for a while): it then sleeps until the next call wakes it
    deadline = time.monotonic() + 10
    while crew._control[handoff.ROW + handoff.GO] != handoff.LEFT:
        assert time.monotonic() < deadline, "the follower polls on"
        time.sleep(0.01)
    process = os.times()
    time.sleep(0.2)
    assert os.times().user - process.user < 0.1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_gets_a_crew_of_its_own(counting: object) -> None:
    from diceboard.vector import crew as crews

    parent = crews.crew_of(2)
    assert parent is not None
    counts = np.zeros(1000, dtype=np.int64)
    parent.run(counting, (counts, -1), 1000)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report whether its crew is new and has live threads
        try:
            child = crews.crew_of(2)
            mine = np.zeros(1000, dtype=np.int64)
            for _ in range(50):
                assert child is not None
                child.run(counting, (mine, -1), 1000)
            alive = sum(t.name.startswith("diceboard-vector") for t in threading.enumerate())
            ok = child is not parent and bool((mine == 50).all()) and alive == 1
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    assert answer == b"1"
