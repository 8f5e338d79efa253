"""The commands on Chase: moves, apply, perft in turns and in actions, render, and the play
prompt's shorthands (direction suffix, absorption prefix, a hex's destinations)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.cli.helpers import CHASE_START, ok, usage_error

pytestmark = [pytest.mark.e2e]

#: Blue's 6 on d6 reaches d3 two ways (the spec's example: SW with a ricochet, or E across
#: the wrap) and bumps Blue's 1 there: NW to e2 after SW, E to d4 after E
TWO_WAYS = (
    "R5R5R5R5R5..../........./........./........./........./..B1..B6.../........./........./"
    "B5B5B4....B4. B 0 0"
)
#: Blue totals 23 and must absorb 2 into one of its two 1s before acting
ABSORBING = (
    "R5R5R5R5R5..../........./........./........./........./........./........./........./"
    "B1B1B6B6B5B4... B 0 10"
)


def _session(lines: list[str], *args: str) -> str:
    return ok("play", "chase", *args, stdin="".join(line + "\n" for line in lines))


def test_moves_of_the_start() -> None:
    lines = ok("moves", "chase", "start").splitlines()
    assert len(lines) == 46
    assert lines == sorted(lines)
    assert {"a1-a2E", "a1=2,a2=1", "a5-f3NW", "a5-f8NE"} <= set(lines)
    assert ok("moves", "chase", CHASE_START) == "\n".join(lines) + "\n"


def test_apply_the_two_ways_to_d3() -> None:
    sw = ok("apply", "chase", TWO_WAYS, "d6-d3SW").strip()
    east = ok("apply", "chase", TWO_WAYS, "d6-d3E").strip()
    rows = {name: row for name, row in zip("ihgfedcba", sw.split()[0].split("/"), strict=True)}
    assert rows["e"] == ".B1......." and rows["d"] == "..B6......"
    rows = {name: row for name, row in zip("ihgfedcba", east.split()[0].split("/"), strict=True)}
    assert rows["d"] == "..B6B1....."
    # without the direction the turn is ambiguous: the engine refuses it
    assert "d6-d3" in usage_error("apply", "chase", TWO_WAYS, "d6-d3")


def test_perft_counts_turns_and_agrees_with_the_kernel_before_any_capture() -> None:
    assert ok("perft", "chase", "start", "1") == "46\n"
    turns = ok("perft", "chase", "start", "2")
    # no capture is possible in the first two plies, so no absorbing: turns are actions
    assert turns == ok("perft", "chase", "start", "2", "--unit", "actions") == "2114\n"
    *rows, total = ok("perft", "chase", "start", "2", "--divide").splitlines()
    assert total == "total 2114"
    assert len(rows) == 46


def test_perft_of_a_turn_that_absorbs() -> None:
    # one turn with its prefix is one ply in turns, but 2 plies (absorb, act) in actions
    turns = int(ok("perft", "chase", ABSORBING, "1"))
    assert turns == int(ok("moves", "chase", ABSORBING, "--count"))
    assert ok("perft", "chase", ABSORBING, "1", "--unit", "actions") == "2\n"  # {a1} or {a2}
    rows = ok("perft", "chase", ABSORBING, "1", "--divide", "--unit", "actions").split()
    assert rows == ["{a1}", "1", "{a2}", "1", "total", "2"]


def test_render_chase(tmp_path: Path) -> None:
    target = tmp_path / "chase.svg"
    ok("render", "chase", "start", "-o", str(target), "--highlight", "e5,d6")
    assert ET.parse(target).getroot().tag.endswith("svg")
    board = ok("render", "chase", "start", "--format", "txt")
    assert "R5" in board and "B5" in board


def test_a_turn_without_its_direction_asks_which() -> None:
    out = _session(["d6-d3", "2", "quit"], "--position", TWO_WAYS, "--seed", "1")
    assert "d6-d3 fits 2 moves that end differently:" in out
    # the paths tell the two apart
    assert "  1. d6-d3E  (d6 d7 d8 d9 d1 d2 d3; d3 d4)" in out
    assert "  2. d6-d3SW  (d6 c5 b5 a4 b4 c3 d3; d3 e2)" in out
    assert re.search(r"Red \(random\) plays \S+", out)


def test_a_turn_that_must_absorb_asks_which_die_absorbs() -> None:
    out = _session(["a6-e8", "2", "quit"], "--position", ABSORBING, "--seed", "1")
    assert "a6-e8 fits 2 moves that end differently:" in out
    assert "  1. {a1}a6-e8NE" in out and "  2. {a2}a6-e8NE" in out
    assert "Red (random) plays" in out


def test_a_unique_shorthand_is_completed() -> None:
    out = _session(["a5-f8", "quit"], "--seed", "1")
    assert "playing a5-f8NE" in out


def test_a_hex_lists_where_its_die_lands() -> None:
    out = _session(["d6", "a1", "quit"], "--position", TWO_WAYS, "--seed", "1")
    listing = out.split("moves of the die on d6, by the square where it lands:\n", 1)[1]
    assert re.match(r"  d3 +d6-d3E d6-d3SW\n", listing)
    # a transfer is not a move of the die: a1 lists only where it goes
    a1 = out.split("moves of the die on a1, by the square where it lands:\n", 1)[1]
    assert "=" not in a1.split("Blue> ", 1)[0]


def test_chase_seats_are_blue_and_red() -> None:
    assert "--white is not a side in Chase" in usage_error("play", "chase", "--white", "random")
    out = ok("play", "chase", "--blue", "random", "--red", "random", "--seed", "2")
    assert re.search(r"^Game over: (1-0|0-1|1/2-1/2): ", out, re.M)
