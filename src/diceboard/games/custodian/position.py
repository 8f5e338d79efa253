"""Custodian Dice position strings (spec: "Positions"), to and from kernel arrays."""

from __future__ import annotations

import re

import numpy as np

from diceboard.core.errors import PositionError
from diceboard.core.limits import parse_counter
from diceboard.games.custodian.kernel import STATE_LEN, rehash
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    HAND,
    LAST_PASS,
    PENDING,
    PENDING_SQ,
    PHASE_PLACEMENT,
    PHASE_PLAY,
    PHASE_ROLLS,
    UNROLLED,
    square_name,
)
from diceboard.kernel import CHANCE, CLOCK, PHASE, PLY, TO_MOVE

PLAYERS = "WB"
_HAND_PART = re.compile(r"^([WB])([1-6]*)(\?*)$")
_SQUARE_TOKEN = re.compile(r"\.|[WB][1-6?]")


def format_position(arr: np.ndarray) -> str:
    """The canonical position string of a kernel state."""
    a = arr.tolist()  # Python ints in one conversion: numpy's scalars one by one are slow
    ranks = []
    for r in range(4, -1, -1):
        cells = []
        for f in range(5):
            v = a[BOARD + f * 5 + r]
            if v == 0:
                cells.append(".")
            else:
                face = abs(v)
                cells.append(("W" if v > 0 else "B") + ("?" if face == PENDING else str(face)))
        ranks.append("".join(cells))
    fields = ["/".join(ranks), PLAYERS[a[TO_MOVE]], str(a[CLOCK]), str(a[PLY])]
    if a[PHASE] != PHASE_PLAY:
        parts = []
        for p in range(2):
            faces = "".join(str(f + 1) * a[HAND + 6 * p + f] for f in range(6))
            unrolled = "?" * a[UNROLLED + p]
            if faces or unrolled:
                parts.append(PLAYERS[p] + faces + unrolled)
        fields.append(",".join(parts))
    return " ".join(fields)


def _number(field: str, name: str) -> int:
    return parse_counter(field, f"{name} field", PositionError)


def _parse_board(text: str, arr: np.ndarray) -> list[int]:
    """Fill the board cells; return the squares that hold a ``?`` die."""
    ranks = text.split("/")
    if len(ranks) != 5:
        raise PositionError(f"the board must have 5 ranks separated by '/', not {len(ranks)}")
    pending = []
    for i, rank_text in enumerate(ranks):
        rank = 4 - i
        tokens = _SQUARE_TOKEN.findall(rank_text)
        if "".join(tokens) != rank_text:
            bad = _SQUARE_TOKEN.sub("", rank_text)
            raise PositionError(
                f"rank {rank + 1} ({rank_text!r}) has an unknown token near {bad[:3]!r}: "
                "a square is '.', or W or B followed by a face 1-6 (or ?)"
            )
        if len(tokens) != 5:
            raise PositionError(f"rank {rank + 1} ({rank_text!r}) has {len(tokens)} squares, not 5")
        for f, tok in enumerate(tokens):
            if tok == ".":
                continue
            sign = 1 if tok[0] == "W" else -1
            sq = f * 5 + rank
            if tok[1] == "?":
                pending.append(sq)
                arr[BOARD + sq] = sign * PENDING
            else:
                arr[BOARD + sq] = sign * int(tok[1])
    return pending


def _parse_hand(text: str, arr: np.ndarray) -> None:
    seen = ""
    parts = text.split(",")
    for part in parts:
        m = _HAND_PART.match(part)
        if m is None or (not m.group(2) and not m.group(3)):
            raise PositionError(
                f"bad hand entry {part!r}: a player letter followed by rolled faces in "
                "ascending order, then one ? per die not rolled yet (like W12346 or B3????)"
            )
        letter, faces, unrolled = m.groups()
        if letter in seen or (seen and letter == "W"):
            raise PositionError(f"the hand field {text!r} must list W before B, each once")
        seen += letter
        if list(faces) != sorted(faces):
            raise PositionError(
                f"the rolled faces in hand entry {part!r} must be in ascending order"
            )
        p = PLAYERS.index(letter)
        for ch in faces:
            arr[HAND + 6 * p + int(ch) - 1] += 1
        arr[UNROLLED + p] = len(unrolled)


