"""``bench startup`` counts the CPU of the server's processes, those that have exited too (a
process the server started and waited for, such as a compile of its own, still counts); its
rounds end with each tree's medians and their ratio; bad options are refused at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from diceboard.cli.bench.startup import _cpu_seconds, summarise
from diceboard.cli.main import main

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="Linux /proc")

_BURN = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass\n"


def test_a_child_that_has_exited_and_been_waited_for_still_counts() -> None:
    before = _cpu_seconds(os.getpid())
    subprocess.run([sys.executable, "-c", _BURN], check=True)
    after = _cpu_seconds(os.getpid())
    assert before is not None and after is not None
    assert after - before >= 0.35


def _others() -> float:
    """The CPU seconds counted beside this process's own."""
    total = _cpu_seconds(os.getpid())
    assert total is not None
    return total - time.process_time()


def test_a_running_child_counts_too() -> None:
    before = _others()
    child = subprocess.Popen([sys.executable, "-c", _BURN + "time.sleep(30)\n"])
    try:
        time.sleep(1.5)  # the child has burnt its 0.4 s (plus its start) by now, and sleeps
        assert child.poll() is None
        assert _others() - before >= 0.35
    finally:
        child.kill()
        child.wait()


def test_no_such_process_has_no_figure() -> None:
    assert _cpu_seconds(2**22 + 1) is None


def _start(computer: float | None, cpu: float | None = 10.0) -> dict[str, object]:
    if computer is None:
        return {"error": "no answer within 600 s"}
    return {
        "root_s": 1.0,
        "meta_s": 1.1,
        "first_server_move_s": computer - 2.0,
        "first_computer_move_s": computer,
        "cpu_s": cpu,
    }


def test_the_summary_gives_each_trees_medians_and_their_ratio() -> None:
    runs = [
        {"round": 1, "tree": "this", "cold": _start(10.0)},
        {"round": 1, "tree": "against", "cold": _start(12.0, 12.0)},
        {"round": 2, "tree": "against", "cold": _start(15.0, 14.0)},
        {"round": 2, "tree": "this", "cold": _start(11.0, None)},  # no CPU figure here
        {"round": 3, "tree": "this", "cold": _start(30.0)},
        {"round": 3, "tree": "against", "cold": _start(None)},  # a start that failed
    ]
    summary = summarise(runs, ("cold",))["cold"]
    assert summary["this"]["first_computer_move_s"] == 11.0  # the median of 10, 11, 30
    assert summary["against"]["first_computer_move_s"] == 13.5  # of 12 and 15 (one failed)
    assert summary["this"]["cpu_s"] == 10.0  # of the two starts that have the figure
    assert summary["ratio"]["first_computer_move_s"] == pytest.approx(13.5 / 11.0)
    assert summary["ratio"]["cpu_s"] == pytest.approx(13.0 / 10.0)
    # round by round: rounds 1 and 2 have both starts (12/10 and 15/11), round 3 failed
    pairs = summary["paired"]["first_computer_move_s"]
    assert pairs["median_ratio"] == pytest.approx((12.0 / 10.0 + 15.0 / 11.0) / 2)
    assert (pairs["faster"], pairs["rounds"]) == (2, 2)
    assert summary["paired"]["cpu_s"] == {
        "median_ratio": pytest.approx(1.2),
        "faster": 1,
        "rounds": 1,
    }


def test_rounds_compared_one_by_one_see_through_a_drifting_machine() -> None:
    """The machine slows down after the first round, and one start of the other tree meets a
    quiet moment: the ratio of the medians (11 s over 20 s) says this tree is much slower,
    while each round's two starts, one after the other, show it faster in two of three."""
    figures = {1: (10.0, 11.0), 2: (20.0, 22.0), 3: (21.0, 9.0)}
    runs = []
    for number, (this, other) in figures.items():
        runs.append({"round": number, "tree": "this", "cold": _start(this)})
        runs.append({"round": number, "tree": "against", "cold": _start(other)})
    summary = summarise(runs, ("cold",))["cold"]
    assert summary["ratio"]["first_computer_move_s"] == pytest.approx(11.0 / 20.0)
    pairs = summary["paired"]["first_computer_move_s"]
    assert pairs["median_ratio"] == pytest.approx(1.1)
    assert (pairs["faster"], pairs["rounds"]) == (2, 3)


def test_one_tree_over_rounds_has_medians_and_no_ratio() -> None:
    runs = [{"round": i, "tree": "this", "warm": _start(float(i))} for i in (1, 2, 3, 4)]
    summary = summarise(runs, ("warm",))["warm"]
    assert summary["this"]["first_computer_move_s"] == 2.5
    assert "ratio" not in summary and "against" not in summary


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--against", "/no/such/tree"], "--against /no/such/tree: no diceboard package there"),
        (["--src", "/no/such/tree"], "--src /no/such/tree: no diceboard package there"),
        (["--compiles", "--rounds", "2"], "--compiles lists one cold start's compiling"),
        (["--rounds", "21"], "the rounds are 1 to 20, not 21"),
    ],
)
def test_bad_options_are_refused_before_anything_starts(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["bench", "startup", *argv])
    assert status != 0
    assert says in capsys.readouterr().err


def test_each_round_names_the_machines_speed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the starts themselves stand in (a real one compiles for ten seconds): what is printed
    # around them is what this checks
    from diceboard.cli.bench import startup

    speeds = iter([80.0, 160.0, 95.0])
    monkeypatch.setattr(startup, "measure", lambda *args: {**_start(11.0), "printed": []})
    monkeypatch.setattr(startup, "python_speed", lambda: next(speeds))
    assert main(["bench", "startup", "--only", "cold", "--rounds", "2"]) == 0
    rounds = [line for line in capsys.readouterr().out.splitlines() if line.startswith("round")]
    assert len(rounds) == 2
    assert rounds[0].endswith("; a million Python additions 80 ms)")
    assert rounds[1].endswith("; a million Python additions 160 ms)")
    assert main(["bench", "startup", "--only", "cold"]) == 0
    assert "; a million Python additions 95 ms)" in capsys.readouterr().out
