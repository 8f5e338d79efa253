"""Search template: Monte Carlo tree search (UCT) with chance nodes, on arrays.

The tree lives in three arrays that the Python side (:mod:`diceboard.ai.mcts`) owns, grows
and keeps between moves:

- ``nodes`` (``int64``, one row per node): first edge, number of edges (-1 until expanded),
  visits, player to move, kind (decision, chance, finished game), children made so far;
- ``node_value`` (``float64``): the sum of the results seen through the node, for the player
  who chose it (the parent's player to move);
- ``edges`` (``int64``, one row per edge): the action, and the child node or -1.

Node 0 is the root. Its edges are indices into the root's list of whole moves (``seqs``), so
they are exactly the game's ``legal_moves``; below it every edge is one action id.

One simulation: from the root, take untried children first, then the child with the best UCB1
score ``Q + c·sqrt(ln N / n)`` (or, with ``params[P_PUCT]``, the best PUCT score of
:func:`_puct_child`); at a chance node, draw the outcome. Progressive widening keeps
the branching of these games (dozens to hundreds of moves) from flattening the tree: a node
with N visits tries only its first ``1 + widen·sqrt(N)`` children (``widen`` = 0: all). The
untried children wait in a shuffled order until the node has :data:`ORDER_AT` visits (the
root: at once); then they are ordered by their static value, best first.
The first new node ends the descent: a playout of at most ``cutoff`` actions (random, or the
best of ``k`` sampled actions by static value) runs from it and the evaluation scores where
it stops. The result is backed up along the path.
"""

from __future__ import annotations

import math

import numpy as np

from diceboard.ai.engine import contract as game
from diceboard.ai.engine.clock import now
from diceboard.ai.engine.evaluation import (
    leaf_value,
    new_scratch,
    play_sequence,
    seen_by,
    static_value,
    terminal_value,
)
from diceboard.ai.engine.rng import below
from diceboard.ai.engine.specialise import template
from diceboard.kernel import CHANCE, RESULT, TO_MOVE, njit
from diceboard.kernel.arrays import copy_into, copy_whole

# columns of ``nodes``
N_EDGE0 = 0
N_NEDGE = 1
N_VISITS = 2
N_PLAYER = 3
N_KIND = 4
N_MADE = 5
NODE_COLUMNS = 6
# columns of ``edges``
E_ACTION = 0
E_CHILD = 1
EDGE_COLUMNS = 2
# node kinds
KIND_DECISION = 0
KIND_CHANCE = 1
KIND_TERMINAL = 2
# indices of ``params``
P_C = 0
P_CUTOFF = 1
P_SAMPLES = 2
P_WIDEN = 3
#: 1: PUCT selection with rank priors (see :func:`_puct_child`), 0: UCB1
P_PUCT = 4
PARAMS_LEN = 5
#: a decision node orders its untried children by static value once it has this many visits
ORDER_AT = 8
# indices of ``counts``
C_NODES = 0
C_EDGES = 1
C_ITERATIONS = 2
#: longest path from the root that the tree grows
MAX_PATH = 512
# what :func:`mcts_run` returns
RUN_DONE = 0
RUN_FULL = 1


@njit
def new_node(nodes: np.ndarray, node_value: np.ndarray, counts: np.ndarray, s: np.ndarray) -> int:
    """Append a node for state ``s``; return its index."""
    k = int(counts[C_NODES])
    counts[C_NODES] = k + 1
    nodes[k, N_EDGE0] = -1
    nodes[k, N_NEDGE] = -1
    nodes[k, N_VISITS] = 0
    nodes[k, N_PLAYER] = s[TO_MOVE]
    if s[RESULT] != 0:
        nodes[k, N_KIND] = KIND_TERMINAL
    elif s[CHANCE] == 1:
        nodes[k, N_KIND] = KIND_CHANCE
    else:
        nodes[k, N_KIND] = KIND_DECISION
    nodes[k, N_MADE] = 0
    node_value[k] = 0.0
    return k


@njit
def _ucb_child(
    nodes: np.ndarray, node_value: np.ndarray, edges: np.ndarray, node: int, c: float, made: int
) -> int:
    """The edge with the best UCB1 score among the first ``made`` (tried) edges of ``node``."""
    e0 = nodes[node, N_EDGE0]
    log_n = math.log(max(nodes[node, N_VISITS], 1))
    best = -1
    best_score = -1e300
    for e in range(e0, e0 + made):
        child = edges[e, E_CHILD]
        n = nodes[child, N_VISITS]
        score = node_value[child] / n + c * math.sqrt(log_n / n)
        if score > best_score:
            best_score = score
            best = e
    return best


