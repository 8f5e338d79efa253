"""The Python API around the kernel: options, action ids, moves, history, errors."""

from __future__ import annotations

import pytest

import diceboard
from diceboard import IllegalMoveError, NotationError, OptionError

START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def test_variants_and_options_resolve() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="rolled")
    assert game.options == {
        "jumping": "on",
        "faces": "roll",
        "path": "no-reversal",
        "capture": "line",
        "placement": "rolled",
        "no_capture_limit": 100,
    }
    assert game.variant == "chaos"
    assert game.non_default_options() == {"variant": "chaos", "placement": "rolled"}
    # a single option overrides that part of the preset
    assert diceboard.game("custodian", variant="chaos", faces="turn").variant == "standard"
    assert diceboard.game("custodian", jumping="off", faces="roll").variant == "chaos-no-jumping"
    assert diceboard.game("custodian", variant="chaos") == diceboard.game("custodian", faces="roll")
    assert repr(game) == "diceboard.game('custodian', variant='chaos', placement='rolled')"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "speed"}, "unknown Custodian Dice variant 'speed'"),
        ({"path": "diagonal"}, "option path must be one of no-reversal, self-avoiding"),
        ({"colour": "red"}, "unknown Custodian Dice option 'colour'"),
        ({"no_capture_limit": "-3"}, "0 or more"),
        ({"no_capture_limit": "many"}, "whole number"),
    ],
)
def test_bad_options_raise_value_errors(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        diceboard.game("custodian", **kwargs)


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'go'"):
        diceboard.game("go")


def test_action_ids_are_stable_and_documented() -> None:
    game = diceboard.game("custodian")
    assert game.num_actions == 4632
    state = game.parse(START)
    move = state.parse_move("b1-b2=2")
    # step: from * 150 + to * 6 + face - 1 with squares file-major (b1 = 5, b2 = 6)
    assert game.action_id(move) == 5 * 150 + 6 * 6 + 1
    assert game.action_id("b1-b2=2", state) == 787
    assert game.action_notation(787) == "b1-b2=2"
    assert game.action_notation(4625) == "pass"
    assert [game.action_notation(a) for a in range(4626, 4632)] == [f"={k}" for k in range(1, 7)]
    assert state.play(787) == state.play("b1-b2=2") == state.play(move)
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        state.play(99999)
    with pytest.raises(IllegalMoveError, match="not legal"):
        state.play(4625)


def test_legal_moves_are_sorted_by_notation() -> None:
    for options in ({}, {"variant": "chaos"}):
        state = diceboard.game("custodian", **options).parse(START)
        notations = [str(m) for m in state.legal_moves()]
        assert notations == sorted(notations)
    placing = diceboard.game("custodian").parse("...../...../...../...../..... W 0 0 W12346,B22566")
    notations = [str(m) for m in placing.legal_moves()]
    assert notations == sorted(notations)


def test_move_history_links() -> None:
    game = diceboard.game("custodian")
    state = game.start(seed=5)
    assert len(state.move_stack()) == 10  # the ten setup rolls; White places next
    assert state.root() == game.initial_state()
    child = state.play(state.legal_moves()[3])
    assert child.parent is state and child.last_move == state.legal_moves()[3]
    assert list(child.path())[-1] is child


def test_notation_errors() -> None:
    state = diceboard.game("custodian").parse(START)
    with pytest.raises(NotationError, match="not Custodian Dice notation"):
        state.play("hello")
    with pytest.raises(TypeError):
        state.play(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sequence of 2 actions"):
        _ = diceboard.game("custodian", variant="chaos").parse(START).parse_move("b1-b2=3").action
