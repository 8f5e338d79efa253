"""Annotation glyphs in records: read as suffixes and as $N, written as suffixes, kept by JSON."""

from __future__ import annotations

import pytest

import diceboard
from diceboard.records import GameRecord, RecordError

CHASE_PGN = """[Game "Chase"]
[Blue "Alice"]
[Red "Bob"]
[Date "2024.05.01"]
[Result "*"]
[Termination "unterminated"]

1. a5-f8NE?! {too slow} i5-d3SW $4 *
"""


def test_glyphs_are_read_as_suffixes_and_nags_and_round_trip() -> None:
    rec = GameRecord.from_pgn(CHASE_PGN)
    assert rec.glyphs == {1: "?!", 2: "??"}
    assert rec.comments == {1: ("too slow",)}
    text = rec.to_pgn()
    assert "a5-f8NE?! {too slow} 1... i5-d3SW?? *" in text
    assert GameRecord.from_pgn(text) == rec
    assert GameRecord.from_json(rec.to_json()) == rec
    assert rec.to_dict()["glyphs"] == {"1": "?!", "2": "??"}


def test_glyphs_are_part_of_equality_and_checked() -> None:
    state = diceboard.game("chase").initial_state()
    moves = ["a5-f8NE", "i5-d3SW"]
    plain = GameRecord(state, moves)
    marked = GameRecord(state, moves, glyphs={2: "?"})
    assert plain != marked
    assert marked.glyphs == {2: "?"}
    with pytest.raises(RecordError, match="annotation glyph"):
        GameRecord(state, moves, glyphs={3: "?"})
    with pytest.raises(RecordError, match="annotation glyph"):
        GameRecord(state, moves, glyphs={1: "?!?"})
    with pytest.raises(RecordError, match="numeric annotation glyph"):
        GameRecord.from_pgn(CHASE_PGN.replace("$4", "$99"))


def test_a_glyph_on_a_joined_chaos_move_marks_the_joined_move() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="rolled")
    state = game.start(seed=5)
    rec = GameRecord(state.root(), [*state.move_stack(), "a1-a2", "=6"], glyphs={11: "??"})
    assert rec.moves[-1].notation == "a1-a2=6"
    assert rec.glyphs == {11: "??"}
    assert "a1-a2=6??" in rec.to_pgn()
    assert GameRecord.from_pgn(rec.to_pgn()) == rec


def test_a_glyph_after_an_absorption_prefix_is_split_off() -> None:
    from diceboard.records.pgn import split_games

    (raw,) = split_games("{a1,b6}d6-d3SW?! {a1}a2=3,a3=1 $2 *")
    assert [m for m, _ in raw.moves] == ["{a1,b6}d6-d3SW", "{a1}a2=3,a3=1"]
    assert raw.glyphs == {1: "?!", 2: "?"}
