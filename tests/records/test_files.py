"""read_pgn and write_pgn with paths, open files and bytes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import diceboard
from diceboard import RecordError
from diceboard.records import GameRecord, read_pgn, write_pgn
from tests.records.helpers import play_random


def some_records() -> list[GameRecord]:
    games = [diceboard.game("custodian"), diceboard.game("custodian", variant="chaos")]
    return [
        GameRecord.from_state(play_random(game.initial_state(), seed, 200), seed=seed)
        for seed, game in enumerate(games)
    ]


def test_write_and_read_a_path(tmp_path: Path) -> None:
    records = some_records()
    path = tmp_path / "games.pgn"
    write_pgn(records, path)
    text = path.read_text(encoding="utf-8")
    assert text == records[0].to_pgn() + "\n" + records[1].to_pgn()
    assert read_pgn(path) == records
    write_pgn(records[0], str(path))  # one record, a str path: the file is replaced
    assert read_pgn(path) == records[:1]
    assert [p.name for p in tmp_path.iterdir()] == ["games.pgn"]  # no temporary file left


def test_open_files_and_bytes(tmp_path: Path) -> None:
    records = some_records()
    text_file = io.StringIO()
    write_pgn(records, text_file)
    assert read_pgn(io.StringIO(text_file.getvalue())) == records
    binary = io.BytesIO()
    write_pgn(records, binary)
    assert binary.getvalue().decode("utf-8") == text_file.getvalue()
    assert read_pgn(io.BytesIO(binary.getvalue())) == records
    assert read_pgn(b"\xef\xbb\xbf" + binary.getvalue()) == records
    path = tmp_path / "g.pgn"
    with path.open("w", encoding="utf-8") as f:
        write_pgn(records, f)
    with path.open(encoding="utf-8") as f:
        assert read_pgn(f) == records
    with path.open("rb") as fb:
        assert read_pgn(fb) == records


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"write_pgn writes GameRecords; item 2 is str"):
        write_pgn([some_records()[0], "not a record"], path)  # type: ignore[list-item]
    assert path.read_text(encoding="utf-8") == "old\n"
    with pytest.raises(FileNotFoundError):
        write_pgn(some_records(), tmp_path / "missing" / "games.pgn")


def test_a_str_that_looks_like_a_file_name_is_refused_with_a_hint(tmp_path: Path) -> None:
    # the file system is never consulted: the same answer whether the file exists or not
    path = tmp_path / "games.pgn"
    with pytest.raises(RecordError, match=r"looks like a file name: pass Path\("):
        read_pgn(str(path))
    write_pgn(some_records(), path)
    with pytest.raises(RecordError, match=r"looks like a file name: pass Path\("):
        read_pgn(str(path))


def test_a_no_break_space_is_a_space() -> None:
    tags, movetext = some_records()[0].to_pgn().split("\n\n", 1)
    text = tags + "\n\n" + movetext.replace(" ", "\u00a0")
    assert read_pgn(text)[0].moves == some_records()[0].moves


def test_bad_sources() -> None:
    with pytest.raises(RecordError, match=r"the PGN bytes is not UTF-8 text"):
        read_pgn(b"[Game \xff]")
    with pytest.raises(RecordError, match=r"read_pgn takes PGN text, a path or an open file"):
        read_pgn(42)  # type: ignore[arg-type]
