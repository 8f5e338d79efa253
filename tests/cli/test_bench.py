"""``diceboard bench``: it runs and prints its figure lines (labels, not numbers)."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import ok, usage_error

pytestmark = pytest.mark.e2e

QUICK = ("--seconds", "0.05", "--runs", "1", "--skip", "compile")


def test_custodian_bench_prints_every_figure() -> None:
    out = ok("bench", "custodian", *QUICK)
    lines = out.splitlines()
    assert lines[0].startswith("Custodian Dice: random games from the initial state, on ")
    labels = [line[:32].strip() for line in lines[2:]]
    for label in (
        "compiled kernel",
        "Python API",
        "kernel without JIT",
        "ratio compiled / Python API",
        "ratio compiled / without JIT",
        "ratio Python API / without JIT",
        "moves command, warm cache",
    ):
        assert label in labels, f"{label!r} missing from {labels}"
    assert "≥ 1,000,000 plies/s" in out
    assert "≥ 20,000 plies/s" in out
    assert "< 1.5 s" in out
    assert "(diceboard moves custodian start, median of 1)" in out
    assert "compile time" not in out  # skipped
    # each target has its verdict
    assert sum(line.rstrip().endswith(("✓", "✗")) for line in lines) == 3


def test_json_figures() -> None:
    (figures,) = json.loads(ok("bench", "custodian", *QUICK, "--skip", "nojit", "--json"))
    assert figures["game"] == "custodian"
    assert figures["kernel_without_jit"] is None
    for key in ("compiled_kernel", "python_api"):
        assert figures[key]["plies"] > 0
        assert figures[key]["plies_per_second"] > 0
    assert figures["ratios"]["compiled/api"] > 1
    assert set(figures["targets_met"]) == {"compiled", "api", "moves"}


def test_variant_options_reach_every_measurement() -> None:
    out = ok("bench", "custodian", *QUICK, "--variant", "chaos", "--skip", "nojit")
    assert out.startswith("Custodian Dice (variant=chaos): ")
    assert "(diceboard moves custodian start --variant chaos, median of 1)" in out


@pytest.mark.slow
def test_full_bench_with_the_cold_compile() -> None:
    out = ok("bench", "custodian", "--seconds", "0.2", "--runs", "2")
    assert "compile time, cold cache" in out
    assert "(import " in out and "first calls " in out


def test_chase_bench() -> None:
    out = ok("bench", "chase", *QUICK)
    assert out.startswith("Chase: random games")
    assert "≥ 500,000 plies/s" in out and "≥ 10,000 plies/s" in out


def test_bench_all_runs_both_games() -> None:
    out = ok("bench", "all", *QUICK, "--skip", "nojit", "--skip", "moves")
    assert "Custodian Dice: random games" in out and "\nChase: random games" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("custodian", "--seconds", "0"), "--seconds"),
        (("custodian", "--seconds", "soon"), "--seconds"),
        (("custodian", "--seconds", "inf"), "--seconds"),
        (("custodian", "--skip", "everything"), "--skip"),
        (("custodian", "--runs", "0"), "--runs"),
        (("custodian", "--variant", "wild"), "unknown Custodian Dice variant"),
        (("all", "--variant", "chaos"), "unrecognized arguments"),
        (("checkers",), "invalid choice: 'checkers'"),
        ((), "TARGET"),
    ],
)
def test_bad_bench_arguments(args: tuple[str, ...], needle: str) -> None:
    assert needle in usage_error("bench", *args)
