"""A computer worker's warm-up tasks: the first game's is done before the task returns, a later
game's in a thread of the worker (so a queued move does not wait for the compiler), and each
game once however many tasks a worker is handed; what a worker compiles ahead (the evaluation
before the server has any kernel, the search once it has the rules kernels) is what the first
move then runs, so nothing is compiled twice."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from diceboard import games
from diceboard.server import computer, computer_players
from tests.scripts import script_output


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
    monkeypatch.setattr(computer_players, "warm_up_kernels", recorder.kernels)
    monkeypatch.setattr(computer_players, "warm_up_search", recorder.search)
    monkeypatch.setattr(computer_players, "_WARMED", set())
    return recorder


def test_the_first_games_warm_up_is_done_when_the_task_returns(recorder: Recorder) -> None:
    recorder.gate.set()
    computer_players.warm_up("one")
    computer_players.warm_up("one")  # a second task handed to the same worker does nothing
    assert recorder.made == ["kernels one", "search one"]


def test_a_later_games_warm_up_runs_beside_and_the_task_returns_at_once(
    recorder: Recorder,
) -> None:
    computer_players.warm_up_beside("two")  # returns while the search is still held at the gate
    assert "search two" not in recorder.made
    computer_players.warm_up_beside("two")
    recorder.gate.set()
    for thread in threading.enumerate():
        if thread.name == "warm-up-two":
            thread.join(5)
    assert recorder.made == ["kernels two", "search two"]


#: a script's report of what it compiled: the kernel functions with compiled (or loaded)
#: signatures, their own and their copies' for compiled callers together, as
#: "module.function count"
_COMPILED = (
    "from numba.core.registry import CPUDispatcher\n"
    "from diceboard.kernel import for_callers\n"
    "def versions(v):\n"
    "    copy = for_callers(v)\n"
    "    return len(v.signatures) + (len(copy.signatures) if copy is not v else 0)\n"
    "used = sorted({f'{n}.{k} {versions(v)}' for n, m in list(sys.modules.items())\n"
    "    if n.startswith('diceboard') for k, v in vars(m).items()\n"
    "    if isinstance(v, CPUDispatcher) and versions(v)})\n"
)


def test_a_worker_started_early_imports_the_games_and_compiles_nothing() -> None:
    """``ComputerPool.start`` hands each worker :func:`computer_players.prepare` as the server
    starts: it must import the games (so that the worker is ready when the kernels are
    cached) but call no kernel, which would compile it a second time beside the server, and
    import nothing of the web server (a second before the worker can start)."""
    script = (
        "import sys\n"
        "from diceboard.server import computer_players\n"
        "computer_players.prepare()\n"
        "names = [n for n in sys.modules if n.startswith('diceboard.games.')]\n"
        "web = [n for n in ('fastapi', 'starlette', 'sqlalchemy', 'alembic') if n in sys.modules]\n"
        + _COMPILED
        + "print(len(names), web, used)\n"
    )
    imported, rest = script_output(script).split(" ", 1)
    assert int(imported) > 10  # every game's rules and kernel modules
    assert rest.strip() == "[] []"


def test_what_a_worker_compiles_ahead_is_what_its_first_move_runs(tmp_path: Path) -> None:
    """The worker's evaluation, compiled before the server has any kernel, calls none of the
    rules kernels; the rules kernels the server compiles first and the search the worker
    compiles on them are compiled for the very types that the game API and the first
    computer move pass: after the whole warm-up each has one signature (the function's or its
    copy's for compiled callers, never both). On an empty numba
    cache (the first game's cold start, about ten seconds), since a function loaded from
    the cache brings its callees compiled in and would not show a second signature."""
    game = games.names()[0]
    script = (
        "import sys\n"
        "from diceboard.ai.bindings import binding\n"
        "from diceboard.server import computer_players as players\n"
        f"game = {game!r}\n"
        "rules = binding(game)\n"
        "players.prepare(game)\n"
        + _COMPILED
        + "print(versions(rules.step), versions(rules.legal_actions))\n"
        "players.warm_up_rules(game)\n"
        "players.compile_search_ahead(game)\n"
        "players.warm_up(game)\n"
        "print(versions(rules.step), versions(rules.legal_actions))\n"
        + _COMPILED
        + "print(*used, sep='\\n')\n"
    )
    before, after, *compiled = script_output(script, tmp_path).splitlines()
    assert before == "0 0"  # the evaluation calls no rules kernel
    assert after == "1 1"
    counts = dict(line.rsplit(" ", 1) for line in compiled)
    search = f"diceboard.ai.engine._{game}_search"
    for name in (f"{search}.static_value", f"{search}.alphabeta"):
        assert counts.get(name) == "1", (name, counts)


def test_the_pool_starts_its_workers_before_any_game_is_warm() -> None:
    pool = computer.ComputerPool("process", 1)
    try:
        futures = pool.start()  # no first game: imports only
        assert len(futures) == 1
        for future in futures:
            assert future.result(timeout=120) is None
    finally:
        pool.close()
