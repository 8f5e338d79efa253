"""The fast paths of the game API keep its guarantees: states stay immutable (their arrays
refuse writes, however the state was made), a play by action id gets the same Move that
``legal_moves`` lists, and an illegal action leaves the state as it was."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import diceboard
from diceboard.core.errors import IllegalMoveError
from diceboard.core.game import State
from diceboard.core.move import Move
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
    # once the state keeps its list (code inside asked for it), it hands out copies of it
    kept = list(state._legal_moves())
    handed = state.legal_moves()
    assert handed == kept and handed is not state._legal_moves()
    handed.clear()
    assert state.legal_moves() == kept


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


def test_a_state_made_from_its_arrays_is_the_same_state(game: diceboard.Game) -> None:
    for state in random_states(game, seed=13, plies=60)[::3]:
        arr, hist = state.kernel_state(), state.kernel_history()
        rebuilt = game.state_class(game, arr, hist, None, None)
        assert rebuilt == state and hash(rebuilt) == hash(state)
        assert rebuilt.legal_action_ids() == state.legal_action_ids()
        assert rebuilt.legal_moves() == state.legal_moves()
        assert rebuilt.is_chance() == state.is_chance()
        assert rebuilt.is_terminal() == state.is_terminal()
        _assert_read_only(rebuilt)
        # the state keeps copies: the caller's arrays stay its own
        arr[:] = 0
        hist[:] = 0
        assert rebuilt == state and str(rebuilt) == str(state)


def test_states_differ_by_their_history_alone(game: diceboard.Game) -> None:
    state = random_states(game, seed=17, plies=30)[-1]
    hist = state.kernel_history()
    longer = game.state_class(game, state.kernel_state(), np.append(hist, hist[-1]), None, None)
    assert str(longer) == str(state)
    assert longer != state
    assert longer.legal_action_ids() == state.legal_action_ids()


def test_a_pickled_state_comes_back_equal_and_read_only(game: diceboard.Game) -> None:
    states = random_states(game, seed=19, plies=40)
    for state in states[::7] + states[-1:]:
        back = pickle.loads(pickle.dumps(state))
        assert back == state and str(back) == str(state)
        assert back.legal_moves() == state.legal_moves()
        assert back.move_stack() == state.move_stack()
        _assert_read_only(back)


def test_a_game_from_another_process_is_the_same_dict_key(game: diceboard.Game) -> None:
    """A game keeps its hash (worked out once); one pickled by a process with another string
    hash seed hashes as the game made here does, so it finds the same entries."""
    made_there = subprocess.run(
        [
            sys.executable,
            "-c",
            "import pickle, sys, diceboard; "
            f"sys.stdout.buffer.write(pickle.dumps(diceboard.game({game.name!r}, "
            f"**{game.non_default_options()!r})))",
        ],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout
    back = pickle.loads(made_there)
    assert back == game and hash(back) == hash(game)
    assert {game: "here"}[back] == "here"
    assert hash(pickle.loads(pickle.dumps(game))) == hash(game)


def test_a_move_of_several_actions_links_to_the_state_it_was_played_in(
    game: diceboard.Game,
) -> None:
    rng = random.Random(23)
    state = game.start(seed=23)
    seen = 0
    for _ in range(200):
        if state.is_terminal():
            break
        options = state.legal_moves() or [m for m, _ in state.chance_outcomes()]
        several = [m for m in options if len(m.actions) > 1]
        for move in several[:3]:
            child = state.play(move)
            assert child.parent is state and child.last_move is move
            step = state
            for a in move.actions:
                step = step.play(a)
            assert step == child
            seen += 1
        state = state.play(options[rng.randrange(len(options))])
    if not seen:
        pytest.skip("no move of several actions came up in this game")


def test_a_move_made_outside_the_game_is_checked_like_an_action_id(game: diceboard.Game) -> None:
    # play() calls the compiled step with no dispatcher to check the types: an action that
    # is no int of the kernel's range must be refused, never converted
    state = game.start(seed=29)
    legal = state.legal_action_ids()[0]
    for bad in (game.num_actions, 1 << 70, -1):
        with pytest.raises(IllegalMoveError):
            state.play(Move("x", (bad,)))
    with pytest.raises(TypeError, match="an action id is an int"):
        state.play(Move("x", (float(legal),)))
    assert state.play(Move("x", (np.int64(legal),))) == state.play(legal)


def test_a_pickled_game_plays_like_the_original(game: diceboard.Game) -> None:
    back = pickle.loads(pickle.dumps(game))
    assert back == game
    ours, theirs = game.start(seed=31), back.start(seed=31)
    for _ in range(20):
        if ours.is_terminal():
            break
        assert ours == theirs and hash(ours) == hash(theirs)
        a = ours.legal_action_ids()[-1]
        ours, theirs = ours.play(a), theirs.play(a)
    assert ours == theirs


def test_equal_states_hash_alike_and_unequal_ones_compare_unequal(game: diceboard.Game) -> None:
    states = random_states(game, seed=37, plies=60)
    again = random_states(game, seed=37, plies=60)
    for mine, theirs in zip(states, again, strict=True):
        assert mine == theirs and hash(mine) == hash(theirs) and mine is not theirs
    distinct = {(s.kernel_state().tobytes(), s.kernel_history().tobytes()) for s in states}
    assert len(set(states)) == len(distinct)
    assert states[0] != states[1] and states[0] != "not a state"
