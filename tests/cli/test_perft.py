"""``diceboard perft``: the spec's known counts, --divide, and counts that must agree."""

from __future__ import annotations

import subprocess

import pytest

from tests.cli.helpers import EXAMPLE, environment, ok, run, script, usage_error

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("position", "depth", "count"),
    [
        (EXAMPLE, 0, 1),
        (EXAMPLE, 1, 84),
        (EXAMPLE, 2, 8788),
        (EXAMPLE, 3, 660808),
        ("initial", 1, 6),
        ("initial", 3, 216),
    ],
)
def test_known_counts(position: str, depth: int, count: int) -> None:
    assert ok("perft", "custodian", position, str(depth)) == f"{count}\n"


def test_divide_sums_to_the_total_and_agrees_with_apply() -> None:
    lines = ok("perft", "custodian", EXAMPLE, "2", "--divide").splitlines()
    *rows, total = lines
    assert total == "total 8788"
    counts = {move: int(n) for move, n in (row.split() for row in rows)}
    assert len(counts) == 84
    assert sum(counts.values()) == 8788
    # the count under b1-b2=2 is the number of Black's replies after it
    after = ok("apply", "custodian", EXAMPLE, "b1-b2=2").strip()
    assert counts["b1-b2=2"] == int(ok("perft", "custodian", after, "1"))


def test_divide_at_a_chance_node_lists_the_rolls() -> None:
    assert ok("perft", "custodian", "initial", "2", "--divide").splitlines() == [
        *(f"={face}  6" for face in range(1, 7)),
        "total 36",
    ]


def test_chaos_moves_and_rolls_are_separate_plies() -> None:
    # the 84 standard moves are 21 steps with 4 faces each (no jump is possible); in Chaos
    # those are 21 moves, each followed by one of six rolls
    assert ok("moves", "custodian", EXAMPLE, "--variant", "chaos", "--count") == "21\n"
    assert ok("perft", "custodian", EXAMPLE, "2", "--variant", "chaos") == "126\n"


def test_time_goes_to_stderr() -> None:
    done = run("perft", "custodian", EXAMPLE, "1", "--time")
    assert done.returncode == 0
    assert done.stdout == "84\n"
    assert done.stderr.startswith("perft 1 (actions): 84 in ")


def test_bad_depths() -> None:
    assert "DEPTH" in usage_error("perft", "custodian", EXAMPLE, "-1")
    assert "DEPTH" in usage_error("perft", "custodian", EXAMPLE, "two")
    assert "--divide" in usage_error("perft", "custodian", EXAMPLE, "0", "--divide")


@pytest.mark.nojit
def test_the_kernel_as_plain_python_counts_the_same() -> None:
    env = environment()
    env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run(
        [script(), "perft", "custodian", EXAMPLE, "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "8788\n", "")
