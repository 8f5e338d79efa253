"""``bench startup`` counts the CPU of the server's processes, those that have exited too (a
process the server started and waited for, such as a compile of its own, still counts)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from diceboard.cli.bench.startup import _cpu_seconds

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
