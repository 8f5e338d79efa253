"""``bench TARGET --busy N``: N processes keep cores busy while a bench measures, and none of
them outlives it, however it ends."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from diceboard.cli.bench import busy
from diceboard.cli.main import main
from tests.proc import cpu_ticks, ends_when_its_parent_is_killed, needs_proc


@needs_proc
def test_the_spinners_burn_cpu_and_end_with_the_block_even_on_an_error() -> None:
    with pytest.raises(RuntimeError), busy.busy_cores(2) as spinners:
        assert len(spinners) == 2
        before = [cpu_ticks(s.pid) for s in spinners]
        time.sleep(1.0)
        after = [cpu_ticks(s.pid) for s in spinners]
        # each used a good part of a core (ticks are hundredths of a second)
        assert all(b - a >= 20 for a, b in zip(before, after, strict=True)), (before, after)
        raise RuntimeError("the measurement failed")
    assert all(s.poll() is not None for s in spinners)


@needs_proc
def test_a_spinner_ends_by_itself_when_the_bench_is_killed() -> None:
    # (SIGKILL: no finally runs, the spinner must notice by itself)
    assert ends_when_its_parent_is_killed(
        "import time; from diceboard.cli.bench.busy import busy_cores\n"
        "with busy_cores(1) as spinners:\n"
        "    print(spinners[0].pid, flush=True)\n"
        "    time.sleep(120)\n",
        signal.SIGKILL,
    )


def test_every_target_takes_busy_and_runs_inside_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from diceboard.cli.bench import startup

    counts: list[int] = []
    ran: list[list[int]] = []

    @contextlib.contextmanager
    def fake_busy(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
        counts.append(count)
        yield []
        counts.append(-1)  # (left: the handler has returned by now)

    def fake_run(args: object) -> int:
        ran.append(list(counts))
        return 0

    monkeypatch.setattr(busy, "busy_cores", fake_busy)
    monkeypatch.setattr(startup, "run", fake_run)
    assert main(["bench", "startup", "--busy", "2"]) == 0
    assert ran == [[2]] and counts == [2, -1]
    assert "2 spinning processes keep 2 cores busy meanwhile" in capsys.readouterr().err
    assert main(["bench", "startup"]) == 0
    assert counts[-2:] == [0, -1]
    assert capsys.readouterr().err == ""
    assert main(["bench", "server", "--busy", "65"]) == 2
    assert "the busy processes are 0 to 64, not 65" in capsys.readouterr().err
