"""``diceboard bench review``: the game it reviews, and its refusals (the figure itself is
measured by running the command, never in a test)."""

from __future__ import annotations

import pytest

from diceboard.cli.bench.review import random_record
from tests.cli.helpers import usage_error


@pytest.mark.parametrize("game", ["custodian", "chase"])
def test_the_reviewed_game_has_the_moves_asked_for(game: str) -> None:
    record = random_record(game, 40, seed=3)
    assert len(record.moves) == 40
    assert len(record.states()) == 41  # it replays move by move
    # seeded: the same game every time
    assert random_record(game, 40, seed=3).to_pgn() == record.to_pgn()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--game", "nope"), "unknown game"),
        (("--moves", "0"), "moves"),
        (("--rounds", "x"), "rounds"),
    ],
)
def test_bad_arguments(args: tuple[str, ...], needle: str) -> None:
    assert needle in usage_error("bench", "review", *args)
