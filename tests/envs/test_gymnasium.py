"""The single-agent Gymnasium environments."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

import diceboard
from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.encoding import observe
from diceboard.envs.gymnasium import ChaseEnv, CustodianDiceEnv


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # check_env plays unmasked random actions, which lose the game with a warning
    warnings.filterwarnings("ignore", message=".*(learner loses|render modes).*")


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"seat": "second", "variant": "chaos"}, {"seat": "random", "illegal_action": "random"}],
    ids=str,
)
def test_custodian_passes_check_env(kwargs: dict[str, Any]) -> None:
    check_env(CustodianDiceEnv(render_mode="rgb_array", **kwargs))
    check_env(
        gymnasium.make(
            diceboard.games.info("custodian").environments["gymnasium"], **kwargs
        ).unwrapped
    )


def test_chase_passes_check_env() -> None:
    check_env(ChaseEnv(no_capture_limit=30, render_mode="ansi"))
    check_env(ChaseEnv(seat="R", illegal_action="random", no_capture_limit=30))


def test_an_episode_against_random_ends_with_the_outcome_as_reward() -> None:
    env = CustodianDiceEnv(seat="second", variant="chaos")
    obs, info = env.reset(seed=7)
    assert info["seat"] == "B" and len(info["opponent_moves"]) == 5  # White placed first
    rng = np.random.default_rng(7)
    total, done = 0.0, False
    while not done:
        state = env.game_state
        assert state.to_move == "B" and not state.is_chance()
        np.testing.assert_array_equal(obs["observation"], observe(state, "B").reshape(-1))
        np.testing.assert_array_equal(env.action_masks(), obs["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += float(reward)
    outcome = env.game_state.outcome()
    assert outcome is not None
    assert total == (0.0 if outcome.winner is None else (1.0 if outcome.winner == "B" else -1.0))
    assert obs["action_mask"].sum() == 0
    with pytest.raises(IllegalMoveError, match="call reset"):
        env.step(0)


def test_the_seed_fixes_the_dice_the_seat_and_the_opponent() -> None:
    runs = []
    for _ in range(2):
        env = CustodianDiceEnv(seat="random", variant="chaos")
        obs, info = env.reset(seed=21)
        moves = [info["seat"], *info["opponent_moves"]]
        rng = np.random.default_rng(1)
        for _ in range(15):
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += info["opponent_moves"]
            if done:
                break
        runs.append((moves, info["position"]))
    assert runs[0] == runs[1]


def test_illegal_actions(caplog: pytest.LogCaptureFixture) -> None:
    env = CustodianDiceEnv(illegal_action="raise", seat="first")
    env.reset(seed=0)
    with pytest.raises(IllegalMoveError, match=r"action 0 \(a1-a1=1\) is not legal for White"):
        env.step(0)
    env = CustodianDiceEnv(seat="first")
    env.reset(seed=0)
    with caplog.at_level("WARNING", logger="diceboard.envs"):
        _, reward, done, _, info = env.step(0)
    assert "the learner loses: action 0" in caplog.text
    assert (reward, done, info["illegal_action"]) == (-1.0, True, 0)
    env = CustodianDiceEnv(illegal_action="random", seat="first")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(0)
    assert not done and info["played_action"] != 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": "R"}, "seat must be one of first, second, random, W, B"),
        ({"opponent": "deep-blue"}, "unknown agent 'deep-blue'"),
        ({"illegal_action": "skip"}, "illegal_action must be one of"),
        ({"faces": "spin"}, "option faces must be one of turn, roll"),
    ],
)
def test_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        CustodianDiceEnv(**kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=50"])
def test_other_diceboard_agents_play_the_opponent(spec: str) -> None:
    env = CustodianDiceEnv(opponent=spec, seat="second", placement="rolled")
    obs, info = env.reset(seed=3)
    assert len(info["opponent_moves"]) == 1 and env.game_state.to_move == "B"
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game_state.to_move == "B" or env.game_state.is_terminal()
