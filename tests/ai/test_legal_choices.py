"""Every agent returns a legal move in every kind of decision state, and refuses states
that have none to choose."""

from __future__ import annotations

import pytest

import diceboard
from diceboard.core.errors import GameOverError, IllegalMoveError
from diceboard.core.game import State

FAST_SPECS = [
    "random",
    "greedy",
    "greedy:eval=material",
    "alphabeta:depth=2",
    "alphabeta:depth=2,eval=material,tt=off,ordering=off",
    "mcts:iterations=200",
    "mcts:iterations=200,playout=heuristic,cutoff=0",
    "level:1",
    "level:3",
]

STATES = ["custodian_play", "custodian_placement", "chaos_play", "chase_start", "chase_absorb"]


@pytest.mark.parametrize("spec", FAST_SPECS)
@pytest.mark.parametrize("state_name", STATES)
def test_choice_is_legal(spec: str, state_name: str, request: pytest.FixtureRequest) -> None:
    state: State = request.getfixturevalue(state_name)
    move = diceboard.agent(spec, seed=7).choose(state)
    assert move in state.legal_moves()


@pytest.mark.parametrize("spec", [s for s in FAST_SPECS if s != "random"])
def test_absorbing_turn_is_a_whole_move(spec: str, chase_absorb: State) -> None:
    move = diceboard.agent(spec, seed=3).choose(chase_absorb)
    assert str(move).startswith("{a1}")
    assert len(move.actions) == 2  # the absorption, then the act
    after = chase_absorb.play(move)
    assert after.to_move == "R"


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:depth=2", "mcts:iterations=100"])
def test_analysis_is_consistent(spec: str, chase_absorb: State) -> None:
    analysis = diceboard.agent(spec, seed=1).analyse(chase_absorb)
    legal = chase_absorb.legal_moves()
    assert analysis.best in legal and analysis.pv[0] == analysis.best
    assert -1.0 <= analysis.value <= 1.0
    assert sorted(m.move for m in analysis.moves) == sorted(legal)
    assert analysis.moves[0].move == analysis.best
    state = chase_absorb
    for move in analysis.pv:  # the principal variation is a legal line
        assert move in state.legal_moves()
        state = state.play(move)
        while state.is_chance():
            state = state.play(state.chance_outcomes()[0][0])


def test_a_whole_game_between_searchers() -> None:
    """Agents keep choosing legal moves through placement, play and the end of a game."""
    game = diceboard.game("custodian", variant="chaos")
    state = game.start(seed=11)
    players = {
        "W": diceboard.agent("mcts:iterations=60", seed=1),
        "B": diceboard.agent("alphabeta:depth=1", seed=2),
    }
    plies = 0
    while not state.is_terminal() and plies < 400:
        if state.is_chance():
            state = state.play(state.chance_outcomes()[plies % 6][0])
        else:
            state = state.play(players[state.to_move].choose(state))
        plies += 1
    assert plies > 10


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:depth=1", "mcts:iterations=10"])
def test_no_choice_in_a_finished_game_or_at_a_roll(spec: str) -> None:
    game = diceboard.game("custodian", variant="chaos")
    over = game.parse("....B1/..W1../.B1.../.W3.../..... W 0 10").play("c4-b4").play("=2")
    assert over.is_terminal()
    with pytest.raises(GameOverError, match="the game is over"):
        diceboard.agent(spec).choose(over)
    rolling = game.parse("....B1/..W1../.B1.../.W3.../..... W 0 10").play("c4-b4")
    with pytest.raises(IllegalMoveError, match="a roll is pending"):
        diceboard.agent(spec).choose(rolling)
