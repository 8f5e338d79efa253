"""Search template: values of positions, always in [-1, 1] and seen from a named player.

A finished game is worth +1 (won) or -1 (lost); a draw is worth what the searching side
makes of it (its contempt: slightly below 0 for it, so that it plays on rather than repeat).
Any other position is worth
``EVAL_LIMIT · tanh(w·x / 2)`` — the logistic model of :mod:`diceboard.ai.fitting` rescaled
from a win probability to an expected result — where ``x`` are the binding's features and
``w`` the fitted weights. The factor keeps a proven result above any estimate while the
estimate stays strictly increasing: a hard clip would make every clearly won position look
the same, and the winning side would wander instead of finishing the game.

Where the game has a no-capture limit (``game.progress_limit``), the estimate slides towards
the value of a draw as the clock runs: at ``c`` moves of the limit ``L`` it is
``draw + (v - draw) · (1 - c / 2L)``. A capture restarts the clock and so gains value: the
side that stands better presses on rather than let the limit end the game in a draw, and the
side that stands worse is glad of the clock (the same idea as chess engines' fifty-move
scaling). A position waiting for a roll is worth the average over the outcomes.

The evaluation vector ``weights`` holds the model's parameters followed by one more entry: the
value of a draw for the first player (player 0). Its length says which model it is:

- ``NUM_FEATURES + 1``: the linear model, ``z = w·x`` (``eval=linear``, ``eval=material``);
- ``NUM_FEATURES + 2``: the linear model plus the binding's endgame term scaled by the extra
  entry, ``z = w·x + k·game.endgame(state)`` (``eval=endgame``);
- :func:`net_length` ``+ 1``: a small network (``eval=net``, :mod:`diceboard.ai.netdata`),
  ``z = w·x + w3·crelu(W2·crelu(W1·[inputs, x] + b1) + b2) + b3`` where ``inputs`` are the
  binding's sparse 0/1 inputs (``game.net_inputs``: each die by square, face and owner, seen
  from the player to move) and ``crelu`` clips to [0, 1], as NNUE does. The first layer sums
  the rows of the few active inputs (a dozen or two dice), so it needs no incremental update:
  recomputing it costs less than the features do.

Both give a logit ``z`` that becomes a value as above. The scratch buffer ``fbuf``
(:func:`new_scratch`) holds the features, then the network's activations and active inputs.
"""

from __future__ import annotations

import math

import numpy as np

from diceboard.ai.engine import contract as game
from diceboard.ai.engine.specialise import template
from diceboard.kernel import CHANCE, CLOCK, RESULT, RESULT_DRAW, RESULT_FIRST, TO_MOVE, njit
from diceboard.kernel.arrays import copy_into, copy_whole
from diceboard.kernel.jit import register_jitable

#: the largest value an estimate may take; proven results are exactly ±1
EVAL_LIMIT = 0.95
#: units of the network's first and second hidden layers
NET_HIDDEN = 32
NET_HIDDEN2 = 16


@njit
def terminal_value(state: np.ndarray, weights: np.ndarray) -> float:
    """Result of a finished game for the player ``state[TO_MOVE]`` (a draw as the last
    entry of ``weights`` says)."""
    result = state[RESULT]
    if result == RESULT_DRAW:
        return draw_value(state, weights)
    return 1.0 if result - RESULT_FIRST == state[TO_MOVE] else -1.0


@njit
def draw_value(state: np.ndarray, weights: np.ndarray) -> float:
    """What a draw is worth to the player ``state[TO_MOVE]`` (the last entry of ``weights``
    is its worth to the first player)."""
    draw = float(weights[weights.shape[0] - 1])
    return draw if state[TO_MOVE] == 0 else -draw


@njit
def seen_by(value: float, owner: int, viewer: int) -> float:
    """``value`` (for player ``owner``) as player ``viewer`` sees it: the game is zero-sum."""
    return value if owner == viewer else -value


def net_length(num_features: int, num_inputs: int) -> int:
    """Parameters of the network for a game with these many features and sparse inputs
    (the evaluation vector is one longer: the draw's value)."""
    h, h2 = NET_HIDDEN, NET_HIDDEN2
    return num_features + (num_inputs + num_features) * h + h + h * h2 + 2 * h2 + 1


@register_jitable
def scratch_length(num_features: int, net_max_active: int) -> int:
    """The length of a scratch buffer for :func:`static_value` (:func:`new_scratch`) in a
    game with ``num_features`` features and at most ``net_max_active`` active network
    inputs: the features, the network's activations and its active inputs. (Plain Python
    too: a search that allocates its buffers in Python sizes them so.)"""
    return num_features + NET_HIDDEN + NET_HIDDEN2 + net_max_active


@template
def new_scratch() -> np.ndarray:
    """A scratch buffer for :func:`static_value`."""
    return np.zeros(scratch_length(game.NUM_FEATURES, game.NET_MAX_ACTIVE), dtype=np.float64)