@njit
def _puct_child(
    nodes: np.ndarray,
    node_value: np.ndarray,
    edges: np.ndarray,
    node: int,
    c: float,
    made: int,
) -> int:
    """The edge with the best PUCT score ``Q + c·P·sqrt(N) / (1 + n)`` among the first
    ``made`` edges of ``node``, AlphaZero's rule with a cheap prior: the edges are ordered
    by their one-ply value (:func:`order_untried`), and the k-th best gets ``P ∝ 1/(k+1)``."""
    e0 = nodes[node, N_EDGE0]
    nedge = nodes[node, N_NEDGE]
    norm = 0.0
    for k in range(nedge):
        norm += 1.0 / (k + 1)
    sqrt_n = math.sqrt(max(nodes[node, N_VISITS], 1))
    best = -1
    best_score = -1e300
    for k in range(made):
        e = e0 + k
        child = edges[e, E_CHILD]
        n = nodes[child, N_VISITS]
        prior = 1.0 / ((k + 1) * norm)
        score = node_value[child] / n + c * prior * sqrt_n / (1 + n)
        if score > best_score:
            best_score = score
            best = e
    return best


@template
def order_untried(
    s: np.ndarray,
    opts: np.ndarray,
    hist: np.ndarray,
    nh: int,
    node: int,
    is_root: bool,
    seqs: np.ndarray,
    seq_len: np.ndarray,
    nodes: np.ndarray,
    edges: np.ndarray,
    weights: np.ndarray,
    scores: np.ndarray,
    work: np.ndarray,
    work_hist: np.ndarray,
    work2: np.ndarray,
    work_hist2: np.ndarray,
    buf2: np.ndarray,
    fbuf: np.ndarray,
) -> None:
    """Sort the untried edges of ``node`` (state ``s``) by the static value of their child
    for the player to move, best first (selection sort: a few hundred edges at most)."""
    e0 = nodes[node, N_EDGE0]
    first = e0 + nodes[node, N_MADE]
    last = e0 + nodes[node, N_NEDGE]
    mover = s[TO_MOVE]
    for e in range(first, last):
        a = edges[e, E_ACTION]
        copy_whole(work, s)
        copy_into(work_hist, hist, nh)
        if is_root:
            nw = play_sequence(work, opts, seqs[a], seq_len[a], work_hist, nh)
        else:
            nw = game.step(work, opts, a, work_hist, nh)
        v = leaf_value(work, opts, work_hist, nw, weights, work2, work_hist2, buf2, fbuf)
        scores[e - first] = seen_by(v, work[TO_MOVE], mover)
    n = last - first
    for i in range(n):
        j = i
        for k in range(i + 1, n):
            if scores[k] > scores[j]:
                j = k
        if j != i:
            sc = scores[i]
            scores[i] = scores[j]
            scores[j] = sc
            a = edges[first + i, E_ACTION]
            edges[first + i, E_ACTION] = edges[first + j, E_ACTION]
            edges[first + j, E_ACTION] = a


@template
def playout_value(
    s: np.ndarray,
    opts: np.ndarray,
    hist: np.ndarray,
    nh: int,
    weights: np.ndarray,
    cutoff: int,
    samples: int,
    rng: np.ndarray,
    buf: np.ndarray,
    buf2: np.ndarray,
    work: np.ndarray,
    work_hist: np.ndarray,
    work2: np.ndarray,
    work_hist2: np.ndarray,
    fbuf: np.ndarray,
) -> float:
    """Play at most ``cutoff`` actions from ``s`` (in place) and score where the playout
    stops; returns the value for player 0 (the first player)."""
    for _ in range(cutoff):
        if s[RESULT] != 0:
            break
        n = game.legal_actions(s, opts, buf)
        if s[CHANCE] == 1 or samples <= 1 or n == 1:
            a = buf[below(rng, n)]
        else:
            mover = s[TO_MOVE]
            a = buf[0]
            best = -2.0
            for _k in range(samples):
                cand = buf[below(rng, n)]
                copy_whole(work, s)
                copy_into(work_hist, hist, nh)
                nw = game.step(work, opts, cand, work_hist, nh)
                v = seen_by(
                    leaf_value(work, opts, work_hist, nw, weights, work2, work_hist2, buf2, fbuf),
                    work[TO_MOVE],
                    mover,
                )
                if v > best:
                    best = v
                    a = cand
        nh = game.step(s, opts, a, hist, nh)
    if s[RESULT] != 0:
        return seen_by(terminal_value(s, weights), s[TO_MOVE], 0)
    if s[CHANCE] == 1:
        n = game.legal_actions(s, opts, buf)
        nh = game.step(s, opts, buf[below(rng, n)], hist, nh)
        if s[RESULT] != 0:
            return seen_by(terminal_value(s, weights), s[TO_MOVE], 0)
    return seen_by(static_value(s, opts, weights, fbuf), s[TO_MOVE], 0)


