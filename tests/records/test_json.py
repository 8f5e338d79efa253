"""The JSON form: its exact fields, and clear errors for bad documents."""

from __future__ import annotations

import json
from typing import Any

import pytest

import diceboard
from diceboard import RecordError
from diceboard.records import GameRecord
from tests.records.helpers import assert_round_trips


def chaos_record() -> GameRecord:
    game = diceboard.game("custodian", variant="chaos", placement="rolled", no_capture_limit=50)
    state = game.initial_state()
    for token in ["=3", "=1", "=6", "=4", "=2", "=5", "=2", "=6", "=2", "=6", "b1-b2", "=5"]:
        state = state.play(token)
    return GameRecord.from_state(
        state, players=("Alice", None), seed=7, tags={"Event": "Ünïcode"}, comments={10: "go"}
    )


def test_exact_document() -> None:
    rec = chaos_record()
    assert rec.to_dict() == {
        "format": "diceboard-record",
        "version": 1,
        "game": "custodian",
        "options": {"variant": "chaos", "placement": "rolled", "no_capture_limit": 50},
        "tags": {
            "White": "Alice",
            "Black": "?",
            "Date": "????.??.??",
            "Seed": "7",
            "Event": "Ünïcode",
        },
        "start": None,
        "moves": ["=3", "=1", "=6", "=4", "=2", "=5", "=2", "=6", "=2", "=6", "b1-b2=5"],
        "result": "*",
        "termination": "unterminated",
        "comments": {"10": ["go"]},
    }
    text = rec.to_json()
    assert json.loads(text) == rec.to_dict()
    assert "Ünïcode" in text
    assert '  "moves": ["=3", "=1",' in text
    assert "\n" not in rec.to_json(indent=None)
    assert_round_trips(rec)


def test_start_field_and_minimal_document() -> None:
    position = "....B4/...../..W2../B6..../W5.... W 0 20"
    doc = {"format": "diceboard-record", "version": 1, "game": "Custodian Dice"}
    rec = GameRecord.from_dict({**doc, "moves": ["c3-a3=1"], "start": position})
    assert (rec.result, rec.termination) == ("1-0", "elimination")
    assert rec.to_dict()["start"] == position
    empty = GameRecord.from_dict({**doc, "moves": []})
    assert empty.start == diceboard.game("custodian").initial_state()
    assert (empty.result, empty.termination) == ("*", "unterminated")
    assert GameRecord.from_dict({**doc, "moves": [], "result": None}) == empty


def test_boolean_option_is_taken() -> None:
    doc = chaos_record().to_dict()
    doc["options"] = {"jumping": False}
    rec = GameRecord.from_dict({**doc, "moves": doc["moves"][:10]})
    assert rec.game == diceboard.game("custodian", variant="no-jumping")


def bad(change: dict[str, Any], message: str, drop: str | None = None) -> None:
    doc = {**chaos_record().to_dict(), **change}
    if drop is not None:
        del doc[drop]
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(doc)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(json.dumps(doc))


def test_bad_documents() -> None:
    bad({"version": 2}, r"unsupported diceboard-record version 2: this reader knows version 1")
    bad({"version": "1"}, r"the JSON record's version must be a whole number, not '1'")
    bad({"version": True}, r"version must be a whole number")
    bad({"format": "pgn"}, r"the JSON record's format field must be 'diceboard-record'")
    bad({}, r"the JSON record lacks the field\(s\) moves", drop="moves")
    bad({"extra": 1}, r"the JSON record has unknown field\(s\) 'extra'")
    bad({"game": "go"}, r"the JSON record names an unknown game 'go'")
    bad({"game": 3}, r"the JSON record's game must be a string, not a number")
    bad({"options": {"placement": "random"}}, r"options: option placement must be one of")
    bad({"options": {"colour": "red"}}, r"unknown Custodian Dice option 'colour'")
    bad({"options": {"no_capture_limit": 1.5}}, r"option 'no_capture_limit' must be a string")
    bad({"options": []}, r"the JSON record's options must be an object, not an array")
    bad({"tags": {"Result": "1-0"}}, r"tags hold 'Result', which has a field of its own: 'result'")
    bad({"tags": {"Placement": "x"}}, r"tags hold 'Placement', which has a field .* 'options'")
    bad({"tags": {"Event": 1}}, r"the JSON record's tag 'Event' must be a string, not a number")
    bad({"start": 5}, r"start must be a position string or null, not a number")
    bad({"start": "nonsense"}, r"the JSON record's start: the start position 'nonsense' is not")
    bad({"moves": "=3 =1"}, r"moves must be a list of move texts")
    bad({"moves": ["=3", 1]}, r"moves must be a list of move texts")
    bad({"moves": ["=3", "=9"]}, r"JSON record, move 2 '=9': a roll is pending")
    bad({"result": "1-0"}, r"JSON record: the Result is 1-0 but the replayed game has not ended")
    bad({"result": 1}, r"the JSON record's result must be a string or null, not a number")
    bad({"termination": "won"}, r"JSON record: the Termination tag must be one of")
    bad({"comments": {"x": ["a"]}}, r"comments are keyed by a number of moves")
    bad({"comments": {"99": ["a"]}}, r"a comment is placed after a number of moves from 0 to 11")
    bad({"comments": {"1": 5}}, r"comments after move 1 must be a string or a list of strings")


def test_not_json_at_all() -> None:
    with pytest.raises(
        RecordError, match=r"the record is not valid JSON: Expecting .*: line 1 column 2"
    ):
        GameRecord.from_json("{not json")
    with pytest.raises(RecordError, match=r"a JSON record is an object, not an array"):
        GameRecord.from_json("[1, 2]")
    with pytest.raises(RecordError, match=r"not JSON text"):
        GameRecord.from_json(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match=r"a JSON record is an object, not null"):
        GameRecord.from_dict(None)  # type: ignore[arg-type]
