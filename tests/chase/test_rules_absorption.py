"""Capture and absorption: the defender raises its lowest dice before it acts; the choice is
part of its turn and is written as a prefix."""

from __future__ import annotations

import random

import pytest

import diceboard
from diceboard import IllegalMoveError, NotationError
from diceboard.games.chase.kernel.absorption import lowest_face, next_lowest
from diceboard.games.chase.kernel.geometry import HEX_NAMES, NHEX
from diceboard.games.chase.kernel.layout import ABSORB, BOARD
from diceboard.kernel import TO_MOVE

from .helpers import dice, moves, state


def absorb_id(hex_name: str) -> int:
    return ABSORB + HEX_NAMES.index(hex_name)


@pytest.fixture
def captured():  # type: ignore[no-untyped-def]
    """Blue takes Red's 5 on c5; Red's lowest dice are two 1s (i1, i3)."""
    st = state("c3:2 a1:6 a3:6 a5:6 a7:5", "c5:5 i1:1 i3:1 i5:6 i7:6 i9:6")
    return st.play("c3xc5E")


def test_after_a_capture_the_defender_must_absorb(captured) -> None:  # type: ignore[no-untyped-def]
    assert captured.to_move == "R" and captured.must_absorb()
    assert str(captured).endswith(" R 0 1")
    # the kernel's decisions: raise one of the lowest dice
    assert captured.legal_action_ids() == [absorb_id("i1"), absorb_id("i3")]
    turns = moves(captured)
    assert turns and all(t.startswith(("{i1}", "{i3}")) for t in turns)
    assert turns == sorted(turns)
    with pytest.raises(IllegalMoveError, match=r"Red must absorb 5 first: .* like \{i1\}"):
        captured.play("i5-c2SW")


def test_tied_lowest_dice_give_different_turns(captured) -> None:  # type: ignore[no-untyped-def]
    a = captured.play("{i1}i5-c2SW")
    b = captured.play("{i3}i5-c2SW")
    assert dice(a)["i1"] == "R6" and dice(a)["i3"] == "R1"
    assert dice(b)["i1"] == "R1" and dice(b)["i3"] == "R6"
    move = captured.parse_move("{i1}i5-c2SW")
    assert move.actions[0] == absorb_id("i1") and len(move.actions) == 2
    assert str(a).endswith(" B 1 2")  # the turn counts once


def test_absorbing_decision_by_decision(captured) -> None:  # type: ignore[no-untyped-def]
    half = captured.play(absorb_id("i3"))
    assert not half.must_absorb() and half.to_move == "R"
    assert str(half).endswith(" R 0 1")  # no ply, no clock, no history for an absorb step
    assert half.last_move is not None and str(half.last_move) == "{i3}"
    assert half.play("i5-c2SW") == captured.play("{i3}i5-c2SW")
    # a bare prefix plays the absorb decisions alone
    assert captured.play("{i3}") == half


POSITION_15 = ("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:1 i3:1 i5:4 i7:4 i9:5")


def test_overflow_goes_on_to_the_next_lowest_die() -> None:
    # Red totals 15: the first 1 takes 5 pips (to 6), the other 1 the remaining 5
    st = state(*POSITION_15, to="R")
    turns = moves(st)
    assert turns and all(t.startswith("{i1,i3}") for t in turns)
    after = st.play("{i1,i3}i5-e3SW")
    assert [dice(after)[h] for h in ("i1", "i3")] == ["R6", "R6"]


def test_the_canonical_prefix_and_other_orders() -> None:
    st = state(*POSITION_15, to="R")
    # {i3,i1} gives the same faces as {i1,i3}: accepted, as the canonical turn
    assert st.parse_move("{i3,i1}i5-e3SW") == st.parse_move("{i1,i3}i5-e3SW")
    assert str(st.parse_move("{ i3 , i1 }i5-e3SW")) == "{i1,i3}i5-e3SW"
    # the kernel offers both orders as decisions
    assert st.legal_action_ids() == [absorb_id("i1"), absorb_id("i3")]


