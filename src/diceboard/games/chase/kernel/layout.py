"""Chase kernel: the state array, the options array and the action-id space.

**State array** (``int64``, ``STATE_LEN`` entries): the shared header of
:mod:`diceboard.kernel` (TO_MOVE 0 = Blue, 1 = Red; CHANCE is always 0; PHASE is
``PHASE_ACT`` or ``PHASE_ABSORB``), then

- ``BOARD + hex`` for the 81 hexes in board order (:mod:`.geometry`): 0 empty, ``+face`` a
  Blue die, ``-face`` a Red die; the chamber ``e5`` is always 0;
- ``COUNT + player``: that player's dice on the board;
- ``TOTAL + player``: the sum of that player's faces;
- ``OCCUPIED + word``: the occupied hexes as two bitsets (see :data:`.geometry.HEX_BIT`);
- ``SIDE_OCCUPIED + 2 * player + word``: the hexes of that player's dice, likewise (move
  generation visits a side's dice and finds their friendly neighbours from them).

COUNT, TOTAL, OCCUPIED, SIDE_OCCUPIED, HASH and PHASE follow from the board and the player to
move; every board write goes through :func:`.board.put`, which keeps them up to date.

**Options array**: ``OPT_NO_CAPTURE_LIMIT`` (0 = off), ``OPT_NO_REPETITION`` (1: the
repetition draw is off, as Abstract Play plays; 0, the default, keeps it).

**Action ids** (``NUM_ACTIONS`` = 2025):

- ``MOVE + hex * 6 + d`` (0…485): the die on ``hex`` moves in starting direction ``d``
  (E, NE, NW, W, SW, SE = 0…5). From row a the ids for SE and SW are never legal (the same
  moves are NE and NW), nor NE and NW from row i.
- ``TRANSFER + pair * 6 + (face - 1)`` (486…1943): the adjacent dice of ``pair``
  (``anchor * 3 + k``, the anchor's neighbour in direction E, NE or NW for k = 0, 1, 2)
  exchange pips so that the anchor's die shows ``face``; the partner's new face follows
  from the total.
- ``ABSORB + hex`` (1944…2024): raise the die on ``hex`` (one of the lowest dice of the player
  to move, who totals less than 25) by as many of the missing pips as it can take.

A turn is one move or transfer, preceded by absorb actions while the player to move totals
less than 25; only the move or transfer ends the turn (ply, clock, history).
"""

from __future__ import annotations

from diceboard.games.chase.kernel.geometry import NDIR, NHEX, NPAIR
from diceboard.kernel import HEADER_LEN

# --- the state array -------------------------------------------------------------------------
BOARD = HEADER_LEN
COUNT = BOARD + NHEX
TOTAL = COUNT + 2
OCCUPIED = TOTAL + 2
SIDE_OCCUPIED = OCCUPIED + 2
STATE_LEN = SIDE_OCCUPIED + 4

#: the faces of each side total this much once it has absorbed
FULL_TOTAL = 25
#: dice per side (on the board and spare)
DICE_PER_SIDE = 10
#: a side with this many dice or fewer on the board has lost
ELIMINATION_COUNT = 4

# phases (header field PHASE)
PHASE_ACT = 0
PHASE_ABSORB = 1

# --- the options array ---------------------------------------------------------------------
OPT_NO_CAPTURE_LIMIT = 0
OPT_NO_REPETITION = 1
OPTS_LEN = 2

# --- action ids ----------------------------------------------------------------------------
MOVE = 0
TRANSFER = MOVE + NHEX * NDIR
ABSORB = TRANSFER + NPAIR * 6
NUM_ACTIONS = ABSORB + NHEX

#: size of a buffer that holds every legal action of any position: at most 10 dice × 6 moves,
#: plus 5 transfers for each of the at most 24 adjacent pairs among 10 dice (a planar graph)
MAX_LEGAL = 256
