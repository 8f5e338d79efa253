"""The Custodian Dice observation encoding (version 1).

A ``float32`` tensor of shape ``(42, 5, 5)`` indexed ``[plane, file, rank]``, so that
``obs[p].reshape(25)[sq]`` is square ``game.squares[sq]`` (``a1`` = 0, ``a2`` = 1, … ``e5`` = 24)
— the kernel's own square numbering, which the action ids use too. The board is not mirrored
for Black: the action ids are absolute, and a mirrored picture would make the same square mean
two different actions. Instead the planes are relative to a *perspective* player ("own" and
"opponent"), and the plane ``perspective_is_second`` tells which side of the board is home.

Planes 0–12 are the board; planes 13–41 are scalar features broadcast over the whole plane
(all 25 cells hold the same value), so a convolutional network sees them everywhere. Every
value lies in ``[0, 1]``. The same layout serves every variant and option: the options
themselves are planes 37–41.

The module is also what the research interfaces need of the game besides the tensor: the
batched simulator (:mod:`diceboard.vector`) compiles its loops with this module as their
``game`` (``legal_actions``, ``step`` and ``encode``, and :data:`CHANCE_LOG_ROOM`), and
OpenSpiel reads :data:`CHANCE_BASE`, :data:`CHANCE_OUTCOMES` and :func:`max_game_length`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from diceboard.games.custodian.kernel.layout import (
    BOARD,
    CHANCE_OUTCOME,
    HAND,
    LAST_PASS,
    NSQ,
    OPT_CAPTURE_SINGLE,
    OPT_JUMPING,
    OPT_NO_CAPTURE_LIMIT,
    OPT_PLACEMENT_ROLLED,
    OPT_ROLL_FACES,
    OPT_SELF_AVOIDING,
    PENDING,
    UNROLLED,
)
from diceboard.games.custodian.kernel.movegen import legal_actions
from diceboard.games.custodian.kernel.play import step
from diceboard.kernel import CHANCE, CLOCK, HASH, PHASE, TO_MOVE, count_in_history, njit

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
#: the board as the planes lay it out: 5 files × 5 ranks
BOARD_SHAPE = (5, 5)
#: which board axes wrap round (a convolution pads those circularly): none
BOARD_WRAPS = (False, False)

PLANES: tuple[str, ...] = (
    *(f"own_face_{f}" for f in range(1, 7)),
    *(f"opponent_face_{f}" for f in range(1, 7)),
    "pending_roll",
    "perspective_is_second",
    "perspective_to_move",
    "phase_rolls",
    "phase_placement",
    "phase_play",
    "chance",
    "clock",
    "last_move_pass",
    "repetition_1",
    "repetition_2",
    *(f"own_hand_{f}" for f in range(1, 7)),
    *(f"opponent_hand_{f}" for f in range(1, 7)),
    "own_unrolled",
    "opponent_unrolled",
    "option_jumping",
    "option_faces_roll",
    "option_self_avoiding",
    "option_capture_single",
    "option_placement_rolled",
)
NUM_PLANES = len(PLANES)
SHAPE = (NUM_PLANES, *BOARD_SHAPE)
SIZE = NUM_PLANES * NSQ

_OWN_FACE = 0
_OPP_FACE = 6
_PENDING = 12
_SCALARS = 13  # first broadcast plane
_OPP_HAND = PLANES.index("opponent_hand_1")
_OWN_HAND = PLANES.index("own_hand_1")
_OWN_UNROLLED = PLANES.index("own_unrolled")
_OPTIONS = PLANES.index("option_jumping")
#: the clock is scaled by the no-capture limit, or by this when the limit is off
CLOCK_SCALE_WITHOUT_LIMIT = 100.0


@njit
def _fill(out: np.ndarray, plane: int, value: float) -> None:
    base = plane * NSQ
    for sq in range(NSQ):
        out[base + sq] = value


@njit
def encode(
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    perspective: int,
    out: np.ndarray,
) -> None:
    """Write the observation of ``state`` for player ``perspective`` (0 White, 1 Black;
    -1 = the player to move) into the flat ``float32`` array ``out`` of length ``SIZE``.

    ``history[:nhist]`` is the repetition history (hashes since the last capture), which the
    ``repetition_*`` planes count the current position in.
    """
    me = state[TO_MOVE] if perspective < 0 else perspective
    sign = 1 if me == 0 else -1
    for i in range(SIZE):
        out[i] = 0.0
    for sq in range(NSQ):
        v = state[BOARD + sq] * sign
        if v == 0:
            continue
        face = v if v > 0 else -v
        if face == PENDING:
            out[_PENDING * NSQ + sq] = 1.0
        elif v > 0:
            out[(_OWN_FACE + face - 1) * NSQ + sq] = 1.0
        else:
            out[(_OPP_FACE + face - 1) * NSQ + sq] = 1.0
    _fill(out, _SCALARS, float(me))
    _fill(out, _SCALARS + 1, 1.0 if state[TO_MOVE] == me else 0.0)
    _fill(out, _SCALARS + 2 + state[PHASE], 1.0)
    _fill(out, _SCALARS + 5, float(state[CHANCE]))
    limit = opts[OPT_NO_CAPTURE_LIMIT]
    scale = float(limit) if limit > 0 else CLOCK_SCALE_WITHOUT_LIMIT
    _fill(out, _SCALARS + 6, min(float(state[CLOCK]) / scale, 1.0))
    _fill(out, _SCALARS + 7, float(state[LAST_PASS]))
    # the current position is the last history entry: earlier occurrences are one fewer
    seen_before = count_in_history(history, nhist, state[HASH]) - 1
    if seen_before >= 1:
        _fill(out, _SCALARS + 8, 1.0)
    if seen_before >= 2:
        _fill(out, _SCALARS + 9, 1.0)
    opp = 1 - me
    for face in range(6):
        _fill(out, _OWN_HAND + face, state[HAND + 6 * me + face] / 5.0)
        _fill(out, _OPP_HAND + face, state[HAND + 6 * opp + face] / 5.0)
    _fill(out, _OWN_UNROLLED, state[UNROLLED + me] / 5.0)
    _fill(out, _OWN_UNROLLED + 1, state[UNROLLED + opp] / 5.0)
    _fill(out, _OPTIONS, float(opts[OPT_JUMPING]))
    _fill(out, _OPTIONS + 1, float(opts[OPT_ROLL_FACES]))
    _fill(out, _OPTIONS + 2, float(opts[OPT_SELF_AVOIDING]))
    _fill(out, _OPTIONS + 3, float(opts[OPT_CAPTURE_SINGLE]))
    _fill(out, _OPTIONS + 4, float(opts[OPT_PLACEMENT_ROLLED]))


# --- what the research interfaces need besides the tensor ----------------------------------
#: kernel action id of the first chance outcome (a roll of 1); OpenSpiel's chance actions are
#: the kernel ids minus this
CHANCE_BASE: int | None = CHANCE_OUTCOME
#: the number of outcomes of one chance event (the faces of a die)
CHANCE_OUTCOMES = 6
#: room in the batched simulator's chance log for one step: the Chaos roll after a decision
#: and the ten setup rolls of the next game (11), rounded up
CHANCE_LOG_ROOM = 16
#: at most 4 + 3 captures before a side drops below two dice, each after at most
#: ``no_capture_limit`` plies, plus the ten placements
_SEGMENTS = 8
_PLACEMENTS = 10


def max_game_length(options: Mapping[str, Any]) -> int | None:
    """The most actions a game with ``options`` can last (``None``: no finite bound, as
    without a no-capture limit).

    >>> max_game_length({"no_capture_limit": 100}), max_game_length({"no_capture_limit": 0})
    (818, None)
    """
    limit = int(options.get("no_capture_limit", 0))
    return _PLACEMENTS + _SEGMENTS * (limit + 1) if limit > 0 else None
