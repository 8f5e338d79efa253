"""Puzzle generation: what it finds is proved, verifies again from the position string, is
never the same position twice, and answers are judged by the engine."""

from __future__ import annotations

import diceboard
from diceboard.analysis.puzzles import (
    MARGIN,
    answer,
    die_worth,
    family,
    generate,
    margin,
    position_key,
    puzzle_document,
    verify,
)


def test_generated_puzzles_verify() -> None:
    game = diceboard.game("chase")
    puzzles, figures = generate(game, 2, seed=1, max_games=20)
    assert len(puzzles) == 2 and figures["puzzles"] == 2
    doc = puzzle_document(game, puzzles, "test", figures)
    assert doc["generation"]["puzzles"] == 2
    keys = set()
    for puzzle in doc["puzzles"]:
        assert puzzle["theme"] in ("win", "material", "save")
        assert 1 <= puzzle["difficulty"] <= 5 and puzzle["rating"]["score"] >= 0
        assert puzzle["solved"] - puzzle["second"] >= margin("chase") - 0.001
        assert puzzle["line"][0] == puzzle["solution"] and puzzle["solution"] in puzzle["accepted"]
        assert puzzle["refutation"] and puzzle["refutation"][0] not in puzzle["accepted"]
        assert verify(puzzle, game)
        keys.add(position_key(game.parse(puzzle["position"])))
    assert len(keys) == len(puzzles)


def test_the_margin_is_three_quarters_of_a_die_at_most_twenty_points() -> None:
    # Custodian Dice is drawish: a die is worth far less win probability there than in Chase
    assert 0.05 < die_worth("custodian") < die_worth("chase")
    assert margin("custodian") < margin("chase") <= MARGIN
    assert abs(margin("custodian") - 0.75 * die_worth("custodian")) < 1e-9


def test_faces_of_one_walk_are_one_answer_and_counters_do_not_make_a_new_position() -> None:
    game = diceboard.game("custodian")
    state = game.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    assert family(state.parse_move("b1-b2=2")) == family(state.parse_move("b1-b2=5"))
    assert family(state.parse_move("b1-b2=2")) != family(state.parse_move("a1-a4=2"))
    placing = game.parse("...../...../...../...../..... W 0 0 W12346,B22566")
    assert family(placing.parse_move("6@c1")) != family(placing.parse_move("4@c1"))
    later = game.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 7 31")
    assert position_key(state) == position_key(later)
    assert position_key(state) != position_key(state.play("b1-b2=2"))


CAPTURE = {
    "id": "t-1",
    "game": "custodian",
    "options": {},
    "position": "B3...B3/..W4../..B2../W2..../..... W 0 10",
    "to_move": "W",
    "solution": "a2-c2=1",
    "accepted": ["a2-c2=1", "a2-c2=3"],
    "line": ["a2-c2=1"],
    "theme": "material",
    "difficulty": 1,
    "solved": 0.6,
    "second": 0.5,
}


def test_answers_are_judged_and_a_wrong_one_explained() -> None:
    game = diceboard.game("custodian")
    right = answer(CAPTURE, game, "a2-c2=3")
    assert right.correct and "wins material" in right.text
    face = answer(CAPTURE, game, "a2-c2=4")
    assert not face.correct and "right die and square" in face.text
    wrong = answer(CAPTURE, game, "a2-a4=1")
    assert not wrong.correct and wrong.text.startswith("a2-a4=1 is not the answer")
    assert wrong.reply and "%" in wrong.text
