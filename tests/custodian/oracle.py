"""An independent, deliberately naive reading of the Custodian Dice movement rules, written
from the spec for the tests only: it enumerates every walk one direction at a time. The kernel
must agree with it; it is never used by the package."""

from __future__ import annotations

from itertools import product

FILES = "abcde"
DIRS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def parse_board(position: str) -> dict[tuple[int, int], tuple[str, int]]:
    """(file, rank) -> (owner, face) from the board field of a position string."""
    cells = {}
    for i, rank_text in enumerate(position.split()[0].split("/")):
        rank, f, j = 4 - i, 0, 0
        while j < len(rank_text):
            if rank_text[j] != ".":
                cells[(f, rank)] = (rank_text[j], int(rank_text[j + 1]))
                j += 1
            j += 1
            f += 1
    return cells


def name(sq: tuple[int, int]) -> str:
    return FILES[sq[0]] + str(sq[1] + 1)


def on_board(sq: tuple[int, int]) -> bool:
    return 0 <= sq[0] < 5 and 0 <= sq[1] < 5


def walk_ends(cells, start, length, self_avoiding):
    ends = set()
    for dirs in product("NSEW", repeat=length):
        if any(dirs[i + 1] == OPPOSITE[dirs[i]] for i in range(length - 1)):
            continue
        sq = start
        visited = {start}
        ok = True
        for d in dirs:
            sq = (sq[0] + DIRS[d][0], sq[1] + DIRS[d][1])
            if not on_board(sq) or (sq in cells and sq != start):
                ok = False
                break
            if self_avoiding and sq in visited:
                ok = False
                break
            visited.add(sq)
        if ok:
            ends.add(sq)
    return ends


def legal_moves(
    position: str, jumping: bool = True, roll: bool = False, self_avoiding: bool = False
) -> set[str]:
    """Legal play-phase moves of a position string (no pending roll)."""
    cells = parse_board(position)
    mover = position.split()[1]
    moves = set()
    for sq, (owner, face) in cells.items():
        if owner != mover:
            continue
        for end in walk_ends(cells, sq, face, self_avoiding):
            if roll:
                moves.add(f"{name(sq)}-{name(end)}")
            else:
                for new in range(1, 7):
                    if new not in (face, 7 - face):
                        moves.add(f"{name(sq)}-{name(end)}={new}")
        if jumping:
            for dx, dy in DIRS.values():
                over = (sq[0] + dx, sq[1] + dy)
                land = (sq[0] + 2 * dx, sq[1] + 2 * dy)
                if on_board(land) and over in cells and land not in cells:
                    moves.add(f"{name(sq)}^{name(land)}")
    return moves or {"pass"}
