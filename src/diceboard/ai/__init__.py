"""Computer players for both games."""

from diceboard.ai.base import Agent, Analysis, MoveStats
from diceboard.ai.random_agent import RandomAgent
from diceboard.ai.specs import FACTORIES, agent, parse_spec

__all__ = ["FACTORIES", "Agent", "Analysis", "MoveStats", "RandomAgent", "agent", "parse_spec"]
