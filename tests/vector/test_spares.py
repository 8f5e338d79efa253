"""A functional step reuses the arrays of a dropped state, and never an array anyone holds."""

from __future__ import annotations

import numpy as np
import pytest

import diceboard.vector as dv
from diceboard.vector.spares import Spares, recycling
from diceboard.vector.state import ARRAY_FIELDS

pytestmark = pytest.mark.skipif(not recycling(), reason="arrays are reused on CPython only")


class _Holder:
    """Holds an array in one attribute, as a dropped state holds each of its arrays."""

    __slots__ = ("array",)

    def __init__(self, size: int = 3) -> None:
        self.array = np.zeros(size)


def _advance(
    state: dv.VectorState, rng: np.random.Generator, *, donate: bool = False
) -> dv.VectorState:
    return dv.step(state, dv.random_actions(state, rng), donate=donate)


def test_a_functional_step_reuses_the_arrays_of_a_dropped_state() -> None:
    rng = np.random.default_rng(1)
    state = _advance(dv.init("custodian", seed=1, batch=32), rng)
    spares = state.config.spares
    while spares.take() is not None:  # the first state's, dropped by the line above
        pass
    addresses = [a.ctypes.data for a in state.arrays()]
    state = _advance(state, rng)  # the previous state is dropped here
    assert len(spares) == 1
    kept = spares.take()
    assert kept is not None
    assert [a.ctypes.data for a in kept] == addresses
    spares.keep(kept)  # the tuple and the local name hold them: not kept
    assert len(spares) == 0


def test_the_next_step_takes_the_kept_arrays() -> None:
    rng = np.random.default_rng(2)
    state = _advance(_advance(dv.init("chase", seed=2, batch=16), rng), rng)
    spares = state.config.spares
    assert len(spares) == 1
    state = _advance(state, rng)
    # one set taken by the step, one given back by the state it replaced
    assert len(spares) == 1


def test_functional_steps_on_several_threads_reuse_dropped_arrays_too() -> None:
    # the crew's threads let go of a call's arguments before the call returns (a follower
    # joins before it looks the call up, and the lead waits for every follower that joined),
    # and a set still held when its state is dropped is looked at again by the next step:
    # held for good, none would be reused
    from diceboard.vector.threads import forced_threads

    rng = np.random.default_rng(5)
    with forced_threads(2):
        state = _advance(_advance(dv.init("custodian", seed=5, batch=600), rng), rng)
        spares = state.config.spares
        taken = spares.taken
        for _ in range(30):
            state = _advance(state, rng)
    # Nearly every step: beside two busy processes, about one fresh process in 20 still
    # found, at two steps in a row among its first dozen, the dropped state's arrays held
    # by the follower's frame inside the compiled loop after the lead had returned; those
    # steps allocate. The cause is not found yet (the ordering race this guards against was
    # closed, and 150 runs in one process missed none).
    assert spares.taken - taken >= 27, spares.taken - taken


def test_a_loop_that_keeps_the_last_rewards_still_reuses_arrays() -> None:
    # the usual loop of a learner: the rewards of the state just replaced are still bound
    # when it is dropped, and rebound right after
    rng = np.random.default_rng(7)
    state = _advance(_advance(dv.init("chase", seed=7, batch=64), rng), rng)
    rewards = state.rewards
    spares = state.config.spares
    taken = spares.taken
    total = 0.0
    for _ in range(10):
        state = _advance(state, rng)
        total += float(rewards.sum())
        rewards = state.rewards
    assert spares.taken - taken == 10
    assert np.isfinite(total)


def test_a_set_held_when_its_state_is_dropped_is_taken_once_let_go() -> None:
    spares = Spares()
    holder = _Holder()
    address = holder.array.ctypes.data
    helper = [holder.array]  # held a moment longer, as a crew's thread may
    spares.keep((holder.array,))
    assert len(spares) == 0
    del holder, helper  # the state is gone; the helper lets go
    kept = spares.take()
    assert kept is not None and kept[0].ctypes.data == address
    assert spares.taken == 1


