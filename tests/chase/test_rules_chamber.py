"""The chamber split on hand-built positions: every arriving heading, both exits, odd and even
faces, a 1, no spare, bumps and captures on the exits, chains back into the chamber."""

from __future__ import annotations

import pytest

from diceboard import IllegalMoveError
from diceboard.games.chase.kernel.bump import chain_end
from diceboard.games.chase.kernel.geometry import HEX_NAMES, E

from .helpers import dice, moves, state

RED = "i1:5 i3:5 i5:5 i7:5 i9:5"
BALLAST = "a1:6 a3:6 a5:6 a7:4"  # 22 pips: a 3 makes Blue's 25

# arriving heading: (a die's start three steps away, its direction, left exit, right exit)
ARRIVALS = {
    "E": ("e2", "E", "f5", "d5"),
    "W": ("e8", "W", "d6", "f6"),
    "NE": ("b4", "NE", "e4", "d6"),
    "NW": ("b7", "NW", "d5", "e6"),
    "SE": ("h4", "SE", "f6", "e4"),
    "SW": ("h7", "SW", "e6", "f5"),
}


@pytest.mark.parametrize("heading", list(ARRIVALS))
def test_a_three_splits_two_to_the_left_exit_and_one_to_the_right(heading: str) -> None:
    start, direction, left, right = ARRIVALS[heading]
    st = state(f"{start}:3 {BALLAST}", RED)
    move = f"{start}-e5{direction}"
    assert move in moves(st)
    after = st.play(move)
    board = dice(after)
    assert board[left] == "B2" and board[right] == "B1"
    assert start not in board and "e5" not in board
    assert str(after).endswith(" R 0 1")  # a dividing split restarts the clock
    assert st.move_segments(move)[1:] == [["e5", left], ["e5", right]]


@pytest.mark.parametrize(("face", "left", "right"), [(2, 1, 1), (4, 2, 2), (5, 3, 2), (6, 3, 3)])
def test_odd_and_even_faces(face: int, left: int, right: int) -> None:
    # arriving E from e3 (two steps) with any face: e3 → e4 → e5 needs a 2, so the die
    # starts further west for larger faces (e1 holds a 4, e9 a 5, e8 a 6)
    start = {2: "e3", 4: "e1", 5: "e9", 6: "e8"}[face]
    st = state(f"{start}:{face} a1:6 a3:6 a5:6 a7:{7 - face}", RED)
    after = st.play(f"{start}-e5E")
    assert dice(after)["f5"] == f"B{left}" and dice(after)["d5"] == f"B{right}"


def test_a_one_leaves_whole_by_the_left_exit() -> None:
    st = state("d5:1 a1:6 a3:6 a5:6 a7:6", RED)
    after = st.play("d5-e5NE")  # arriving NE: left exit e4 (W), right exit d6
    assert dice(after)["e4"] == "B1" and "d6" not in dice(after)
    assert str(after).endswith(" R 1 1")  # the number of dice did not change


def test_without_a_spare_the_die_leaves_whole() -> None:
    # ten Blue dice on the board: no spare, so the 3 leaves whole by the left exit
    blue = "e2:3 a1:3 a2:3 a3:3 a4:3 a5:2 a6:2 a7:2 a8:2 a9:2"
    st = state(blue, RED)
    after = st.play("e2-e5E")
    assert dice(after)["f5"] == "B3" and "d5" not in dice(after)
    # nine dice: the moving die still counts, so the split makes the tenth
    st = state("e2:3 a1:3 a2:3 a3:3 a4:3 a5:3 a6:3 a7:3 a8:1", RED)
    after = st.play("e2-e5E")
    assert dice(after)["f5"] == "B2" and dice(after)["d5"] == "B1"
    assert len([v for v in dice(after).values() if v[0] == "B"]) == 10


def test_leaving_dice_bump_like_a_pushed_die() -> None:
    # arriving E with a 4: the left die (2) lands on f5 and pushes the 1 there NW to g4
    st = state("e1:4 f5:1 a1:6 a3:6 a5:6 a7:2", RED)
    after = st.play("e1-e5E")
    assert dice(after)["f5"] == "B2" and dice(after)["g4"] == "B1" and dice(after)["d5"] == "B2"
    assert st.move_segments("e1-e5E") == [
        ["e1", "e2", "e3", "e4", "e5"],
        ["e5", "f5"],
        ["f5", "g4"],
        ["e5", "d5"],
    ]


def test_one_split_can_capture_twice() -> None:
    st = state("e3:2 a1:6 a3:6 a5:6 a7:5", "f5:3 d5:2 i1:4 i3:4 i5:4 i7:4 i9:4")
    after = st.play("e3-e5E")
    assert dice(after)["f5"] == "B1" and dice(after)["d5"] == "B1"
    assert len([v for v in dice(after).values() if v[0] == "R"]) == 5
    assert all(m.startswith("{") for m in moves(after))  # Red lost 5 pips in two dice
    assert str(after).endswith(" R 0 1")


def test_a_left_chain_back_into_the_chamber_makes_the_move_illegal() -> None:
    # arriving NE, the left die leaves by e4 heading W; row e is full of Blue dice all the
    # way round to e6, whose die would be pushed into the chamber
    row_e = "e1:3 e2:3 e3:3 e4:3 e6:3 e7:3 e8:3 e9:2"
    st = state(f"c4:2 {row_e}", RED)
    assert not moves(st, "c4-e5")
    with pytest.raises(IllegalMoveError, match="would push the die on e6 into it"):
        st.play("c4-e5NE")


def test_a_right_chain_back_into_the_chamber_makes_the_move_illegal() -> None:
    # arriving NW, the spare leaves by e6 heading E and runs round row e to e4
    row_e = "e1:3 e2:3 e3:3 e4:3 e6:3 e7:3 e8:3 e9:2"
    st = state(f"c6:2 {row_e}", RED)
    with pytest.raises(IllegalMoveError, match="would push the die on e4 into it"):
        st.play("c6-e5NW")
    # with nothing to divide (a 1 from d6) only the left exit (d5) is used: legal
    st = state(f"d6:1 {row_e[:-4]}e9:3", RED)
    assert "d6-e5NW" in moves(st)


def test_a_chain_reads_the_hex_an_earlier_chain_filled_as_friendly() -> None:
    """The left die's chain would have to run 15 hexes to end on the right exit (or 11 to
    cross the right chain), more than a side's dice, so a game never shows it; the kernel's
    chain reader still treats the hex an earlier chain ended on as taken by a friendly die,
    and the vacated start as empty."""
    arr = state("e3:2 a1:6 a3:6 a5:6 a7:5", RED).kernel_state()
    e6, e7 = HEX_NAMES.index("e6"), HEX_NAMES.index("e7")
    assert chain_end(arr, e6, E, 1, -1, -1) == e6  # empty: the chain stops at once
    assert chain_end(arr, e6, E, 1, -1, e6) == e7  # filled by the left chain: pushed on
    a1, a2 = HEX_NAMES.index("a1"), HEX_NAMES.index("a2")
    assert chain_end(arr, a1, E, 1, a1, -1) == a1  # the vacated start counts as empty
    assert chain_end(arr, a1, E, 1, -1, -1) == a2
