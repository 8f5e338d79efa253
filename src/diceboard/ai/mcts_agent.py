"""The MCTS player: UCT with chance nodes over the compiled kernel, keeping its tree between
moves."""

from __future__ import annotations

import time

import numpy as np

from diceboard.ai.base import Analysis, MoveStats
from diceboard.ai.engine.mcts import (
    C_EDGES,
    C_ITERATIONS,
    C_NODES,
    E_ACTION,
    E_CHILD,
    EDGE_COLUMNS,
    N_EDGE0,
    N_NEDGE,
    N_VISITS,
    NODE_COLUMNS,
    P_C,
    P_CUTOFF,
    P_PUCT,
    P_SAMPLES,
    P_WIDEN,
    PARAMS_LEN,
    RUN_FULL,
    mcts_compact,
    mcts_descend,
)
from diceboard.ai.engine.rng import new_rng
from diceboard.ai.roots import Root, moves_of_actions, root_of
from diceboard.ai.search_agent import SearchAgent, deadline_after
from diceboard.ai.weights import DEFAULT_EVALUATION
from diceboard.core.game import State
from diceboard.core.move import Move

#: the tree's first size (nodes; edges are eight times as many); it doubles when full
INITIAL_NODES = 1 << 15
#: how far back (in states) a new position is looked for under the kept tree's root
REUSE_DEPTH = 16
#: simulations when neither ``iterations`` nor ``time`` is given
DEFAULT_ITERATIONS = 10_000
#: longest principal variation reported
PV_LENGTH = 32


class _Tree:
    """The search tree's arrays (see :mod:`diceboard.ai.engine.mcts`)."""

    def __init__(self, nodes: int, edges: int) -> None:
        self.nodes = np.zeros((nodes, NODE_COLUMNS), dtype=np.int64)
        self.node_value = np.zeros(nodes, dtype=np.float64)
        self.edges = np.zeros((edges, EDGE_COLUMNS), dtype=np.int64)
        self.counts = np.zeros(3, dtype=np.int64)

    def grown(self) -> _Tree:
        """A copy with twice the room."""
        bigger = _Tree(2 * len(self.nodes), 2 * len(self.edges))
        n, e = int(self.counts[C_NODES]), int(self.counts[C_EDGES])
        bigger.nodes[:n] = self.nodes[:n]
        bigger.node_value[:n] = self.node_value[:n]
        bigger.edges[:e] = self.edges[:e]
        bigger.counts[:] = self.counts
        return bigger

    def root_edges(self) -> range:
        """The edge rows of the root."""
        start = int(self.nodes[0, N_EDGE0])
        return range(start, start + max(int(self.nodes[0, N_NEDGE]), 0))


