"""Fixtures of the Chase tests."""

from __future__ import annotations

import pytest

import diceboard


@pytest.fixture(scope="session")
def chase() -> diceboard.Game:
    """Chase with the default options."""
    return diceboard.game("chase")
