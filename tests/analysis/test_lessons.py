"""The lessons: every position is valid, its intended move is legal and does what the text
says, and the lesson is a real choice (some legal moves do not meet its goal)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import diceboard
from diceboard.analysis import lessons as L
from diceboard.core.errors import IllegalMoveError
from diceboard.rendering.svg import square_centres


def _all() -> list[tuple[str, dict[str, Any]]]:
    return [(name, item) for name in L.lesson_names() for item in L.lessons(name)["lessons"]]


def test_both_games_have_the_lessons_the_issue_lists() -> None:
    ids = {name: [item["id"] for item in L.lessons(name)["lessons"]] for name in L.lesson_names()}
    assert ids["custodian"] == [
        "exact-walk",
        "turn",
        "no-straight-back",
        "jump",
        "capture",
        "double-capture",
        "line-capture",
        "safe-sandwich",
        "end",
        "no-jumping",
        "chaos",
        "placement",
    ]
    assert ids["chase"] == [
        "straight",
        "wrap",
        "ricochet",
        "bump",
        "capture",
        "absorb",
        "transfer",
        "chamber",
        "end",
    ]


@pytest.mark.parametrize(
    ("name", "item"), _all(), ids=lambda v: v if isinstance(v, str) else v["id"]
)
def test_lesson_is_valid_and_its_move_shows_the_rule(name: str, item: dict[str, Any]) -> None:
    state = L.start_of(name, item)  # parses, or raises the position's error
    assert str(state) == item["position"]
    assert state.outcome() is None and not state.is_chance()
    squares = set(square_centres(state.game))
    for mark in item["marks"]:
        assert mark["square"] in squares and mark["kind"] in L.MARK_KINDS
    for text in ("title", "text", "hint", "success"):
        assert item[text].strip()
    assert set(item["goal"]) <= L.GOAL_FIELDS
    tried = L.attempt(name, item, item["play"], random.Random(1))
    assert tried.correct and tried.text == item["success"]
    assert tried.move in state.legal_moves()
    # a real choice: some legal moves miss the goal, and they are told the lesson's hint
    # or a wrong-move explanation that some legal move reaches
    missed = []
    for move in state.legal_moves():
        after = L.resolve_rolls(state.play(move), random.Random(1))
        if not L.meets(item["goal"], state, move, after):
            missed.append((move, after))
    assert missed
    for wrong in item["wrong"]:
        assert any(L.meets(wrong["when"], state, m, a) for m, a in missed), wrong["text"]
    judged = L.attempt(name, item, missed[0][0].notation, random.Random(1))
    assert not judged.correct and judged.text


def _after(name: str, lesson_id: str) -> diceboard.State:
    item = L.lesson(name, lesson_id)
    return L.attempt(name, item, item["play"], random.Random(1)).after


def test_custodian_lessons_do_what_their_text_says() -> None:
    board = _after("custodian", "exact-walk").board()
    assert board["c4"][0] == "W" and "c1" not in board
    assert _after("custodian", "turn").board()["b3"] == ("W", 6)
    # no step straight back: the 2 on c1 has one walk, to c3; c1-c2-c1 is refused
    start = L.start_of("custodian", L.lesson("custodian", "no-straight-back"))
    walks = {
        m.to_square for m in start.legal_moves() if m.from_square == "c1" and m.kind.value == "step"
    }
    assert walks == {"c3"}
    with pytest.raises(IllegalMoveError):
        start.parse_move("c1-c1=3")
    assert _after("custodian", "jump").board()["c3"] == ("W", 2)  # a 5 flips to 2
    assert "c3" not in _after("custodian", "capture").board()
    double = _after("custodian", "double-capture").board()
    assert "b3" not in double and "c4" not in double
    line = _after("custodian", "line-capture").board()
    assert "b2" not in line and "c2" not in line
    safe = _after("custodian", "safe-sandwich")
    assert safe.board()["c3"][0] == "W" and safe.dice_counts() == {"W": 2, "B": 4}
    end = _after("custodian", "end").outcome()
    assert end is not None and end.winner == "W" and end.reason == "elimination"
    # no jumping: the jump over c2 is not legal there, the walk round is
    nojump = L.start_of("custodian", L.lesson("custodian", "no-jumping"))
    assert not any(m.kind.value == "jump" for m in nojump.legal_moves())
    chaos = _after("custodian", "chaos")
    assert not chaos.is_chance() and chaos.board()["c4"][1] in range(1, 7)
    assert _after("custodian", "placement").board()["c1"] == ("W", 6)


def test_chase_lessons_do_what_their_text_says() -> None:
    def segments(lesson_id: str) -> list[list[str]]:
        item = L.lesson("chase", lesson_id)
        return L.start_of("chase", item).move_segments(item["play"])

    assert segments("straight") == [["c3", "d4", "e4", "f5"]]
    assert segments("wrap") == [["d8", "d9", "d1", "d2"]]
    assert segments("ricochet") == [["d6", "c5", "b5", "a4", "b4", "c3", "d3"]]
    bump = _after("chase", "bump").board()
    assert (bump["d3"], bump["d4"], bump["d5"]) == (("B", 2), ("B", 3), ("B", 4))
    capture = _after("chase", "capture")
    assert capture.board()["f5"] == ("B", 3) and capture.dice_counts()["R"] == 5
    absorbed = _after("chase", "absorb")
    assert sum(face or 0 for owner, face in absorbed.board().values() if owner == "R") == 25
    transfer = _after("chase", "transfer").board()
    assert (transfer["c4"], transfer["c5"]) == (("B", 3), ("B", 6))
    chamber = _after("chase", "chamber").board()
    assert chamber["f5"] == ("B", 2) and chamber["d5"] == ("B", 2)
    end = _after("chase", "end").outcome()
    assert end is not None and end.winner == "B" and end.reason == "elimination"


def test_goals_refuse_unknown_fields_and_lookups_fail_clearly() -> None:
    item = L.lesson("custodian", "capture")
    state = L.start_of("custodian", item)
    move = state.parse_move(item["play"])
    with pytest.raises(ValueError, match="unknown goal fields"):
        L.meets({"capture": 1}, state, move, state.play(move))
    with pytest.raises(diceboard.OptionError, match="no lesson"):
        L.lesson("custodian", "nope")
    with pytest.raises(IllegalMoveError):
        L.attempt("custodian", item, "a2-e4=1")
