"""Both games as OpenSpiel Python games, played to the end by OpenSpiel's own bots."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import mcts, minimax

import diceboard
import diceboard.envs.openspiel
from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.encoding import observe


def _material(state: Any, player: int) -> float:
    """Dice on the board, own minus the opponent's, scaled into [-1, 1]."""
    board = state.diceboard_state.board()
    letter = state.diceboard_state.game.players[player]
    own = sum(1 for owner, _ in board.values() if owner == letter)
    return (2 * own - len(board)) / 20


def _play(game: Any, rng: np.random.Generator, seed: int) -> tuple[Any, int]:
    """MCTS (player 0) against depth-1 expectiminimax (player 1), to the end."""
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=6,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        random_state=np.random.RandomState(seed),
    )
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        if player == 0:
            action = bot.step(state)
        else:
            _, action = minimax.expectiminimax(
                state.clone(), 1, lambda s, p=player: _material(s, p), player
            )
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    return state, decisions


@pytest.mark.parametrize("variant", ["standard", "chaos"])
def test_openspiel_bots_play_custodian_to_the_end(variant: str) -> None:
    game = pyspiel.load_game("python_custodian_dice", {"variant": variant, "no_capture_limit": 8})
    state, decisions = _play(game, np.random.default_rng(1), seed=1)
    assert decisions >= 10  # the placements at least
    returns = state.returns()
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    outcome = state.diceboard_state.outcome()
    assert outcome is not None
    assert returns[0] == {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}[outcome.result]


def test_openspiel_bots_play_chase_to_the_end() -> None:
    game = pyspiel.load_game("python_chase", {"no_capture_limit": 6})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    state, decisions = _play(game, np.random.default_rng(2), seed=2)
    assert decisions >= 6 and state.is_terminal()


def test_game_parameters_and_info() -> None:
    game = pyspiel.load_game("python_custodian_dice", {"variant": "chaos", "path": "self-avoiding"})
    dgame = diceboard.game("custodian", variant="chaos", path="self-avoiding")
    assert game.dgame == dgame
    assert game.num_distinct_actions() == dgame.num_actions
    assert game.max_chance_outcomes() == 6
    assert game.observation_tensor_shape() == [42, 5, 5]
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_game_length() == 10 + 8 * 101
    overridden = pyspiel.load_game("python_custodian_dice", {"variant": "chaos", "jumping": "off"})
    assert overridden.dgame.variant == "chaos-no-jumping"
    with pytest.raises(OptionError, match="unknown Custodian Dice variant"):
        pyspiel.load_game("python_custodian_dice", {"variant": "blitz"}).dgame  # noqa: B018


def test_chance_nodes_action_strings_and_observations() -> None:
    game = pyspiel.load_game("python_custodian_dice", {"variant": "chaos"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, k) for k in range(6)] == [
        "=1",
        "=2",
        "=3",
        "=4",
        "=5",
        "=6",
    ]
    for face in (3, 1, 6, 4, 2, 5, 2, 2, 6, 6):
        state.apply_action(face - 1)
    assert str(state) == "...../...../...../...../..... W 0 0 W12346,B22566"
    assert state.current_player() == 0
    legal = state.legal_actions()
    strings = [state.action_to_string(0, a) for a in legal]
    assert strings[0] == "1@a1" and all("@" in s and s[-1] == "1" for s in strings)
    np.testing.assert_array_equal(
        np.asarray(state.observation_tensor(1)).reshape(42, 5, 5),
        observe(state.diceboard_state, 1),
    )
    assert state.observation_string(0) == str(state)
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)


def test_serialisation_round_trips() -> None:
    game = pyspiel.load_game("python_custodian_dice", {"variant": "chaos", "no_capture_limit": 30})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(6)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and str(game2) == str(game)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    clone = state.clone()
    if not clone.is_terminal() and not clone.is_chance_node():
        clone.apply_action(clone.legal_actions()[0])
        assert str(clone) != str(state)


def test_chase_action_strings_are_our_notation() -> None:
    game = pyspiel.load_game("python_chase")
    state = game.new_initial_state()
    dstate = state.diceboard_state
    expected = {m.action: m.notation for m in dstate.legal_moves() if len(m.actions) == 1}
    for action in state.legal_actions():
        assert state.action_to_string(0, action) == expected[action]
