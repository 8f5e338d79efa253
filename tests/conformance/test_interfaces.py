"""The layers above the game API, run over every registered game and variant: the compiled
and plain kernels agree, every kind of agent plays legal moves, records and pictures
round-trip, the research environments pass their libraries' own checkers, and the batched
simulator steps the game."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import diceboard
from tests.conformance.conftest import random_states, sample_states

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.nojit
def test_compiled_and_plain_kernels_agree(case: tuple[str, str]) -> None:
    name, variant = case
    script = [sys.executable, "-m", "tests.conformance.random_game", name, variant, "11", "80"]
    compiled = subprocess.run(script, cwd=ROOT, capture_output=True, text=True, check=True)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run(script, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert compiled.stdout == plain.stdout
    assert len(compiled.stdout.splitlines()) > 10


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "alphabeta:depth=1", "mcts:iterations=64", "level:1", "level:8"]
)
def test_every_kind_of_agent_plays_legal_moves(game: diceboard.Game, spec: str) -> None:
    agent = diceboard.agent(spec, seed=1)
    states = [s for s in sample_states(game, games=1, plies=40) if not s.is_terminal()]
    # the top level thinks 1.8 s a move: one position is enough for it
    states = [s for s in states if not s.is_chance()][: 1 if spec == "level:8" else 3]
    assert states
    for state in states:
        move = agent.choose(state)
        assert move in state.legal_moves(), (spec, str(state), move)


def test_records_round_trip(game: diceboard.Game) -> None:
    from diceboard.records import GameRecord, read_pgn

    final = random_states(game, seed=5, plies=50)[-1]
    record = GameRecord.from_state(final, players=("Ann", "Bo"))
    again = read_pgn(record.to_pgn())[0]
    assert str(again.final_state()) == str(final)
    assert GameRecord.from_json(record.to_json()).final_state() == again.final_state()


def test_boards_are_drawn(game: diceboard.Game) -> None:
    from diceboard.rendering import svg, terminal

    for state in sample_states(game, games=1, plies=40)[:4]:
        root = ET.fromstring(svg.render(state))
        assert root.tag.endswith("svg")
        squares = {e.get("data-square") for e in root.iter() if e.get("data-square")}
        assert squares == set(game.squares)
        text = terminal.render(state, color=False)
        assert game.player_names[0] in text or game.player_names[1] in text


def test_the_pettingzoo_suite_passes(case: tuple[str, str]) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    name, variant = case
    module = importlib.import_module(
        "diceboard.envs.pettingzoo." + diceboard.games.info(name).environments["pettingzoo"]
    )
    api_test(module.env(variant=variant, no_capture_limit=20), num_cycles=60)


def test_the_gymnasium_checker_passes(case: tuple[str, str]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import diceboard.envs.gymnasium  # registers the ids

    name, variant = case
    env_id = diceboard.games.info(name).environments["gymnasium"]
    env = gymnasium.make(env_id, variant=variant, no_capture_limit=20)
    check_env(env.unwrapped, skip_render_check=True)


def test_openspiel_plays_random_games(case: tuple[str, str]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import diceboard.envs.openspiel  # registers the games

    name, variant = case
    short = diceboard.games.info(name).environments["openspiel"]
    params = {"no_capture_limit": 20}
    if len(diceboard.games.info(name).variants) > 1:
        params["variant"] = variant  # type: ignore[assignment]
    game = pyspiel.load_game(short, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_the_batched_simulator_steps_the_game(game: diceboard.Game) -> None:
    import diceboard.vector as dv

    state = dv.init(game, seed=2, batch=16)
    rng = np.random.default_rng(2)
    for _ in range(30):
        state = dv.step(state, dv.random_actions(state, rng))
    assert state.observation.shape[0] == 16
    assert np.isfinite(state.observation).all()
