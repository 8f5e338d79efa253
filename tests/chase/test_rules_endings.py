"""The end of the game: elimination, repetition, the no-capture limit, immobilization."""

from __future__ import annotations

import pytest

import diceboard
from diceboard import GameOverError

from .helpers import pos, state

#: Blue is caged: every path of every Blue die is blocked within its first v - 1 hexes, the
#: 6s on a4 and a5 touch only each other (6 + 6 has no transfer) and the rest touch no Blue
#: die. For instance d1 (4): E d2 d3 [d4], NE e1 [f2], NW e9 f9 [g8], W d9 d8 [d7],
#: SW c9 b9 [a8], SE [c1]; a4 (6): E [a5], W a3 a2 a1 a9 [a8], NE b5 c5 d6 [e6], NW b4 [c3].
CAGE_BLUE = "a4:6 a5:6 d1:4 c3:5 d7:4"
CAGE_RED = "a8:4 c1:4 c7:4 d4:4 e6:3 f2:3 g8:3"


def test_a_side_with_four_dice_loses() -> None:
    st = state("c3:2 a1:6 a3:6 a5:6 a7:5", "c5:5 i1:5 i3:5 i5:5 i7:5")
    after = st.play("c3xc5E")
    outcome = after.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason, outcome.result) == (
        "B",
        "elimination",
        "1-0",
    )
    assert after.legal_moves() == [] and after.legal_action_ids() == []
    with pytest.raises(GameOverError):
        after.play("i1-h1SW")


def test_a_parsed_position_can_be_over() -> None:
    # Red to move with four dice (20 pips, short of 25) has already lost
    st = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:5 i3:5 i5:5 i7:5", to="R")
    assert st.outcome() == diceboard.Outcome("B", "elimination", "1-0")


def test_the_third_occurrence_is_a_draw(chase) -> None:  # type: ignore[no-untyped-def]
    st = chase.start()
    cycle = ["a1=2,a2=1", "i1=2,i2=1", "a1=1,a2=2", "i1=1,i2=2"]
    for turn in cycle * 2:
        assert st.outcome() is None
        st = st.play(turn)
    # the start position occurs for the third time
    assert str(st) == str(chase.start()).replace(" B 0 0", " B 8 8")
    assert st.outcome() == diceboard.Outcome(None, "repetition", "1/2-1/2")


def test_repetition_counts_restart_when_the_number_of_dice_changes() -> None:
    # Blue's die divides in the chamber: the position after it is the first occurrence
    st = state("e3:2 a1:6 a3:6 a5:6 a6:5", "i1:5 i2:5 i5:5 i7:5 i9:5")
    st = st.play("e3-e5E")
    assert len(st.kernel_history()) == 1
    cycle = ["i1=4,i2=6", "a5=5,a6=6", "i1=5,i2=5", "a5=6,a6=5"]
    for i, turn in enumerate(cycle * 2):
        assert st.outcome() is None, i
        st = st.play(turn)
    assert len(st.kernel_history()) == 9
    assert st.outcome() == diceboard.Outcome(None, "repetition", "1/2-1/2")


def test_the_no_capture_limit() -> None:
    game = diceboard.game("chase", no_capture_limit=3)
    st = game.start()
    for turn in ["a1=2,a2=1", "i1=2,i2=1"]:
        st = st.play(turn)
    assert st.outcome() is None
    st = st.play("a4=6,a5=3")
    assert st.outcome() == diceboard.Outcome(None, "no-capture-limit", "1/2-1/2")
    # a parsed position at the limit is over; 0 turns the limit off
    assert game.parse(
        pos("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:5 i3:5 i5:5 i7:5 i9:5", clock=3)
    ).is_terminal()
    off = diceboard.game("chase", no_capture_limit=0)
    assert not off.parse(
        pos("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:5 i3:5 i5:5 i7:5 i9:5", clock=900)
    ).is_terminal()


def test_a_player_without_a_legal_turn_loses() -> None:
    st = state(CAGE_BLUE, CAGE_RED)
    assert st.outcome() == diceboard.Outcome("R", "immobilized", "0-1")
    # the same cage completed by Red's turn
    red = CAGE_RED.replace("g8:3", "g8:2") + " i5:1"
    st = state(CAGE_BLUE, red, to="R")
    assert st.outcome() is None
    after = st.play("i5-h5SW")
    assert after.outcome() == diceboard.Outcome("R", "immobilized", "0-1")


def test_the_no_capture_limit_comes_before_immobilization() -> None:
    red = CAGE_RED.replace("g8:3", "g8:2") + " i5:1"
    after = state(CAGE_BLUE, red, to="R", clock=99, ply=300).play("i5-h5SW")
    assert after.outcome() == diceboard.Outcome(None, "no-capture-limit", "1/2-1/2")
