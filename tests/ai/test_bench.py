"""The search benchmark, end to end through the ``diceboard`` program (short runs)."""

from __future__ import annotations

import json

import pytest

from diceboard.ai import benchmark
from diceboard.cli.main import main


def test_rates_are_positive() -> None:
    import diceboard

    state = benchmark.start_position(diceboard.game("chase"), 0)
    rate = benchmark.mcts_rate(state, 0.2)
    assert rate.count > 0 and rate.per_second > 0
    tree, positions = benchmark.alphabeta_rate(state, 0.2)
    assert positions.count >= tree.count > 0


def test_budget_overshoots_are_measured() -> None:
    import diceboard

    overs = benchmark.budget_overshoots(diceboard.game("chase"), "alphabeta:time=0.1", 2, 1)
    assert len(overs) == 2 and all(-1.0 < o < 1.0 for o in overs)
    with pytest.raises(ValueError, match="no time budget"):
        benchmark.budget_overshoots(diceboard.game("chase"), "alphabeta:depth=1", 1, 1)


@pytest.mark.slow
def test_bench_search_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "search", "chase", "--seconds", "0.2", "--skip", "compile", "--json"]) == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "chase"
    assert set(figures["budget_overshoot"]) == {"alphabeta:time=0.5", "mcts:time=0.5"}
    assert all(v > 0 for v in figures["rates"].values())
