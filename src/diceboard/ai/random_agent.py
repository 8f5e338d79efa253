"""The random player: a uniformly random legal move."""

from __future__ import annotations

import random

from diceboard.ai.base import Agent
from diceboard.core.game import State
from diceboard.core.move import Move


class RandomAgent(Agent):
    """Plays a uniformly random legal move; deterministic for a given seed.

    >>> import diceboard
    >>> from diceboard.ai import agent
    >>> state = diceboard.game("custodian").start(seed=1)
    >>> agent("random", seed=3).choose(state) in state.legal_moves()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.spec = "random"
        self._seed = seed
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        if not moves:
            raise ValueError(f"no legal move to choose in {state}")
        return moves[self._rng.randrange(len(moves))]

    def reset(self) -> None:
        self._rng = random.Random(self._seed)
