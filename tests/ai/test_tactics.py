"""Hand-built positions with a known best move: a winning capture in one."""

from __future__ import annotations

import pytest

import diceboard
from tests.ai.conftest import CHASE_WIN_IN_ONE, CUSTODIAN_WIN_IN_ONE

SEARCHERS = [
    "greedy",
    "alphabeta:depth=1",
    "alphabeta:depth=3",
    "alphabeta:depth=2,eval=material,tt=off,ordering=off",
    "mcts:iterations=400",
    "mcts:iterations=400,playout=heuristic",
]


@pytest.mark.parametrize("spec", SEARCHERS)
def test_custodian_finds_the_winning_sandwich(spec: str) -> None:
    state = diceboard.game("custodian").parse(CUSTODIAN_WIN_IN_ONE)
    analysis = diceboard.agent(spec, seed=2).analyse(state)
    # c4-b4 with any new face sandwiches b3: Black is left with one die
    assert str(analysis.best).startswith("c4-b4=")
    assert analysis.value == pytest.approx(1.0)
    assert state.play(analysis.best).outcome().winner == "W"  # type: ignore[union-attr]


@pytest.mark.parametrize("spec", SEARCHERS)
def test_chase_finds_the_winning_capture(spec: str) -> None:
    state = diceboard.game("chase").parse(CHASE_WIN_IN_ONE)
    analysis = diceboard.agent(spec, seed=2).analyse(state)
    assert str(analysis.best) == "h1xi1NE"
    assert analysis.value == pytest.approx(1.0)


def test_chaos_win_holds_whatever_the_roll() -> None:
    """In Chaos the face is rolled after the move; the capture does not depend on it."""
    state = diceboard.game("custodian", variant="chaos").parse(CUSTODIAN_WIN_IN_ONE)
    analysis = diceboard.agent("alphabeta:depth=2", seed=1).analyse(state)
    assert str(analysis.best) == "c4-b4"
    assert analysis.value == pytest.approx(1.0)


def test_alphabeta_avoids_a_losing_move() -> None:
    """Black to move with two dice: b3 is attacked by c4-b4 next move. Depth 2 sees that
    leaving the die there loses, and moves it (or captures) instead."""
    state = diceboard.game("custodian").parse("....B1/..W1../.B1.../.W3.../..... B 0 10")
    deep = diceboard.agent("alphabeta:depth=2", seed=1).analyse(state)
    after = state.play(deep.best)
    reply = diceboard.agent("alphabeta:depth=1", seed=1).analyse(after)
    assert reply.value < 1.0
