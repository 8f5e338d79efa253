"""The batched simulator against the Python API, its options and its errors."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceboard
import diceboard.vector as dv
from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.core.game import Game
from diceboard.encoding import action_mask, observe

from .conftest import Mirror

CUSTODIAN_GAMES = [
    {},
    {"variant": "chaos"},
    {"variant": "no-jumping", "placement": "rolled"},
    {"variant": "chaos-no-jumping", "path": "self-avoiding", "capture": "single"},
    {"no_capture_limit": 12},
]


def _run_against_api(game: Game, seed: int, batch: int, steps: int, **kw: Any) -> Mirror:
    state = dv.init(game, seed=seed, batch=batch, **kw)
    mirror = Mirror(state)
    mirror.check(state)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = dv.random_actions(state, rng)
        state = dv.step(state, actions)
        ended = mirror.step(state, actions)
        mirror.check(state)
        for i, (done, final) in enumerate(ended):
            if mirror.finished[i] and not done:
                continue
            assert bool(state.terminated[i] or state.truncated[i]) == done or mirror.finished[i]
            outcome = final.outcome()
            if state.terminated[i]:
                assert outcome is not None
                expected = {"1-0": [1, -1], "0-1": [-1, 1], "1/2-1/2": [0, 0]}[outcome.result]
                assert state.rewards[i].tolist() == expected
            elif not mirror.finished[i] or done:
                assert state.rewards[i].tolist() == [0.0, 0.0]
    return mirror


@pytest.mark.parametrize("options", CUSTODIAN_GAMES, ids=str)
def test_custodian_batch_agrees_with_the_python_api(options: dict[str, Any]) -> None:
    game = diceboard.game("custodian", **options)
    _run_against_api(game, seed=11, batch=12, steps=160)


def test_chase_batch_agrees_with_the_python_api() -> None:
    _run_against_api(diceboard.game("chase", no_capture_limit=30), seed=5, batch=8, steps=150)


def test_games_end_and_restart_with_auto_reset() -> None:
    state = dv.init("custodian", seed=2, batch=64)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(300):
        state = dv.step(state, dv.random_actions(state, rng), donate=True)
        ended += int(state.terminated.sum())
        # after an auto-reset every game is ongoing again
        assert (state.current_player >= 0).all()
        assert (state.num_legal > 0).all()
    assert ended > 0
    # rewards are zero-sum and only given where a game ended
    assert (state.rewards.sum(axis=1) == 0).all()


def test_without_auto_reset_finished_games_stay_finished() -> None:
    game = diceboard.game("custodian", no_capture_limit=6)
    mirror = _run_against_api(game, seed=4, batch=10, steps=40, auto_reset=False)
    assert all(mirror.finished)


def test_max_steps_truncates() -> None:
    state = dv.init("custodian", seed=1, batch=5, max_steps=3, auto_reset=False)
    rng = np.random.default_rng(0)
    for _ in range(3):
        assert not state.truncated.any()
        state = dv.step(state, dv.random_actions(state, rng))
    assert state.truncated.all() and not state.terminated.any()
    assert (state.current_player == -1).all() and (state.num_legal == 0).all()
    state = dv.step(state, np.zeros(5, dtype=np.int64))  # finished games accept anything
    assert state.truncated.all() and (state.steps == 3).all()
    fresh = dv.reset(state, np.array([True, False, True, False, False]))
    assert fresh.truncated.tolist() == [False, True, False, True, True]
    assert fresh.steps.tolist() == [0, 3, 0, 3, 3]


def test_max_steps_with_auto_reset_matches_the_api() -> None:
    _run_against_api(diceboard.game("custodian"), seed=8, batch=6, steps=40, max_steps=15)


def test_step_is_functional_and_donate_gives_the_same_result() -> None:
    a = dv.init("custodian", seed=9, batch=32)
    b = dv.init("custodian", seed=9, batch=32)
    rng = np.random.default_rng(1)
    for _ in range(50):
        actions = dv.random_actions(a, rng)
        before = a.states.copy()
        a2 = dv.step(a, actions)
        np.testing.assert_array_equal(a.states, before)  # the input is untouched
        b = dv.step(b, actions, donate=True)
        a = a2
        np.testing.assert_array_equal(a.states, b.states)
        np.testing.assert_array_equal(a.rewards, b.rewards)


def test_streams_do_not_depend_on_batch_size() -> None:
    small = dv.init("custodian", seed=3, batch=4)
    large = dv.init("custodian", seed=3, batch=40)
    np.testing.assert_array_equal(small.states, large.states[:4])
    other = dv.init("custodian", seed=4, batch=4)
    assert not np.array_equal(small.states, other.states)


def test_observation_and_mask_equal_the_encoding_of_each_game() -> None:
    state = dv.init(diceboard.game("custodian", variant="chaos"), seed=6, batch=16)
    rng = np.random.default_rng(6)
    for _ in range(30):
        state = dv.step(state, dv.random_actions(state, rng))
    obs = state.observation
    mask = state.legal_action_mask
    assert obs.dtype == np.float32 and mask.dtype == np.bool_
    for i in range(len(state)):
        py = state.to_state(i)
        np.testing.assert_array_equal(obs[i], observe(py))
        np.testing.assert_array_equal(mask[i], action_mask(py).astype(bool))
        np.testing.assert_array_equal(state.observe(1)[i], observe(py, 1))


def test_random_actions_are_legal_and_reproducible() -> None:
    state = dv.init("custodian", seed=0, batch=50)
    a1 = dv.random_actions(state, 5)
    a2 = dv.random_actions(state, np.random.default_rng(5))
    np.testing.assert_array_equal(a1, a2)
    for i, a in enumerate(a1):
        assert int(a) in state.legal_actions(i)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = dv.init("custodian", seed=0, batch=3)
    actions = dv.random_actions(state, 0)
    snapshot = state.states.copy()
    bad = actions.copy()
    bad[1] = 0  # a step from a1 to a1 is never legal in setup
    with pytest.raises(
        IllegalMoveError, match=r"game 1 of the batch: action 0 \(a1-a1=1\) is not legal"
    ):
        dv.step(state, bad)
    np.testing.assert_array_equal(state.states, snapshot)
    bad[1] = 10**6
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        dv.step(state, bad)
    with pytest.raises(IllegalMoveError, match=r"shape \(3,\)"):
        dv.step(state, actions[:2])
    with pytest.raises(IllegalMoveError, match="integer array"):
        dv.step(state, actions.astype(float))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "go"}, "unknown game"),
        ({"game": "custodian", "batch": 0}, "batch must be at least 1"),
        ({"game": "custodian", "batch": 2.5}, "batch must be a whole number"),
        ({"game": "custodian", "seed": -1}, "seed must be 0 or more"),
        ({"game": "custodian", "max_steps": 0}, "max_steps must be at least 1"),
        ({"game": 3}, "game must be a diceboard Game"),
    ],
)
def test_bad_arguments_raise_option_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        dv.init(**kwargs)


def test_start_position_and_its_errors() -> None:
    game = diceboard.game("custodian")
    start = game.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    state = dv.init(game, seed=0, batch=3, start=start)
    assert (state.num_legal == 84).all()
    with pytest.raises(OptionError, match="start must be a state of"):
        dv.init("custodian", start=diceboard.game("custodian", variant="chaos").parse(str(start)))
    over = game.parse("B5B2B6B2B6/...../...../...../W3.... W 0 10")
    with pytest.raises(OptionError, match="already over"):
        dv.init(game, start=over)
    with pytest.raises(OptionError, match="which must be a boolean array"):
        dv.reset(state, np.array([1, 0, 1]))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["standard", "chaos", "no-jumping"]))
def test_property_random_batches_agree_with_the_api(seed: int, variant: str) -> None:
    _run_against_api(diceboard.game("custodian", variant=variant), seed=seed, batch=3, steps=40)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("game", "batch", "threads", "steps"),
    # (3 threads: the batch in chunks, which plain-Python loops run one after the other)
    [("custodian", 3, 1, 25), ("chase", 3, 1, 25), ("custodian", 300, 3, 4)],
)
def test_the_uncompiled_simulator_agrees_with_the_compiled_one(
    game: str, batch: int, threads: int, steps: int
) -> None:
    code = (
        "import numpy as np, diceboard.vector as dv\n"
        "from diceboard.vector.threads import forced_threads\n"
        f"with forced_threads({threads}):\n"
        f"    s = dv.init({game!r}, seed=7, batch={batch})\n"
        "    rng = np.random.default_rng(7)\n"
        f"    for k in range({steps}):\n"
        "        s = dv.step(s, dv.random_actions(s, rng), donate=k % 2 == 1)\n"
        "    print(s.states.sum(), s.history_len.tolist(), float(s.observation.sum()))\n"
        "    print(s.legal_action_mask.sum(), s.rewards.tolist(), s.rng.tolist())\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    compiled = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert plain.stdout == compiled.stdout


def test_the_core_and_the_simulator_import_no_optional_library() -> None:
    code = (
        "import sys, diceboard, diceboard.envs, diceboard.vector\n"
        "print([m for m in ('pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_simulator_does_not_import_the_environments() -> None:
    code = "import sys, diceboard.vector\nprint('diceboard.envs' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_games_are_the_registered_ones_with_an_encoding() -> None:
    assert dv.games() == diceboard.games.names()


def test_the_compiled_loops_load_from_numbas_cache_in_a_new_process() -> None:
    code = (
        "import diceboard.vector as dv\n"
        "s = dv.init('custodian', seed=1, batch=2)\n"
        "s = dv.step(s, dv.random_actions(s, 1))\n"
        "s.observation\n"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    again = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    lines = [line for line in again.stdout.splitlines() if "kernels.custodian." in line]
    for loop in ("reset_range", "step_range", "observe_range"):
        assert any(f"custodian.{loop}" in line and "data loaded" in line for line in lines), loop
    assert not [line for line in lines if "data saved" in line]


@pytest.mark.parametrize("game", ["custodian", "chase"])
def test_the_threads_do_not_change_the_games(game: str) -> None:
    # one thread and four chunks on the pool step every row the same way
    from diceboard.vector.threads import forced_threads

    runs = []
    for threads in (1, 4):
        with forced_threads(threads):
            s = dv.init(game, seed=5, batch=600)
            rng = np.random.default_rng(2)
            for _ in range(30):
                s = dv.step(s, dv.random_actions(s, rng), donate=threads == 4)
            runs.append((s.states.copy(), s.legal_action_mask.copy(), s.observation.copy()))
    for a, b in zip(runs[0], runs[1], strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("bad", [0, -1, 257, 1.5, True, "2"])
def test_set_threads_refuses_what_is_not_a_thread_count(bad: object) -> None:
    with pytest.raises(ValueError, match="threads must be"):
        dv.set_threads(bad)  # type: ignore[arg-type]


def test_set_threads_caps_the_threads() -> None:
    from diceboard.vector.threads import threads_for

    try:
        dv.set_threads(1)
        assert dv.get_threads() == 1 and threads_for(4096) == 1
        dv.set_threads(3)
        assert threads_for(4096) == 3 and threads_for(300) == 2
    finally:
        dv.set_threads(None)


@pytest.mark.parametrize("game", ["custodian", "chase"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("donate", [False, True])
@pytest.mark.parametrize("auto_reset", [True, False])
def test_random_step_plays_what_step_with_random_actions_plays(
    game: str, threads: int, donate: bool, auto_reset: bool
) -> None:
    from diceboard.vector.threads import forced_threads

    with forced_threads(threads):
        a = dv.init(game, seed=11, batch=300, auto_reset=auto_reset, max_steps=60)
        b = dv.init(game, seed=11, batch=300, auto_reset=auto_reset, max_steps=60)
        rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
        for _ in range(70):
            before = [a.legal_actions(i) for i in (0, 150, 299)]
            over = a.terminated | a.truncated
            actions = dv.random_actions(a, rng_a)
            a = dv.step(a, actions, donate=donate)
            b, played = dv.random_step(b, rng_b, donate=donate)
            assert np.array_equal(played, actions)
            for legal, i in zip(before, (0, 150, 299), strict=True):
                assert int(played[i]) in legal or (over[i] and not auto_reset and played[i] == 0)
            # (the rows' unused tails are whatever the reused arrays held)
            for name in ("states", "history_len", "num_legal", "current_player", "rewards"):
                assert np.array_equal(getattr(a, name), getattr(b, name)), name
            for name in ("terminated", "truncated", "steps", "rng", "num_chance_outcomes"):
                assert np.array_equal(getattr(a, name), getattr(b, name)), name
            assert np.array_equal(a.legal_action_mask, b.legal_action_mask)
