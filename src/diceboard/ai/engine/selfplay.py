"""Search template: self-play games that produce training data for the evaluation.

Each decision is the best move by one-ply value under the given weights, or with probability
``epsilon`` a uniformly random one (so the games cover varied positions); chance outcomes are
drawn uniformly. A sampled decision position contributes its features and, once the game is
over, the result for the player who was to move there: 1 won, 0 lost, 0.5 drawn.
"""

from __future__ import annotations

import numpy as np

from diceboard.ai.engine import contract as game
from diceboard.ai.engine.evaluation import leaf_value, new_scratch, seen_by
from diceboard.ai.engine.rng import below, uniform
from diceboard.ai.engine.specialise import template
from diceboard.kernel import CHANCE, HASH, RESULT, RESULT_DRAW, RESULT_FIRST, TO_MOVE
from diceboard.kernel.arrays import copy_into, copy_whole

# indices of ``stats``
S_GAMES = 0
S_FINISHED = 1
S_ACTIONS = 2


@template
def selfplay_samples(
    start: np.ndarray,
    opts: np.ndarray,
    games: int,
    weights: np.ndarray,
    epsilon: float,
    sample_rate: float,
    max_actions: int,
    rng: np.ndarray,
    features_out: np.ndarray,
    results_out: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Play ``games`` games from ``start``; write sampled positions' features and results into
    the rows of ``features_out``/``results_out`` and return how many. A game that reaches
    ``max_actions`` unfinished, or that would overflow the arrays, contributes nothing."""
    cap = features_out.shape[0]
    s = np.empty(game.STATE_LEN, dtype=np.int64)
    hist = np.empty(max_actions + 2, dtype=np.int64)
    child = np.empty(game.STATE_LEN, dtype=np.int64)
    child_hist = np.empty(max_actions + 2, dtype=np.int64)
    work = np.empty(game.STATE_LEN, dtype=np.int64)
    work_hist = np.empty(max_actions + 2, dtype=np.int64)
    buf = np.empty(game.MAX_LEGAL, dtype=np.int64)
    buf2 = np.empty(game.MAX_LEGAL, dtype=np.int64)
    fbuf = new_scratch()
    owners = np.empty(cap, dtype=np.int64)
    n = 0
    for _ in range(games):
        copy_whole(s, start)
        hist[0] = s[HASH]
        nh = 1
        first = n
        full = False
        for _t in range(max_actions):
            if s[RESULT] != 0:
                break
            nl = game.legal_actions(s, opts, buf)
            stats[S_ACTIONS] += 1
            if s[CHANCE] == 1 or nl == 1:
                a = buf[below(rng, nl)]
            else:
                if uniform(rng) < sample_rate:
                    if n == cap:
                        full = True
                        break
                    game.features(s, opts, fbuf)
                    copy_whole(features_out[n], fbuf[: game.NUM_FEATURES])
                    owners[n] = s[TO_MOVE]
                    n += 1
                if uniform(rng) < epsilon:
                    a = buf[below(rng, nl)]
                else:
                    mover = s[TO_MOVE]
                    offset = below(rng, nl)
                    a = buf[offset]
                    best = -3.0
                    for k in range(nl):
                        cand = buf[(offset + k) % nl]
                        copy_whole(child, s)
                        copy_into(child_hist, hist, nh)
                        nc = game.step(child, opts, cand, child_hist, nh)
                        v = leaf_value(
                            child, opts, child_hist, nc, weights, work, work_hist, buf2, fbuf
                        )
                        v = seen_by(v, child[TO_MOVE], mover)
                        if v > best:
                            best = v
                            a = cand
            nh = game.step(s, opts, a, hist, nh)
        stats[S_GAMES] += 1
        if full or s[RESULT] == 0:
            n = first
            if full:
                break
            continue
        stats[S_FINISHED] += 1
        result = s[RESULT]
        for i in range(first, n):
            if result == RESULT_DRAW:
                results_out[i] = 0.5
            elif result - RESULT_FIRST == owners[i]:
                results_out[i] = 1.0
            else:
                results_out[i] = 0.0
    return n
