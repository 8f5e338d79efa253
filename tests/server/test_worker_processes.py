"""The computer's worker processes started ahead of the web app: ``diceboard serve`` starts
them before importing the web framework, the app's pool adopts them, and a server that stops
(or fails to start) ends them at once, busy or not, without a traceback."""

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
from diceboard.server.worker_processes import process_pool, start_workers, stop_pool
from tests.server.processes import script_output


def _gone(processes: list[multiprocessing.process.BaseProcess], within: float = 30.0) -> bool:
    """Whether all of ``processes`` have ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(p.is_alive() for p in processes):
            return True
        time.sleep(0.05)
    return False


def test_starting_the_workers_imports_nothing_of_the_web_app() -> None:
    """What ``diceboard serve`` imports to start the workers before the web framework: if it
    pulled FastAPI, SQLAlchemy or the app in, the workers would start no earlier."""
    script = (
        "import sys\n"
        "import diceboard.server.worker_processes\n"
        "web = ('fastapi', 'starlette', 'alembic', 'diceboard.server.app')\n"
        "print([n for n in web if n in sys.modules])\n"
    )
    assert script_output(script).strip() == "[]"


def test_the_pool_adopts_workers_started_ahead() -> None:
    started = start_workers(1)  # no first game: imports only
    pool = computer.ComputerPool("process", 1, started=started)
    try:
        assert pool.start("custodian") is started.prepared  # nothing is started twice
        for future in started.prepared:
            assert future.result(timeout=120) is None
    finally:
        pool.close()
    ahead = start_workers(1)
    try:
        with pytest.raises(ValueError, match="process pool"):
            computer.ComputerPool("thread", 1, started=ahead)
    finally:
        ahead.stop()


def test_stopping_the_pool_ends_a_busy_worker_at_once() -> None:
    """A worker in the middle of a long task (a cold start's compile, a deep search) is ended,
    not waited for: the interpreter would otherwise wait for the task as the server exits."""
    executor = process_pool(1)
    task = executor.submit(time.sleep, 600)
    processes = list(executor._processes.values())  # (private: the processes to watch)
    assert processes and all(p.is_alive() for p in processes)
    stop_pool(executor)
    assert _gone(processes)
    # the pool tells the task's caller (its manager thread notices the ended worker)
    futures.wait([task], timeout=30)
    assert task.done()


def test_a_server_that_cannot_open_its_database_ends_its_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``serve`` starts the workers before it opens the database: a database that cannot be
    opened is still a clear error, and the workers are gone with the server's start."""
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    before = set(multiprocessing.active_children())
    database = f"sqlite:///{not_a_folder / 'games.sqlite3'}"
    assert main(["serve", "--port", str(free_port()), "--db", database]) == 2
    err = capsys.readouterr().err
    assert err.startswith("diceboard: error: cannot make the folder of the database ")
    assert err.rstrip().endswith(f"{not_a_folder}: File exists") and err.count("\n") == 1
    assert _gone([p for p in multiprocessing.active_children() if p not in before])
