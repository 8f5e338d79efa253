"""The game API of Chase: identity, states, action ids, moves, drawing segments."""

from __future__ import annotations

import pytest

import diceboard
from diceboard import IllegalMoveError
from diceboard.games.chase import ChaseGame, ChaseState
from diceboard.games.chase.kernel.geometry import HEX_NAMES
from diceboard.games.chase.kernel.layout import ABSORB, MOVE, TRANSFER

from .helpers import state


def test_identity(chase) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(chase, ChaseGame) and chase.name == "chase" and chase.title == "Chase"
    assert chase.players == ("B", "R") and chase.player_names == ("Blue", "Red")
    assert len(chase.squares) == 81 and chase.squares[:2] == ("a1", "a2")
    assert chase.squares[9] == "b1" and chase.squares[40] == "e5" == chase.chamber
    assert list(chase.squares) == sorted(chase.squares)  # board order is name order
    assert chase.num_actions == 2025 == ABSORB + 81
    assert repr(chase) == "diceboard.game('chase')"
    assert repr(diceboard.game("chase", no_capture_limit=0)) == (
        "diceboard.game('chase', no_capture_limit=0)"
    )


def test_start_state(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    assert isinstance(start, ChaseState) and start == chase.initial_state()
    assert start == chase.start(seed=5)  # no chance events: every seed gives the start
    assert start.to_move == "B" and not start.is_chance() and start.outcome() is None
    moves = start.legal_moves()
    assert len(moves) == 46 and [m.notation for m in moves] == sorted(m.notation for m in moves)
    # one kernel decision per turn, in the same order
    assert [m.actions for m in moves] == [(a,) for a in start.legal_action_ids()]
    assert start.legal_moves()[0] is moves[0]  # moves are shared objects


def test_action_ids_and_their_notation(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    a4 = HEX_NAMES.index("a4")
    ne = MOVE + a4 * 6 + 1
    assert chase.action_notation(ne) == "a4NE"
    assert chase.action_notation(ne, start) == "a4-e6NE"
    assert start.play(ne) == start.play("a4-e6NE")
    pair = TRANSFER + (a4 * 3 + 0) * 6  # a4 and its E neighbour a5; a4 takes face 1
    assert chase.action_notation(pair) == "a4=1,a5=?"
    assert chase.action_notation(pair + 2, start) == "a4=3,a5=6"
    a9_e = TRANSFER + (HEX_NAMES.index("a9") * 3 + 0) * 6 + 1  # a9 and a1 (the wrap)
    assert chase.action_notation(a9_e) == "a1=?,a9=2"
    assert chase.action_notation(ABSORB + 5) == "{a6}"
    assert chase.action_id(start.parse_move("a4-e6NE")) == ne
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        chase.action_notation(2025)
    # an action whose die is absent reads in its state-free form
    assert chase.action_notation(MOVE + HEX_NAMES.index("e4") * 6, start) == "e4E"
    with pytest.raises(IllegalMoveError, match=r"action 234 \(e4E\) is not legal"):
        start.play(234)
    with pytest.raises(IllegalMoveError, match=r"action 24 \(a5-a1E\) is not legal"):
        start.play(24)  # a5 E: the path is blocked (a6 holds a die)


def test_a_turn_that_absorbs_is_one_move_of_several_actions() -> None:
    st = state("c3:2 a1:6 a3:6 a5:6 a7:5", "c5:5 i1:1 i3:1 i5:6 i7:6 i9:6").play("c3xc5E")
    move = st.parse_move("{i3}i5-c2SW")
    assert len(move.actions) == 2 and move.actions[0] == ABSORB + HEX_NAMES.index("i3")
    with pytest.raises(ValueError, match="sequence of 2 actions"):
        _ = move.action
    after = st.play(move)
    assert after.parent is st and after.last_move == move
    assert st.move_segments(move) == [["i5", "h5", "g4", "f4", "e3", "d3", "c2"]]
    assert st.legal_moves()[0].notation.startswith("{i1}")


def test_states_are_immutable_and_hashable(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    child = start.play("a4=6,a5=3")
    assert start.play("a4=6,a5=3") == child and hash(start.play("a4=6,a5=3")) == hash(child)
    arr = start.kernel_state()
    arr[:] = 0
    assert str(start) == str(chase.start())
    assert child.move_stack() == [child.last_move] and child.root() is start
