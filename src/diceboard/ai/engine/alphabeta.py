"""Search template: negamax alpha-beta with expectimax chance nodes, for one search depth.

The Python side (:mod:`diceboard.ai.alphabeta`) runs iterative deepening by calling
:func:`alphabeta` with depth 1, 2, 3 … on the same transposition table; this module searches
one depth with an explicit stack (numba's cache cannot hold recursion).

- **Values** are in [-1, 1], each node's for its own player to move; a child's value changes
  sign only where the player to move changes (a Chase absorption is followed by the same
  player's act, a Chaos move by its roll).
- **Chance nodes** (a Chaos roll) are worth the average of their outcomes; they prune with
  Ballard's Star1 bounds: the outcomes searched so far and the value range [-1, 1] bound the
  average, which cuts off as soon as it must fall outside the window.
- **Depth** counts whole moves: a chance event or an action that leaves the turn unfinished
  (``game.extends_turn``) costs none. At depth 0 a node gets :func:`leaf_value`.
- **Transposition table** on the kernel's Zobrist hash: an entry cuts off only at the same
  remaining depth, which keeps a fixed-depth search's value identical with and without the
  table (the table still orders moves at every depth). Positions are keyed without their
  repetition history, as usual; but a position that has already occurred in the game or the
  line (one more visit may end the game by repetition) neither takes a value from the table
  nor stores one, since its value depends on the path (measured: without this a winning
  side shuffled into draws by repetition on values from the previous move's search).
- **Move ordering**: the table's move, then by the children's static values where three or
  more moves remain (measured: cheaper than doing it at two, for the same tree), else killer
  moves and the history heuristic; picked lazily (selection), so a cut-off early in the list
  costs no full sort.
- The root's children are whole moves (rows of ``seqs``), exactly the game's ``legal_moves``,
  searched in the given ``order``. With ``multipv`` each gets an exact value, else a bound.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from diceboard.ai.engine import contract as game
from diceboard.ai.engine.clock import now
from diceboard.ai.engine.evaluation import (
    leaf_value,
    play_sequence,
    scratch_length,
    terminal_value,
)
from diceboard.ai.engine.specialise import template
from diceboard.kernel import CHANCE, HASH, RESULT, TO_MOVE, count_in_history, njit
from diceboard.kernel.arrays import copy_into, copy_whole
from diceboard.kernel.jit import register_jitable

#: transposition-table bound flags (``tt_info & 3``)
TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3
#: a value below any real one (the window's open ends)
NO_VALUE = -2.0
#: extra stack levels beyond the nominal depth (chance nodes and turn-extending actions)
EXTRA_LEVELS = 32
#: the search checks the clock once every this many nodes (a power of two, minus one)
CLOCK_MASK = 1023
#: mixed into table keys when a draw is not worth 0 (contempt depends on who searches)
CONTEMPT_SALT = 0x5DEECE66D

# indices of ``flags``
FLAG_TT = 0
FLAG_ORDERING = 1
FLAG_MULTIPV = 2
# indices of ``stats``
STAT_NODES = 0
STAT_ABORTED = 1
STAT_BEST = 2
STAT_PROBES = 3

_ENTER = 0
_NEXT = 1
_RETURN = 2


@njit
def tt_pack(move: int, depth: int, flag: int) -> int:
    """One transposition-table info word: best move, remaining depth and bound flag."""
    return ((move + 1) << 16) | (depth << 4) | flag


@njit
def tt_store(
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    tt_info: np.ndarray,
    key: int,
    value: float,
    move: int,
    depth: int,
    flag: int,
) -> None:
    """Store an entry; a different position always replaces, the same one only with a
    search at least as deep."""
    slot = key & (tt_keys.shape[0] - 1)
    if tt_keys[slot] == key and ((tt_info[slot] >> 4) & 0xFFF) > depth:
        return
    tt_keys[slot] = key
    tt_vals[slot] = value
    tt_info[slot] = tt_pack(move, depth, flag)


@njit
def tt_move(tt_keys: np.ndarray, tt_info: np.ndarray, key: int) -> int:
    """The stored best move of position ``key``, or -1."""
    slot = key & (tt_keys.shape[0] - 1)
    if tt_keys[slot] != key:
        return -1
    return int((tt_info[slot] >> 16) - 1)


#: an :func:`alphabeta` call's working arrays (see :func:`workspace`)
Workspace = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]
#: rows of a workspace's per-level integers and reals
LEVEL_INTS = 9
LEVEL_REALS = 5


@register_jitable
def workspace_room(nroot: int, levels: int, nmoves: int, max_legal: int) -> tuple[int, int]:
    """How much a :func:`workspace` of ``levels`` levels holds per level, for a root with
    ``nroot`` history entries and ``nmoves`` moves in a game of at most ``max_legal`` actions:
    ``(history entries, actions)``. The root lists whole moves, which can outnumber one
    state's actions (Chase's absorptions). (Plain Python too: the workspace is made in
    Python and checked in the compiled search.)"""
    width = nmoves if nmoves > max_legal else max_legal
    return nroot + levels + 8, width


def workspace(binding: Any, depth: int, nroot: int, nmoves: int) -> Workspace:
    """The arrays an :func:`alphabeta` call to ``depth`` works in, from a root with ``nroot``
    history entries and ``nmoves`` moves in the game of ``binding`` (its search binding).

    Made by the caller, in Python, so that the compiled search allocates nothing: numpy's
    allocation code, compiled into the search for five array types, was a seventh of a
    computer worker's first compile of its search (0.6 of 4.2 CPU s, measured with
    :class:`~diceboard.kernel.compile_log.CompileLog`)."""
    levels = 2 * depth + EXTRA_LEVELS
    hcap, width = workspace_room(nroot, levels, nmoves, binding.MAX_LEGAL)
    return (
        np.empty((levels, binding.STATE_LEN), dtype=np.int64),  # each level's state
        np.empty((levels, hcap), dtype=np.int64),  # and its repetition history
        np.empty((levels, width), dtype=np.int64),  # its actions
        np.empty((levels, width), dtype=np.float64),  # their ordering scores
        np.zeros((LEVEL_INTS, levels), dtype=np.int64),
        np.zeros((LEVEL_REALS, levels), dtype=np.float64),
        np.empty(binding.STATE_LEN, dtype=np.int64),  # a child evaluated to order moves
        np.empty(hcap, dtype=np.int64),
        np.empty(binding.MAX_LEGAL, dtype=np.int64),  # the leaf evaluation's actions
        np.zeros(scratch_length(binding.NUM_FEATURES, binding.NET_MAX_ACTIVE)),
    )


@template
def alphabeta(
    root: np.ndarray,
    opts: np.ndarray,
    root_hist: np.ndarray,
    nroot: int,
    seqs: np.ndarray,
    seq_len: np.ndarray,
    order: np.ndarray,
    depth: int,
    weights: np.ndarray,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    tt_info: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    flags: np.ndarray,
    deadline: float,
    out_values: np.ndarray,
    out_done: np.ndarray,
    stats: np.ndarray,
    space: Workspace,
) -> float:
    """Search ``root`` to ``depth`` moves; return its value for the player to move.

    ``out_values[m]``/``out_done[m]`` receive each root move's value (a bound unless
    ``flags[FLAG_MULTIPV]``); ``stats`` gets the node count (added), whether the deadline
    (``perf_counter`` seconds, ≤ 0 for none) cut the search short, the best root move found
    (-1 if none was finished) and the children evaluated only to order moves (added).
    ``space`` is what it works in: a :func:`workspace` of this depth, root and game.
    """
    use_tt = flags[FLAG_TT] == 1
    use_ordering = flags[FLAG_ORDERING] == 1
    multipv = flags[FLAG_MULTIPV] == 1
    states, hists, acts, scores, ints, reals, work, work_hist, buf, fbuf = space
    maxl = states.shape[0]
    # the compiled code checks no index: a workspace too small would be written past its end
    hcap, width = workspace_room(nroot, maxl, order.shape[0], game.MAX_LEGAL)
    if (
        states.shape[1] < game.STATE_LEN
        or hists.shape[0] < maxl
        or hists.shape[1] < hcap
        or acts.shape[0] < maxl
        or acts.shape[1] < width
        or scores.shape[0] < maxl
        or scores.shape[1] < width
        or ints.shape[0] < LEVEL_INTS
        or ints.shape[1] < maxl
        or reals.shape[0] < LEVEL_REALS
        or reals.shape[1] < maxl
        or work.shape[0] < game.STATE_LEN
        or work_hist.shape[0] < hcap
        or buf.shape[0] < game.MAX_LEGAL
        or fbuf.shape[0] < scratch_length(game.NUM_FEATURES, game.NET_MAX_ACTIVE)
    ):
        raise ValueError("alphabeta's workspace is too small for this search: see workspace()")
    # per level: the rows of ints and reals
    nh = ints[0]
    nact = ints[1]
    idx = ints[2]
    cur = ints[3]
    best_act = ints[4]
    dleft = ints[5]
    player = ints[6]
    chance = ints[7]
    # 1 where the table may cut off and store: the position has not occurred before
    tt_ok = ints[8]
    alpha = reals[0]
    beta = reals[1]
    alpha0 = reals[2]
    best = reals[3]
    csum = reals[4]
    mask = tt_keys.shape[0] - 1
    nkill = killers.shape[0]
    salt = table_salt(weights)

    copy_whole(states[0], root)
    copy_into(hists[0], root_hist, nroot)
    nh[0] = nroot
    nmoves = order.shape[0]
    for i in range(nmoves):
        acts[0, i] = order[i]
    nact[0] = nmoves
    alpha[0] = NO_VALUE
    beta[0] = -NO_VALUE
    alpha0[0] = NO_VALUE
    best[0] = NO_VALUE
    best_act[0] = -1
    dleft[0] = depth
    player[0] = root[TO_MOVE]

    level = 0
    mode = _NEXT
    ret = 0.0
    nodes = 0
    probes = 0
    aborted = False
    while True:
        if mode == _ENTER:
            nodes += 1
            if deadline > 0.0 and (nodes & CLOCK_MASK) == 0 and now() > deadline:
                aborted = True
                break
            s = states[level]
            player[level] = s[TO_MOVE]
            if s[RESULT] != 0:
                ret = terminal_value(s, weights)
                mode = _RETURN
                continue
            n = 0
            if dleft[level] > 0 and level < maxl - 2:
                n = game.legal_actions(s, opts, acts[level])
            if n == 0:
                ret = leaf_value(
                    s, opts, hists[level], nh[level], weights, work, work_hist, buf, fbuf
                )
                mode = _RETURN
                continue
            nact[level] = n
            idx[level] = 0
            if s[CHANCE] == 1:
                chance[level] = 1
                csum[level] = 0.0
                mode = _NEXT
                continue
            chance[level] = 0
            hit = -1
            tt_ok[level] = 0
            if use_tt:
                if count_in_history(hists[level], nh[level], s[HASH]) < 2:
                    tt_ok[level] = 1
                key = s[HASH] ^ salt
                slot = key & mask
                if tt_keys[slot] == key:
                    info = tt_info[slot]
                    hit = (info >> 16) - 1
                    if tt_ok[level] == 1 and ((info >> 4) & 0xFFF) == dleft[level]:
                        v = tt_vals[slot]
                        flag = info & 3
                        if (
                            flag == TT_EXACT
                            or (flag == TT_LOWER and v >= beta[level])
                            or (flag == TT_UPPER and v <= alpha[level])
                        ):
                            ret = v
                            mode = _RETURN
                            continue
            if use_ordering:
                p = player[level]
                for i in range(n):
                    a = acts[level, i]
                    if a == hit:
                        scores[level, i] = 100.0
                        continue
                    if dleft[level] >= 3:
                        copy_whole(work, s)
                        copy_into(work_hist, hists[level], nh[level])
                        nw = game.step(work, opts, a, work_hist, nh[level])
                        probes += 1
                        sc = leaf_value(
                            work,
                            opts,
                            work_hist,
                            nw,
                            weights,
                            states[maxl - 1],
                            hists[maxl - 1],
                            buf,
                            fbuf,
                        )
                        if work[TO_MOVE] != p:
                            sc = -sc
                    else:
                        sc = history[p, a] / (history[p, a] + 1000.0)
                    if level < nkill and (a == killers[level, 0] or a == killers[level, 1]):
                        sc += 2.0
                    scores[level, i] = sc
            best[level] = NO_VALUE
            best_act[level] = -1
            alpha0[level] = alpha[level]
            mode = _NEXT
        elif mode == _NEXT:
            i = idx[level]
            n = nact[level]
            if i == n:
                if chance[level] == 1:
                    ret = csum[level] / n
                else:
                    ret = best[level]
                    if tt_ok[level] == 1 and level > 0:
                        _store(
                            states[level],
                            salt,
                            ret,
                            best_act[level],
                            dleft[level],
                            alpha0[level],
                            beta[level],
                            tt_keys,
                            tt_vals,
                            tt_info,
                        )
                mode = _RETURN
                continue
            if use_ordering and level > 0 and chance[level] == 0:
                j = i
                for k in range(i + 1, n):
                    if scores[level, k] > scores[level, j]:
                        j = k
                if j != i:
                    a = acts[level, j]
                    acts[level, j] = acts[level, i]
                    acts[level, i] = a
                    sc = scores[level, j]
                    scores[level, j] = scores[level, i]
                    scores[level, i] = sc
            a = acts[level, i]
            idx[level] = i + 1
            cur[level] = a
            c = level + 1
            copy_whole(states[c], states[level])
            copy_into(hists[c], hists[level], nh[level])
            if level == 0:
                nh[c] = play_sequence(states[c], opts, seqs[a], seq_len[a], hists[c], nh[level])
                cost = 1
            else:
                nh[c] = game.step(states[c], opts, a, hists[c], nh[level])
                cost = 0 if chance[level] == 1 or game.extends_turn(a) else 1
            dleft[c] = dleft[level] - cost
            if chance[level] == 1:
                rest = n - i - 1
                # (clamped by hand: the builtins' compiled code was another 0.1 s of the
                # search's first compile)
                lo = n * alpha[level] - csum[level] - rest
                if lo < NO_VALUE:
                    lo = NO_VALUE
                hi = n * beta[level] - csum[level] + rest
                if hi > -NO_VALUE:
                    hi = -NO_VALUE
            else:
                lo = alpha[level]
                hi = beta[level]
            if states[c, TO_MOVE] == player[level]:
                alpha[c] = lo
                beta[c] = hi
            else:
                alpha[c] = -hi
                beta[c] = -lo
            level = c
            mode = _ENTER
        else:
            if level == 0:
                break
            v = ret if player[level] == player[level - 1] else -ret
            level -= 1
            if chance[level] == 1:
                csum[level] += v
                n = nact[level]
                rest = n - idx[level]
                upper = (csum[level] + rest) / n
                lower = (csum[level] - rest) / n
                if upper <= alpha[level]:
                    ret = upper
                elif lower >= beta[level]:
                    ret = lower
                else:
                    mode = _NEXT
                continue
            a = cur[level]
            if level == 0:
                out_values[a] = v
                out_done[a] = 1
            mode = _NEXT
            if v > best[level]:
                best[level] = v
                best_act[level] = a
                if level == 0 and multipv:
                    continue
                if v > alpha[level]:
                    alpha[level] = v
                    if v >= beta[level]:
                        if use_ordering and level < nkill and level > 0:
                            if killers[level, 0] != a:
                                killers[level, 1] = killers[level, 0]
                                killers[level, 0] = a
                            history[player[level], a] += dleft[level] * dleft[level]
                        if tt_ok[level] == 1 and level > 0:
                            _store(
                                states[level],
                                salt,
                                v,
                                a,
                                dleft[level],
                                alpha0[level],
                                beta[level],
                                tt_keys,
                                tt_vals,
                                tt_info,
                            )
                        ret = v
                        mode = _RETURN
    stats[STAT_NODES] += nodes
    stats[STAT_PROBES] += probes
    stats[STAT_ABORTED] = 1 if aborted else 0
    stats[STAT_BEST] = best_act[0]
    return float(best[0])


@njit
def table_salt(weights: np.ndarray) -> int:
    """What table keys are mixed with: 0 where a draw is worth 0, else a constant that
    depends on the draw's sign (the searching side)."""
    draw = weights[weights.shape[0] - 1]
    if draw == 0.0:
        return 0
    return CONTEMPT_SALT if draw > 0.0 else -CONTEMPT_SALT


