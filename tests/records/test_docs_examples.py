"""The example records in docs/records.md read, replay and round-trip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diceboard.records import GameRecord
from tests.records.helpers import assert_round_trips

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def pgn_examples() -> list[str]:
    return [b for b in blocks("text") if b.startswith("[Game ")]


@pytest.mark.parametrize("text", pgn_examples())
def test_pgn_examples(text: str) -> None:
    rec = GameRecord.from_pgn(text)
    assert rec.to_pgn() == text  # the examples are in canonical form
    assert_round_trips(rec)


def test_there_are_examples_of_both_games() -> None:
    titles = [text.split("\n", 1)[0] for text in pgn_examples()]
    assert '[Game "Custodian Dice"]' in titles and '[Game "Chase"]' in titles


def test_json_example() -> None:
    (example,) = blocks("json")
    rec = GameRecord.from_json(example)
    assert rec.to_json() == example
    assert_round_trips(rec)
