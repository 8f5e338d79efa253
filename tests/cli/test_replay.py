"""``diceboard replay``: every position of a record, by steps in a terminal, and bad files."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

import diceboard
from diceboard.records import GameRecord
from tests.cli.helpers import EXAMPLE, environment, ok, script, usage_error

pytestmark = pytest.mark.e2e

MOVES = ("b1-b2=2", "b5-b3=3", "a1-a4=2")


def _record(moves: tuple[str, ...] = MOVES) -> GameRecord:
    state = diceboard.game("custodian").parse(EXAMPLE)
    for move in moves:
        state = state.play(move)
    return GameRecord.from_state(state, players=("Ann", "Bob"), seed=9)


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.pgn"
    path.write_text(_record().to_pgn(), encoding="utf-8")
    return path


def test_piped_replay_prints_every_position(record_file: Path) -> None:
    out = ok("replay", str(record_file))
    assert "White: Ann" in out and "Black: Bob" in out
    # moves counted as players count them: White's and Black's make one numbered move
    headers = re.findall(r"^--- (.*)$", out, re.M)
    assert headers == [
        "start (2 moves)",
        "move 1 of 2, White: after b1-b2=2",
        "move 1 of 2, Black: after b5-b3=3",
        "move 2 of 2, White: after a1-a4=2",
    ]
    assert out.rstrip().endswith("end of the record: unfinished (*)")
    # the last board is the final position: White's die moved from a1 to a4 showing 2
    last = out.rsplit("--- move 2 of 2, White", 1)[1]
    assert re.search(r"^ 4 +W2 +\. ", last, re.M)
    assert re.search(r"^ 1 +\. +\. +W6 ", last, re.M)


def test_second_game_of_a_file(tmp_path: Path) -> None:
    path = tmp_path / "two.pgn"
    path.write_text(_record().to_pgn() + "\n" + _record(MOVES[:1]).to_pgn(), encoding="utf-8")
    out = ok("replay", str(path), "--game", "2")
    assert re.findall(r"^--- (start|move 1 of 1, White)", out, re.M) == [
        "start",
        "move 1 of 1, White",
    ]
    assert "holds 2 games; --game must be 1 to 2" in usage_error("replay", str(path), "--game", "3")


def test_a_json_record_replays_too(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(_record().to_json(), encoding="utf-8")
    assert "--- move 2 of 2, White: after a1-a4=2" in ok("replay", str(path))


def test_stepping_in_a_terminal(record_file: Path) -> None:
    child = pexpect.spawn(
        script(), ["replay", str(record_file)], encoding="utf-8", timeout=60, env=environment()
    )
    child.expect(r"\[start\] > ")
    child.sendline("")  # Enter: next
    child.expect(r"--- move 1 of 2, White: after b1-b2=2")
    child.expect(r"\[move 1 of 2, White\] > ")
    child.sendline("g 2")  # the position after move 2
    child.expect(r"--- move 2 of 2, White: after a1-a4=2")
    child.expect(r"\[move 2 of 2, White\] > ")
    child.sendline("n")
    child.expect("that was the last position")
    child.sendline("p")
    child.expect(r"--- move 1 of 2, Black: after b5-b3=3")
    child.sendline("g 1")  # after move 1: Black's half of it
    child.expect(r"--- move 1 of 2, Black: after b5-b3=3")
    child.sendline("g 9")
    child.expect("g takes a move number from 0 to 2")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_record_files(tmp_path: Path) -> None:
    assert "No such file" in usage_error("replay", str(tmp_path / "missing.pgn"))
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    assert "holds no game" in usage_error("replay", str(empty))
    broken = tmp_path / "broken.pgn"
    broken.write_text('[Game "Custodian Dice"]\n[Position "' + EXAMPLE + '"]\n\n1. b1-c3=2 *\n')
    message = usage_error("replay", str(broken))
    assert message.startswith(f"{broken}: ")
    assert "b1-c3=2" in message
    binary = tmp_path / "binary.pgn"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert "not a UTF-8 text file" in usage_error("replay", str(binary))
    assert "--game" in usage_error("replay", str(empty), "--game", "0")
