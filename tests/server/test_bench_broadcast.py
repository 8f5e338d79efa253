"""``diceboard bench broadcast``: it runs, every spectator is sent the move, and bad counts
are refused with exit 2."""

from __future__ import annotations

import pytest

from diceboard.cli.main import main


def test_bench_broadcast_prints_the_cost_per_spectator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "broadcast", "--spectators", "3,40", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "load average" in lines[0]
    assert [line.split()[0] for line in lines[2:]] == ["3", "40"]


def test_bench_broadcast_refuses_bad_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "broadcast", "--spectators", "0"]) == 2
    assert "each spectator count is 1 to 100000" in capsys.readouterr().err
