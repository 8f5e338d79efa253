"""The benchmark commands' shared options and report lines (``cli/bench/common.py``): each
command gets the same option with its own default and wording, and bad values are refused."""

from __future__ import annotations

import pytest

from diceboard.cli.bench import common
from diceboard.cli.errors import UsageError
from diceboard.cli.main import build_parser
from diceboard.cli.parsing import ArgumentParser


def parser() -> ArgumentParser:
    made = ArgumentParser(prog="bench test")
    common.add_seconds(made, 1.5, "each thing measured")
    common.add_seed(made, 3, "setup seed")
    common.add_skip(made, ("nojit", "compile", "moves"))
    common.add_json(made)
    return made


def test_defaults() -> None:
    args = parser().parse_args([])
    assert (args.seconds, args.seed, args.skip, args.json) == (1.5, 3, [], False)


def test_values() -> None:
    args = parser().parse_args(
        ["--seconds", "0.25", "--seed", "-7", "--skip", "moves", "--skip", "nojit", "--json"]
    )
    assert (args.seconds, args.seed, args.skip, args.json) == (0.25, -7, ["moves", "nojit"], True)


def test_help_names_each_default_and_stage() -> None:
    text = " ".join(parser().format_help().split())
    assert "seconds for each thing measured (default 1.5)" in text
    assert "setup seed (default 3)" in text
    assert "leave out a measurement: nojit, compile or moves (repeatable)" in text
    assert "print the figures as JSON" in text


def test_one_stage_is_named_alone() -> None:
    made = ArgumentParser(prog="bench test")
    common.add_skip(made, ("compile",))
    assert "leave out a measurement: compile (repeatable)" in " ".join(made.format_help().split())


@pytest.mark.parametrize(
    "argv",
    [
        ["--seconds", "0"],
        ["--seconds", "-1"],
        ["--seconds", "nan"],
        ["--seed", "x"],
        ["--skip", "all"],
    ],
)
def test_bad_values_are_usage_errors(argv: list[str]) -> None:
    with pytest.raises(UsageError, match=argv[0]):
        parser().parse_args(argv)


@pytest.mark.parametrize(
    ("target", "seconds", "seed"),
    [(["custodian"], 2.0, 0), (["search", "chase"], 2.0, 0), (["eval", "chase"], 1.0, 1)],
)
def test_the_bench_commands_keep_their_defaults(
    target: list[str], seconds: float, seed: int
) -> None:
    args = build_parser().parse_args(["bench", *target])
    assert (args.seconds, args.seed) == (seconds, seed)


def test_core_line() -> None:
    assert common.core_line(3) == "  one core: core 3"
    assert common.core_line(None) == "  one core: not pinned"


def test_load_average() -> None:
    load = common.load_average()
    assert len(load) == 3
    assert all(isinstance(x, float) and x >= 0 for x in load)


def test_a_median_leaves_out_the_figures_not_measured() -> None:
    assert common.median_of([3.0, None, 1.0, float("nan"), 2.0]) == 2.0
    assert common.median_of([None, float("nan")]) is None
    assert common.median_of(iter([4.0, 1.0])) == 2.5


def test_a_load_average_reads_as_the_reports_print_it() -> None:
    assert common.load_text((2.44, 0.0, 12.06)) == "2.4, 0.0, 12.1"


def test_the_speed_probe_times_its_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # the wall time of the loop, in milliseconds: a clock that advances 0.25 s between its two
    # reads makes the probe say 250 ms, and a bigger loop takes longer on a real clock
    reads = iter([10.0, 10.25])
    monkeypatch.setattr(common.time, "perf_counter", lambda: next(reads))
    assert common.python_speed() == pytest.approx(250.0)
    monkeypatch.undo()
    monkeypatch.setattr(common, "SPEED_ADDITIONS", 1_000)
    small = min(common.python_speed() for _ in range(3))
    monkeypatch.setattr(common, "SPEED_ADDITIONS", 2_000_000)
    assert common.python_speed() > small > 0


def test_a_speed_reads_as_the_reports_print_it() -> None:
    assert common.speed_text([91.6]) == "a million Python additions 92 ms"
    assert common.speed_text([91.6, 110.2]) == "a million Python additions 92 → 110 ms"
