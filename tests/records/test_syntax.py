"""The game-free layers: tag helpers, the tokenizer, game splitting and the movetext writer."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diceboard import RecordError
from diceboard.records.pgn import (
    MovetextItem,
    Token,
    format_game,
    movetext_tokens,
    split_games,
    tokenize,
)
from diceboard.records.tags import check_date, escape, format_date, option_tag, unescape


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


def test_option_tags() -> None:
    assert option_tag("no_capture_limit") == "NoCaptureLimit"
    assert option_tag("variant") == "Variant"
    assert option_tag("path") == "Path"


def test_dates() -> None:
    assert format_date(datetime.date(2024, 5, 1)) == "2024.05.01"
    assert format_date(datetime.datetime(1999, 12, 31, 23, 59)) == "1999.12.31"
    assert format_date(None) == "????.??.??"
    assert format_date("2024.??.??") == "2024.??.??"
    assert check_date("????.02.29") == "????.02.29"  # no year: any day a month can have
    with pytest.raises(RecordError, match="not a calendar date"):
        check_date("2023.02.29")


@given(st.text())
def test_escape_round_trips(value: str) -> None:
    assert unescape(escape(value)) == value


def test_absorption_prefix_or_comment() -> None:
    assert kinds("{a1,b6}d6-d3SW") == [("move", "{a1,b6}d6-d3SW")]
    assert kinds("12.{a1}d6-d3SW") == [("number", "12."), ("move", "{a1}d6-d3SW")]
    assert kinds("{a1} d6-d3SW") == [("comment", "a1"), ("move", "d6-d3SW")]
    assert kinds("{good move}d6-d3SW") == [("comment", "good move"), ("move", "d6-d3SW")]
    assert kinds("{a1,b6}a1=2,a2=1") == [("move", "{a1,b6}a1=2,a2=1")]
    assert kinds("{ A1 , b6 }d6-d3SW") == [("move", "{ A1 , b6 }d6-d3SW")]


def test_numbers_results_and_moves() -> None:
    assert kinds("1. b1-d2=5 1... =3 23.c1^c3 6@c1 1-0 0-1 1/2-1/2 *") == [
        ("number", "1."),
        ("move", "b1-d2=5"),
        ("number", "1..."),
        ("move", "=3"),
        ("number", "23."),
        ("move", "c1^c3"),
        ("move", "6@c1"),
        ("result", "1-0"),
        ("result", "0-1"),
        ("result", "1/2-1/2"),
        ("result", "*"),
    ]


def test_lines_are_counted() -> None:
    tokens = list(tokenize('[A "1"]\n\n{two\nlines} x\n; c\ny'))
    assert [(t.kind, t.line) for t in tokens] == [
        ("tag", 1),
        ("comment", 3),
        ("move", 4),
        ("comment", 5),
        ("move", 6),
    ]
    assert tokens[0] == Token("tag", "A", 1, "1")


def test_split_games() -> None:
    games = split_games('[A "1"]\nx y 1-0\n[A "2"]\nz\n[A "3"]\n\n*\n')
    assert [(g.number, g.tags, [m for m, _ in g.moves]) for g in games] == [
        (1, {"A": "1"}, ["x", "y"]),
        (2, {"A": "2"}, ["z"]),
        (3, {"A": "3"}, []),
    ]
    assert [g.result for g in games] == [("1-0", 2), None, ("*", 7)]
    assert [g.line for g in games] == [1, 3, 5]


def test_movetext_numbering() -> None:
    items = [
        MovetextItem("=1", None),
        MovetextItem("=2", None),
        MovetextItem("w1", 0),
        MovetextItem("w2", 0),
        MovetextItem("b1", 1),
        MovetextItem("b2", 1),
        MovetextItem("w3", 0),
        MovetextItem("b3", 1),
        MovetextItem("w4", 0),
    ]
    tokens = movetext_tokens(items, {0: ["start"], 7: ["note"]}, "*")
    assert " ".join(tokens) == "{start} =1 =2 1. w1 w2 b1 b2 2. w3 {note} 2... b3 3. w4 *"
    second_first = [MovetextItem("b1", 1), MovetextItem("w1", 0), MovetextItem("b2", 1)]
    assert " ".join(movetext_tokens(second_first, {}, "0-1")) == "1... b1 2. w1 b2 0-1"
    assert movetext_tokens([], {}, "*") == ["*"]


def test_format_game_wraps_and_ends_line_comments() -> None:
    tokens = [f"{i}. move{i}" for i in range(1, 30)] + [";a } comment", "x", "*"]
    text = format_game({"Game": 'say "x"'}, tokens, width=40)
    head, body = text.split("\n\n")
    assert head == '[Game "say \\"x\\""]'
    lines = body.splitlines()
    assert max(len(line) for line in lines) <= 40
    assert any(line.endswith(";a } comment") for line in lines)
    assert lines[-1] == "x *"
    assert text.endswith("\n")
