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
