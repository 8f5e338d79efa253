"""Chase position strings (spec: "Positions"), to and from kernel arrays.

``<row i>/<row h>/…/<row a> <to-move> <clock> <ply>``: each row lists columns 1 to 9, ``.``
for an empty hex or owner letter and face (``B3``, ``R6``).
"""

from __future__ import annotations

import re

import numpy as np

from diceboard.core.errors import PositionError
from diceboard.core.limits import parse_counter
from diceboard.games.chase.kernel import STATE_LEN, refresh
from diceboard.games.chase.kernel.geometry import CHAMBER, NCOLS, NROWS, ROW_LETTERS
from diceboard.games.chase.kernel.layout import (
    BOARD,
    COUNT,
    DICE_PER_SIDE,
    FULL_TOTAL,
    TOTAL,
)
from diceboard.kernel import CLOCK, PLY, TO_MOVE

PLAYERS = "BR"
PLAYER_NAMES = ("Blue", "Red")
_TOKEN = re.compile(r"\.|[BR]\d|[^.BR]|[BR]")

#: the standard start
START = "R1R2R3R4R5R4R3R2R1/" + "/".join(["........."] * 7) + "/B1B2B3B4B5B4B3B2B1 B 0 0"


def format_position(arr: np.ndarray) -> str:
    """The position string of a kernel state."""
    a = arr.tolist()  # Python ints in one conversion: numpy's scalars one by one are slow
    rows = []
    for row in range(NROWS - 1, -1, -1):
        cells = []
        for col in range(NCOLS):
            v = a[BOARD + row * NCOLS + col]
            cells.append("." if v == 0 else ("B" if v > 0 else "R") + str(abs(v)))
        rows.append("".join(cells))
    return f"{'/'.join(rows)} {PLAYERS[a[TO_MOVE]]} {a[CLOCK]} {a[PLY]}"


def _number(field: str, name: str) -> int:
    return parse_counter(field, f"{name} field", PositionError)


def _parse_row(text: str, row: int, arr: np.ndarray) -> None:
    letter = ROW_LETTERS[row]
    tokens = _TOKEN.findall(text)
    for tok in tokens:
        if tok != "." and not (len(tok) == 2 and tok[1] in "123456"):
            hint = (
                f"{tok} has no face {tok[1]}: faces are 1 to 6"
                if len(tok) == 2
                else (f"unknown token {tok!r}")
            )
            raise PositionError(
                f"row {letter} ({text!r}): {hint}; a hex is '.', or B or R followed by a face 1-6"
            )
    if len(tokens) != NCOLS:
        raise PositionError(f"row {letter} ({text!r}) has {len(tokens)} hexes, not {NCOLS}")
    for col, tok in enumerate(tokens):
        if tok == ".":
            continue
        sq = row * NCOLS + col
        if sq == CHAMBER:
            raise PositionError(f"e5 is the chamber: no die can stand on it, but it holds {tok}")
        arr[BOARD + sq] = int(tok[1]) if tok[0] == "B" else -int(tok[1])


def parse_position(text: str) -> np.ndarray:
    """The kernel state of a position string; :class:`PositionError` says what is wrong.

    >>> str(format_position(parse_position(START))) == START
    True
    """
    if not isinstance(text, str):
        raise PositionError(f"a position must be a string, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != 4:
        raise PositionError(
            "a Chase position has 4 fields (board, to-move, clock, ply) separated by spaces; "
            f"got {len(fields)}"
        )
    rows = fields[0].split("/")
    if len(rows) != NROWS:
        raise PositionError(
            f"the board must have {NROWS} rows (i down to a) separated by '/', not {len(rows)}"
        )
    arr = np.zeros(STATE_LEN, dtype=np.int64)
    for i, row_text in enumerate(rows):
        _parse_row(row_text, NROWS - 1 - i, arr)
    if fields[1] not in PLAYERS:
        raise PositionError(f"the to-move field must be B or R, not {fields[1]!r}")
    arr[TO_MOVE] = PLAYERS.index(fields[1])
    arr[CLOCK] = _number(fields[2], "clock")
    arr[PLY] = _number(fields[3], "ply")
    refresh(arr)
    _check_sides(arr)
    return arr


def _check_sides(arr: np.ndarray) -> None:
    mover = int(arr[TO_MOVE])
    for p in range(2):
        name = PLAYER_NAMES[p]
        count, total = int(arr[COUNT + p]), int(arr[TOTAL + p])
        if count > DICE_PER_SIDE:
            raise PositionError(f"{name} has {count} dice on the board; at most {DICE_PER_SIDE}")
        if p != mover and total != FULL_TOTAL:
            raise PositionError(
                f"{name}, not to move, totals {total}: the side not to move always totals "
                f"{FULL_TOTAL} (only the side to move can be short, before it absorbs)"
            )
        if p == mover and total > FULL_TOTAL:
            raise PositionError(
                f"{name}, to move, totals {total}: no side ever totals more than {FULL_TOTAL}"
            )
