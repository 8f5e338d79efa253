"""The game API's contract, checked for every registered game and variant (in the manner of
OpenSpiel's tests over all registered games). A new game gets all of it by being registered."""

from __future__ import annotations

import json
import math
import random

import pytest

import diceboard
from diceboard.core.move import MoveKind
from tests.conformance.conftest import random_states, sample_states


def test_the_registry_describes_the_game(game: diceboard.Game) -> None:
    info = diceboard.games.info(game.name)
    assert (game.name, game.title) == (info.name, info.title)
    assert tuple(game.players) == info.players
    assert tuple(game.player_names) == info.player_names
    assert game.variant in info.variant_names
    assert set(game.options) == {opt.name for opt in info.options}
    for opt in info.options:
        if opt.kind == "choice":
            assert opt.default == opt.choices[0]
    # plain data: the info goes through JSON and back unchanged
    assert json.loads(json.dumps(info.to_json()))["name"] == info.name
    for part in info.modules:
        assert diceboard.games.component(game.name, part) is not None


def test_every_option_choice_makes_a_game(case: tuple[str, str]) -> None:
    name, variant = case
    info = diceboard.games.info(name)
    for opt in info.options:
        values = opt.choices if opt.kind == "choice" else (opt.minimum, opt.default)
        for value in values:
            made = diceboard.game(name, variant=variant, **{opt.name: value})
            assert made.options[opt.name] == value
            assert diceboard.game(name, **made.non_default_options()) == made
        if opt.kind == "int" and opt.maximum is not None:
            with pytest.raises(diceboard.OptionError):
                diceboard.game(name, **{opt.name: opt.maximum + 1})


def test_position_strings_round_trip(game: diceboard.Game) -> None:
    for state in sample_states(game):
        again = game.parse(str(state))
        assert str(again) == str(state)
        assert again.to_move == state.to_move
        assert again.is_chance() == state.is_chance()


def test_moves_round_trip_through_notation_and_action_ids(game: diceboard.Game) -> None:
    for state in sample_states(game):
        if state.is_terminal():
            continue
        if state.is_chance():
            moves = [m for m, _ in state.chance_outcomes()]
        else:
            moves = state.legal_moves()
            assert moves == sorted(moves)
            assert len({m.notation for m in moves}) == len(moves)
        for move in moves:
            assert state.parse_move(move.notation) == move
            for action in move.actions:
                assert 0 <= action < game.num_actions
            if len(move.actions) == 1:
                assert game.action_notation(move.action, state) == move.notation
                assert str(state.play(move.action)) == str(state.play(move))


def test_moves_carry_their_structure(game: diceboard.Game) -> None:
    squares = set(game.squares)
    for state in sample_states(game):
        if state.is_terminal():
            continue
        moves = (
            [m for m, _ in state.chance_outcomes()] if state.is_chance() else state.legal_moves()
        )
        board = state.board()
        for move in moves:
            assert isinstance(move.kind, MoveKind)
            assert set(move.squares) <= squares, move
            if move.kind in (MoveKind.STEP, MoveKind.JUMP, MoveKind.MOVE):
                assert board[move.from_square][0] == state.to_move, move
                assert move.to_square is not None
                segments = state.move_segments(move)
                assert segments[0][0] == move.from_square
            if move.kind is MoveKind.PLACEMENT:
                assert move.to_square not in board and move.face is not None
            if move.kind is MoveKind.ROLL:
                assert move.face in range(1, 7)
            if move.kind is MoveKind.TRANSFER:
                assert len(move.exchange) == 2
                assert {board[sq][0] for sq, _ in move.exchange} == {state.to_move}


def test_chance_outcomes_sum_to_one(game: diceboard.Game) -> None:
    seen = 0
    for state in sample_states(game):
        outcomes = state.chance_outcomes()
        if state.is_chance():
            seen += 1
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert state.pending_roll() is not None
            assert [m.action for m, _ in outcomes] == state.legal_action_ids()
        else:
            assert outcomes == [] and state.pending_roll() is None
    info = diceboard.games.info(game.name)
    assert (seen > 0) == info.has_chance or game.initial_state().is_chance() == info.has_chance


def test_states_are_values(game: diceboard.Game) -> None:
    states = random_states(game, seed=4, plies=30)
    for state in states:
        again = game.parse(str(state))
        assert hash(state) == hash(state)
        assert state == state and again == game.parse(str(state))
    before = str(states[0])
    states[0].legal_action_ids()
    assert str(states[0]) == before


def test_dice_counts_agree_with_the_board(game: diceboard.Game) -> None:
    # a game may count its dice without naming squares; the count must still be the board's
    for state in random_states(game, seed=6, plies=200):
        counted = dict.fromkeys(game.players, 0)
        for owner, _ in state.board().values():
            counted[owner] += 1
        assert state.dice_counts() == counted, str(state)


def test_random_games_end_with_an_outcome(game: diceboard.Game) -> None:
    limited = diceboard.game(game.name, variant=game.variant, no_capture_limit=30)
    for seed in range(4):
        states = random_states(limited, seed, plies=5_000)
        final = states[-1]
        assert final.is_terminal(), f"seed {seed}: no end after {len(states)} states"
        outcome = final.outcome()
        assert outcome is not None
        assert outcome.winner in (None, *limited.players)
        assert final.legal_moves() == []
        with pytest.raises(diceboard.GameOverError):
            final.play(0)


def test_illegal_input_gets_the_libraries_errors(game: diceboard.Game) -> None:
    state = game.start(seed=1)
    for text in ("", "zz", "a1-", "=9", "{}", "a1=2,", "9" * 40):
        with pytest.raises(ValueError):
            state.play(text)
    with pytest.raises(diceboard.IllegalMoveError):
        state.play(game.num_actions)
    for text in ("", "x", str(state) + " extra junk", "/" * 40):
        with pytest.raises(diceboard.PositionError):
            game.parse(text)


def test_play_never_changes_the_state_it_is_played_from(game: diceboard.Game) -> None:
    rng = random.Random(3)
    state = game.start(seed=3)
    text = str(state)
    ids = state.legal_action_ids()
    for a in rng.sample(ids, min(5, len(ids))):
        state.play(a)
    assert str(state) == text