@template
def mcts_run(
    root: np.ndarray,
    opts: np.ndarray,
    root_hist: np.ndarray,
    nroot: int,
    seqs: np.ndarray,
    seq_len: np.ndarray,
    nodes: np.ndarray,
    node_value: np.ndarray,
    edges: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    params: np.ndarray,
    iterations: int,
    deadline: float,
    rng: np.ndarray,
) -> int:
    """Run up to ``iterations`` simulations (fewer if ``deadline``, in ``perf_counter``
    seconds, passes first; ≤ 0 for none); ``counts[C_ITERATIONS]`` counts them. Returns
    :data:`RUN_FULL` when the arrays need more room before the next simulation."""
    c = params[P_C]
    cutoff = int(params[P_CUTOFF])
    samples = int(params[P_SAMPLES])
    widen = params[P_WIDEN]
    puct = params[P_PUCT] > 0.0
    # PUCT's priors come from the order, so a node is ordered as soon as it has children
    order_at = 1 if puct else ORDER_AT
    hcap = nroot + MAX_PATH + cutoff + 16
    s = np.empty(game.STATE_LEN, dtype=np.int64)
    hist = np.empty(hcap, dtype=np.int64)
    work = np.empty(game.STATE_LEN, dtype=np.int64)
    work_hist = np.empty(hcap, dtype=np.int64)
    work2 = np.empty(game.STATE_LEN, dtype=np.int64)
    work_hist2 = np.empty(hcap, dtype=np.int64)
    buf = np.empty(max(game.MAX_LEGAL, seqs.shape[0]), dtype=np.int64)
    buf2 = np.empty(game.MAX_LEGAL, dtype=np.int64)
    fbuf = new_scratch()
    scores = np.empty(max(game.MAX_LEGAL, seqs.shape[0]), dtype=np.float64)
    path = np.empty(MAX_PATH + 2, dtype=np.int64)
    nmoves = seqs.shape[0]
    room = max(game.MAX_LEGAL, nmoves)
    if counts[C_NODES] == 0:
        new_node(nodes, node_value, counts, root)
    for it in range(iterations):
        # the first simulation always runs: a root with no visited child has no best move
        if deadline > 0.0 and it > 0 and (it & 15) == 0 and now() > deadline:
            break
        if (
            counts[C_NODES] + MAX_PATH + 2 > nodes.shape[0]
            or counts[C_EDGES] + room > edges.shape[0]
        ):
            return RUN_FULL
        copy_whole(s, root)
        copy_into(hist, root_hist, nroot)
        nh = nroot
        node = 0
        depth = 0
        path[0] = 0
        v0 = 0.0
        while True:
            kind = nodes[node, N_KIND]
            if kind == KIND_TERMINAL:
                v0 = seen_by(terminal_value(s, weights), s[TO_MOVE], 0)
                break
            if nodes[node, N_NEDGE] < 0:
                e0 = counts[C_EDGES]
                if node == 0:
                    n = nmoves
                    for k in range(n):
                        edges[e0 + k, E_ACTION] = k
                else:
                    n = game.legal_actions(s, opts, buf)
                    for k in range(n):
                        edges[e0 + k, E_ACTION] = buf[k]
                if kind == KIND_DECISION:
                    # a shuffled order for the unvisited-first rule
                    for k in range(n - 1, 0, -1):
                        j = below(rng, k + 1)
                        t = edges[e0 + k, E_ACTION]
                        edges[e0 + k, E_ACTION] = edges[e0 + j, E_ACTION]
                        edges[e0 + j, E_ACTION] = t
                for k in range(n):
                    edges[e0 + k, E_CHILD] = -1
                nodes[node, N_EDGE0] = e0
                nodes[node, N_NEDGE] = n
                counts[C_EDGES] = e0 + n
            e0 = nodes[node, N_EDGE0]
            nedge = nodes[node, N_NEDGE]
            if kind == KIND_CHANCE:
                e = e0 + below(rng, nedge)
            else:
                visits = nodes[node, N_VISITS]
                made = nodes[node, N_MADE]
                if made < nedge and (visits == order_at or (node == 0 and made == 0)):
                    order_untried(
                        s,
                        opts,
                        hist,
                        nh,
                        node,
                        node == 0,
                        seqs,
                        seq_len,
                        nodes,
                        edges,
                        weights,
                        scores,
                        work,
                        work_hist,
                        work2,
                        work_hist2,
                        buf2,
                        fbuf,
                    )
                width = nedge
                if widen > 0.0:
                    width = min(nedge, 1 + int(widen * math.sqrt(visits)))
                if made < width:
                    e = e0 + made
                    nodes[node, N_MADE] = made + 1
                elif puct:
                    e = _puct_child(nodes, node_value, edges, node, c, made)
                else:
                    e = _ucb_child(nodes, node_value, edges, node, c, made)
            a = edges[e, E_ACTION]
            if node == 0:
                nh = play_sequence(s, opts, seqs[a], seq_len[a], hist, nh)
            else:
                nh = game.step(s, opts, a, hist, nh)
            child = edges[e, E_CHILD]
            expanded = child < 0
            if expanded:
                child = new_node(nodes, node_value, counts, s)
                edges[e, E_CHILD] = child
            node = child
            depth += 1
            path[depth] = node
            # a new leaf, or a path too deep to follow further: estimate it by a playout
            if expanded or depth >= MAX_PATH:
                v0 = playout_value(
                    s,
                    opts,
                    hist,
                    nh,
                    weights,
                    cutoff,
                    samples,
                    rng,
                    buf,
                    buf2,
                    work,
                    work_hist,
                    work2,
                    work_hist2,
                    fbuf,
                )
                break
        for k in range(depth + 1):
            nd = path[k]
            nodes[nd, N_VISITS] += 1
            chooser = nodes[path[k - 1], N_PLAYER] if k > 0 else nodes[0, N_PLAYER]
            node_value[nd] += v0 if chooser == 0 else -v0
        counts[C_ITERATIONS] += 1
    return RUN_DONE


