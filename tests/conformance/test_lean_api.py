"""The fast paths of the game API keep its guarantees: states stay immutable (their arrays
refuse writes, however the state was made), a play by action id gets the same Move that
``legal_moves`` lists, and an illegal action leaves the state as it was."""

from __future__ import annotations

import random

import numpy as np
import pytest

import diceboard
from diceboard.core.errors import IllegalMoveError
from diceboard.core.game import State
from tests.conformance.conftest import random_states


def _assert_read_only(state: State) -> None:
    for array in (state._arr, state._hist):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 12345


def test_arrays_refuse_writes_however_the_state_was_made(game: diceboard.Game) -> None:
    rng = random.Random(5)
    state = game.start(seed=5)
    for _ in range(40):
        if state.is_terminal():
            break
        _assert_read_only(state)
        options = state.legal_moves() or [m for m, _ in state.chance_outcomes()]
        move = options[rng.randrange(len(options))]
        by_move, by_text = state.play(move), state.play(str(move))
        assert by_move == by_text
        _assert_read_only(by_move)
        _assert_read_only(by_text)
        if len(move.actions) == 1:
            by_id = state.play(move.actions[0])
            assert by_id == by_move
            _assert_read_only(by_id)
        state = by_move


def test_a_play_by_action_id_gets_the_listed_move(game: diceboard.Game) -> None:
    for state in random_states(game, seed=11, plies=50)[:-1]:
        listed = {m.actions: m for m in state.legal_moves()}
        listed.update({m.actions: m for m, _ in state.chance_outcomes()})
        for a in state.legal_action_ids()[:5]:
            child = state.play(a)
            assert child.parent is state
            if (a,) in listed:
                assert child.last_move == listed[(a,)]
                assert child.last_move is not None
                assert str(child.last_move) == str(listed[(a,)])
            assert child.move_stack()[-1] == child.last_move


def test_listed_moves_are_a_fresh_list_each_time(game: diceboard.Game) -> None:
    state = game.start(seed=2)
    first = state.legal_moves()
    first.clear()
    assert state.legal_moves() and state.legal_moves() is not state.legal_moves()


def test_an_illegal_action_changes_nothing(game: diceboard.Game) -> None:
    state = game.start(seed=3)
    before, arr = str(state), state.kernel_state()
    legal = set(state.legal_action_ids())
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    with pytest.raises(IllegalMoveError):
        state.play(illegal)
    with pytest.raises(IllegalMoveError):
        state.play(game.num_actions)
    with pytest.raises(IllegalMoveError):
        state.play(-1)
    assert str(state) == before and np.array_equal(state.kernel_state(), arr)
    assert state.play(min(legal)) == state.play(min(legal))
