"""Playing strength levels 1 (a beginner who blunders) to 8 (the strongest player here).

Each level is an agent spec per game; ``level:N`` plays the spec of the game it is asked
about. Level 8 spends at most 2 seconds a move (1.8 s budget, kept to within 10 %).

Below level 8 a level is weaker in two ways: it searches less, and one move in so many it is
careless (``epsilon``: a uniformly random move instead of the searched one), the way chess
engines' skill levels weaken them. Search alone does not separate the upper levels of
Custodian Dice: between two careful players nearly every game ends in a draw (a die in a
corner cannot be sandwiched, and the defender's last dice can shelter there), so a level
beats the one below by punishing its slips. The carelessness halves from each level to the
next; ``benchmarks/ladder.py`` measures the steps (see the README).
"""

from __future__ import annotations

from diceboard.ai.base import Agent, Analysis
from diceboard.core.errors import OptionError
from diceboard.core.game import State
from diceboard.core.move import Move

#: level -> (what it is, spec for Custodian Dice, spec for Chase)
LEVELS: dict[int, tuple[str, str, str]] = {
    1: (
        "a beginner: nine moves in ten at random, else the best-looking one",
        "greedy:epsilon=0.9",
        "greedy:epsilon=0.9",
    ),
    2: (
        "looks one move ahead, three moves in four at random",
        "greedy:epsilon=0.75",
        "greedy:epsilon=0.75",
    ),
    3: (
        "looks one move ahead, every other move at random",
        "greedy:epsilon=0.5",
        "greedy:epsilon=0.5",
    ),
    4: (
        "looks two moves ahead, one move in three at random",
        "alphabeta:depth=2,epsilon=0.35",
        "alphabeta:depth=2,epsilon=0.35",
    ),
    5: (
        "looks three moves ahead, one move in five at random",
        "alphabeta:depth=3,epsilon=0.2",
        "alphabeta:depth=3,epsilon=0.2",
    ),
    6: (
        "a fifth of a second a move, one move in ten at random",
        "alphabeta:time=0.2,epsilon=0.1",
        "alphabeta:time=0.2,epsilon=0.1",
    ),
    7: (
        "half a second a move, one move in twenty at random",
        "alphabeta:time=0.5,epsilon=0.05",
        "alphabeta:time=0.5,epsilon=0.05",
    ),
    8: ("the strongest: 1.8 s a move, never careless", "alphabeta:time=1.8", "alphabeta:time=1.8"),
}


def level_spec(level: int, game_name: str) -> str:
    """The agent spec that ``level`` plays in ``game_name``."""
    if level not in LEVELS:
        raise OptionError(f"level {level} does not exist: levels are 1 to {max(LEVELS)}")
    _, custodian, chase = LEVELS[level]
    return chase if game_name == "chase" else custodian


class LevelAgent(Agent):
    """``level:N``: plays the agent of :data:`LEVELS` for the game of the state it is given."""

    def __init__(self, level: int, seed: int | None = None) -> None:
        level_spec(level, "custodian")  # checks the level
        self.level = level
        self.spec = f"level:{level}"
        self._seed = seed
        self._agents: dict[str, Agent] = {}

    def agent_for(self, game_name: str) -> Agent:
        """The agent this level plays in ``game_name``."""
        found = self._agents.get(game_name)
        if found is None:
            from diceboard.ai.specs import agent

            found = agent(level_spec(self.level, game_name), self._seed)
            self._agents[game_name] = found
        return found

    def choose(self, state: State) -> Move:
        return self.agent_for(state.game.name).choose(state)

    def analyse(self, state: State) -> Analysis:
        return self.agent_for(state.game.name).analyse(state)

    def reset(self) -> None:
        for found in self._agents.values():
            found.reset()