@njit
def mcts_descend(nodes: np.ndarray, edges: np.ndarray, start: int, actions: np.ndarray) -> int:
    """The node reached from ``start`` along the edges labelled ``actions``, or -1 where the
    tree has not grown that far."""
    node = start
    for a in actions:
        if nodes[node, N_NEDGE] <= 0:
            return -1
        e0 = nodes[node, N_EDGE0]
        found = -1
        for e in range(e0, e0 + nodes[node, N_NEDGE]):
            if edges[e, E_ACTION] == a:
                found = edges[e, E_CHILD]
                break
        if found < 0:
            return -1
        node = found
    return node


@njit
def mcts_compact(
    nodes: np.ndarray,
    node_value: np.ndarray,
    edges: np.ndarray,
    counts: np.ndarray,
    new_root: int,
    nodes2: np.ndarray,
    node_value2: np.ndarray,
    edges2: np.ndarray,
    counts2: np.ndarray,
) -> None:
    """Copy the subtree under ``new_root`` into the second set of arrays, ``new_root``
    becoming node 0 (tree reuse between moves)."""
    n_old = counts[C_NODES]
    new_id = np.full(n_old, -1, dtype=np.int64)
    queue = np.empty(n_old, dtype=np.int64)
    new_id[new_root] = 0
    queue[0] = new_root
    head = 0
    tail = 1
    ne = 0
    while head < tail:
        old = queue[head]
        new = new_id[old]
        head += 1
        copy_whole(nodes2[new], nodes[old])
        node_value2[new] = node_value[old]
        nedge = nodes[old, N_NEDGE]
        if nedge > 0:
            e0 = nodes[old, N_EDGE0]
            nodes2[new, N_EDGE0] = ne
            for k in range(nedge):
                edges2[ne + k, E_ACTION] = edges[e0 + k, E_ACTION]
                child = edges[e0 + k, E_CHILD]
                if child >= 0:
                    new_id[child] = tail
                    queue[tail] = child
                    tail += 1
                    edges2[ne + k, E_CHILD] = new_id[child]
                else:
                    edges2[ne + k, E_CHILD] = -1
            ne += nedge
    counts2[C_NODES] = tail
    counts2[C_EDGES] = ne
    counts2[C_ITERATIONS] = 0
