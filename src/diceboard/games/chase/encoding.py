"""The Chase observation encoding (version 1).

A ``float32`` tensor of shape ``(24, 9, 9)`` indexed ``[plane, row, column]`` (row ``a`` = 0,
column ``1`` = 0), so that ``obs[p].reshape(81)[hex]`` is hex ``game.squares[hex]``
(``a1`` = 0, … ``i9`` = 80) — the kernel's hex numbering, which the action ids use too. As in
Custodian Dice the board is not mirrored for Red (the action ids are absolute); the planes are
relative to a *perspective* player, and ``perspective_is_second`` says which row is home.

The hex grid is stored as a square array: rows ``b d f h`` sit half a hex west of the others,
which the constant plane ``odd_row`` spells out for a network, and columns wrap east–west
(a convolution with circular padding along the column axis respects that).

Planes 0–13 are the board; planes 14–23 are scalar features broadcast over the whole plane.
Every value lies in ``[0, 1]``.

The module is also what the research interfaces need of the game besides the tensor: the
batched simulator (:mod:`diceboard.vector`) compiles its loops with this module as their
``game`` (``legal_actions``, ``step`` and ``encode``, and :data:`CHANCE_LOG_ROOM`), and
OpenSpiel reads :data:`CHANCE_BASE`, :data:`CHANCE_OUTCOMES` and :func:`max_game_length`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from diceboard.games.chase.kernel.geometry import CHAMBER, NCOLS, NHEX, NROWS
from diceboard.games.chase.kernel.layout import (
    BOARD,
    COUNT,
    DICE_PER_SIDE,
    FULL_TOTAL,
    OPT_NO_CAPTURE_LIMIT,
    PHASE_ABSORB,
    TOTAL,
)
from diceboard.games.chase.kernel.movegen import legal_actions
from diceboard.games.chase.kernel.play import step
from diceboard.kernel import CLOCK, HASH, PHASE, TO_MOVE, count_in_history, njit

__all__ = [
    "BOARD_SHAPE",
    "BOARD_WRAPS",
    "CHANCE_BASE",
    "CHANCE_LOG_ROOM",
    "CHANCE_OUTCOMES",
    "PLANES",
    "SHAPE",
    "SIZE",
    "VERSION",
    "encode",
    "legal_actions",
    "max_game_length",
    "step",
]

VERSION = 1
#: the board as the planes lay it out: 9 rows × 9 columns
BOARD_SHAPE = (NROWS, NCOLS)
#: which board axes wrap round (a convolution pads those circularly): the columns, east–west
BOARD_WRAPS = (False, True)

PLANES: tuple[str, ...] = (
    *(f"own_face_{f}" for f in range(1, 7)),
    *(f"opponent_face_{f}" for f in range(1, 7)),
    "chamber",
    "odd_row",
    "perspective_is_second",
    "perspective_to_move",
    "absorbing",
    "own_pips_to_absorb",
    "opponent_pips_to_absorb",
    "own_dice",
    "opponent_dice",
    "clock",
    "repetition_1",
    "repetition_2",
)
NUM_PLANES = len(PLANES)
SHAPE = (NUM_PLANES, *BOARD_SHAPE)
SIZE = NUM_PLANES * NHEX

_OWN_FACE = 0
_OPP_FACE = 6
_CHAMBER = 12
_ODD_ROW = 13
_SCALARS = 14
#: the clock is scaled by the no-capture limit, or by this when the limit is off
CLOCK_SCALE_WITHOUT_LIMIT = 100.0


@njit
def _fill(out: np.ndarray, plane: int, value: float) -> None:
    base = plane * NHEX
    for h in range(NHEX):
        out[base + h] = value


@njit
def encode(
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    perspective: int,
    out: np.ndarray,
) -> None:
    """Write the observation of ``state`` for player ``perspective`` (0 Blue, 1 Red; -1 = the
    player to move) into the flat ``float32`` array ``out`` of length ``SIZE``.

    ``history[:nhist]`` is the repetition history, which the ``repetition_*`` planes count
    the current position in.
    """
    me = state[TO_MOVE] if perspective < 0 else perspective
    opp = 1 - me
    sign = 1 if me == 0 else -1
    for i in range(SIZE):
        out[i] = 0.0
    for h in range(NHEX):
        v = state[BOARD + h] * sign
        if v > 0:
            out[(_OWN_FACE + v - 1) * NHEX + h] = 1.0
        elif v < 0:
            out[(_OPP_FACE - v - 1) * NHEX + h] = 1.0
    out[_CHAMBER * NHEX + CHAMBER] = 1.0
    for row in range(1, NROWS, 2):
        for col in range(NCOLS):
            out[_ODD_ROW * NHEX + row * NCOLS + col] = 1.0
    _fill(out, _SCALARS, float(me))
    _fill(out, _SCALARS + 1, 1.0 if state[TO_MOVE] == me else 0.0)
    _fill(out, _SCALARS + 2, 1.0 if state[PHASE] == PHASE_ABSORB else 0.0)
    _fill(out, _SCALARS + 3, max(FULL_TOTAL - state[TOTAL + me], 0) / FULL_TOTAL)
    _fill(out, _SCALARS + 4, max(FULL_TOTAL - state[TOTAL + opp], 0) / FULL_TOTAL)
    _fill(out, _SCALARS + 5, state[COUNT + me] / DICE_PER_SIDE)
    _fill(out, _SCALARS + 6, state[COUNT + opp] / DICE_PER_SIDE)
    limit = opts[OPT_NO_CAPTURE_LIMIT]
    scale = float(limit) if limit > 0 else CLOCK_SCALE_WITHOUT_LIMIT
    _fill(out, _SCALARS + 7, min(float(state[CLOCK]) / scale, 1.0))
    # the current position is the last history entry: earlier occurrences are one fewer
    seen_before = count_in_history(history, nhist, state[HASH]) - 1
    if seen_before >= 1:
        _fill(out, _SCALARS + 8, 1.0)
    if seen_before >= 2:
        _fill(out, _SCALARS + 9, 1.0)


# --- what the research interfaces need besides the tensor ----------------------------------
#: Chase has no chance events
CHANCE_BASE: int | None = None
CHANCE_OUTCOMES = 0
#: room in the batched simulator's chance log for one step (never used: an array needs one
#: column)
CHANCE_LOG_ROOM = 1


def max_game_length(options: Mapping[str, Any]) -> int | None:
    """The most actions a game can last: no finite bound follows from the rules, whatever the
    options. The no-capture limit bounds the turns between two changes in the number of dice,
    but nothing bounds the changes: a die that enters the chamber divides (one die more, while
    a side has fewer than ten on the board), a capture takes one away, and the captured pips
    are absorbed again, so dividing and capturing can alternate for ever, each restarting the
    clock and the repetition history. (The adapters that need a bound cap the game:
    :data:`diceboard.envs.common.LENGTH_CAP`.)

    >>> max_game_length({"no_capture_limit": 100}) is None
    True
    """
    return None
