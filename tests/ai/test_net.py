"""The network evaluation: the compiled forward pass against NumPy, its inputs, the weights
files, the ``eval=`` choice and the PUCT agent."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import diceboard
from diceboard.ai import netdata
from diceboard.ai.engine import engine_for
from diceboard.ai.engine.evaluation import EVAL_LIMIT
from diceboard.ai.specs import agent
from diceboard.ai.weights import net_record, net_size, weights_for
from diceboard.core.errors import OptionError
from diceboard.core.game import State
from diceboard.kernel import CLOCK


@pytest.fixture(scope="module", params=["custodian", "chase"])
def played(request: pytest.FixtureRequest) -> tuple[str, netdata.Positions]:
    """Positions of two seeded depth-1 self-play games."""
    name: str = request.param
    return name, netdata.self_play(diceboard.game(name), weights_for(name), 2, 3, depth=1)


def _expected_value(name: str, row: np.ndarray, logit: float) -> float:
    """The value the search gives a network logit: the tanh and the no-capture slide."""
    engine = engine_for(name)
    v = EVAL_LIMIT * math.tanh(0.5 * logit)
    limit = int(engine.binding.progress_limit(diceboard.game(name).opts))
    if limit > 0:
        v *= 1.0 - min(int(row[CLOCK]), limit) / (2.0 * limit)
    return v


def test_compiled_network_equals_the_numpy_reference(played: tuple[str, netdata.Positions]) -> None:
    name, positions = played
    game = diceboard.game(name)
    engine = engine_for(name)
    encoded = netdata.encode(game, positions.states)
    vector = np.random.default_rng(7).normal(scale=0.3, size=net_size(name))
    logits = netdata.reference_logit(game, vector, encoded)
    assert np.std(logits) > 0.1  # a vector that says something about the positions
    weights = np.append(vector, 0.0)
    for row, logit in zip(positions.states, logits, strict=True):
        got = engine.static_value(row, game.opts, weights, np.zeros(256))
        assert got == pytest.approx(_expected_value(name, row, float(logit)), abs=1e-12)


def test_inputs_are_in_range_and_distinct(played: tuple[str, netdata.Positions]) -> None:
    name, positions = played
    module = engine_for(name).binding
    encoded = netdata.encode(diceboard.game(name), positions.states)
    for row in encoded.active:
        used = row[row < module.NET_INPUTS]
        assert len(set(used.tolist())) == len(used) > 0
        assert used.min() >= 0
    # the padding is never active: every row leaves room
    assert (encoded.active == module.NET_INPUTS).any(axis=1).all()


def test_self_play_is_seeded_and_labelled(played: tuple[str, netdata.Positions]) -> None:
    name, positions = played
    again = netdata.self_play(diceboard.game(name), weights_for(name), 2, 3, depth=1)
    assert np.array_equal(positions.states, again.states)
    assert np.array_equal(positions.values, again.values)
    assert positions.finished == 2
    assert set(np.unique(positions.results)) <= {0.0, 0.5, 1.0}
    assert np.all(np.abs(positions.values) <= 1.0)
    mixed = netdata.targets(positions, 0.5)
    assert np.all((mixed >= 0.0) & (mixed <= 1.0))
    assert netdata.targets(positions, 1.0) == pytest.approx(positions.results)


def _mirror_custodian(text: str) -> str:
    """The same Custodian Dice position with the colours swapped and the ranks mirrored."""
    board, to_move, *rest = text.split(" ")
    rows = board.split("/")[::-1]
    swapped = [r.replace("W", "x").replace("B", "W").replace("x", "B") for r in rows]
    return " ".join(["/".join(swapped), "B" if to_move == "W" else "W", *rest])


def test_custodian_inputs_see_the_board_from_the_player_to_move() -> None:
    """A position and its colour mirror (the other side to move) give the same inputs
    but for the "I move first" input."""
    game = diceboard.game("custodian")
    module = engine_for("custodian").binding
    text = "B5B2..B6/.B1.../...../..W3../W3W1..W2 W 0 10"
    pair = [game.parse(text), game.parse(_mirror_custodian(text))]
    encoded = netdata.encode(game, np.array([s.kernel_state() for s in pair]))
    first = set(encoded.active[0].tolist()) - {module.NET_INPUTS, module.NET_INPUTS - 1}
    second = set(encoded.active[1].tolist()) - {module.NET_INPUTS, module.NET_INPUTS - 1}
    assert first == second
    assert np.array_equal(encoded.features[0], encoded.features[1])


@pytest.mark.parametrize("name", ["custodian", "chase"])
def test_committed_networks_load_and_are_small(name: str) -> None:
    record = net_record(name)
    assert record["command"].startswith(f"diceboard train-eval {name} ")
    assert len(weights_for(name, "net")) == net_size(name)
    assert record["features"] == list(engine_for(name).feature_names)
    assert np.all(np.isfinite(weights_for(name, "net")))


def test_linear_is_the_default_and_fitted_its_old_name(custodian_play: State) -> None:
    """``eval=linear`` is what level 8 has always played: the same values, move for move."""
    plain = agent("alphabeta:depth=2", seed=4).analyse(custodian_play)
    for spec in ("alphabeta:depth=2,eval=linear", "alphabeta:depth=2,eval=fitted"):
        named = agent(spec, seed=4).analyse(custodian_play)
        assert named.best == plain.best
        assert [m.value for m in named.moves] == [m.value for m in plain.moves]


def test_the_network_changes_the_values(custodian_play: State) -> None:
    linear = agent("greedy", seed=1).analyse(custodian_play)
    net = agent("greedy:eval=net", seed=1).analyse(custodian_play)
    assert [m.value for m in linear.moves] != [m.value for m in net.moves]


@pytest.mark.parametrize(
    "state_name", ["custodian_play", "chaos_play", "chase_start", "chase_absorb"]
)
@pytest.mark.parametrize(
    "spec", ["alphabeta:depth=2,eval=net", "puct:iterations=200", "mcts:iterations=200,select=puct"]
)
def test_network_agents_are_seeded_and_legal(
    spec: str, state_name: str, request: pytest.FixtureRequest
) -> None:
    state: State = request.getfixturevalue(state_name)
    first = agent(spec, seed=2).choose(state)
    assert first in state.legal_moves()
    assert agent(spec, seed=2).choose(state) == first


def test_puct_runs_its_iterations(custodian_play: State) -> None:
    found = agent("puct:iterations=300", seed=1).analyse(custodian_play)
    assert sum(m.visits for m in found.moves) == 300
    assert agent("puct").spec == "puct"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta:eval=neural", "eval='neural' is not one of linear, net, material"),
        ("puct:select=uct", "always selects by PUCT"),
        ("mcts:select=best", "select='best' is not one of uct, puct"),
    ],
)
def test_bad_evaluation_specs(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        agent(spec)


def test_playing_with_the_network_never_imports_torch() -> None:
    script = (
        "import sys, diceboard\n"
        "state = diceboard.game('chase').start()\n"
        "diceboard.agent('alphabeta:depth=1,eval=net', seed=1).choose(state)\n"
        "diceboard.agent('puct:iterations=20', seed=1).choose(state)\n"
        "print('torch' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
