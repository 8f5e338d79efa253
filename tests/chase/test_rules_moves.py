"""Moves on hand-built positions: directions, wrap, ricochet, blocked paths, captures.

Positions keep the side to move at 25 pips with "ballast" dice on row a (6s on a1 a3 a5 a7,
clear of the tested paths) and Red on row i, so no absorbing gets in the way.
"""

from __future__ import annotations

import pytest

from diceboard import IllegalMoveError, NotationError

from .helpers import dice, moves, state

BALLAST = "a1:6 a3:6 a5:6 a7:6"
RED = "i1:5 i3:5 i5:5 i7:5 i9:5"


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        # an odd row (d, R = 3): NE keeps the column, NW goes one column west
        ("d3", {"E": "d4", "NE": "e3", "NW": "e2", "W": "d2", "SW": "c2", "SE": "c3"}),
        # an even row (g, R = 6): NE goes one column east, NW keeps the column
        ("g4", {"E": "g5", "NE": "h5", "NW": "h4", "W": "g3", "SW": "f4", "SE": "f5"}),
    ],
)
def test_a_one_steps_to_each_neighbour_of_the_spec_table(
    start: str, expected: dict[str, str]
) -> None:
    st = state(f"{start}:1 {BALLAST}", RED)
    assert set(moves(st, start + "-")) == {f"{start}-{to}{d}" for d, to in expected.items()}


def test_wrap_on_both_sides() -> None:
    st = state("c9:2 e1:2 a1:6 a3:6 a5:6 a7:3", RED)
    assert st.move_segments("c9-c2E") == [["c9", "c1", "c2"]]
    assert st.move_segments("e1-e8W") == [["e1", "e9", "e8"]]
    # b1 (an odd row's split hex) touches c9 going NW
    st = state("b1:1 a3:6 a5:6 a7:6 c5:6", RED)
    assert "b1-c9NW" in moves(st) and "b1-a9SW" in moves(st)


def test_the_spec_examples_of_ricochet_and_wrap() -> None:
    st = state(f"d6:6 {BALLAST[:-4]} a8:1", RED)
    assert dice(st)["d6"] == "B6"
    # SW: c5 b5 a4 (ricochet) b4 c3 d3; E: d7 d8 d9 d1 d2 d3 — the same hex, two moves
    assert st.move_segments("d6-d3SW") == [["d6", "c5", "b5", "a4", "b4", "c3", "d3"]]
    assert st.move_segments("d6-d3E") == [["d6", "d7", "d8", "d9", "d1", "d2", "d3"]]
    assert {"d6-d3SW", "d6-d3E"} <= set(moves(st, "d6"))
    st = state(f"h4:4 {BALLAST[:-4]} a8:3", RED)
    assert st.move_segments("h4-f6NE") == [["h4", "i4", "h5", "g5", "f6"]]
    st = state(f"b6:3 {BALLAST[:-4]} a8:4", RED)
    assert st.move_segments("b6-c7SE") == [["b6", "a6", "b7", "c7"]]


def test_ricochet_and_wrap_in_one_move() -> None:
    # h9 NE: i9, then off row i it ricochets to SE and crosses the east edge: h1, g1
    st = state(f"h9:3 {BALLAST[:-4]} a8:4", "i2:5 i4:5 i6:5 i8:5 f5:5")
    assert st.move_segments("h9-g1NE") == [["h9", "i9", "h1", "g1"]]
    # row i's NW from i5 is the same path as SW: both spellings name the one move
    red = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i5:2 i1:6 i3:6 i7:6 c9:5", to="R")
    assert red.parse_move("i5-g4NW") == red.parse_move("i5-g4SW")


def test_a_die_leaves_after_a_ricochet_with_the_flipped_heading() -> None:
    # d6 SW lands on d3 heading NW: a friendly die there is bumped NW, to e2
    st = state("d6:6 d3:1 a1:6 a5:6 a7:6", RED)
    after = st.play("d6-d3SW")
    assert dice(after)["d3"] == "B6" and dice(after)["e2"] == "B1"


