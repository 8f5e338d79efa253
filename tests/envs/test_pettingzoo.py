"""The PettingZoo environments: PettingZoo's own API, seed and max-cycles tests, and ours."""

from __future__ import annotations

import warnings
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, seed_test

import diceboard
from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.encoding import observe
from diceboard.envs.pettingzoo import chase_v0, custodian_dice_v0

CUSTODIAN_OPTIONS: list[dict[str, Any]] = [
    {},
    {"variant": "chaos"},
    {"variant": "no-jumping", "no_capture_limit": 20},
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's tests warn about dict observations, which its own board games use too
    warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box).*")


@pytest.mark.parametrize("options", CUSTODIAN_OPTIONS, ids=str)
def test_custodian_passes_the_pettingzoo_api_test(options: dict[str, Any]) -> None:
    api_test(custodian_dice_v0.env(**options), num_cycles=200)


@pytest.mark.parametrize("options", CUSTODIAN_OPTIONS, ids=str)
def test_custodian_passes_the_seed_test(options: dict[str, Any]) -> None:
    seed_test(partial(custodian_dice_v0.env, **options), num_cycles=60)


def test_custodian_passes_the_max_cycles_test() -> None:
    # The stock test samples actions without the mask and assumes that the agents take
    # turns: illegal actions become random legal ones, and the dice are placed as rolled.
    kwargs = {"illegal_action": "random", "placement": "rolled"}
    max_cycles_test(
        SimpleNamespace(
            env=partial(custodian_dice_v0.env, **kwargs),
            parallel_env=partial(custodian_dice_v0.parallel_env, **kwargs),
        )
    )


def test_chase_passes_the_pettingzoo_tests() -> None:
    api_test(chase_v0.env(no_capture_limit=30), num_cycles=120)
    seed_test(partial(chase_v0.env, no_capture_limit=30), num_cycles=40)
    kwargs = {"illegal_action": "random", "seed": 0}
    max_cycles_test(
        SimpleNamespace(
            env=partial(chase_v0.env, **kwargs),
            parallel_env=partial(chase_v0.parallel_env, **kwargs),
        )
    )


def _play_to_the_end(env: Any, rng: np.random.Generator) -> dict[str, float]:
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


def test_a_whole_game_matches_the_python_api() -> None:
    env = custodian_dice_v0.raw_env(variant="chaos")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        state = env.game_state
        assert agent == f"player_{'WB'.index(state.to_move)}"
        np.testing.assert_array_equal(obs["observation"], observe(state))
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(state.legal_action_ids())
        other = "player_1" if agent == "player_0" else "player_0"
        assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = env.game_state.outcome()
    assert outcome is not None
    expected = {"1-0": (1.0, -1.0), "0-1": (-1.0, 1.0), "1/2-1/2": (0.0, 0.0)}[outcome.result]
    assert (totals["player_0"], totals["player_1"]) == expected


def test_the_same_seed_replays_the_same_game() -> None:
    games = []
    for _ in range(2):
        env = custodian_dice_v0.env(variant="chaos", no_capture_limit=30)
        env.reset(seed=11)
        _play_to_the_end(env, np.random.default_rng(5))
        games.append(str(env.unwrapped.game_state))
    assert games[0] == games[1]


def test_max_cycles_truncates_after_that_many_decisions_per_agent() -> None:
    env = custodian_dice_v0.raw_env(max_cycles=3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    assert decisions == 6


def test_illegal_actions_raise_lose_or_become_random(caplog: pytest.LogCaptureFixture) -> None:
    env = custodian_dice_v0.raw_env(illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(
        IllegalMoveError, match=r"player_0: action 0 \(a1-a1=1\) is not legal for White"
    ):
        env.step(0)
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        env.step(10**6)
    with pytest.raises(IllegalMoveError, match="integer action id"):
        env.step("a1")

    env = custodian_dice_v0.raw_env(illegal_action="lose")
    env.reset(seed=1)
    with caplog.at_level("WARNING", logger="diceboard.envs"):
        env.step(0)
    assert "player_0 loses: action 0" in caplog.text
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert env.infos["player_0"]["illegal_action"] == 0

    env = custodian_dice_v0.raw_env()  # "random" is the default
    env.reset(seed=1)
    env.step(0)
    played = env.infos["player_0"]["played_action"]
    assert env.game_state.ply == 1 and not any(env.terminations.values())
    assert played != 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"illegal_action": "ignore"}, "illegal_action must be one of raise, lose, random"),
        ({"render_mode": "rgb"}, "render_mode must be one of ansi, rgb_array, human"),
        ({"max_cycles": 0}, "max_cycles must be a whole number of at least 1"),
        ({"max_cycles": 2, "max_decisions": 3}, "not both"),
        ({"variant": "blitz"}, "unknown Custodian Dice variant"),
        ({"colour": "red"}, "unknown Custodian Dice option 'colour'"),
    ],
)
def test_bad_settings_are_option_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        custodian_dice_v0.raw_env(**kwargs)


def test_render_modes() -> None:
    env = custodian_dice_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "\x1b[" in text
    env = custodian_dice_v0.env(render_mode="rgb_array")
    env.reset(seed=2)
    picture = env.render()
    assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8 and picture.shape[2] == 3
    quiet = custodian_dice_v0.raw_env()
    quiet.reset()
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None


def test_parallel_view_plays_one_decision_per_step() -> None:
    par = custodian_dice_v0.parallel_env(variant="chaos", max_cycles=500)
    observations, _ = par.reset(seed=4)
    assert set(observations) == {"player_0", "player_1"}
    rng = np.random.default_rng(4)
    steps = 0
    while par.agents:
        actions = {}
        for agent, obs in observations.items():
            legal = np.flatnonzero(obs["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        observations, *_ = par.step(actions)
        steps += 1
    state = par.unwrapped.game_state
    assert state.is_terminal() or steps == 500
    assert steps == par.unwrapped.decisions


def test_the_state_is_the_first_players_view() -> None:
    env = custodian_dice_v0.raw_env()
    env.reset(seed=0)
    np.testing.assert_array_equal(env.state(), observe(env.game_state, 0))
    assert env.state_space.shape == env.state().shape
    assert str(env) == "custodian_dice_v0"
    assert diceboard.game("custodian") == env.game
