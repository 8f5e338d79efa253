"""Fixtures of the record tests."""

from __future__ import annotations

import pytest

from diceboard.core.game import Game
from tests.records.helpers import chase_game


@pytest.fixture
def chase() -> Game:
    """The Chase game."""
    return chase_game()