def test_a_set_still_held_when_a_step_takes_one_is_not_handed_out() -> None:
    spares = Spares()
    holder = _Holder()
    callers = holder.array  # the caller's own reference, never let go
    spares.keep((holder.array,))
    del holder
    assert spares.take() is None
    assert spares.take() is None  # and it is not kept for later either
    assert spares.taken == 0
    callers[0] = 1.0


def test_an_array_the_caller_keeps_is_never_reused() -> None:
    rng = np.random.default_rng(3)
    state = _advance(dv.init("custodian", seed=3, batch=32), rng)
    held = state.states
    view = state.history[1:3]
    snapshot, view_snapshot = held.copy(), view.copy()
    for _ in range(12):
        state = _advance(state, rng)
    assert np.array_equal(held, snapshot)
    assert np.array_equal(view, view_snapshot)


def test_a_kept_old_state_is_never_overwritten() -> None:
    rng = np.random.default_rng(4)
    state = dv.init("custodian", seed=4, batch=32)
    kept = []
    for _ in range(10):
        kept.append((state, [a.copy() for a in state.arrays()]))
        state = _advance(state, rng)
    for old, arrays in kept:
        for name, before, now in zip(ARRAY_FIELDS, arrays, old.arrays(), strict=True):
            assert np.array_equal(before, now), name


def test_donated_steps_keep_nothing() -> None:
    rng = np.random.default_rng(5)
    state = dv.init("chase", seed=5, batch=16)
    for _ in range(5):
        state = _advance(state, rng, donate=True)
    assert len(state.config.spares) == 0


@pytest.mark.parametrize("game", ["custodian", "chase"])
def test_functional_steps_on_reused_arrays_equal_donated_steps(game: str) -> None:
    functional = dv.init(game, seed=6, batch=24)
    donated = dv.init(game, seed=6, batch=24)
    rng = np.random.default_rng(6)
    for _ in range(150):
        actions = dv.random_actions(functional, rng)
        functional = dv.step(functional, actions)
        donated = dv.step(donated, actions, donate=True)
        for name, a, b in zip(ARRAY_FIELDS, functional.arrays(), donated.arrays(), strict=True):
            if name == "history":  # rows hold stale hashes past history_len
                for i in range(len(functional)):
                    n = functional.history_len[i]
                    assert np.array_equal(a[i, :n], b[i, :n])
            elif name == "chance_outcomes":
                for i in range(len(functional)):
                    n = min(functional.num_chance_outcomes[i], a.shape[1])
                    assert np.array_equal(a[i, :n], b[i, :n])
            elif name == "legal_ids":
                for i in range(len(functional)):
                    n = functional.num_legal[i]
                    assert np.array_equal(a[i, :n], b[i, :n])
            else:
                assert np.array_equal(a, b), name
        del a, b  # else the previous state's last array is still held, and never kept
    assert len(functional.config.spares) == 1


def test_spares_hold_at_most_their_limit() -> None:
    spares = Spares(limit=1)

    first, second = _Holder(), _Holder()
    spares.keep((first.array,))
    spares.keep((second.array,))
    assert len(spares) == 1


def test_a_state_held_until_the_interpreter_exits_prints_nothing() -> None:
    """A script that keeps a stepped state in a global ends without "Exception ignored in
    VectorState.__del__": at exit the state's module may already have lost its globals."""
    import subprocess
    import sys

    script = (
        "import numpy as np\n"
        "import diceboard.vector as dv\n"
        "state = dv.init('custodian', seed=1, batch=64)\n"
        "for _ in range(3):\n"
        "    state = dv.step(state, dv.random_actions(state, np.random.default_rng(0)))\n"
        # with a function of the script's own compiled by numba (a user's reward, say) the
        # state outlived the modules' globals at exit (found by such a script)
        "import numba\n"
        "@numba.njit\n"
        "def reward(x):\n"
        "    return x + 1\n"
        "reward(1)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert "Exception ignored" not in done.stderr, done.stderr