def parse_position(text: str, faces_roll: bool, placement_rolled: bool) -> np.ndarray:
    """The kernel state of a position string; :class:`PositionError` says what is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"a position must be a string, not {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (4, 5):
        raise PositionError(
            "a Custodian Dice position has 4 or 5 fields (board, to-move, clock, ply[, hand]) "
            f"separated by spaces; got {len(fields)}"
        )
    arr = np.zeros(STATE_LEN, dtype=np.int64)
    arr[PENDING_SQ] = -1
    pending = _parse_board(fields[0], arr)
    if fields[1] not in ("W", "B"):
        raise PositionError(f"the to-move field must be W or B, not {fields[1]!r}")
    arr[TO_MOVE] = PLAYERS.index(fields[1])
    arr[CLOCK] = _number(fields[2], "clock")
    arr[PLY] = _number(fields[3], "ply")
    board = arr[BOARD : BOARD + 25]
    counts = (int((board > 0).sum()), int((board < 0).sum()))
    for p in range(2):
        if counts[p] > 5:
            raise PositionError(f"{'White' if p == 0 else 'Black'} has {counts[p]} dice; at most 5")
    if len(fields) == 5:
        _parse_hand(fields[4], arr)
        _check_setup(arr, counts, pending, placement_rolled)
    else:
        arr[PHASE] = PHASE_PLAY
        _check_pending(arr, pending, faces_roll)
    rehash(arr)
    arr[LAST_PASS] = 0
    return arr


def _check_pending(arr: np.ndarray, pending: list[int], faces_roll: bool) -> None:
    if not pending:
        return
    names = ", ".join(square_name(sq) for sq in pending)
    if not faces_roll:
        raise PositionError(
            f"the ? face on {names} exists only in the Chaos variants (faces=roll), "
            "while the moved die awaits its roll"
        )
    if len(pending) > 1:
        raise PositionError(f"only the one moved die can await its roll, but {names} show ?")
    sq = pending[0]
    owner = 0 if arr[BOARD + sq] > 0 else 1
    if owner != arr[TO_MOVE]:
        raise PositionError(
            f"the die on {names} awaits its roll, so its owner {PLAYERS[owner]} must be the "
            f"to-move field, not {PLAYERS[int(arr[TO_MOVE])]}"
        )
    arr[PENDING_SQ] = sq
    arr[CHANCE] = 1


def _check_setup(
    arr: np.ndarray, counts: tuple[int, int], pending: list[int], placement_rolled: bool
) -> None:
    """A position with a hand field is in setup: check that board and hand agree."""
    if pending:
        raise PositionError("no die can show ? during setup")
    names = ("White", "Black")
    homes = (0, 4)
    hand = [int(arr[HAND + 6 * p : HAND + 6 * p + 6].sum()) for p in range(2)]
    unrolled = [int(arr[UNROLLED + p]) for p in range(2)]
    for p in range(2):
        for sq in range(25):
            v = arr[BOARD + sq] * (1 if p == 0 else -1)
            if v > 0 and sq % 5 != homes[p]:
                raise PositionError(
                    f"during setup {names[p]}'s dice stand on rank {homes[p] + 1} only, "
                    f"but {square_name(sq)} holds one"
                )
        if counts[p] + hand[p] + unrolled[p] != 5:
            raise PositionError(
                f"{names[p]} has {counts[p]} dice on the board and {hand[p] + unrolled[p]} in "
                f"hand; during setup these must add up to 5"
            )
    if unrolled[0] > 0 and (unrolled[1] != 5 or counts[1] > 0):
        raise PositionError("Black's dice are rolled only after all of White's dice")
    if arr[CLOCK] != 0:
        raise PositionError("the clock is 0 during setup")
    if placement_rolled:
        if hand[0] or hand[1]:
            raise PositionError(
                "with placement=rolled each roll goes straight onto the board: "
                "the hand holds only ?s"
            )
        for p in range(2):
            for f in range(5):
                filled = arr[BOARD + f * 5 + homes[p]] != 0
                if filled != (f < counts[p]):
                    raise PositionError(
                        f"with placement=rolled {names[p]}'s rolled dice fill rank "
                        f"{homes[p] + 1} from file a onwards without gaps"
                    )
        if arr[PLY] != 0:
            raise PositionError("with placement=rolled the placements are not moves: ply is 0")
        rolling = True
    else:
        rolling = unrolled[0] + unrolled[1] > 0
        if rolling and counts[0] + counts[1] > 0:
            raise PositionError("no die is placed before all ten setup rolls are made")
        if counts[1] > 0 and hand[0] > 0:
            raise PositionError("Black places its dice only after White has placed all of its")
        if arr[PLY] != counts[0] + counts[1]:
            raise PositionError(
                f"during placement the ply counts the placements made: "
                f"{counts[0] + counts[1]}, not {int(arr[PLY])}"
            )
    expected = 0 if rolling or hand[0] > 0 else 1
    if arr[TO_MOVE] != expected:
        raise PositionError(
            f"the to-move field must be {PLAYERS[expected]} in this setup position "
            f"(White decides first; Black places once White's hand is empty)"
        )
    arr[PHASE] = PHASE_ROLLS if rolling else PHASE_PLACEMENT
    arr[CHANCE] = 1 if rolling else 0
