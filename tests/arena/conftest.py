"""Fixtures of the arena tests: games, a synthetic-result helper and the real command."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import diceboard
from diceboard.core.game import Game

#: the console script installed beside this Python
DICEBOARD = Path(sys.executable).parent / "diceboard"


@pytest.fixture(scope="session")
def custodian() -> Game:
    """Standard Custodian Dice."""
    return diceboard.game("custodian")


@pytest.fixture(scope="session")
def chase() -> Game:
    """Chase."""
    return diceboard.game("chase")


def run_diceboard(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``diceboard`` program and capture its output."""
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return subprocess.run(
        [str(DICEBOARD), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli("match", "random", …)`` runs the program."""
    return run_diceboard


def assert_usage_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit status 2, one line on stderr naming ``words``, no traceback, nothing on stdout."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("diceboard: error: ")
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0]
    assert result.stdout == ""


def scores_stream(pairs: Sequence[int]) -> list[float]:
    """Game scores for pair outcomes given as points 0…4 (half points)."""
    scores: list[float] = []
    for points in pairs:
        first = min(points, 2) / 2
        scores.extend([first, points / 2 - first])
    return scores
