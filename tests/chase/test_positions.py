"""Position strings: formatting, parsing, and every rejection the spec lists."""

from __future__ import annotations

from typing import Any

import pytest

import diceboard
from diceboard import PositionError

from .helpers import pos

START = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)
BLUE = "a1:5 a3:5 a5:5 a7:5 a9:5"
RED = "i1:5 i3:5 i5:5 i7:5 i9:5"


def test_the_standard_start(chase) -> None:  # type: ignore[no-untyped-def]
    assert str(chase.start()) == START == str(chase.initial_state())
    assert chase.parse(START) == chase.start()
    assert chase.start().board()["a5"] == ("B", 5) and chase.start().board()["i9"] == ("R", 1)
    assert len(chase.start().board()) == 18


def test_rows_run_from_i_down_to_a_and_columns_from_1_to_9(chase) -> None:  # type: ignore[no-untyped-def]
    text = pos("b1:1 a9:6 a1:6 a3:6 a5:6", "i9:5 h1:5 i3:5 i5:5 i7:5", to="R", clock=7, ply=42)
    st = chase.parse(text)
    assert text.split("/")[0] == "..R5.R5.R5.R5" and text.split("/")[1] == "R5........"
    assert st.board()["b1"] == ("B", 1) and st.to_move == "R" and (st.clock, st.ply) == (7, 42)
    assert str(st) == text


def test_a_side_to_move_may_be_short(chase) -> None:  # type: ignore[no-untyped-def]
    st = chase.parse(pos("a1:5 a3:5 a5:5 a7:5 a9:1", RED))
    assert st.must_absorb()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (START.replace(" B 0 0", " B 0"), "4 fields"),
        ("/".join(START.split("/")[:8]) + " B 0 0", "9 rows"),
        (START.replace("R1R2R3", "R1R2R3.", 1), "row i .* has 10 hexes, not 9"),
        (START.replace("B1B2B3", "B1B2", 1), "row a .* has 8 hexes"),
        (START.replace("R1R2", "R1X2", 1), "unknown token 'X'"),
        (START.replace("B5", "B7", 1), "B7 has no face 7"),
        (START.replace("B5", "B0", 1), "B0 has no face 0"),
        (START.replace("B5", "b5", 1), "unknown token 'b'"),
        (
            "/".join([*START.split("/")[:4], "....B1....", *START.split("/")[5:]]),
            "e5 is the chamber",
        ),
        (START.replace(" B 0", " W 0"), "to-move field must be B or R"),
        (START.replace(" 0 0", " -1 0"), "clock field"),
        (START.replace(" 0 0", " 0 x"), "ply field"),
        (pos("a1:1 a2:1 a3:1 a4:1 a5:1 a6:1 a7:1 a8:1 a9:1 b1:1 b2:1", RED), "11 dice"),
        (pos(BLUE, RED.replace("i9:5", "i9:4")), "Red, not to move, totals 24"),
        (pos(BLUE.replace("a9:5", "a9:6"), RED), "Blue, to move, totals 26"),
        (pos(BLUE.replace("a9:5", "a9:4"), RED, to="R"), "Blue, not to move, totals 24"),
    ],
)
def test_bad_positions_are_rejected(chase, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PositionError, match=message):
        chase.parse(text)


def test_a_position_must_be_a_string(chase) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PositionError, match="must be a string"):
        chase.parse(None)


def test_options() -> None:
    assert diceboard.game("chase").options == {"no_capture_limit": 100, "repetition": "on"}
    assert diceboard.game("chase", no_capture_limit="40").non_default_options() == {
        "no_capture_limit": 40
    }
    assert diceboard.game("chase", variant="standard") == diceboard.game("chase")
    bad_options: list[tuple[dict[str, Any], str]] = [
        ({"variant": "chaos"}, "unknown Chase variant 'chaos'"),
        ({"no_capture_limit": -1}, "0 or more"),
        ({"no_capture_limit": "many"}, "whole number"),
        ({"jumping": "on"}, "unknown Chase option 'jumping'"),
    ]
    for bad, message in bad_options:
        with pytest.raises(diceboard.OptionError, match=message):
            diceboard.game("chase", **bad)
