"""A server stopped as people stop servers: Ctrl-C in its terminal (the signal goes to the
whole process group, the computer's workers too) or SIGTERM from ``kill`` or a service
manager. It exits promptly and prints no traceback and no warning of leaked semaphores."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

pytest.importorskip("fastapi")

from diceboard.server.loadtest import free_port

pytestmark = pytest.mark.e2e


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """A server in a process group of its own (as a terminal's foreground job is), once its
    computer worker is ready and waiting for work."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "diceboard.cli", "serve", "--port", str(port),
                "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}", "--computer-workers", "1",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            health = httpx2.get(f"http://127.0.0.1:{port}/api/health", timeout=2).json()
            if health.get("ready") and health.get("computer_ready"):
                return process, log
        except (httpx2.HTTPError, ValueError):
            pass
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("the server did not warm up in time:\n" + log.read_text())


def _stopped(process: subprocess.Popen[bytes], log: Path) -> str:
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise AssertionError("the server did not stop:\n" + log.read_text()) from None
    time.sleep(0.5)  # (the resource tracker, the last to go, prints its warnings as it ends)
    return log.read_text()


def test_ctrl_c_in_the_terminal_stops_the_server_and_its_workers_quietly(
    tmp_path: Path,
) -> None:
    process, log = _serve(tmp_path)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does
    printed = _stopped(process, log)
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed, printed
    assert "leaked" not in printed, printed
    assert "Finished server process" in printed


def test_sigterm_stops_the_server_without_leaving_semaphores(tmp_path: Path) -> None:
    process, log = _serve(tmp_path)
    process.terminate()
    printed = _stopped(process, log)
    assert "leaked semaphore" not in printed, printed
    assert "Traceback" not in printed, printed
    assert "Finished server process" in printed
