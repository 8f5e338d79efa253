"""A seed makes an agent's choices repeatable (with depth or iteration budgets)."""

from __future__ import annotations

import pytest

import diceboard
from diceboard.core.game import State


def _line(spec: str, seed: int, start: State, plies: int) -> list[str]:
    player = diceboard.agent(spec, seed=seed)
    state = start
    line = []
    for ply in range(plies):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.play(state.legal_action_ids()[ply % len(state.legal_action_ids())])
            continue
        move = player.choose(state)
        line.append(str(move))
        state = state.play(move)
    return line


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "greedy",
        "greedy:epsilon=0.5",
        "alphabeta:depth=2",
        "alphabeta:depth=1,epsilon=0.5",
        "mcts:iterations=150",
        "level:1",
        "level:4",
    ],
)
@pytest.mark.parametrize("state_name", ["custodian_placement", "chaos_play", "chase_start"])
def test_same_seed_same_moves(spec: str, state_name: str, request: pytest.FixtureRequest) -> None:
    start: State = request.getfixturevalue(state_name)
    first = _line(spec, 5, start, 8)
    assert _line(spec, 5, start, 8) == first
    assert _line(f"{spec}{',' if ':' in spec else ':'}seed=5", 99, start, 8) == first


def test_seeds_vary_the_choice(custodian_placement: State) -> None:
    """Placement has many equally good moves: different seeds pick different ones."""
    choices = {
        str(diceboard.agent("mcts:iterations=100", seed=s).choose(custodian_placement))
        for s in range(8)
    }
    assert len(choices) > 1
