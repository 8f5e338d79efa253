"""Puzzle generation: what it finds is proved, and verifies again from the position string."""

from __future__ import annotations

import diceboard
from diceboard.analysis.puzzles import MARGIN, generate, puzzle_document, verify


def test_generated_puzzles_verify() -> None:
    game = diceboard.game("chase")
    puzzles, figures = generate(game, 2, seed=1, max_games=20)
    assert len(puzzles) == 2 and figures["puzzles"] == 2
    doc = puzzle_document(game, puzzles, "test")
    for puzzle in doc["puzzles"]:
        assert puzzle["theme"] in ("win", "material", "save")
        assert 1 <= puzzle["difficulty"] <= 4
        assert puzzle["solved"] - puzzle["second"] >= MARGIN
        assert puzzle["line"][0] == puzzle["solution"]
        assert verify(puzzle, game)
