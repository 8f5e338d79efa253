"""Alpha-beta: the value at a fixed depth is the same with and without the transposition
table and move ordering, and chance nodes are exact expectations."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from statistics import mean

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.ai import AlphaBetaAgent
from diceboard.ai.engine import engine_for
from diceboard.ai.roots import root_of
from diceboard.ai.weights import weights_for
from diceboard.core.game import State


def _value(state: State, depth: int, tt: bool, ordering: bool) -> float:
    searcher = AlphaBetaAgent(depth=depth, seed=0, use_tt=tt, ordering=ordering)
    return searcher._search(root_of(state), multipv=False).value


def _random_position(game_name: str, variant: str | None, seed: int, plies: int) -> State:
    rng = random.Random(seed)
    state = diceboard.game(game_name, variant=variant).start(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.play(rng.choice(state.legal_action_ids()))
        else:
            state = state.play(rng.choice(state.legal_moves()))
    while state.is_chance():
        state = state.play(rng.choice(state.legal_action_ids()))
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from([("custodian", None), ("custodian", "chaos"), ("chase", None)]),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 40),
    depth=st.integers(1, 3),
)
def test_table_and_ordering_do_not_change_the_value(
    game: tuple[str, str | None], seed: int, plies: int, depth: int
) -> None:
    state = _random_position(game[0], game[1], seed, plies)
    if state.is_terminal():
        return
    if game[1] == "chaos":
        depth = min(depth, 2)
    plain = _value(state, depth, tt=False, ordering=False)
    for tt, ordering in ((True, False), (False, True), (True, True)):
        assert _value(state, depth, tt, ordering) == pytest.approx(plain, abs=1e-9)


def test_multipv_values_match_one_ply_values(custodian_play: State) -> None:
    """At depth 1 each root move's exact value is the evaluation of where it leads."""
    analysis = diceboard.agent("alphabeta:depth=1", seed=0).analyse(custodian_play)
    greedy = diceboard.agent("greedy", seed=0).analyse(custodian_play)
    by_move = {m.move: m.value for m in greedy.moves}
    for stats in analysis.moves:
        assert stats.value == pytest.approx(by_move[stats.move], abs=1e-12)
    assert analysis.value == pytest.approx(max(by_move.values()))


# --- expectimax against brute force ------------------------------------------------------------
#: Chaos, White to move: two dice a side, small branching
SMALL_CHAOS = "B2..B1./...../...../...../W1..W2. W 0 10"


def _static(state: State) -> float:
    engine = engine_for("custodian")
    fbuf = np.empty(engine.num_features)
    return float(
        # the evaluation vector ends with the value of a draw (0: the searcher has no contempt)
        engine.static_value(
            state.kernel_state(), state.game.opts, np.append(weights_for("custodian"), 0.0), fbuf
        )
    )


def _terminal(state: State) -> float:
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == state.to_move else -1.0


def _expectimax(state: State, depth: int) -> float:
    """The value for ``state.to_move`` by plain recursion over the Python API: a roll is the
    mean of its outcomes and costs no depth; a decision at depth 0 is the static value."""
    if state.is_terminal():
        return _terminal(state)
    if state.is_chance():
        values = []
        for outcome, _p in state.chance_outcomes():
            child = state.play(outcome)
            v = _expectimax(child, depth)
            values.append(v if child.to_move == state.to_move else -v)
        return mean(values)
    if depth == 0:
        return _static(state)
    best = -2.0
    for move in state.legal_moves():
        child = state.play(move)
        v = _expectimax(child, depth - 1)
        best = max(best, v if child.to_move == state.to_move else -v)
    return best


@pytest.mark.parametrize("depth", [1, 2])
def test_expectimax_equals_brute_force(depth: int) -> None:
    state = diceboard.game("custodian", variant="chaos").parse(SMALL_CHAOS)
    expected = _expectimax(state, depth)
    for tt, ordering in ((False, False), (True, True)):
        assert _value(state, depth, tt, ordering) == pytest.approx(expected, abs=1e-9)


def test_a_proven_win_stops_the_deepening() -> None:
    state = diceboard.game("custodian").parse("....B1/..W1../.B1.../.W3.../..... W 0 10")
    analysis = diceboard.agent("alphabeta:time=5", seed=0).analyse(state)
    assert analysis.value == 1.0 and analysis.seconds < 5


_ALLOCATIONS_SCRIPT = r"""
import diceboard
from diceboard.ai.engine import engine_for
agent = diceboard.agent("alphabeta:depth=2", seed=0)
agent.compile_search("custodian")
compiled = engine_for("custodian").compiled("alphabeta", agent._evaluation_vector("custodian", 0.0))
ir = next(iter(compiled.inspect_llvm().values()))
inside, allocations, lines = False, 0, 0
for line in ir.splitlines():
    if line.startswith("define"):
        inside = "alphabeta" in line and "cpython" not in line
    elif inside:
        lines += 1
        allocations += "NRT_MemInfo_alloc" in line
print(lines, allocations)
"""


def test_the_compiled_search_allocates_nothing(tmp_path: Path) -> None:
    """Alpha-beta works in arrays its caller makes (``workspace``): its compiled body holds no
    allocation (on a cold start, numpy's allocation code compiled into it was a seventh of a
    worker's compile of the search). Compiled afresh in a subprocess, since numba shows no
    code of a function it loaded from its cache."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("numba is switched off")
    done = subprocess.run(
        [sys.executable, "-c", _ALLOCATIONS_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
    )
    lines, allocations = (int(word) for word in done.stdout.split())
    assert lines > 1000  # the search's body was found
    assert allocations == 0


@pytest.mark.parametrize("part", [1, 2, 4, 9])
def test_a_workspace_too_small_is_refused(part: int) -> None:
    """The compiled search checks no index, so a workspace smaller than the search needs
    (a history, actions, per-level rows or a scratch buffer cut short) is refused before
    anything is written past its end."""
    from diceboard.ai.alphabeta_agent import root_trial_arguments

    agent = diceboard.agent("alphabeta:depth=2", seed=0)
    root = root_of(diceboard.game("custodian").start(1))
    engine = root.engine
    arguments = root_trial_arguments(
        root, agent._evaluation_vector("custodian", 0.0), agent._flags(multipv=False)
    )
    space = list(arguments[-1])
    space[part] = np.ascontiguousarray(space[part][..., :1])
    with pytest.raises(ValueError, match="workspace is too small"):
        engine.alphabeta(*arguments[:-1], tuple(space))
    engine.alphabeta(*arguments)  # the workspace made for it fits