def test_ties_that_end_the_absorption_differ() -> None:
    # 2 pips missing and two 1s: each choice leaves different faces
    st = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:1 i3:1 i5:6 i7:6 i9:6 g5:3", to="R")
    prefixes = {t.split("}")[0] + "}" for t in moves(st)}
    assert prefixes == {"{i1}", "{i3}"}


def test_three_steps_with_a_partial_last_raise() -> None:
    # 15 pips: 1 → 6 (5 left), 2 → 6 (1 left), then one of the three 4s → 5
    st = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:1 i3:2 i5:4 i7:4 i9:4", to="R")
    prefixes = {t.split("}")[0] + "}" for t in moves(st)}
    assert prefixes == {"{i1,i3,i5}", "{i1,i3,i7}", "{i1,i3,i9}"}
    with pytest.raises(IllegalMoveError, match=r"i3 shows 2, but Red's lowest dice show 1 \(i1\)"):
        st.play("{i3,i1,i5}i5-h5SW")
    with pytest.raises(IllegalMoveError, match=r"the prefix \{i1\} leaves 5 pips to absorb"):
        st.play("{i1}i5-h5SW")
    with pytest.raises(
        IllegalMoveError, match=r"every pip after \{i1,i3,i5\}: i7 is one hex too many"
    ):
        st.play("{i1,i3,i5,i7}i5-h5SW")
    with pytest.raises(IllegalMoveError, match="a1 holds no Red die"):
        st.play("{a1}i5-h5SW")
    with pytest.raises(NotationError, match=r"'z9' .* is not a hex"):
        st.play("{z9}i5-h5SW")


def test_a_prefix_where_nothing_is_missing_is_refused() -> None:
    st = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i1:5 i3:5 i5:5 i7:5 i9:5", to="R")
    with pytest.raises(
        IllegalMoveError, match=r"Red has nothing to absorb .* drop the prefix \{i1\}"
    ):
        st.play("{i1}i1-h1SW")


def test_an_absorb_choice_that_leaves_no_legal_act_is_not_offered() -> None:
    """Blue totals 17 with 1s on a4 and d1. Raising a4 first makes it a 6 and then d1 a 4:
    the cage below leaves Blue nothing to do. Raising d1 first leaves a4 a 4 beside the 6 on
    a5, which can transfer. So only d1 is offered, and {a4,d1} is no turn."""
    st = state(
        "a4:1 a5:6 d1:1 c3:5 d7:4",
        "a8:4 c1:4 c7:4 d4:4 e6:3 f2:3 g8:3",
    )
    assert st.legal_action_ids() == [absorb_id("d1")]
    assert all(t.startswith("{d1,a4}") for t in moves(st))
    with pytest.raises(IllegalMoveError, match="raising a4 would leave Blue without any legal"):
        st.play("{a4,d1}a4=5,a5=5")


@pytest.mark.parametrize("seed", range(3))
def test_the_lowest_dice_are_found_from_the_sides_dice(seed: int) -> None:
    # lowest_face and next_lowest read the side's dice from its occupancy words (two words:
    # hexes 0-40 and 41-80); here they meet a plain scan of the board, for every start
    rng = random.Random(seed)
    st = diceboard.game("chase").start()
    for _ in range(120):
        if st.is_terminal():
            break
        arr = st.kernel_state()
        sign = 1 - 2 * int(arr[TO_MOVE])
        faces = [int(arr[BOARD + h]) * sign for h in range(NHEX)]
        low = min([f for f in faces if f > 0], default=7)
        assert lowest_face(arr) == low
        for start in range(NHEX + 1):
            expected = next((h for h in range(start, NHEX) if faces[h] == low), -1)
            assert next_lowest(arr, low, start) == expected
        st = st.play(rng.choice(st.legal_action_ids()))
