"""Abstract Play's JSON export read as a record, with its rules (no limit, no repetition)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diceboard.records import GameRecord, RecordError

DATA = Path(__file__).parent / "data" / "abstractplay-chase.json"


def test_an_abstractplay_export_reads_with_its_header_as_tags() -> None:
    rec = GameRecord.from_json(DATA.read_text(encoding="utf-8"))
    assert rec.game.name == "chase"
    assert rec.game.non_default_options() == {"no_capture_limit": 0, "repetition": "off"}
    tags = rec.tags
    assert tags["NoCaptureLimit"] == "0" and tags["Repetition"] == "off"
    assert tags["Site"] == "Abstract Play"
    assert tags["GameId"] == "0b3f2c1e-hand-made"
    assert rec.date == "2024.03.02" and tags["EndDate"] == "2024.03.09"
    assert rec.players == ("Alice", "AiAi")
    assert tags["BlueType"] == "human" and tags["RedType"] == "program"
    assert len(rec.moves) == 24
    # the replay has not ended; the site scored it for Red
    assert rec.result == "0-1" and rec.termination == "resignation"
    # and it goes on as our own record
    again = GameRecord.from_pgn(rec.to_pgn())
    assert again == rec
    assert GameRecord.from_json(rec.to_json()) == rec


def test_an_abstractplay_export_with_a_bad_move_says_where() -> None:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    doc["moves"][1][0] = "a2-c3NW"
    with pytest.raises(RecordError, match="Abstract Play record, move 3"):
        GameRecord.from_dict(doc)
    doc["header"]["game"]["name"] = "Go"
    with pytest.raises(RecordError, match="unknown game 'Go'"):
        GameRecord.from_dict(doc)
