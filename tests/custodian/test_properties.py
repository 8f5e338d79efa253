"""Property tests: notation round trips, legality, random games, compiled = plain Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceboard
from diceboard import DiceboardError

from .oracle import legal_moves as oracle_moves
from .random_game import positions

OPTION_SETS = [
    {},
    {"variant": "no-jumping"},
    {"variant": "chaos"},
    {"variant": "chaos-no-jumping", "placement": "rolled"},
    {"path": "self-avoiding", "capture": "single"},
    {"placement": "rolled", "no_capture_limit": "30"},
]

SQUARES = [f + r for f in "abcde" for r in "12345"]
move_text = st.one_of(
    st.builds(
        lambda a, b, f: f"{a}-{b}={f}",
        st.sampled_from(SQUARES),
        st.sampled_from(SQUARES),
        st.integers(1, 6),
    ),
    st.builds(lambda a, b: f"{a}-{b}", st.sampled_from(SQUARES), st.sampled_from(SQUARES)),
    st.builds(lambda a, b: f"{a}^{b}", st.sampled_from(SQUARES), st.sampled_from(SQUARES)),
    st.builds(lambda f, a: f"{f}@{a}", st.integers(1, 6), st.sampled_from(SQUARES)),
    st.sampled_from(["pass", "=3", "", "b1", "a1-a2=7", "f1-a1=2", "W3", "a1--a2=2"]),
)


def random_states(seed: int, options: dict[str, str], limit: int = 400) -> list[diceboard.State]:
    rng = random.Random(seed)
    state = diceboard.game("custodian", **options).initial_state()
    states = [state]
    while not state.is_terminal() and len(states) < limit:
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
        states.append(state)
    return states


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_positions_and_moves_round_trip(options: dict[str, str], seed: int) -> None:
    game = diceboard.game("custodian", **options)
    for state in random_states(seed, options, limit=120):
        text = str(state)
        assert str(game.parse(text)) == text
        for move in state.legal_moves():
            assert state.parse_move(str(move)) == move
            assert game.action_notation(move.action) == str(move)
        for move, _ in state.chance_outcomes():
            assert state.parse_move(str(move)) == move


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_legal_moves_agree_with_the_naive_reading_of_the_rules(
    options: dict[str, str], seed: int
) -> None:
    game = diceboard.game("custodian", **options)
    o = game.options
    for state in random_states(seed, options, limit=150):
        if state.is_terminal() or state.is_chance() or len(str(state).split()) == 5:
            continue  # the oracle reads play-phase decisions only
        expected = oracle_moves(
            str(state),
            jumping=o["jumping"] == "on",
            roll=o["faces"] == "roll",
            self_avoiding=o["path"] == "self-avoiding",
        )
        assert {str(m) for m in state.legal_moves()} == expected, str(state)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), text=move_text, chaos=st.booleans())
def test_play_accepts_exactly_the_legal_moves(seed: int, text: str, chaos: bool) -> None:
    options = {"variant": "chaos"} if chaos else {}
    states = [s for s in random_states(seed, options, limit=40) if not s.is_terminal()]
    state = states[-1]
    legal = {str(m) for m in state.legal_moves()} | {str(m) for m, _ in state.chance_outcomes()}
    joined = chaos and "=" in text and text.rsplit("=", 1)[0] in legal and "@" not in text
    try:
        after = state.play(text)
    except DiceboardError as error:
        assert text not in legal and not joined, f"{text} refused: {error}"
        assert str(error)
    else:
        assert text in legal or joined, f"{text} accepted in {state}"
        assert after != state


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_games_end_with_a_valid_outcome(options: dict[str, str], seed: int) -> None:
    states = random_states(seed, options, limit=5000)
    final = states[-1]
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.reason in {"elimination", "blocked", "repetition", "no-capture-limit"}
    assert outcome.result == {"W": "1-0", "B": "0-1", None: "1/2-1/2"}[outcome.winner]
    assert (outcome.winner is None) == (outcome.reason != "elimination")
    assert final.legal_moves() == [] and final.legal_action_ids() == []


def test_states_are_immutable_and_hashable() -> None:
    game = diceboard.game("custodian")
    state = game.start(seed=3)
    before = str(state)
    move = state.legal_moves()[0]
    child = state.play(move)
    assert str(state) == before and child != state
    assert hash(state.play(move)) == hash(child) and state.play(move) == child
    assert len({state, child, state.play(move)}) == 2
    copy = state.kernel_state()
    copy[:] = 0  # a copy: the state is untouched
    assert str(state) == before
    with pytest.raises(ValueError, match="read-only"):
        state._arr[0] = 1


@pytest.mark.nojit
@pytest.mark.parametrize("options", [{}, {"variant": "chaos", "path": "self-avoiding"}], ids=str)
def test_compiled_and_plain_python_kernels_agree(options: dict[str, str]) -> None:
    script = Path(__file__).with_name("random_game.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(Path(__file__).parents[2]))
    for seed in (1, 2):
        args = [sys.executable, str(script), str(seed), *(f"{k}={v}" for k, v in options.items())]
        plain = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
        assert plain.stdout.splitlines() == positions(seed, **options)
