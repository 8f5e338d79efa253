"""A computer worker's warm-up tasks: the first game's is done before the task returns, a later
game's in a thread of the worker (so a queued move does not wait for the compiler), and each
game once however many tasks a worker is handed."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("fastapi")

from diceboard.server import computer


class Recorder:
    """Stands in for the compiler: records what is warmed up; the search waits for ``gate``."""

    def __init__(self) -> None:
        self.made: list[str] = []
        self.gate = threading.Event()

    def kernels(self, game: str | None = None) -> None:
        self.made.append(f"kernels {game}")

    def search(self, game: str | None = None) -> None:
        self.gate.wait(5)
        self.made.append(f"search {game}")


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(computer, "warm_up_kernels", recorder.kernels)
    monkeypatch.setattr(computer, "warm_up_search", recorder.search)
    monkeypatch.setattr(computer, "_WARMED", set())
    return recorder


def test_the_first_games_warm_up_is_done_when_the_task_returns(recorder: Recorder) -> None:
    recorder.gate.set()
    computer._warm_up("one")
    computer._warm_up("one")  # a second task handed to the same worker does nothing
    assert recorder.made == ["kernels one", "search one"]


def test_a_later_games_warm_up_runs_beside_and_the_task_returns_at_once(
    recorder: Recorder,
) -> None:
    computer._warm_up_beside("two")  # returns while the search is still held at the gate
    assert "search two" not in recorder.made
    computer._warm_up_beside("two")
    recorder.gate.set()
    for thread in threading.enumerate():
        if thread.name == "warm-up-two":
            thread.join(5)
    assert recorder.made == ["kernels two", "search two"]


def test_a_worker_started_early_imports_the_games_and_compiles_nothing() -> None:
    """``ComputerPool.start`` hands each worker :func:`computer._prepare` as the server starts:
    it must import the games (so that the worker is ready when the kernels are cached) but
    call no kernel, which would compile it a second time beside the server."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from numba.core.registry import CPUDispatcher\n"
        "from diceboard.server import computer\n"
        "computer._prepare()\n"
        "names = [n for n in sys.modules if n.startswith('diceboard.games.')]\n"
        "used = sorted({n for n, m in list(sys.modules.items()) if n.startswith('diceboard')\n"
        "    for v in vars(m).values() if isinstance(v, CPUDispatcher) and v.overloads})\n"
        "print(len(names), used)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    imported, used = done.stdout.split(" ", 1)
    assert int(imported) > 10  # every game's rules and kernel modules
    assert used.strip() == "[]"


def test_the_pool_starts_its_workers_before_any_game_is_warm() -> None:
    pool = computer.ComputerPool("process", 1)
    try:
        futures = pool.start()
        assert len(futures) == 1
        for future in futures:
            assert future.result(timeout=120) is None
    finally:
        pool.close()
