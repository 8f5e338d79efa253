"""Agent spec strings: what they make, and the errors bad ones give."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import diceboard
from diceboard.ai import (
    AlphaBetaAgent,
    GreedyAgent,
    LevelAgent,
    MCTSAgent,
    RandomAgent,
    agent,
    parse_spec,
)
from diceboard.ai import levels as levels_module
from diceboard.ai.levels import EXTRA_LEVELS, LEVELS, game_levels, level_spec, level_specs
from diceboard.core.errors import OptionError


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("random", RandomAgent),
        ("greedy", GreedyAgent),
        ("greedy:eval=material,epsilon=0.5", GreedyAgent),
        ("alphabeta", AlphaBetaAgent),
        ("alphabeta:depth=4", AlphaBetaAgent),
        ("alphabeta:time=0.5", AlphaBetaAgent),
        ("alphabeta:depth=3,epsilon=0.2", AlphaBetaAgent),
        ("AlphaBeta: depth = 3 , eval = material, tt=off, ordering=no", AlphaBetaAgent),
        ("mcts:iterations=20000", MCTSAgent),
        ("mcts:time=1.0,c=1.4,playout=random,cutoff=0,reuse=off", MCTSAgent),
        ("level:1", LevelAgent),
        ("level:8", LevelAgent),
    ],
)
def test_specs_make_their_agents(spec: str, kind: type) -> None:
    made = agent(spec, seed=1)
    assert isinstance(made, kind)
    assert isinstance(diceboard.agent(spec), kind)


def test_spec_parameters_reach_the_agent() -> None:
    ab = agent("alphabeta:depth=3,time=0.25,eval=material,tt=off,ordering=off,epsilon=0.1")
    assert isinstance(ab, AlphaBetaAgent)
    assert (ab.depth, ab.seconds, ab.evaluation, ab.use_tt, ab.ordering, ab.epsilon) == (
        3,
        0.25,
        "material",
        False,
        False,
        0.1,
    )
    mc = agent("mcts:iterations=50,c=2,playout=random,cutoff=3,samples=5,reuse=off")
    assert isinstance(mc, MCTSAgent)
    assert (mc.iterations, mc.c, mc.playout, mc.cutoff, mc.samples, mc.reuse) == (
        50,
        2.0,
        "random",
        3,
        1,
        False,
    )
    assert agent("alphabeta").seconds == 1.0  # neither depth nor time: one second
    assert agent("level:3").spec == "level:3"


def test_seed_in_the_spec_wins() -> None:
    assert agent("greedy:seed=5", seed=9).seed == 5  # type: ignore[attr-defined]
    assert agent("greedy", seed=9).seed == 9  # type: ignore[attr-defined]


def test_parse_spec() -> None:
    assert parse_spec("mcts:time=1.0,c=1.4") == ("mcts", {"time": "1.0", "c": "1.4"})
    assert parse_spec("level:5") == ("level", {"": "5"})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty agent spec"),
        ("minimax", "unknown agent 'minimax'"),
        ("random:depth=2", "takes no parameters"),
        ("greedy:depth=2", "has no parameter depth"),
        ("alphabeta:depht=3", "has no parameter depht"),
        ("alphabeta:depth=0", "depth='0' is not 1 or more"),
        ("alphabeta:depth=65", "depth='65' is not 64 or less"),
        ("alphabeta:depth=three", "depth='three' is not a whole number"),
        ("alphabeta:depth=3,depth=4", "gives depth twice"),
        ("alphabeta:time=0", "time='0' is not a number above 0"),
        ("alphabeta:time=-1", "time='-1' is not a number above 0"),
        ("alphabeta:time=inf", "is not a finite number"),
        ("alphabeta:time=soon", "time='soon' is not a number"),
        ("alphabeta:eval=neural", "eval='neural' is not one of linear, net, material"),
        ("alphabeta:tt=maybe", "tt='maybe' is not on or off"),
        ("mcts:iterations=0", "iterations='0' is not 1 or more"),
        ("mcts:playout=smart", "playout='smart' is not one of random, heuristic"),
        ("mcts:c=-1", "c='-1' is not a number of at least 0"),
        ("greedy:epsilon=1.5", "epsilon='1.5' is not a number of at most 1"),
        ("alphabeta:epsilon=-0.1", "epsilon='-0.1' is not a number of at least 0"),
        ("level", "needs its number"),
        ("level:0", "'0' is not 1 or more"),
        ("level:10", "'10' is not 9 or less"),
        ("level:five", "is not a whole number"),
        ("greedy:seed=x", "seed='x' is not a whole number"),
    ],
)
def test_bad_specs_raise_option_errors(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        agent(spec)


def test_option_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        diceboard.agent("nonsense")


def test_alphabeta_epsilon_one_plays_at_random_among_the_legal_moves() -> None:
    state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    legal = set(state.legal_moves())
    careless = [agent("alphabeta:depth=1,epsilon=1", seed=s).choose(state) for s in range(12)]
    careful = {agent("alphabeta:depth=1", seed=s).choose(state) for s in range(12)}
    assert set(careless) <= legal
    assert len(set(careless)) > len(careful)


@pytest.mark.parametrize("game_name", diceboard.games.names())
def test_each_game_declares_every_level(game_name: str) -> None:
    """A game's binding lists a spec for every level, and each spec makes an agent."""
    specs = level_specs(game_name)
    assert set(LEVELS) <= set(specs) <= set(LEVELS) | set(EXTRA_LEVELS)
    for level, spec in specs.items():
        assert level_spec(level, game_name) == spec
        assert agent(spec).spec == spec.replace(" ", "")
        assert LevelAgent(level, seed=1).agent_for(game_name).spec == agent(spec).spec


def test_level_data_does_not_build_agents() -> None:
    """``ai.levels`` is data: it does not import the spec parser (which imports it)."""
    source = Path(levels_module.__file__).read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "diceboard.ai.specs" not in imported
    assert all(isinstance(entry.about, str) and entry.about for entry in LEVELS.values())


def test_level_9_is_chase_only() -> None:
    """Level 9 exists where a game declares it (Chase's PUCT search); elsewhere it is a clear
    error; ``LEVELS``, the levels every game has, stay 1 to 8, and each game's own levels
    (``game_levels``, what its menus offer) add 9 only where it is declared."""
    assert isinstance(agent("level:9"), LevelAgent)
    top = LevelAgent(9, seed=1)
    assert top.agent_for("chase").spec == "puct:time=1.8,eval=linear"
    assert 9 not in LEVELS and 9 in EXTRA_LEVELS
    with pytest.raises(OptionError, match="custodian has no level 9: its levels are 1 to 8"):
        top.agent_for("custodian")
    assert list(game_levels("chase")) == [*LEVELS, 9]
    assert list(game_levels("custodian")) == list(LEVELS)
    assert game_levels("chase")[9] == EXTRA_LEVELS[9]
    with pytest.raises(OptionError, match="9 or less"):
        agent("level:10")
