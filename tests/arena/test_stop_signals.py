"""A match on worker processes stopped by SIGTERM (``kill``, ``timeout``) stops as on Ctrl-C:
its workers end with it, it exits with status 143 and prints no traceback and no warning of
leaked semaphores. (Python's own SIGTERM ended the process at once and left its idle workers
waiting for work for ever.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.proc import children, gone, needs_proc

pytestmark = pytest.mark.e2e


@needs_proc
def test_sigterm_stops_a_match_and_its_workers(tmp_path: Path) -> None:
    log = tmp_path / "match.log"
    with log.open("wb") as out:
        match = subprocess.Popen(
            [
                sys.executable, "-m", "diceboard.cli", "match", "level:3", "level:2",
                "--game", "custodian", "--games", "2000", "--workers", "2",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            assert match.poll() is None, log.read_text()
            # (the resource tracker is a child too: the workers are the ones spawned to work)
            workers = [
                pid
                for pid in children(match.pid)
                if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
                and "resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_text()
            ]
            time.sleep(0.1)
        assert len(workers) == 2, log.read_text()
        time.sleep(2.0)  # (at work by now)
        match.terminate()
        assert match.wait(30) == 143
    finally:
        if match.poll() is None:
            match.kill()
            match.wait()
    assert all(gone(pid) for pid in workers)
    time.sleep(0.5)  # (the resource tracker prints its warnings as it ends)
    printed = log.read_text()
    assert "Traceback" not in printed and "leaked" not in printed, printed
