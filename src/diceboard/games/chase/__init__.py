"""Chase: rules kernel, options, position strings, notation and the game API."""

from diceboard.games.chase.game import ChaseGame, ChaseState

__all__ = ["ChaseGame", "ChaseState"]
