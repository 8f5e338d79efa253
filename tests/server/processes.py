"""A real ``diceboard serve`` subprocess on a free loopback port, for the restart test and
the end-to-end tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx2

from diceboard.server.loadtest import free_port, wait_until_up


@dataclass
class Server:
    """A running ``diceboard serve`` on loopback."""

    base: str
    port: int
    database: str
    process: subprocess.Popen[bytes]

    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = {"X-Seat-Token": token} if token else {}
        response = httpx2.request(method, self.base + path, headers=headers, timeout=60, **kwargs)
        assert response.status_code < 400, response.text
        return response.json()

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return dict(self.api("GET", f"/api/games/{game_id}", token)["game"])


def start_server(database: str, port: int | None = None, extra: Sequence[str] = ()) -> Server:
    """Start ``diceboard serve`` on ``database`` (with the options ``extra`` too) and wait
    until it answers."""
    port = port or free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "diceboard.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            database,
            "--computer-workers",
            "1",
            "--computer-delay",
            "0.1",
            "--log-level",
            "warning",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
    except BaseException:
        # a server that did not come up must not outlive the test
        process.kill()
        process.wait()
        raise
    return Server(base, port, database, process)


def stop_server(server: Server, sig: int = signal.SIGTERM) -> None:
    """Stop the server (``SIGKILL`` to crash it)."""
    if server.process.poll() is None:
        server.process.send_signal(sig)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