@template
def net_logit(state: np.ndarray, opts: np.ndarray, weights: np.ndarray, fbuf: np.ndarray) -> float:
    """The network's logit for the player to move; ``fbuf[:NUM_FEATURES]`` already holds
    the features. Layout of ``weights``: skip weights (one per feature), first layer rows
    (one row of ``NET_HIDDEN`` per sparse input, then per feature), its biases, the second
    layer (one row of ``NET_HIDDEN2`` per first-layer unit), its biases, the output weights
    and the output bias."""
    nf = game.NUM_FEATURES
    h = NET_HIDDEN
    h2 = NET_HIDDEN2
    a1 = nf
    a2 = nf + h
    active = nf + h + h2
    o_dense = nf + game.NET_INPUTS * h
    o_b1 = o_dense + nf * h
    o_w2 = o_b1 + h
    o_b2 = o_w2 + h * h2
    o_w3 = o_b2 + h2
    z = float(weights[o_w3 + h2])
    for f in range(nf):
        z += weights[f] * fbuf[f]
    for j in range(h):
        fbuf[a1 + j] = weights[o_b1 + j]
    n = game.net_inputs(state, opts, fbuf, active)
    for k in range(n):
        row = nf + int(fbuf[active + k]) * h
        for j in range(h):
            fbuf[a1 + j] += weights[row + j]
    for f in range(nf):
        x = fbuf[f]
        if x != 0.0:
            row = o_dense + f * h
            for j in range(h):
                fbuf[a1 + j] += x * weights[row + j]
    for j in range(h2):
        fbuf[a2 + j] = weights[o_b2 + j]
    for i in range(h):
        x = min(max(fbuf[a1 + i], 0.0), 1.0)
        if x > 0.0:
            row = o_w2 + i * h2
            for j in range(h2):
                fbuf[a2 + j] += x * weights[row + j]
    for j in range(h2):
        z += min(max(fbuf[a2 + j], 0.0), 1.0) * weights[o_w3 + j]
    return z


@template
def static_value(
    state: np.ndarray, opts: np.ndarray, weights: np.ndarray, fbuf: np.ndarray
) -> float:
    """The model's estimate for the player to move (``fbuf`` receives the features; for the
    network it must be a :func:`new_scratch` buffer)."""
    game.features(state, opts, fbuf)
    size = weights.shape[0]
    if size <= game.NUM_FEATURES + 2:
        z = 0.0
        for i in range(game.NUM_FEATURES):
            z += weights[i] * fbuf[i]
        if size == game.NUM_FEATURES + 2:
            z += weights[game.NUM_FEATURES] * game.endgame(state, opts)
    else:
        z = net_logit(state, opts, weights, fbuf)
    v = EVAL_LIMIT * math.tanh(0.5 * z)
    limit = game.progress_limit(opts)
    if limit <= 0:
        return v
    draw = draw_value(state, weights)
    used = min(int(state[CLOCK]), limit)
    return draw + (v - draw) * (1.0 - used / (2.0 * limit))


@template
def leaf_value(
    state: np.ndarray,
    opts: np.ndarray,
    hist: np.ndarray,
    nhist: int,
    weights: np.ndarray,
    work: np.ndarray,
    work_hist: np.ndarray,
    buf: np.ndarray,
    fbuf: np.ndarray,
) -> float:
    """Value of ``state`` for its player to move without searching: the result of a finished
    game, the average over the outcomes of a pending roll, else the static estimate.
    ``work``, ``work_hist``, ``buf`` and ``fbuf`` are scratch buffers."""
    if state[RESULT] != 0:
        return terminal_value(state, weights)
    if state[CHANCE] == 0:
        return static_value(state, opts, weights, fbuf)
    n = game.legal_actions(state, opts, buf)
    player = state[TO_MOVE]
    total = 0.0
    for k in range(n):
        copy_whole(work, state)
        copy_into(work_hist, hist, nhist)
        game.step(work, opts, buf[k], work_hist, nhist)
        done = work[RESULT] != 0
        v = terminal_value(work, weights) if done else static_value(work, opts, weights, fbuf)
        total += seen_by(v, work[TO_MOVE], player)
    return total / n


@template
def play_sequence(
    state: np.ndarray,
    opts: np.ndarray,
    seq: np.ndarray,
    length: int,
    hist: np.ndarray,
    nhist: int,
) -> int:
    """Apply the actions ``seq[:length]`` (one full move) in place; return the history
    length."""
    for i in range(length):
        nhist = game.step(state, opts, seq[i], hist, nhist)
    return nhist


@template
def move_values(
    root: np.ndarray,
    opts: np.ndarray,
    root_hist: np.ndarray,
    nroot: int,
    seqs: np.ndarray,
    seq_len: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> None:
    """One-ply values of the moves ``seqs`` (rows of action ids, ``seq_len`` long) from
    ``root``, for the player to move at ``root``, into ``out``."""
    cap = root_hist.shape[0] + 64
    child = np.empty(game.STATE_LEN, dtype=np.int64)
    hist = np.empty(cap, dtype=np.int64)
    work = np.empty(game.STATE_LEN, dtype=np.int64)
    work_hist = np.empty(cap, dtype=np.int64)
    buf = np.empty(game.MAX_LEGAL, dtype=np.int64)
    fbuf = new_scratch()
    player = root[TO_MOVE]
    for m in range(seqs.shape[0]):
        copy_whole(child, root)
        copy_into(hist, root_hist, nroot)
        nh = play_sequence(child, opts, seqs[m], seq_len[m], hist, nroot)
        v = leaf_value(child, opts, hist, nh, weights, work, work_hist, buf, fbuf)
        out[m] = seen_by(v, child[TO_MOVE], player)
