"""The alpha-beta player: iterative deepening over the compiled negamax/expectimax search."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from diceboard import games
from diceboard.ai.base import Analysis, MoveStats
from diceboard.ai.engine import engine_for
from diceboard.ai.engine.alphabeta import (
    STAT_ABORTED,
    STAT_BEST,
    STAT_NODES,
    STAT_PROBES,
    table_salt,
    workspace,
)
from diceboard.ai.roots import Root, moves_of_actions, root_of
from diceboard.ai.search_agent import SearchAgent, careless_move, deadline_after
from diceboard.ai.weights import DEFAULT_EVALUATION
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.kernel.stepping import direct

#: the deepest iteration the search starts
MAX_DEPTH = 64
#: killer-move slots: one pair per stack level
KILLER_LEVELS = 256
#: longest principal variation reported
PV_LENGTH = 32
#: transposition-table entries (a power of two; 24 bytes each)
TT_SIZE = 1 << 20


class AlphaBetaAgent(SearchAgent):
    """Negamax alpha-beta with expectimax chance nodes, iterative deepening, a transposition
    table and move ordering (see :mod:`diceboard.ai.engine.alphabeta`).

    It searches ``depth`` moves deep, or deeper and deeper until ``time`` seconds have passed
    (both: whichever comes first). An interrupted iteration still counts where it has
    finished the previous best move: a better move found after it replaces it.

    >>> import diceboard
    >>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    >>> a = diceboard.agent("alphabeta:depth=2", seed=1).analyse(state)
    >>> a.best in state.legal_moves(), a.depth, -1.0 <= a.value <= 1.0
    (True, 2, True)
    """

    def __init__(
        self,
        depth: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        evaluation: str = DEFAULT_EVALUATION,
        use_tt: bool = True,
        ordering: bool = True,
        contempt: float = 0.0,
        spec: str = "alphabeta",
        epsilon: float = 0.0,
    ) -> None:
        super().__init__(spec, seed, evaluation, contempt)
        if depth is None and seconds is None:
            raise ValueError("alpha-beta needs a depth or a time budget")
        self.depth = depth
        self.epsilon = epsilon
        self.seconds = seconds
        self.use_tt = use_tt
        self.ordering = ordering
        self._rng = random.Random(self.seed)
        self._tt: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self._tt = None

    def _table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._tt is None:
            size = TT_SIZE if self.use_tt else 1
            self._tt = (
                np.zeros(size, dtype=np.int64),
                np.zeros(size, dtype=np.float64),
                np.zeros(size, dtype=np.int64),
            )
        return self._tt

    def choose(self, state: State) -> Move:
        root = root_of(state)
        if len(root.moves) == 1:
            return root.moves[0]
        slip = careless_move(self._rng, self.epsilon, root.moves)
        if slip is not None:
            return slip
        # no principal variation: walking it through the Python API costs time of the move
        return self._search(root, multipv=False, with_pv=False).best

    def analyse(self, state: State) -> Analysis:
        return self._search(root_of(state), multipv=True)

    def search(self, root: Root) -> Analysis:
        """What :meth:`choose` searches, on a prepared root: the best move and its value
        (other moves get bounds, and the principal variation is the best move alone)."""
        return self._search(root, multipv=False, with_pv=False)

    def _search(self, root: Root, multipv: bool, with_pv: bool = True) -> Analysis:
        engine = root.engine
        weights = self.evaluation_vector(root.state)
        keys, vals, info = self._table()
        n = len(root.moves)
        killers = np.full((KILLER_LEVELS, 2), -1, dtype=np.int64)
        history = np.zeros((2, root.state.game.num_actions), dtype=np.float64)
        flags = self._flags(multipv)
        stats = np.zeros(4, dtype=np.int64)
        self.warm_up(
            root.state.game.name,
            lambda: engine.alphabeta(*root_trial_arguments(root, weights, flags)),
        )
        began = time.perf_counter()
        deadline = deadline_after(self.seconds)
        # a seeded shuffle decides between equal moves
        order = np.array(self._rng.sample(range(n), n), dtype=np.int64)
        best, value, depth_done = int(order[0]), 0.0, 0
        values = np.zeros(n, dtype=np.float64)
        max_depth = self.depth if self.depth is not None else MAX_DEPTH
        for depth in range(1, max_depth + 1):
            out_values = np.zeros(n, dtype=np.float64)
            out_done = np.zeros(n, dtype=np.int64)
            v = engine.alphabeta(
                root.arr,
                root.opts,
                root.hist,
                len(root.hist),
                root.seqs,
                root.seq_len,
                order,
                depth,
                weights,
                keys,
                vals,
                info,
                killers,
                history,
                flags,
                deadline,
                out_values,
                out_done,
                stats,
                workspace(engine.binding, depth, len(root.hist), n),
            )
            if stats[STAT_ABORTED]:
                # the first move searched is the previous best: once it is done, the best
                # move of the unfinished iteration is at least as well founded
                found = int(stats[STAT_BEST])
                if found >= 0 and (depth_done == 0 or out_done[order[0]]):
                    best, value = found, float(out_values[found])
                    values = np.where(out_done == 1, out_values, values)
                break
            best, value, depth_done = int(stats[STAT_BEST]), float(v), depth
            values = out_values
            if abs(value) >= 1.0:
                break  # a proven result: deeper search cannot change it
            # next iteration: best first, then by this iteration's values (stable for ties)
            ranked = sorted(range(n), key=lambda i: (i != best, -values[i]))
            order = np.array(ranked, dtype=np.int64)
            if deadline and time.perf_counter() >= deadline:
                break
        pv = self._principal_variation(root, best, weights) if with_pv else (root.moves[best],)
        ranked = sorted(range(n), key=lambda i: (i != best, -values[i]))
        moves = tuple(MoveStats(root.moves[i], float(values[i])) for i in ranked)
        seconds = time.perf_counter() - began
        nodes = int(stats[STAT_NODES])
        return Analysis(
            best=root.moves[best],
            value=value,
            pv=pv,
            moves=moves,
            depth=depth_done,
            nodes=nodes,
            seconds=seconds,
            info={
                "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
                "ordering_probes": float(stats[STAT_PROBES]),
            },
        )

    def compile_search(self, game_name: str) -> None:
        engine = engine_for(game_name)
        game = games.game(game_name)
        weights = self._evaluation_vector(game_name, 0.0)
        arguments = _trial_arguments(
            engine.binding,
            np.zeros(engine.binding.STATE_LEN, dtype=np.int64),
            game.opts,
            np.zeros(0, dtype=np.int64),
            np.zeros((1, 1), dtype=np.int64),
            np.ones(1, dtype=np.int64),
            weights,
            self._flags(multipv=False),
            game.num_actions,
        )
        direct(engine.compiled("alphabeta", weights), arguments)

    def _flags(self, multipv: bool) -> np.ndarray:
        return np.array([int(self.use_tt), int(self.ordering), int(multipv)], dtype=np.int64)

    def _principal_variation(self, root: Root, best: int, weights: np.ndarray) -> tuple[Move, ...]:
        keys, _, info = self._table()
        out = np.empty(PV_LENGTH, dtype=np.int64)
        n = root.engine.principal_variation(
            root.arr,
            root.opts,
            root.hist,
            len(root.hist),
            root.seqs[best],
            int(root.seq_len[best]),
            keys,
            info,
            table_salt(weights),
            out,
        )
        first = root.moves[best]
        after = root.state.play(first)
        return (first, *moves_of_actions(after, [int(a) for a in out[:n]]))


def _trial_arguments(
    binding: Any,
    arr: np.ndarray,
    opts: np.ndarray,
    hist: np.ndarray,
    seqs: np.ndarray,
    seq_len: np.ndarray,
    weights: np.ndarray,
    flags: np.ndarray,
    num_actions: int,
) -> tuple[Any, ...]:
    """The arguments of a depth-1 search of the root ``arr`` (its moves' action ids ``seqs``,
    ``seq_len`` long) with throwaway tables, in the game of the search binding ``binding``:
    what a game's first search runs before its timed iterations, so that compiling does not
    eat their time. Their types are those of every later call, which is what
    :meth:`AlphaBetaAgent.compile_search` compiles for."""
    n = len(seqs)
    return (
        arr,
        opts,
        hist,
        len(hist),
        seqs,
        seq_len,
        np.arange(n, dtype=np.int64),
        1,
        weights,
        np.zeros(1, dtype=np.int64),  # throwaway tables: nothing carries over
        np.zeros(1, dtype=np.float64),
        np.zeros(1, dtype=np.int64),
        np.full((KILLER_LEVELS, 2), -1, dtype=np.int64),
        np.zeros((2, num_actions), dtype=np.float64),
        flags,
        0.0,
        np.zeros(n),
        np.zeros(n, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        workspace(binding, 1, len(hist), n),
    )


def root_trial_arguments(root: Root, weights: np.ndarray, flags: np.ndarray) -> tuple[Any, ...]:
    """:func:`_trial_arguments` for the prepared root ``root``."""
    return _trial_arguments(
        root.engine.binding,
        root.arr,
        root.opts,
        root.hist,
        root.seqs,
        root.seq_len,
        weights,
        flags,
        root.state.game.num_actions,
    )
