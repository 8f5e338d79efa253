"""The ``serve`` command's refusals, a tiny run of ``bench server``, and its rounds' medians."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import diceboard
from diceboard.cli.main import main


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "99999"]) == 2
    assert "between 1 and 65535" in capsys.readouterr().err
    assert main(["serve", "--db", "nonsense"]) == 2
    assert "SQLAlchemy database URL" in capsys.readouterr().err
    assert main(["serve", "--computer-delay", "-1"]) == 2
    assert "0 to 60 seconds" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", "sqlite://"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("diceboard: error: cannot listen on") and err.count("\n") == 1


def test_bench_server_stays_on_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "server", "--url", "http://192.0.2.1:8000"]) == 2
    assert "loopback" in capsys.readouterr().err
    assert main(["bench", "server", "--games", "2001"]) == 2
    assert main(["bench", "server", "--seconds", "601"]) == 2


@pytest.mark.parametrize("url", [[], ["--url", "http://127.0.0.1:9"]])
def test_bench_server_reports_a_refused_load_test_without_a_traceback(
    url: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the server (one it started, or one at --url) refuses a request of the load test
    from diceboard.server import loadtest

    def refused(*args: object, **kwargs: object) -> object:
        raise loadtest.LoadRefused("the server refused to make game 7 of 10: HTTP 429, busy")

    async def load(*args: object, **kwargs: object) -> object:
        return refused()

    @contextlib.contextmanager
    def served(src: str | None = None) -> Iterator[loadtest.Served]:
        yield loadtest.Served("http://127.0.0.1:9", 0)

    monkeypatch.setattr(loadtest, "run_load", load)
    monkeypatch.setattr(loadtest, "running_server", served)
    monkeypatch.setattr(loadtest, "wait_until_ready", lambda base: None)
    assert main(["bench", "server", "--games", "10", *url]) == 2
    err = capsys.readouterr().err
    assert err == "diceboard: error: the server refused to make game 7 of 10: HTTP 429, busy\n"


def test_bench_server_rounds_give_each_rounds_line_and_the_medians(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from diceboard.server import loadtest

    seeds: list[int] = []
    # each round's latencies (ms): the medians over rounds, not over all moves, are reported
    rounds = iter([[5.0] * 99 + [300.0], [20.0] * 100, [10.0] * 99 + [80.0]])

    async def load(*args: object, **kwargs: object) -> loadtest.LoadReport:
        seeds.append(int(str(args[4])))
        latencies = next(rounds)
        report = loadtest.LoadReport(10, moves=len(latencies), latencies_ms=latencies)
        report.seconds, report.client_cpu_s = 10.0, 2.0
        report.server_cpu_s = report.serving_cpu_s = 0.1 * len(latencies) / 1000 * 8
        if len(seeds) == 3:
            report.lost = ["g3"]  # a move the server acknowledged and did not store
        return report

    @contextlib.contextmanager
    def served(src: str | None = None) -> Iterator[loadtest.Served]:
        yield loadtest.Served("http://127.0.0.1:9", 0)

    monkeypatch.setattr(loadtest, "run_load", load)
    monkeypatch.setattr(loadtest, "running_server", served)
    assert main(["bench", "server", "--rounds", "3", "--seed", "7"]) == 1  # the lost move
    out = capsys.readouterr().out.splitlines()
    assert seeds == [7, 8, 9]
    assert [line.split(":")[0] for line in out[:3]] == ["round 1", "round 2", "round 3"]
    assert "MISMATCH in 1" in out[2] and "load average" in out[0]
    # and the machine's speed after each round, to tell a slow minute from a slow server
    assert all("; a million Python additions " in line for line in out[:3])
    # a move's CPU in hundredths of a millisecond: trees differ by that much
    assert "serving process 0.80 ms a move" in out[0]
    p99s = [
        loadtest.LoadReport(1, latencies_ms=r).percentile(99)
        for r in ([5.0] * 99 + [300.0], [20.0] * 100, [10.0] * 99 + [80.0])
    ]
    assert f"p99 {sorted(p99s)[1]:.1f} ms" in out[3]
    assert out[4] == "accounting: MISMATCH (above)"
    assert main(["bench", "server", "--rounds", "21"]) == 2
    assert "the rounds are 1 to 20" in capsys.readouterr().err


def test_bench_server_against_another_tree_compares_round_by_round(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two trees in turns, the same seed for both in a round; each tree's medians, their
    ratio, and the rounds compared one by one (where a drifting machine misleads the
    medians, the rounds do not)."""
    from diceboard.server import loadtest

    started: list[str | None] = []
    seeds: list[int] = []
    # p99 of each start, in the order they run: round 1 this, against; round 2 against,
    # this; round 3 this, against (the machine slowed down after round 1)
    p99s = iter([10.0, 11.0, 44.0, 40.0, 42.0, 12.0])

    async def load(*args: object, **kwargs: object) -> loadtest.LoadReport:
        seeds.append(int(str(args[4])))
        report = loadtest.LoadReport(10, moves=100, latencies_ms=[next(p99s)] * 100)
        report.seconds, report.client_cpu_s = 10.0, 2.0
        return report

    @contextlib.contextmanager
    def served(src: str | None = None) -> Iterator[loadtest.Served]:
        started.append(src)
        yield loadtest.Served("http://127.0.0.1:9", 0)

    monkeypatch.setattr(loadtest, "run_load", load)
    monkeypatch.setattr(loadtest, "running_server", served)
    other = str(Path(diceboard.__file__).parents[1])
    argv = ["bench", "server", "--rounds", "3", "--seed", "7", "--against", other, "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert started == [None, other, other, None, None, other]
    assert seeds == [7, 7, 8, 8, 9, 9]
    assert [(r["round"], r["tree"]) for r in figures["rounds"]] == [
        (1, "this"), (1, "against"), (2, "against"), (2, "this"), (3, "this"), (3, "against"),
    ]  # fmt: skip
    assert figures["medians"]["this"]["p99_ms"] == 40.0  # of 10, 40, 42
    assert figures["medians"]["against"]["p99_ms"] == 12.0  # of 11, 44, 12
    assert figures["ratio"]["p99_ms"] == pytest.approx(12.0 / 40.0)
    rounds = figures["by_round"]["p99_ms"]
    assert rounds["median_ratio"] == pytest.approx(1.1)  # of 1.1, 1.1 and 12/42
    assert (rounds["faster"], rounds["rounds"]) == (2, 3)


def test_bench_server_against_is_refused_with_url_or_without_a_tree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    other = str(Path(diceboard.__file__).parents[1])
    url = ["--url", "http://127.0.0.1:9"]
    assert main(["bench", "server", "--against", other, *url]) == 2
    assert "--against starts a server of each tree: no --url" in capsys.readouterr().err
    assert main(["bench", "server", "--against", "/no/such/tree"]) == 2
    assert "--against /no/such/tree: no diceboard package there" in capsys.readouterr().err


@pytest.mark.e2e
@pytest.mark.parametrize("form", [[], ["--whole-snapshots"]], ids=["changes", "whole"])
def test_bench_server_accounts_for_every_move(form: list[str]) -> None:
    # the real command in its own process: it runs its own event loop, which a test process
    # that already drives a browser (Playwright keeps a loop running) could not start; the
    # players acknowledged by the state messages (changes only) or by ack messages (whole)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "diceboard.cli",
            "bench",
            "server",
            "--games",
            "3",
            "--moves",
            "4",
            "--seconds",
            "30",
            "--think",
            "0",
            "--json",
            *form,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["games"] == 3 and figures["moves"] == 12 and figures["lost"] == []
    assert figures["p50_ms"] <= figures["p99_ms"]
    # the CPU each side used while playing: the server's (it started it) and its own
    assert figures["server_cpu_s"] > 0 and figures["client_cpu_s"] > 0
