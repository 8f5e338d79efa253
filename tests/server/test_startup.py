"""A cold ``diceboard serve`` (an empty numba cache) answers at once: the pages and
``/api/meta`` work while the engine warms up beside serving, the terminal says what is being
done, and ``/api/health`` tells when the engine is ready (issue 11, bug 5)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx2

from diceboard.server.loadtest import free_port

pytestmark = pytest.mark.e2e

#: the page must answer within this long of the process starting (Python, FastAPI and
#: SQLAlchemy imports; compiling the kernels takes a minute and more)
AT_ONCE_S = 30.0
SERVE = [
    sys.executable, "-m", "diceboard.cli", "serve", "--computer-workers", "1",
    "--log-level", "warning",
]  # fmt: skip


@pytest.fixture
def cold_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], float, Path]]:
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-cache"), "PYTHONUNBUFFERED": "1"}
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        yield f"http://127.0.0.1:{port}", process, started, log
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _first_answer(url: str, process: subprocess.Popen[bytes], deadline: float) -> Any:
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            response = httpx2.get(url, timeout=1.0)
            if response.status_code == 200:
                return response
        except httpx2.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{url} did not answer in time")


def test_a_cold_start_answers_at_once(
    cold_server: tuple[str, subprocess.Popen[bytes], float, Path],
) -> None:
    base, process, started, log = cold_server
    page = _first_answer(base + "/", process, started + AT_ONCE_S)
    assert "<html" in page.text
    took = time.monotonic() - started
    health = httpx2.get(base + "/api/health", timeout=5).json()
    assert health["ready"] is False, f"the kernels cannot have compiled in {took:.1f} s"
    assert "kernel" in health["phase"] and health["estimate"]
    meta = httpx2.get(base + "/api/meta", timeout=5).json()
    assert meta["ready"] is False and meta["engine"]["phase"] == health["phase"]
    assert [g["name"] for g in meta["games"]], "the menus are there while the engine warms up"
    printed = log.read_text()
    assert "serving on http://" in printed
    assert "engine warming up: compiling the game kernels" in printed
    assert "about half a minute" in printed
