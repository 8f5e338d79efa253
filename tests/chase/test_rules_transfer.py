"""Transfers: two adjacent friendly dice take new faces with the same total."""

from __future__ import annotations

import pytest

from diceboard import IllegalMoveError

from .helpers import dice, moves, state

RED = "i1:5 i3:5 i5:5 i7:5 i9:5"


def transfers(st, start: str = "") -> list[str]:  # type: ignore[no-untyped-def]
    return [m for m in moves(st, start) if "=" in m]


def test_a_pair_gets_every_other_split_of_its_total(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    # a1 and a2 show 1 and 2 (3 in all): only 2 + 1 changes a1
    assert transfers(start, "a1") == ["a1=2,a2=1"]
    # a4 and a5 show 4 and 5 (9): a4 may become 3, 5 or 6
    assert transfers(start, "a4") == ["a4=3,a5=6", "a4=5,a5=4", "a4=6,a5=3"]
    # a9 and a1 touch across the wrap, but 1 + 1 has no other split; neither has 6 + 6
    assert not [t for t in transfers(start) if "a9=" in t and t.startswith("a1")]
    st = state("c4:6 c5:6 a1:6 a3:6 a7:1", RED)
    assert not transfers(st, "c4")


def test_transfer_result_and_notation_order(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    after = start.play("a4=6,a5=3")
    assert dice(after)["a4"] == "B6" and dice(after)["a5"] == "B3"
    assert str(after).endswith(" R 1 1")
    # the hexes may be given in either order; the notation lists them in board order
    assert start.parse_move("a5=3,a4=6") == start.parse_move("a4=6,a5=3")
    assert start.move_segments("a4=6,a5=3") == [["a5", "a4"]]  # pips flow from a5 to a4


def test_adjacency_wraps_east_west() -> None:
    st = state("a9:2 a1:3 b1:4 c9:4 a5:6 g5:6", RED)
    # a1 (board order first) and a9 are neighbours; so are b1 and c9 (b1's NW neighbour)
    assert "a1=1,a9=4" in transfers(st, "a1")
    assert "b1=2,c9=6" in transfers(st, "b1")
    # b1 also touches a1 and a9 (SE and SW)
    assert "a1=1,b1=6" in transfers(st, "a1") and "a9=1,b1=5" in transfers(st, "a9")


def test_transfer_errors_say_what_is_wrong(chase) -> None:  # type: ignore[no-untyped-def]
    start = chase.start()
    with pytest.raises(IllegalMoveError, match="a1 and a3 are not adjacent"):
        start.play("a1=2,a3=2")
    with pytest.raises(
        IllegalMoveError, match=r"faces must total 9 \(the dice on a4 and a5 show 4 and 5\), not 8"
    ):
        start.play("a4=3,a5=5")
    with pytest.raises(
        IllegalMoveError, match="a transfer must change the faces: a4 already shows 4"
    ):
        start.play("a4=4,a5=5")
    with pytest.raises(IllegalMoveError, match="faces are 1 to 6, not 7"):
        start.play("a4=7,a5=2")
    with pytest.raises(IllegalMoveError, match="b1 holds no Blue die"):
        start.play("a1=2,b1=0")
    with pytest.raises(IllegalMoveError, match="two different hexes"):
        start.play("a1=2,a1=1")
