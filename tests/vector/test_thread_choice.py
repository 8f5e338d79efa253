"""The choice between one thread and several, on made-up timings with known answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diceboard.vector.threads import PROBE_FIRST, PROBE_LONGEST, ThreadChoice, set_threads

Cost = Callable[[int, bool], float]


def drive(choice: ThreadChoice, cost: Cost, calls: int, start: int = 0) -> list[bool]:
    """The ways ``choice`` picks over ``calls`` calls, call ``k`` taking ``cost(k, way)``."""
    ways = []
    for k in range(start, start + calls):
        way = choice.pick()
        choice.record(way, cost(k, way))
        ways.append(way)
    return ways


@pytest.mark.parametrize(("parallel_factor", "want"), [(0.55, True), (1.6, False)])
def test_the_faster_way_is_run_nearly_always(parallel_factor: float, want: bool) -> None:
    choice = ThreadChoice()
    ways = drive(choice, lambda k, way: parallel_factor if way else 1.0, 2000)
    assert choice.parallel() is want
    assert sum(way != want for way in ways) <= 20  # the first calls and the measured pairs


def test_measured_pairs_back_off_while_the_choice_holds() -> None:
    choice = ThreadChoice()
    ways = drive(choice, lambda k, way: 0.6 if way else 1.0, 5000)
    serial_calls = ways.count(False)
    # one serial call per pair: intervals 4, 8, ... 512, then every 512 calls
    assert serial_calls <= 1 + 8 + 5000 // PROBE_LONGEST
    assert choice._interval == PROBE_LONGEST


def test_work_that_drifts_from_call_to_call_does_not_fool_the_choice() -> None:
    """Every game of a batch starts together, so the work per call rises or falls for
    hundreds of calls: comparing a call with one made long before would be wrong."""
    for growth in (1.01, 0.99):
        choice = ThreadChoice()
        ways = drive(choice, lambda k, way, g=growth: g**k * (0.85 if way else 1.0), 600)
        assert choice.parallel()
        assert ways[20:].count(False) <= 8


def test_a_machine_that_gets_busy_turns_the_choice_over() -> None:
    choice = ThreadChoice()
    drive(choice, lambda k, way: 0.6 if way else 1.0, 3000)
    assert choice.parallel()
    # another program takes a core: parallel calls now wait for it
    ways = drive(choice, lambda k, way: 1.5 if way else 1.0, 2000, start=3000)
    assert not choice.parallel()
    # turned within about one longest interval, and serial from then on
    assert ways[2 * PROBE_LONGEST :].count(True) <= 8
    share = choice.parallel_share()
    assert share is not None and share > 1.0


def test_a_machine_that_gets_idle_turns_the_choice_over() -> None:
    """The other way round: one thread chosen (a busy machine), then the crew twice as fast.
    The first pair after the change turns the running mean over by itself."""
    choice = ThreadChoice()
    drive(choice, lambda k, way: 1.3 if way else 1.0, 3000)
    assert not choice.parallel()
    ways = drive(choice, lambda k, way: 0.5 if way else 1.0, 2000, start=3000)
    assert choice.parallel()
    assert ways[PROBE_LONGEST + 8 :].count(False) <= 8


@settings(max_examples=40, deadline=None)
@given(
    factor=st.floats(0.3, 0.8) | st.floats(1.25, 3.0),
    noise=st.floats(0.0, 0.15),
    seed=st.integers(0, 2**32 - 1),
)
def test_noisy_timings_still_find_the_faster_way(factor: float, noise: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    choice = ThreadChoice()
    ways = drive(
        choice,
        lambda k, way: (factor if way else 1.0) * float(np.exp(rng.normal(0.0, noise))),
        1500,
    )
    want = factor < 1.0
    assert choice.parallel() is want
    assert sum(way != want for way in ways[500:]) <= 1000 // PROBE_FIRST


@pytest.mark.parametrize("factor", [1.0, 1.02, 0.99])
def test_ways_about_as_fast_run_on_one_thread(factor: float) -> None:
    """A busy machine: the crew about as fast as one thread, its calls' times noisy. Noisy
    pairs would turn a choice between equals over and over; the crew is chosen only if it is
    clearly faster, so that it is not run half the time when it is a little slower."""
    rng = np.random.default_rng(7)
    choice = ThreadChoice()
    ways = drive(
        choice,
        lambda k, way: (factor if way else 1.0) * float(np.exp(rng.normal(0.0, 0.05))),
        3000,
    )
    assert ways[500:].count(True) <= 0.3 * 2500


def test_pairs_that_favour_a_slower_crew_by_chance_do_not_bring_pairs_near() -> None:
    """A busy machine: the crew a little slower than one thread and the calls' times noisy,
    so that now and then a pair finds the crew the faster. Such a pair does not turn the
    running mean over, and the pairs (each a call on the crew) keep coming rarely."""
    crew_calls = 0
    for seed in range(5):
        rng = np.random.default_rng(seed)
        choice = ThreadChoice()
        ways = drive(
            choice,
            lambda k, way, r=rng: (1.12 if way else 1.0) * float(np.exp(r.normal(0.0, 0.1))),
            6000,
        )
        assert not choice.parallel()
        crew_calls += ways[500:].count(True)
    # 11 to 21 a seed (with every such pair bringing the next one near: 30 to 46)
    assert crew_calls <= 100


def test_the_first_call_of_each_way_is_not_measured() -> None:
    choice = ThreadChoice()
    # compilation makes each way's first call slow: it must not decide anything
    drive(choice, lambda k, way: 100.0 if k < 2 else (0.5 if way else 1.0), 1)
    drive(choice, lambda k, way: 100.0 if k < 2 else (0.5 if way else 1.0), 1, start=1)
    assert choice.parallel_share() is None
    drive(choice, lambda k, way: 0.5 if way else 1.0, 2, start=2)
    assert choice.parallel_share() == 0.5


def test_calls_that_wake_sleeping_threads_are_left_out_of_the_measures() -> None:
    """After a stretch on one thread, a parallel call finds the other threads asleep and
    pays to wake them: measured, it would keep the choice on one thread for ever."""
    choice = ThreadChoice()
    last_way: list[bool] = []
    ways = []
    for _ in range(3000):
        way = choice.pick()
        # the first parallel call after a serial one is slow (the crew was asleep)
        cold = way and bool(last_way) and not last_way[-1]
        choice.record(way, 1.6 if cold else (0.7 if way else 1.0), usual=not cold)
        last_way.append(way)
        ways.append(way)
    assert choice.parallel()
    assert ways[100:].count(False) <= 20


def test_calls_that_always_wake_sleeping_threads_are_measured() -> None:
    """Where every parallel call finds the threads asleep (much work between calls), that is
    how they run: the choice weighs them."""
    choice = ThreadChoice()
    for _ in range(2000):
        way = choice.pick()
        choice.record(way, 1.4 if way else 1.0, usual=not way)
    assert not choice.parallel()


@pytest.fixture
def two_threads() -> Iterator[None]:
    """Batch loops that may use two threads, whatever the cores here."""
    set_threads(2)
    try:
        yield
    finally:
        set_threads(None)


@pytest.mark.usefixtures("two_threads")
def test_a_steps_check_and_step_share_one_choice_timed_together() -> None:
    import diceboard.vector as dv

    state = dv.init("custodian", seed=1, batch=512)
    for _ in range(12):  # in place: the legality check runs as a loop of its own first
        state = dv.step(state, dv.random_actions(state, 0), donate=True)
    choices = state.config.thread_choices
    assert "check" not in choices
    step = choices["step"]
    assert sum(step._seen.values()) >= 10  # each call measured once (the two first are not)


@pytest.mark.usefixtures("two_threads")
def test_a_call_left_by_an_illegal_action_is_not_measured() -> None:
    import diceboard.vector as dv
    from diceboard.core.errors import IllegalMoveError

    state = dv.init("custodian", seed=1, batch=512)
    for _ in range(4):
        state = dv.step(state, dv.random_actions(state, 0), donate=True)
    step = state.config.thread_choices["step"]
    seen, calls = dict(step._seen), step._calls
    with pytest.raises(IllegalMoveError):
        dv.step(state, np.full(512, 10**6, dtype=np.int64), donate=True)
    assert step._seen == seen  # picked (counted as a call) but not recorded
    assert step._calls == calls + 1
