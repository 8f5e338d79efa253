"""The greedy player: the move with the best value one ply ahead."""

from __future__ import annotations

import random
import time

import numpy as np

from diceboard.ai.base import Analysis, MoveStats
from diceboard.ai.roots import Root, root_of
from diceboard.ai.search_agent import SearchAgent, careless_move
from diceboard.ai.weights import DEFAULT_EVALUATION
from diceboard.core.game import State
from diceboard.core.move import Move


class GreedyAgent(SearchAgent):
    """Plays the move whose resulting position the evaluation likes best (the average over
    the outcomes where a roll follows). Equal values are broken at random, and with
    probability ``epsilon`` the move is uniformly random instead (a beginner's blunders).

    >>> import diceboard
    >>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    >>> diceboard.agent("greedy", seed=1).choose(state) in state.legal_moves()
    True
    """

    def __init__(
        self,
        seed: int | None = None,
        evaluation: str = DEFAULT_EVALUATION,
        epsilon: float = 0.0,
        contempt: float = 0.0,
        spec: str = "greedy",
    ) -> None:
        super().__init__(spec, seed, evaluation, contempt)
        self.epsilon = epsilon
        self._rng = random.Random(self.seed)

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def analyse(self, state: State) -> Analysis:
        return self._analyse(root_of(state))

    def _analyse(self, root: Root) -> Analysis:
        began = time.perf_counter()
        state = root.state
        values = np.empty(len(root.moves), dtype=np.float64)
        root.engine.move_values(
            root.arr,
            root.opts,
            root.hist,
            len(root.hist),
            root.seqs,
            root.seq_len,
            self.evaluation_vector(state),
            values,
        )
        top = float(values.max())
        tied = [i for i, v in enumerate(values) if v >= top - 1e-12]
        best = tied[self._rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        order = sorted(range(len(values)), key=lambda i: (i != best, -values[i]))
        stats = tuple(MoveStats(root.moves[i], float(values[i])) for i in order)
        return Analysis(
            best=root.moves[best],
            value=top,
            pv=(root.moves[best],),
            moves=stats,
            depth=1,
            nodes=len(values),
            seconds=time.perf_counter() - began,
        )

    def choose(self, state: State) -> Move:
        root = root_of(state)
        slip = careless_move(self._rng, self.epsilon, root.moves)
        return slip if slip is not None else self._analyse(root).best
