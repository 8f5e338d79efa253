"""Time budgets (tolerant bounds: the machine is shared; the benchmark measures closely)."""

from __future__ import annotations

import time

import pytest

import diceboard
from diceboard.core.game import State


@pytest.mark.parametrize("spec", ["alphabeta:time=0.3", "mcts:time=0.3"])
@pytest.mark.parametrize("state_name", ["custodian_play", "chase_start"])
def test_time_budget_is_kept(spec: str, state_name: str, request: pytest.FixtureRequest) -> None:
    state: State = request.getfixturevalue(state_name)
    player = diceboard.agent(spec, seed=1)
    player.choose(state)  # compiles (or loads from the cache) outside the timing
    began = time.perf_counter()
    player.choose(state)
    took = time.perf_counter() - began
    assert 0.2 < took < 0.6


def test_depth_and_time_stop_at_whichever_comes_first(custodian_play: State) -> None:
    analysis = diceboard.agent("alphabeta:depth=2,time=30", seed=1).analyse(custodian_play)
    assert analysis.depth == 2 and analysis.seconds < 30
