"""The computer's worker processes end with the server, at once, busy or not: a server stopped
during a cold start's warm-up (a worker compiling) or one that fails to start exits without
waiting for their tasks."""

from __future__ import annotations

import multiprocessing
import time
from concurrent import futures
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from diceboard.cli.main import main
from diceboard.server import computer
from diceboard.server.loadtest import free_port


def _gone(processes: list[multiprocessing.process.BaseProcess], within: float = 30.0) -> bool:
    """Whether all of ``processes`` have ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(p.is_alive() for p in processes):
            return True
        time.sleep(0.05)
    return False


def test_closing_the_pool_ends_a_busy_worker_at_once() -> None:
    """A worker in the middle of a long task (a cold start's compile, a deep search) is ended,
    not waited for: the interpreter would otherwise wait for the task as the server exits."""
    pool = computer.ComputerPool("process", 1)
    executor = pool._pool()  # (private: a task that keeps the worker busy)
    task = executor.submit(time.sleep, 600)
    processes = list(executor._processes.values())
    assert processes and all(p.is_alive() for p in processes)
    pool.close()
    assert _gone(processes)
    # the pool tells the task's caller (its manager thread notices the ended worker)
    futures.wait([task], timeout=30)
    assert task.done()


def test_a_database_whose_folder_cannot_be_made_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    database = f"sqlite:///{not_a_folder / 'games.sqlite3'}"
    assert main(["serve", "--port", str(free_port()), "--db", database]) == 2
    err = capsys.readouterr().err
    assert err.startswith("diceboard: error: cannot make the folder of the database ")
    assert err.rstrip().endswith(f"{not_a_folder}: File exists") and err.count("\n") == 1
