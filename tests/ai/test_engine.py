"""The compiled engine: one specialised copy per game, cache stamps that follow every source
file, and the same choices with numba switched off."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from diceboard.ai.bindings import binding
from diceboard.ai.engine import engine_for
from diceboard.ai.engine.cache import STAMP_ATTR, dependency_files, sources_digest
from diceboard.ai.engine.rng import below, new_rng, uniform
from diceboard.core.errors import OptionError


def test_each_game_has_its_own_copies() -> None:
    custodian, chase = engine_for("custodian"), engine_for("chase")
    assert custodian is engine_for("custodian")
    assert custodian.alphabeta is not chase.alphabeta
    digests = []
    for engine in (custodian, chase):
        func = getattr(engine.alphabeta, "py_func", engine.alphabeta)
        assert func.__qualname__ == f"{engine.game_name}.alphabeta"
        assert func.__globals__["game"] is engine.binding
        other = getattr(engine.mcts_run, "py_func", engine.mcts_run)
        # every copy of one game carries the digest of that game's sources
        assert getattr(func, STAMP_ATTR) == getattr(other, STAMP_ATTR)
        assert len(getattr(func, STAMP_ATTR)) == 32
        digests.append(getattr(func, STAMP_ATTR))
    assert digests[0] != digests[1]


def test_unknown_game_binding() -> None:
    with pytest.raises(OptionError, match="no computer player knows the game 'go'"):
        binding("go")


def test_stamp_covers_binding_and_kernels() -> None:
    names = {str(p.relative_to(p.parents[2])) for p in dependency_files(binding("chase"))}
    assert "games/chase/ai.py" in names
    assert "ai/engine/mcts.py" in names
    assert "chase/kernel/movegen.py" in names
    assert any(name.endswith("kernel/__init__.py") for name in names)


def test_digest_follows_contents(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    first = sources_digest([a, b])
    assert sources_digest([a, b]) == first
    b.write_text("y = 3\n")
    assert sources_digest([a, b]) != first


def test_rng_is_seeded_and_in_range() -> None:
    r1, r2 = new_rng(7), new_rng(7)
    draws = [below(r1, 6) for _ in range(600)]
    assert draws == [below(r2, 6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert all(0.0 <= uniform(r1) < 1.0 for _ in range(100))
    assert new_rng(0)[0] != 0


_SCRIPT = """
import diceboard
for name, position in (
    ("custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"),
    ("chase", None),
):
    game = diceboard.game(name)
    state = game.parse(position) if position else game.start()
    for spec in ("greedy", "alphabeta:depth=2", "mcts:iterations=40"):
        print(name, spec, diceboard.agent(spec, seed=3).choose(state))
"""


@pytest.mark.nojit
@pytest.mark.slow
def test_plain_python_search_makes_the_same_choices() -> None:
    """With NUMBA_DISABLE_JIT=1 the same code runs as Python and, seeded, chooses alike."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    runs = []
    for disable in ("0", "1"):
        env["NUMBA_DISABLE_JIT"] = disable
        done = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=900,
        )
        runs.append(done.stdout.splitlines())
    assert len(runs[0]) == 6
    assert runs[0] == runs[1]


def test_contempt_keys_the_table_apart() -> None:
    from diceboard.ai.engine.alphabeta import table_salt

    assert table_salt(np.array([1.0, 0.0])) == 0
    assert table_salt(np.array([1.0, 0.1])) == -table_salt(np.array([1.0, -0.1])) != 0


_CACHE_SCRIPT = """
import diceboard
from diceboard.ai.engine import engine_for
state = diceboard.game("custodian").start(1)
for spec in ("greedy", "alphabeta:depth=2", "mcts:iterations=40"):
    diceboard.agent(spec, seed=3).choose(state)
engine = engine_for("custodian")
for name in ("move_values", "alphabeta", "mcts_run"):
    stats = getattr(engine, name).stats
    print(name, sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


@pytest.mark.slow
def test_a_new_process_loads_the_search_from_the_cache() -> None:
    """The specialised search (binding in its game's folder) is compiled once; the next
    process loads every entry point from numba's on-disk cache."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("numba is switched off")
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _CACHE_SCRIPT],
            capture_output=True,
            text=True,
            check=True,
            timeout=900,
        )
        runs.append([line.split() for line in done.stdout.splitlines()])
    assert [name for name, _, _ in runs[1]] == ["move_values", "alphabeta", "mcts_run"]
    for name, hits, misses in runs[1]:
        assert (int(hits), int(misses)) == (1, 0), name