def test_row_a_and_row_i_do_not_double_their_moves() -> None:
    # from row a, SE/SW ricochet at once onto the NE/NW paths: only NE/NW are written
    st = state("a2:4 a6:6 c7:6 g5:6 c9:3", RED)
    from_a2 = moves(st, "a2")
    assert all(not m.endswith(("SE", "SW")) for m in from_a2)
    assert len([m for m in from_a2 if "=" not in m]) == 4
    # the SE spelling is read as the same move
    assert str(st.parse_move("a2-e4NE")) == "a2-e4NE"
    assert st.parse_move("a2-e4SE") == st.parse_move("a2-e4NE")
    # and from row i, NE/NW are the moves SE/SW
    red = state("a1:5 a3:5 a5:5 a7:5 a9:5", "i2:4 i6:6 g7:6 c5:6 g9:3", to="R")
    from_i2 = [m for m in moves(red, "i2") if "=" not in m]
    assert len(from_i2) == 4 and all(not m.endswith(("NE", "NW")) for m in from_i2)
    assert red.parse_move("i2-e4NE") == red.parse_move("i2-e4SE")


def test_other_directions_to_the_same_hex_are_different_moves() -> None:
    st = state(f"d6:6 {BALLAST[:-4]} a8:1", RED)
    assert st.parse_move("d6-d3E") != st.parse_move("d6-d3SW")
    with pytest.raises(NotationError, match=r"ambiguous: d6-d3E and d6-d3SW"):
        st.parse_move("d6-d3")


def test_a_path_is_blocked_by_any_die_but_the_last_hex_is_free() -> None:
    st = state("c3:4 a1:6 a5:6 a7:6 c5:3", RED)
    # E from c3: c4 then c5 (a die) — blocked; a Red die on the way blocks too
    assert not moves(st, "c3-c7E")
    with pytest.raises(IllegalMoveError, match="going E its path is blocked by the Blue die on c5"):
        st.play("c3-c7E")
    st = state("c3:4 a1:6 a5:6 a7:6 a9:3", "c5:5 i3:5 i5:5 i7:5 i9:5")
    with pytest.raises(IllegalMoveError, match="blocked by the Red die on c5"):
        st.play("c3-c7E")
    # the same die landing on c5 with a 2 captures
    st = state("c3:2 a1:6 a5:6 a7:6 a9:5", "c5:5 i3:5 i5:5 i7:5 i9:5")
    assert "c3xc5E" in moves(st)


def test_the_chamber_blocks_a_path_but_not_a_landing() -> None:
    st = state("e3:4 e1:2 a1:6 a5:6 a7:6 a9:1", RED)
    # e3 E: e4, e5 … — the chamber is passed, so no move; e3 with a 2 would land on it
    assert not moves(st, "e3-e7E")
    with pytest.raises(IllegalMoveError, match="going E its path would cross the chamber e5"):
        st.play("e3-e7E")
    st = state("e3:2 a1:6 a3:6 a5:6 a7:5", RED)
    assert "e3-e5E" in moves(st)


def test_capture_notation_uses_x_only_onto_an_enemy_die() -> None:
    st = state("c3:2 a1:6 a5:6 a7:6 a9:5", "c5:5 i3:5 i5:5 i7:5 i9:5")
    with pytest.raises(IllegalMoveError, match="a capture is written c3xc5E"):
        st.play("c3-c5E")
    after = st.play("c3xc5E")
    assert dice(after)["c5"] == "B2"
    assert sorted(v for v in dice(after).values() if v[0] == "R") == ["R5"] * 4
    st = state("c3:2 a1:6 a5:6 a7:6 a9:5", RED)
    with pytest.raises(IllegalMoveError, match="c5 holds no enemy die: write c3-c5E"):
        st.play("c3xc5E")


def test_a_move_names_an_own_die_and_the_hex_it_reaches() -> None:
    st = state(f"d6:6 {BALLAST[:-4]} a8:1", RED)
    with pytest.raises(IllegalMoveError, match="d5 holds no Blue die"):
        st.play("d5-d3SW")
    with pytest.raises(IllegalMoveError, match="i1 holds no Blue die: the Red die on i1"):
        st.play("i1-h1SW")
    with pytest.raises(IllegalMoveError, match="going SW it stops on d3, not d2"):
        st.play("d6-d2SW")
    with pytest.raises(IllegalMoveError, match="no direction takes it to d2"):
        st.play("d6-d2")
    with pytest.raises(IllegalMoveError, match="e5 is the chamber"):
        st.play("e5-e6E")
    with pytest.raises(NotationError, match=r"'j1' .* is not a hex"):
        st.play("j1-d3SW")
    with pytest.raises(NotationError, match=r"'NN' .* is not a direction"):
        st.play("d6-d3NN")
