"""End to end: the training example and ``diceboard bench vector`` run as programs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DICEBOARD = str(Path(sys.executable).with_name("diceboard"))


def _run(args: list[str], timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, env=dict(os.environ), cwd=ROOT
    )


def test_bench_vector_prints_its_figure_lines() -> None:
    done = _run(
        [
            DICEBOARD,
            "bench",
            "vector",
            "--game",
            "custodian",
            "--seconds",
            "0.05",
            "--batch",
            "4",
            "--batch",
            "300",
        ]
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Batched simulator: Custodian Dice" in out
    assert "machine's speed before and after: a million Python additions " in out
    for label in ("batch      4", "batch    300", "functional", "with observations and masks"):
        assert label in out
    # each figure line (two batches, then random_step) has the spread of its rounds under it
    spreads = [line for line in out.splitlines() if "by round, to 1 thread:" in line]
    assert len(spreads) == 3 and all("2 threads" in s and "default" in s for s in spreads)
    assert "PettingZoo custodian_dice_v0 (one game, AEC)" in out
    assert "batched simulator / PettingZoo" not in out  # no headline batch of 4,096 here


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--batch", "0"], "--batch"),
        (["--game", "go"], "--game"),
        (["--seconds", "-1"], "--seconds"),
        (["--threads", "999"], "--threads 999: at most"),
    ],
)
def test_bench_vector_rejects_bad_input(args: list[str], message: str) -> None:
    done = _run([DICEBOARD, "bench", "vector", *args])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("diceboard: error:") and message in lines[0]
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_training_example_runs_and_reports_its_score() -> None:
    done = _run(
        [
            sys.executable,
            "examples/train_custodian.py",
            "--steps",
            "40",
            "--eval-steps",
            "40",
            "--batch",
            "32",
        ]
    )
    assert done.returncode == 0, done.stderr
    assert "random vs random" in done.stdout and "learned (greedy) vs random" in done.stdout
