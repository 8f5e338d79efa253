"""The shipped puzzle sets: at least 200 a game, each solution proved again by the deeper
search with the set's margin (a sample here, every puzzle in the slow test)."""

from __future__ import annotations

import random

import pytest

import diceboard
from diceboard.analysis.puzzles import position_key, shipped, verify


def _sets() -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    out = []
    for name in diceboard.games.names():
        try:
            out.append((name, shipped(name)))
        except diceboard.OptionError:
            continue
    return out


def test_every_shipped_set_is_big_and_well_formed() -> None:
    sets = _sets()
    assert sets
    for name, document in sets:
        assert document["game"] == name and document["command"].startswith("diceboard puzzles")
        puzzles = document["puzzles"]
        assert len(puzzles) >= 200
        assert len({p["id"] for p in puzzles}) == len(puzzles)
        assert "generation" in document and document["generation"]["puzzles"] == len(puzzles)
        game = diceboard.game(name)
        keys = set()
        for puzzle in puzzles:
            state = game.parse(puzzle["position"])
            assert state.parse_move(puzzle["solution"]) in state.legal_moves()
            assert puzzle["solution"] in puzzle["accepted"]
            assert state.to_move == puzzle["to_move"]
            keys.add(position_key(state))
        # no position twice, move counters aside
        assert len(keys) == len(puzzles)


def _cases(sample: int | None) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    cases = []
    for name, document in _sets():
        puzzles = document["puzzles"]
        chosen = puzzles if sample is None else random.Random(1).sample(puzzles, sample)
        cases.extend((name, p) for p in chosen)
    return cases


@pytest.mark.parametrize(("name", "puzzle"), _cases(3), ids=lambda v: getattr(v, "get", str)("id"))
def test_a_sample_of_solutions_is_proved_again(name: str, puzzle: dict) -> None:  # type: ignore[type-arg]
    assert verify(puzzle, diceboard.game(name, **puzzle["options"]))


@pytest.mark.slow
def test_every_solution_is_proved_again() -> None:
    for name, puzzle in _cases(None):
        assert verify(puzzle, diceboard.game(name, **puzzle["options"])), puzzle["id"]
