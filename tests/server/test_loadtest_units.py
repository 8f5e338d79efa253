"""The load test's own measurements: CPU time read from ``/proc``, the report's lines, and
what a player keeps of the messages."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from diceboard.server.load_player import LoadPlayer
from diceboard.server.loadtest import LoadRefused, LoadReport, cpu_seconds, granted

needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc here")


@needs_proc
def test_cpu_seconds_follow_the_work_done() -> None:
    before = cpu_seconds(os.getpid())
    assert before is not None and before > 0
    began = time.process_time()
    while time.process_time() - began < 0.3:
        pass
    after = cpu_seconds(os.getpid())
    assert after is not None and after - before >= 0.2


@needs_proc
def test_cpu_seconds_count_living_children() -> None:
    # a parent that starts a busy child and waits: the child's time is the parent's too
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\n"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys; subprocess.run([sys.executable, '-c', {busy!r}])",
        ]
    )
    try:
        seen = alone = 0.0
        deadline = time.monotonic() + 60
        while parent.poll() is None and time.monotonic() < deadline:
            seen = max(seen, cpu_seconds(parent.pid) or 0.0)
            alone = max(alone, cpu_seconds(parent.pid, descendants=False) or 0.0)
            time.sleep(0.05)
    finally:
        parent.wait(60)
    assert seen >= 0.4
    # the parent itself only waited
    assert alone < 0.3


def test_cpu_seconds_of_no_process() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert cpu_seconds(gone.pid) is None


def test_the_report_says_what_each_side_used() -> None:
    report = LoadReport(games=2, moves=4, latencies_ms=[1.0, 2.0], seconds=2.0)
    report.client_cpu_s = 0.5
    lines = "\n".join(report.lines())
    assert "server CPU         not measured" in lines
    assert "client CPU         0.5 s (25 % of one core)" in lines
    report.server_cpu_s = 3.0
    report.serving_cpu_s = 2.0
    lines = "\n".join(report.lines())
    assert "server CPU         3.0 s (150 % of one core)" in lines
    # the serving process alone, and its CPU time per acknowledged move
    assert "serving process  2.0 s (100 % of one core), 500.00 ms a move" in lines


def test_a_refused_request_stops_the_load_test_with_the_servers_reason() -> None:
    limited = httpx2.Response(
        429, json={"detail": "too many games created: at most 20 at once", "code": "rate_limited"}
    )
    with pytest.raises(
        LoadRefused,
        match=r"make game 7 of 1000: HTTP 429, too many games.*"
        r"--no-client-limits",
    ):
        granted(limited, "make game 7 of 1000")
    broken = httpx2.Response(500, text="Internal Server Error")
    with pytest.raises(LoadRefused, match=r"HTTP 500, Internal Server Error$"):
        granted(broken, "join game 1 of 2")
    assert granted(httpx2.Response(201, json={"id": "x"}), "make game 1 of 1") == {"id": "x"}


def _move(seat: str | None) -> dict[str, object]:
    return {"seat": seat, "notation": "x"}


def test_a_player_counts_the_decisions_as_the_moves_change() -> None:
    """Changes only append, rewrite the end (a takeback) or, in a whole snapshot, replace
    everything; the count of decisions (seated moves, not rolls) follows each."""
    player = LoadPlayer(
        "http://127.0.0.1:1", "g", "t", "a", random.Random(0), LoadReport(1), 0.0, 40, 0.0
    )
    player._update_moves(None, [_move(None), _move("a")])
    assert player.decisions == 1
    player._update_moves(2, [_move("b"), _move(None), _move("a")])
    assert (len(player.moves), player.decisions) == (5, 3)
    player._update_moves(3, [])  # taken back to before the roll
    assert (len(player.moves), player.decisions) == (3, 2)
    player._update_moves(None, [_move("a")])
    assert (len(player.moves), player.decisions) == (1, 1)
    assert player.decisions == sum(1 for m in player.moves if m["seat"])