class MCTSAgent(SearchAgent):
    """Monte Carlo tree search (UCT) with chance nodes; see :mod:`diceboard.ai.engine.mcts`.

    ``iterations`` simulations, or as many as ``time`` seconds allow (both: whichever ends
    first). ``c`` weighs exploration; playouts are ``random`` or ``heuristic`` (the best of
    ``samples`` random actions by static value), end after ``cutoff`` actions and are scored
    by the evaluation. ``widen`` sets progressive widening (0: try every child first). The
    best move is the most visited. With ``reuse`` the subtree of the
    position reached is kept for the next move.

    >>> import diceboard
    >>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    >>> a = diceboard.agent("mcts:iterations=300", seed=1).analyse(state)
    >>> a.best in state.legal_moves(), sum(m.visits for m in a.moves)
    (True, 300)
    """

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        evaluation: str = DEFAULT_EVALUATION,
        c: float = 1.0,
        playout: str = "random",
        cutoff: int = 8,
        samples: int = 3,
        reuse: bool = True,
        widen: float = 1.0,
        contempt: float = 0.0,
        spec: str = "mcts",
        select: str = "uct",
    ) -> None:
        super().__init__(spec, seed, evaluation, contempt)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.playout = playout
        self.cutoff = cutoff
        self.samples = samples if playout == "heuristic" else 1
        self.reuse = reuse
        self.widen = widen
        self.select = select
        self._rng = new_rng(self.seed)
        self._tree: _Tree | None = None
        self._tree_state: State | None = None
        self._tree_moves: tuple[Move, ...] = ()
        #: simulations of the last search that came from the kept tree
        self.reused_visits = 0

    def reset(self) -> None:
        self._rng = new_rng(self.seed)
        self._tree = None
        self._tree_state = None
        self._tree_moves = ()

    def choose(self, state: State) -> Move:
        root = root_of(state)
        if len(root.moves) == 1:
            self._tree = None
            return root.moves[0]
        # no principal variation: walking it through the Python API costs time of the move
        return self._search(root, with_pv=False).best

    def analyse(self, state: State) -> Analysis:
        return self._search(root_of(state))

    # --- tree reuse ---------------------------------------------------------------------------
    def _moves_since_tree(self, state: State) -> list[Move] | None:
        """The moves (chance outcomes included) from the kept tree's root to ``state``."""
        old = self._tree_state
        if old is None:
            return None
        line: list[Move] = []
        node: State | None = state
        for _ in range(REUSE_DEPTH):
            if node is None:
                return None
            if node is old or node == old:
                line.reverse()
                return line
            if node.last_move is None:
                return None
            line.append(node.last_move)
            node = node.parent
        return None

    def _reused_tree(self, root: Root) -> _Tree | None:
        tree = self._tree
        line = self._moves_since_tree(root.state)
        if tree is None or line is None:
            return None
        if not line:  # the same position again: search on in the same tree
            tree.counts[C_ITERATIONS] = 0
            return tree
        if any(len(m.actions) != 1 for m in root.moves):
            return None  # root edges are whole moves, those below single actions
        try:
            first = self._tree_moves.index(line[0])
        except ValueError:
            return None
        actions = [first] + [a for move in line[1:] for a in move.actions]
        node = int(mcts_descend(tree.nodes, tree.edges, 0, np.array(actions, dtype=np.int64)))
        if node < 0:
            return None
        fresh = _Tree(len(tree.nodes), len(tree.edges))
        mcts_compact(
            tree.nodes,
            tree.node_value,
            tree.edges,
            tree.counts,
            node,
            fresh.nodes,
            fresh.node_value,
            fresh.edges,
            fresh.counts,
        )
        # the new root's edges are action ids; at the root they index the list of moves
        index = {move.actions[0]: i for i, move in enumerate(root.moves)}
        for e in fresh.root_edges():
            i = index.get(int(fresh.edges[e, E_ACTION]))
            if i is None:
                return None
            fresh.edges[e, E_ACTION] = i
        return fresh

    # --- search -------------------------------------------------------------------------------
    def _search(self, root: Root, with_pv: bool = True) -> Analysis:
        params = self._params()
        weights = self.evaluation_vector(root.state)
        self.warm_up(root.state.game.name, lambda: self._compile(root))
        began = time.perf_counter()
        deadline = deadline_after(self.seconds)
        tree = self._reused_tree(root) if self.reuse else None
        if tree is None:
            tree = _Tree(INITIAL_NODES, 8 * INITIAL_NODES)
        self.reused_visits = int(tree.nodes[0, N_VISITS]) if tree.counts[C_NODES] else 0
        budget = self.iterations if self.iterations is not None else 2**62
        tree = self._simulate(root, tree, budget, deadline, params, weights)
        self._tree, self._tree_state, self._tree_moves = tree, root.state, root.moves
        return self._analysis(root, tree, time.perf_counter() - began, with_pv)

    def _params(self) -> np.ndarray:
        params = np.zeros(PARAMS_LEN, dtype=np.float64)
        params[P_C], params[P_CUTOFF], params[P_SAMPLES] = self.c, self.cutoff, self.samples
        params[P_WIDEN], params[P_PUCT] = self.widen, float(self.select == "puct")
        return params

    def _compile(self, root: Root) -> None:
        """Make the first call of every compiled function the search uses."""
        tree = self._simulate(root, _Tree(1024, 8192), 1)
        mcts_descend(tree.nodes, tree.edges, 0, np.zeros(1, dtype=np.int64))
        copy = _Tree(1024, 8192)
        mcts_compact(
            tree.nodes,
            tree.node_value,
            tree.edges,
            tree.counts,
            0,
            copy.nodes,
            copy.node_value,
            copy.edges,
            copy.counts,
        )

    def _simulate(
        self,
        root: Root,
        tree: _Tree,
        budget: int,
        deadline: float = 0.0,
        params: np.ndarray | None = None,
        weights: np.ndarray | None = None,
    ) -> _Tree:
        """Run simulations until ``budget`` of them are in ``tree`` or the deadline passes,
        growing the tree as needed; returns the (possibly new) tree."""
        if params is None:
            params = self._params()
        if weights is None:
            weights = self.evaluation_vector(root.state)
        while True:
            left = budget - int(tree.counts[C_ITERATIONS])
            status = root.engine.mcts_run(
                root.arr,
                root.opts,
                root.hist,
                len(root.hist),
                root.seqs,
                root.seq_len,
                tree.nodes,
                tree.node_value,
                tree.edges,
                tree.counts,
                weights,
                params,
                left,
                deadline,
                self._rng if budget > 1 else new_rng(0),
            )
            if status != RUN_FULL:
                return tree
            tree = tree.grown()

    def _analysis(self, root: Root, tree: _Tree, seconds: float, with_pv: bool) -> Analysis:
        rows = []
        for e in tree.root_edges():
            child = int(tree.edges[e, E_CHILD])
            if child < 0:
                continue
            visits = int(tree.nodes[child, N_VISITS])
            rows.append(
                (visits, float(tree.node_value[child]) / visits, int(tree.edges[e, E_ACTION]))
            )
        rows.sort(key=lambda r: (-r[0], -r[1]))
        seen = {r[2] for r in rows}
        stats = [MoveStats(root.moves[i], q, visits) for visits, q, i in rows]
        stats += [MoveStats(m, 0.0, 0) for i, m in enumerate(root.moves) if i not in seen]
        best = stats[0].move
        pv: tuple[Move, ...] = (best,)
        if with_pv:
            line = self._pv_actions(tree, rows[0][2])
            pv = (best, *moves_of_actions(root.state.play(best), line))
        iterations = int(tree.counts[C_ITERATIONS])
        return Analysis(
            best=best,
            value=stats[0].value,
            pv=pv,
            moves=tuple(stats),
            depth=len(pv),
            nodes=iterations,
            seconds=seconds,
            info={
                "simulations_per_second": iterations / seconds if seconds > 0 else 0.0,
                "reused_visits": float(self.reused_visits),
                "tree_nodes": float(tree.counts[C_NODES]),
            },
        )

    def _pv_actions(self, tree: _Tree, first: int) -> list[int]:
        """Most-visited actions below the root move ``first``, while the tree has them."""
        node = -1
        for e in tree.root_edges():
            if tree.edges[e, E_ACTION] == first:
                node = int(tree.edges[e, E_CHILD])
        actions: list[int] = []
        while node >= 0 and len(actions) < PV_LENGTH and tree.nodes[node, N_NEDGE] > 0:
            start = int(tree.nodes[node, N_EDGE0])
            best_edge, best_visits = -1, 0
            for e in range(start, start + int(tree.nodes[node, N_NEDGE])):
                child = int(tree.edges[e, E_CHILD])
                if child >= 0 and tree.nodes[child, N_VISITS] > best_visits:
                    best_edge, best_visits = e, int(tree.nodes[child, N_VISITS])
            if best_edge < 0 or best_visits < 2:
                break
            actions.append(int(tree.edges[best_edge, E_ACTION]))
            node = int(tree.edges[best_edge, E_CHILD])
        return actions
