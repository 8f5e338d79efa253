"""Every registered game with each of its variants: the parameters of the conformance suite."""

from __future__ import annotations

import random

import pytest

import diceboard
from diceboard.core.game import State

#: (game name, variant) for every registered game and variant
CASES = [(info.name, v.name) for info in diceboard.games.infos() for v in info.variants]
IDS = [f"{name}-{variant}" for name, variant in CASES]


@pytest.fixture(params=CASES, ids=IDS)
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def game(case: tuple[str, str]) -> diceboard.Game:
    name, variant = case
    return diceboard.game(name, variant=variant)


def random_states(game: diceboard.Game, seed: int, plies: int) -> list[State]:
    """The states of one random game from the very first (chance) state, at most ``plies``."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not state.is_terminal() and len(states) <= plies:
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
        states.append(state)
    return states


def sample_states(game: diceboard.Game, games: int = 3, plies: int = 60) -> list[State]:
    """Decision and chance states from a few random games (every fifth state)."""
    out: list[State] = []
    for seed in range(games):
        out.extend(random_states(game, seed, plies)[::5])
    return out
