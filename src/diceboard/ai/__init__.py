"""Computer players for both games: random, greedy, alpha-beta, MCTS and levels 1–8 (and 9
where a game has it).

>>> import diceboard
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> diceboard.agent("alphabeta:depth=2", seed=1).choose(state) in state.legal_moves()
True
"""

from diceboard.ai.alphabeta_agent import AlphaBetaAgent
from diceboard.ai.base import Agent, Analysis, MoveStats
from diceboard.ai.greedy_agent import GreedyAgent
from diceboard.ai.levels import EXTRA_LEVELS, LEVELS, Level, game_levels
from diceboard.ai.mcts_agent import MCTSAgent
from diceboard.ai.random_agent import RandomAgent
from diceboard.ai.specs import FACTORIES, LevelAgent, agent, parse_spec

__all__ = [
    "EXTRA_LEVELS",
    "FACTORIES",
    "LEVELS",
    "Agent",
    "AlphaBetaAgent",
    "Analysis",
    "GreedyAgent",
    "Level",
    "LevelAgent",
    "MCTSAgent",
    "MoveStats",
    "RandomAgent",
    "agent",
    "game_levels",
    "parse_spec",
]
