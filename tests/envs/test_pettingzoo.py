"""The PettingZoo environments: PettingZoo's own API, seed and max-cycles tests, and ours."""

from __future__ import annotations

import warnings
from functools import partial
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


def test_chase_passes_the_pettingzoo_tests() -> None:
    api_test(chase_v0.env(no_capture_limit=30), num_cycles=120)
    seed_test(partial(chase_v0.env, no_capture_limit=30), num_cycles=40)
    max_cycles_test(chase_v0)


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


def _selections(env: Any, seed: int) -> list[tuple[str, bool]]:
    """Play ``env`` from ``seed`` with random legal actions (``None`` while waiting); the
    live selections, as (agent, waiting)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        waiting = bool(info.get("waiting"))
        seen.append((agent, waiting))
        legal = np.flatnonzero(obs["action_mask"])
        assert waiting == (len(legal) == 0)
        env.step(None if waiting else int(rng.choice(legal)))
    return seen


def test_max_cycles_selects_the_agents_in_turn_and_the_idle_one_waits() -> None:
    # Chosen placement: White places five dice, then Black five. In cycles Black waits
    # while White places, and White while Black places, each selected exactly 7 times.
    env = custodian_dice_v0.raw_env(max_cycles=7)
    seen = _selections(env, seed=0)
    w, b = "player_0", "player_1"
    placing = [(w, False), (b, True)] * 4 + [(w, False), (b, False)]
    assert seen == placing + [(w, True), (b, False)] * 2
    assert env.decisions == 8 and env.steps == 14
    assert all(env.truncations.values()) and not any(env.terminations.values())
    # the same game without cycles: the agent to decide is selected, several times in a row
    env = custodian_dice_v0.raw_env(max_decisions=8)
    assert _selections(env, seed=0) == [(w, False)] * 5 + [(b, False)] * 3


def test_a_waiting_agent_changes_nothing() -> None:
    env = custodian_dice_v0.raw_env(max_cycles=20, illegal_action="raise")
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert env.agent_selection == "player_1" and env.infos["player_1"] == {"waiting": True}
    before = str(env.game_state)
    obs, reward, terminated, truncated, _ = env.last()
    assert obs["action_mask"].sum() == 0 and reward == 0 and not (terminated or truncated)
    with pytest.raises(IllegalMoveError, match=r"player_1 waits .*integer action id"):
        env.step("a1")
    env.step(0)  # any action of the space is ignored, as in the parallel view
    assert str(env.game_state) == before and env.decisions == 1 and env.steps == 2
    assert env.agent_selection == "player_0" and env.infos["player_0"] == {}
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    env.step(None)  # and so is None
    assert env.decisions == 2 and env.agent_selection == "player_0"


@pytest.mark.parametrize("seed", range(6))
def test_cycles_play_the_same_game_as_decisions(seed: int) -> None:
    # waits draw nothing from the environment's random stream: the decisions of a game in
    # cycles, replayed without cycles, give the same game
    env = chase_v0.raw_env(max_cycles=60, no_capture_limit=20)
    seen = _selections(env, seed)
    decided = [agent for agent, waiting in seen if not waiting]
    assert [agent for agent, _ in seen] == [f"player_{i % 2}" for i in range(len(seen))]
    again = chase_v0.raw_env(max_decisions=len(decided), no_capture_limit=20)
    assert [agent for agent, _ in _selections(again, seed)] == decided
    assert str(again.game_state) == str(env.game_state)


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
    with pytest.raises(OptionError, match="not both"):
        custodian_dice_v0.parallel_env(max_cycles=5, max_decisions=5)


def test_the_state_is_the_first_players_view() -> None:
    env = custodian_dice_v0.raw_env()
    env.reset(seed=0)
    np.testing.assert_array_equal(env.state(), observe(env.game_state, 0))
    assert env.state_space.shape == env.state().shape
    assert str(env) == "custodian_dice_v0"
    assert diceboard.game("custodian") == env.game
