"""What the searching agents share: the evaluation weights per game, seeds, and timing."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import numpy as np

from diceboard import games
from diceboard.ai.base import Agent
from diceboard.ai.engine import engine_for
from diceboard.ai.weights import weights_for
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.kernel import compile_for_callers


def resolve_seed(seed: int | None) -> int:
    """``seed``, or a fresh random one where none was given."""
    return random.SystemRandom().randrange(2**32) if seed is None else seed


class SearchAgent(Agent):
    """An agent that evaluates positions with the fitted linear model (``eval=linear``, the
    default; ``fitted`` is its older name), the trained network (``eval=net``) or material
    alone (``eval=material``)."""

    def __init__(self, spec: str, seed: int | None, evaluation: str, contempt: float = 0.0) -> None:
        self.spec = spec
        self.seed = resolve_seed(seed)
        self.evaluation = evaluation
        self.contempt = contempt
        self._weights: dict[str, np.ndarray] = {}
        self._warm: set[str] = set()

    def weights(self, game_name: str) -> np.ndarray:
        """The evaluation weights this agent uses for ``game_name``."""
        found = self._weights.get(game_name)
        if found is None:
            found = weights_for(game_name, self.evaluation)
            self._weights[game_name] = found
        return found

    def use_weights(self, game_name: str, vector: np.ndarray) -> None:
        """Evaluate ``game_name`` with ``vector`` (linear weights or a network's parameters)
        instead of the package's file (training plays with the model being trained)."""
        self._weights[game_name] = np.asarray(vector, dtype=np.float64)

    def evaluation_vector(self, state: State) -> np.ndarray:
        """The weights for ``state``'s game followed by the value of a draw for the first
        player: ``-contempt`` when the player to move in ``state`` (who searches) is the
        first player, ``+contempt`` otherwise."""
        searcher = state.game.players.index(state.to_move)
        draw = -self.contempt if searcher == 0 else self.contempt
        return self._evaluation_vector(state.game.name, draw)

    def _evaluation_vector(self, game_name: str, draw: float) -> np.ndarray:
        return np.append(self.weights(game_name), draw)

    def compile_evaluation(self, game_name: str) -> None:
        engine = engine_for(game_name)
        weights = self._evaluation_vector(game_name, 0.0)
        state = np.zeros(engine.binding.STATE_LEN, dtype=np.int64)
        # the types the search passes: its own work arrays and feature buffer
        scratch = np.zeros(1, dtype=np.float64)
        opts = games.game(game_name).opts
        # as the search calls it: from compiled code
        static_value = engine.compiled("static_value", weights)
        compile_for_callers(static_value, (state, opts, weights, scratch))

    def warm_up(self, game_name: str, compile_search: Callable[[], object]) -> None:
        """Run ``compile_search`` once per game before the first timed search, so that
        numba's compilation (or cache load) does not eat the first move's time budget."""
        if game_name not in self._warm:
            compile_search()
            self._warm.add(game_name)


def careless_move(rng: random.Random, epsilon: float, moves: Sequence[Move]) -> Move | None:
    """With probability ``epsilon`` a uniformly random one of ``moves`` (a careless player's
    slip, drawn from the agent's seeded ``rng``), else ``None``."""
    if epsilon > 0.0 and rng.random() < epsilon:
        return moves[rng.randrange(len(moves))]
    return None


def deadline_after(seconds: float | None) -> float:
    """The ``perf_counter`` time ``seconds`` from now, or 0.0 (no deadline)."""
    return 0.0 if seconds is None else time.perf_counter() + seconds
