"""Playing strength levels 1 (a beginner who blunders) to 8 (the strongest player here).

Each level is an agent spec per game; ``level:N`` plays the spec of the game it is asked
about. Level 8 spends at most 2 seconds a move (1.8 s budget, kept to within 10 %).
"""

from __future__ import annotations

from diceboard.ai.base import Agent, Analysis
from diceboard.core.errors import OptionError
from diceboard.core.game import State
from diceboard.core.move import Move

#: level -> (what it is, spec for Custodian Dice, spec for Chase)
LEVELS: dict[int, tuple[str, str, str]] = {
    1: (
        "a beginner: a random move two times in three, else the greedy one",
        "greedy:epsilon=0.67",
        "greedy:epsilon=0.67",
    ),
    2: ("greedy with the odd slip", "greedy:epsilon=0.1", "greedy:epsilon=0.1"),
    3: ("looks two moves ahead", "alphabeta:depth=2", "alphabeta:depth=2"),
    4: ("looks three moves ahead", "alphabeta:depth=3", "alphabeta:depth=3"),
    5: ("a tenth of a second a move", "alphabeta:time=0.1", "alphabeta:time=0.1"),
    6: ("a third of a second a move", "alphabeta:time=0.33", "alphabeta:time=0.33"),
    7: ("a second a move", "alphabeta:time=1.0", "alphabeta:time=1.0"),
    8: ("the strongest: 1.8 s a move", "alphabeta:time=1.8", "alphabeta:time=1.8"),
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
