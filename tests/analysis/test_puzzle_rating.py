"""The puzzle rating: deterministic, spread over the shipped sets, and more points (never a
lower difficulty) for what makes a puzzle harder."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import diceboard
from diceboard.analysis.puzzle_rating import TOP, Signals, difficulty_of, rate, score_of
from diceboard.analysis.puzzles import histogram, rate_set, shipped

#: a Custodian capture in one (a2-c2 sandwiches the Black die on c3 between c2 and c4), with
#: the fields that the puzzle proof gives it
CAPTURE: dict[str, Any] = {
    "id": "t-1",
    "game": "custodian",
    "options": {},
    "position": "B3...B3/..W4../..B2../W2..../..... W 0 10",
    "to_move": "W",
    "solution": "a2-c2=1",
    "line": ["a2-c2=1", "a5-a2=1", "c4-a4=1", "a2-a1=3"],
    "theme": "material",
    "solved": 0.485,
    "second": 0.393,
    "refutation": ["a2-b1=3", "c3-d4=6", "c4-d1=5", "d4-e1=3", "d1-a1=3"],
    "accepted": ["a2-c2=1", "a2-c2=3", "a2-c2=6", "a2-c2=4"],
}

EASY = Signals(
    level=3, depth=1, horizon=1, glance_gap=0.2, temptation=0.0, rivals=0, families=12, steps=1
)


def _sets() -> list[dict[str, Any]]:
    found = []
    for name in diceboard.games.names():
        try:
            found.append(shipped(name))
        except diceboard.OptionError:
            continue
    return found


def test_a_capture_in_one_with_nothing_close_is_the_easiest() -> None:
    rating = rate(CAPTURE, diceboard.game("custodian"))
    assert rating.signals.depth == 1 and rating.signals.horizon == 1
    assert rating.signals.level <= 3 and rating.signals.rivals == 0
    assert rating.difficulty == 1
    assert rating.as_json()["score"] == rating.score == score_of(rating.signals)


def test_the_rating_is_deterministic() -> None:
    game = diceboard.game("custodian")
    assert rate(CAPTURE, game) == rate(CAPTURE, game)
    document = {"puzzles": [dict(CAPTURE), dict(CAPTURE, id="t-2")]}
    counts = rate_set(document)
    assert counts == {"1": 2, "2": 0, "3": 0, "4": 0, "5": 0} == document["difficulties"]
    first, second = document["puzzles"]
    assert first["rating"] == second["rating"] and first["difficulty"] == 1


@pytest.mark.parametrize(
    ("field", "harder"),
    [
        ("depth", [2, 3, 4]),
        ("horizon", [2, 3, 5, 9]),
        ("temptation", [0.3, 0.7, 1.0]),
        ("rivals", [1, 2, 4, 10]),
        ("families", [24, 48, 200]),
        ("steps", [2, 3, 5, 6]),
    ],
)
def test_each_signal_adds_points_and_never_lowers_the_difficulty(
    field: str, harder: list[float]
) -> None:
    scores = [score_of(EASY)]
    for value in harder:
        scores.append(score_of(dataclasses.replace(EASY, **{field: value})))
    assert scores == sorted(scores) and scores[-1] > scores[0]
    assert [difficulty_of(s) for s in scores] == sorted(difficulty_of(s) for s in scores)


def test_random_signals_are_monotone_and_in_range() -> None:
    rng = random.Random(1)
    for _ in range(500):
        signals = Signals(
            level=rng.randint(1, 6),
            depth=rng.randint(1, 4),
            horizon=rng.randint(1, 8),
            glance_gap=rng.uniform(-0.5, 0.5),
            temptation=rng.random(),
            rivals=rng.randint(0, 30),
            families=rng.randint(1, 300),
            steps=rng.randint(1, 12),
        )
        score = score_of(signals)
        assert 1 <= difficulty_of(score) <= TOP
        deeper = dataclasses.replace(signals, depth=min(4, signals.depth + 1))
        assert score_of(deeper) >= score
        assert difficulty_of(score_of(deeper)) >= difficulty_of(score)


def test_a_deep_combination_rates_above_a_capture_in_one() -> None:
    hidden = dataclasses.replace(EASY, depth=3, horizon=3, temptation=1.0, rivals=3)
    assert difficulty_of(score_of(hidden)) >= 4 > difficulty_of(score_of(EASY)) == 1


def test_every_shipped_set_is_rated_and_spread() -> None:
    sets = _sets()
    assert sets
    for document in sets:
        puzzles = document["puzzles"]
        assert document["version"] == 3
        counts = histogram(puzzles)
        assert document["difficulties"] == counts
        # not all one value: every difficulty is met, none holds four puzzles in five
        assert all(counts.values()), counts
        assert max(counts.values()) < 0.8 * len(puzzles), counts
        for puzzle in puzzles:
            rating = puzzle["rating"]
            signals = Signals(**{k: v for k, v in rating.items() if k != "score"})
            assert rating["score"] == score_of(signals)
            assert puzzle["difficulty"] == difficulty_of(rating["score"])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_sample_of_shipped_ratings_is_what_rating_again_gives(index: int) -> None:
    for document in _sets():
        puzzle = random.Random(index).choice(document["puzzles"])
        game = diceboard.game(puzzle["game"], **puzzle["options"])
        again = rate(puzzle, game)
        assert again.difficulty == puzzle["difficulty"], puzzle["id"]
        assert again.as_json() == puzzle["rating"], puzzle["id"]


def test_puzzles_rate_rates_a_file_in_place(tmp_path: Any, capsys: Any) -> None:
    import json

    from diceboard.cli.main import main

    path = tmp_path / "set.json"
    unrated = dict(CAPTURE, difficulty=4)
    path.write_text(json.dumps({"format": "diceboard-puzzles", "version": 2, "puzzles": [unrated]}))
    assert main(["puzzles", "rate", str(path)]) == 0
    assert "1 puzzles rated" in capsys.readouterr().err
    document = json.loads(path.read_text())
    assert document["version"] == 3 and document["difficulties"]["1"] == 1
    (puzzle,) = document["puzzles"]
    assert puzzle["difficulty"] == 1 and puzzle["rating"]["depth"] == 1
    again = path.read_text()
    assert main(["puzzles", "rate", str(path)]) == 0 and path.read_text() == again


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a puzzle set"),
        ('{"format": "diceboard-puzzles", "puzzles": 3}', "not a list of puzzles"),
        ('{"format": "diceboard-puzzles", "puzzles": [{"id": "x"}]}', "puzzle 1 has no game"),
    ],
)
def test_puzzles_rate_refuses_what_is_not_a_set(
    tmp_path: Any, capsys: Any, content: str, words: str
) -> None:
    from diceboard.cli.main import main

    path = tmp_path / "set.json"
    path.write_text(content)
    assert main(["puzzles", "rate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and path.read_text() == content
    assert main(["puzzles", "rate", str(tmp_path / "missing.json")]) == 2
