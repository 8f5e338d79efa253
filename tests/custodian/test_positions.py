"""Position strings: round trips and every rejection the spec lists, with clear messages."""

from __future__ import annotations

import pytest

import diceboard
from diceboard import PositionError

GAME = diceboard.game("custodian")
ROLLED = diceboard.game("custodian", placement="rolled")

GOOD = [
    "...../...../...../...../..... W 0 0 W?????,B?????",
    "...../...../...../...../..... W 0 0 W12346,B22566",
    "...../...../...../...../..... W 0 0 W3????,B?????",
    "...../...../...../...../..... W 0 0 W12346,B2????",
    "...../...../...../...../..W6.. W 0 1 W1234,B22566",
    "...../...../...../...../W1W2W6W3W4 B 0 5 B22566",
    "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10",
    "B5B2B6B2B6/...../...../...../W3W1W6W4W2 B 17 33",
]


@pytest.mark.parametrize("text", GOOD)
def test_round_trip(text: str) -> None:
    assert str(GAME.parse(text)) == text


def test_rolled_placement_positions_round_trip() -> None:
    for text in [
        "...../...../...../...../W3.... W 0 0 W????,B?????",
        "B5B5.../...../...../...../W3W1W6W3W2 W 0 0 B???",
    ]:
        assert str(ROLLED.parse(text)) == text


BAD = [
    ("B5B2B6B2B6/...../...../W3W1W6W4W2 W 0 10", "5 ranks"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4 W 0 10", "rank 1 .* 4 squares"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W2W1 W 0 10", "6 squares"),
    ("B5B2B6B2B7/...../...../...../W3W1W6W4W2 W 0 10", "unknown token"),
    ("B5B2B6B2X6/...../...../...../W3W1W6W4W2 W 0 10", "unknown token"),
    ("B5B2B6B2B6/W1..../...../...../W3W1W6W4W2 W 0 10", "White has 6 dice"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W2 X 0 10", "to-move field"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W -1 10", "clock field"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 ten", "ply field"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0", "4 or 5 fields"),
    ("...../...../...../...../..... W 0 0 W1234,B22566", "add up to 5"),
    ("...../...../...../...../W6.... W 0 1 W12346,B22566", "add up to 5"),
    ("...../...../...../...../..... W 0 0 W21346,B22566", "ascending"),
    ("...../...../...../...../..... W 0 0 B22566,W12346", "W before B"),
    ("...../...../...../...../..... W 0 0 W12346,Bx", "bad hand entry"),
    ("...../...../...../W6..../..... W 0 1 W1234,B22566", "rank 1 only"),
    ("...../...../...../...../..... W 0 0 W?????,B2????", "after all of White"),
    ("...../...../...../...../..W6.. W 0 0 W1234,B22566", "ply counts the placements"),
    ("B2..../...../...../...../..... W 0 1 W12346,B2566", "only after White"),
    ("...../...../...../...../..... B 0 0 W12346,B22566", "to-move field must be W"),
    ("...../...../...../...../W1W2W6W3W4 W 0 5 B22566", "to-move field must be B"),
    ("...../...../...../...../W1W2W6W3W4 B 3 5 B22566", "clock is 0 during setup"),
    ("B5B2B6B2B6/...../...../...../W3W1W6W4W? W 0 10", "Chaos"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_rejections_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.parse(text)


def test_rolled_placement_rejections() -> None:
    with pytest.raises(PositionError, match="only \\?s"):
        ROLLED.parse("...../...../...../...../..... W 0 0 W3????,B?????")
    with pytest.raises(PositionError, match="without gaps"):
        ROLLED.parse("...../...../...../...../.W3... W 0 0 W????,B?????")


def test_a_position_must_be_a_string() -> None:
    with pytest.raises(PositionError, match="must be a string"):
        GAME.parse(42)  # type: ignore[arg-type]


def test_position_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        GAME.parse("")