@njit
def _store(
    s: np.ndarray,
    salt: int,
    value: float,
    move: int,
    depth: int,
    alpha: float,
    beta: float,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    tt_info: np.ndarray,
) -> None:
    if value <= alpha:
        flag = TT_UPPER
    elif value >= beta:
        flag = TT_LOWER
    else:
        flag = TT_EXACT
    tt_store(tt_keys, tt_vals, tt_info, s[HASH] ^ salt, value, move, depth, flag)


@template
def principal_variation(
    root: np.ndarray,
    opts: np.ndarray,
    root_hist: np.ndarray,
    nroot: int,
    seq: np.ndarray,
    seq_len: int,
    tt_keys: np.ndarray,
    tt_info: np.ndarray,
    salt: int,
    out: np.ndarray,
) -> int:
    """The actions after the root move ``seq[:seq_len]`` that the table's best moves make,
    up to a chance node, the end of the game or ``out``'s length; returns how many.
    ``salt`` is the search's :func:`table_salt`."""
    s = root.copy()
    hist = np.empty(nroot + out.shape[0] + seq_len + 8, dtype=np.int64)
    copy_into(hist, root_hist, nroot)
    nh = play_sequence(s, opts, seq, seq_len, hist, nroot)
    buf = np.empty(game.MAX_LEGAL, dtype=np.int64)
    n = 0
    while n < out.shape[0] and s[RESULT] == 0 and s[CHANCE] == 0:
        move = tt_move(tt_keys, tt_info, s[HASH] ^ salt)
        if move < 0:
            break
        legal = game.legal_actions(s, opts, buf)
        found = False
        for k in range(legal):
            if buf[k] == move:
                found = True
                break
        if not found:
            break
        out[n] = move
        n += 1
        nh = game.step(s, opts, move, hist, nh)
    return n
