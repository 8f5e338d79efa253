"""The compiled loops of the batched simulator: the games of a range of rows stepped one
after the other.

Each loop takes a whole batch (arrays with one row per game) and the range ``lo <= i < hi``
of rows it works on, so that :mod:`diceboard.vector.threads` can run contiguous chunks of one
batch on several threads at once (the loops are compiled without the GIL) or the whole batch
on one: the same compiled code either way. After the range come a crew call's ``control,
seq, bounds, spins``: with ``seq > 0`` the loop is the call's lead, which hands the other
chunks to the crew's threads and runs its own (:mod:`diceboard.vector.handoff`, whose
:data:`~diceboard.vector.handoff.SOLO` runs just the range). A call allocates one
legal-action buffer, nothing per game and per step. Everything a step needs happens inside
one loop over its rows — the
legality check of the given actions, the step, the chance events, the next legal actions.
The loops never return Python objects: results go into preallocated output arrays.

The loops that play the game are written once, as templates (:mod:`diceboard.kernel.specialise`)
that reach the game only through the module-level name ``game``: the game's encoding module
(the registry's ``encoding`` component), which provides ``legal_actions``, ``step`` and
``encode``. :func:`loops_for` compiles one copy of them per game, in which the game's kernel
functions are ordinary compiled-in calls, so numba caches every copy on disk like the rules
kernels. With ``NUMBA_DISABLE_JIT=1`` all of them run as plain Python.
"""

from __future__ import annotations

import functools
import sys
from typing import Any, NamedTuple

import numpy as np

from diceboard.encoding import encoding_module
from diceboard.kernel import CHANCE, RESULT, RESULT_DRAW, RESULT_FIRST, TO_MOVE, njit
from diceboard.kernel.arrays import copy_into, copy_whole
from diceboard.kernel.specialise import specialise, template
from diceboard.vector.handoff import chunks_done, first_chunk, next_chunk
from diceboard.vector.rng import below

__all__ = [
    "Loops",
    "check_range",
    "loops_for",
    "mask_range",
    "pick_one",
    "pick_rows",
]


#: the game's encoding module; replaced by each game's own in the compiled copies
game: Any = None


@template
def resolve_chance(
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    rng: np.ndarray,
    i: int,
    buf: np.ndarray,
    log: np.ndarray,
    nlog: int,
) -> tuple[int, int]:
    """Roll every chance event due in ``state`` with game ``i``'s stream, logging each
    outcome id in ``log`` (as far as it has room; ``nlog`` still counts them all).
    Returns the new history length and log count."""
    while state[CHANCE] == 1 and state[RESULT] == 0:
        n = game.legal_actions(state, opts, buf)
        a = buf[below(rng, i, n)]
        if nlog < log.shape[0]:
            log[nlog] = a
        nlog += 1
        nhist = game.step(state, opts, a, history, nhist)
    return nhist, nlog


@template
def start_game(
    opts: np.ndarray,
    start: np.ndarray,
    start_hist: np.ndarray,
    state: np.ndarray,
    history: np.ndarray,
    rng: np.ndarray,
    i: int,
    buf: np.ndarray,
    log: np.ndarray,
    nlog: int,
) -> tuple[int, int]:
    """Put game ``i`` at the start position and roll its leading chance events."""
    copy_whole(state, start)
    n = start_hist.shape[0]
    copy_into(history, start_hist, n)
    return resolve_chance(state, opts, history, n, rng, i, buf, log, nlog)


@template
def finish_row(
    opts: np.ndarray, state: np.ndarray, buf: np.ndarray, legal: np.ndarray
) -> tuple[int, int]:
    """The legal decisions of a row (none when its game is over) and the player to move
    (-1 when over). Returns ``(number of legal actions, player)``."""
    if state[RESULT] != 0:
        return 0, -1
    n = game.legal_actions(state, opts, buf)
    for k in range(n):
        legal[k] = buf[k]
    return n, state[TO_MOVE]


@template
def reset_range(
    opts: np.ndarray,
    start: np.ndarray,
    start_hist: np.ndarray,
    which: np.ndarray,
    states: np.ndarray,
    history: np.ndarray,
    nhist: np.ndarray,
    rng: np.ndarray,
    steps: np.ndarray,
    legal: np.ndarray,
    nlegal: np.ndarray,
    player: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    log: np.ndarray,
    nlog: np.ndarray,
    max_legal: int,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """Start a new game in every row ``i`` of ``lo <= i < hi`` with ``which[i]``, in place."""
    buf = np.empty(max_legal, dtype=np.int64)
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        for i in range(lo, hi):
            if not which[i]:
                continue
            n, nl = start_game(
                opts, start, start_hist, states[i], history[i], rng, i, buf, log[i], 0
            )
            nhist[i] = n
            nlog[i] = nl
            steps[i] = 0
            rewards[i, 0] = 0.0
            rewards[i, 1] = 0.0
            terminated[i] = False
            truncated[i] = False
            nlegal[i], player[i] = finish_row(opts, states[i], buf, legal[i])
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@template
def step_range(
    opts: np.ndarray,
    start: np.ndarray,
    start_hist: np.ndarray,
    actions: np.ndarray,
    auto_reset: bool,
    max_steps: int,
    max_legal: int,
    states: np.ndarray,
    history: np.ndarray,
    nhist: np.ndarray,
    rng: np.ndarray,
    steps: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    o_states: np.ndarray,
    o_history: np.ndarray,
    o_nhist: np.ndarray,
    o_rng: np.ndarray,
    o_steps: np.ndarray,
    o_legal: np.ndarray,
    o_nlegal: np.ndarray,
    o_player: np.ndarray,
    o_rewards: np.ndarray,
    o_terminated: np.ndarray,
    o_truncated: np.ndarray,
    o_log: np.ndarray,
    o_nlog: np.ndarray,
    legal: np.ndarray,
    nlegal: np.ndarray,
    check: bool,
    bad: np.ndarray,
    in_place: bool,
    pick: bool,
    fractions: np.ndarray,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """One decision in every game of the rows ``lo <= i < hi``: ``actions[i]`` in row ``i``,
    then the chance events it brings, the end of the game (rewards, flags) and, with
    ``auto_reset``, a new game in its place. Reads the input arrays, writes the ``o_*`` arrays
    (which may be the same arrays, for stepping in place: ``in_place`` says so, and the rows
    are then not copied onto themselves).

    With ``check``, each active row first looks its action up among its legal actions
    (``legal[i, :nlegal[i]]``); a row whose action is not there gets ``bad[i] = True`` and is
    not stepped (its outputs are left unwritten: the caller discards them). Without
    ``check`` the actions are assumed legal (and ``bad`` is not written).

    With ``pick``, ``actions`` is written rather than read: row ``i`` plays its legal action
    at the fraction ``fractions[i]`` (in [0, 1)) of its list, as
    :func:`pick_rows` picks it (0 in a finished game), which needs no check.

    A game that was already over (only without ``auto_reset``) is carried over unchanged,
    with zero rewards. ``max_steps`` > 0 truncates a game after that many decisions.
    """
    buf = np.empty(max_legal, dtype=np.int64)
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        ahead = pick_one(legal[lo], nlegal[lo], fractions[lo]) if pick and lo < hi else 0
        for i in range(lo, hi):
            if pick:
                actions[i] = ahead
                # the next row's pick is read a row ahead: its list is seldom in the cache,
                # and the load then overlaps this row's step instead of stalling the next
                if i + 1 < hi:
                    ahead = pick_one(legal[i + 1], nlegal[i + 1], fractions[i + 1])
            over = terminated[i] or truncated[i]
            if check:
                ok = over and not auto_reset
                if not ok:
                    a = actions[i]
                    for k in range(nlegal[i]):
                        if legal[i, k] == a:
                            ok = True
                            break
                bad[i] = not ok
                if not ok:
                    continue
            s = o_states[i]
            h = o_history[i]
            n = nhist[i]
            if not in_place:
                copy_whole(s, states[i])
                copy_into(h, history[i], n)
                o_rng[i] = rng[i]
            o_rewards[i, 0] = 0.0
            o_rewards[i, 1] = 0.0
            o_nlog[i] = 0
            if not auto_reset and over:
                # a finished game stays as it was
                o_nhist[i] = n
                o_steps[i] = steps[i]
                o_terminated[i] = terminated[i]
                o_truncated[i] = truncated[i]
                o_nlegal[i] = 0
                o_player[i] = -1
                continue
            n = game.step(s, opts, actions[i], h, n)
            # The hot path's chance events and next legal actions are written out here rather
            # than through resolve_chance and finish_row: measured on Custodian at batch
            # 4,096, calling those helpers (even with numba's inline="always") made a step
            # about 25 % slower than the same work in this loop. The rare restart still
            # goes through start_game.
            nl = 0
            while s[CHANCE] == 1 and s[RESULT] == 0:
                m = game.legal_actions(s, opts, buf)
                roll = buf[below(o_rng, i, m)]
                if nl < o_log.shape[1]:
                    o_log[i, nl] = roll
                nl += 1
                n = game.step(s, opts, roll, h, n)
            count = steps[i] + 1
            term = s[RESULT] != 0
            trunc = not term and max_steps > 0 and count >= max_steps
            if term and s[RESULT] != RESULT_DRAW:
                winner = s[RESULT] - RESULT_FIRST
                o_rewards[i, winner] = 1.0
                o_rewards[i, 1 - winner] = -1.0
            o_terminated[i] = term
            o_truncated[i] = trunc
            done = term or trunc
            if done and auto_reset:
                n, nl = start_game(opts, start, start_hist, s, h, o_rng, i, buf, o_log[i], nl)
                count = 0
                done = False
            o_nhist[i] = n
            o_nlog[i] = nl
            o_steps[i] = count
            if done or s[RESULT] != 0:
                o_nlegal[i] = 0
                o_player[i] = -1
                continue
            # written straight into the row of int16 ids, not through buf and a copy: the move
            # generation is compiled a second time, for an int16 buffer (1-2 CPU s more on a
            # cold cache), and a step is 1.06x (Custodian) and 1.04x (Chase) as fast
            o_nlegal[i] = game.legal_actions(s, opts, o_legal[i])
            o_player[i] = s[TO_MOVE]
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@njit
def check_range(
    actions: np.ndarray,
    legal: np.ndarray,
    nlegal: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    auto_reset: bool,
    bad: np.ndarray,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """``bad[i]`` = whether ``actions[i]`` is not among row ``i``'s legal actions, for the
    rows ``lo <= i < hi`` (a finished game accepts anything unless ``auto_reset`` has
    already put a new one in its row). Not a template: it needs no game, and one compiled
    copy serves every game."""
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        for i in range(lo, hi):
            action = actions[i]
            row = legal[i]
            # the whole list is counted rather than searched up to the action: a loop without an
            # early exit is vectorised, twice as fast as the search
            hits = 0
            for k in range(nlegal[i]):
                hits += row[k] == action
            bad[i] = hits == 0 and (auto_reset or not (terminated[i] or truncated[i]))
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@template
def observe_range(
    opts: np.ndarray,
    states: np.ndarray,
    history: np.ndarray,
    nhist: np.ndarray,
    perspective: int,
    out: np.ndarray,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """The observation of every row ``lo <= i < hi`` (``out`` has one flat row per game)."""
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        for i in range(lo, hi):
            game.encode(states[i], opts, history[i], nhist[i], perspective, out[i])
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@njit
def mask_range(
    legal: np.ndarray,
    nlegal: np.ndarray,
    out: np.ndarray,
    lo: int,
    hi: int,
    control: np.ndarray,
    seq: int,
    bounds: np.ndarray,
    spins: int,
) -> bool:
    """Row ``i`` of the boolean mask ``out`` (whatever it held) = the legal action ids of row
    ``i``, for the rows ``lo <= i < hi`` (a batch loop: on the crew, the rows are cleared by
    the threads that fill them, rather than all of them first on one)."""
    chunk, lo, hi = first_chunk(control, seq, bounds, lo, hi)
    while chunk >= 0:
        for i in range(lo, hi):
            row = out[i]
            for k in range(row.shape[0]):
                row[k] = False
            for k in range(nlegal[i]):
                row[legal[i, k]] = True
        chunk, lo, hi = next_chunk(control, seq, bounds, chunk)
    return chunks_done(control, seq, bounds, spins)


@njit
def pick_one(row: np.ndarray, n: int, fraction: float) -> int:
    """The legal action at the fraction ``fraction`` in [0, 1) of the list ``row[:n]`` (0
    when it is empty)."""
    if n == 0:
        return 0
    k = int(fraction * n)
    return int(row[k if k < n else n - 1])


@njit
def pick_rows(legal: np.ndarray, nlegal: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = the legal action of row ``i`` at the fraction ``u[i]`` in [0, 1) of its
    list (0 for rows without legal actions)."""
    for i in range(legal.shape[0]):
        out[i] = pick_one(legal[i], nlegal[i], u[i])


class Loops(NamedTuple):
    """The batch loops compiled for one game (see the templates above for their arguments),
    each over a range of rows or, as the lead of a crew's call, over every chunk of it
    (:func:`diceboard.vector.threads.run_batch_loop` runs them on one or several threads)."""

    reset_range: Any
    step_range: Any
    observe_range: Any


@functools.cache
def loops_for(game_name: str) -> Loops:
    """The loops of this module compiled for the game ``game_name`` (a registered name),
    with its encoding module as ``game`` (compilation is lazy: each loop compiles, or loads
    from numba's cache, on its first call)."""
    compiled = specialise(
        game_name,
        encoding_module(game_name),
        [sys.modules[__name__]],
        module_name=f"diceboard.vector._{game_name}_loops",
    )
    return Loops(*(compiled[name] for name in Loops._fields))
