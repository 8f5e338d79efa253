"""The Chase board: 81 hexes on a cylinder, as lookup tables built once at import.

Hexes are indexed in board order, ``hex = row * 9 + (column - 1)``: ``a1`` = 0, ``a9`` = 8,
``b1`` = 9, … ``i9`` = 80. Row index R = 0…8 is the letter ``a``…``i``; odd rows (``b d f h``)
sit half a hex to the west. Columns wrap east–west; rows ``a`` and ``i`` are hard edges that a
moving die ricochets off. The chamber is ``e5``.

Directions are numbered counter-clockwise, 60° apart: E, NE, NW, W, SW, SE = 0…5. Turning
120° counter-clockwise adds 2 (mod 6), clockwise subtracts 2, and the ricochet, which flips the
north/south part of a heading (NE↔SE, NW↔SW), maps ``d`` to ``6 - d``.

Every table here is a plain ``int64`` (or ``bool``) numpy array, so kernels index them
directly; nothing about the board is computed twice.
"""

from __future__ import annotations

import numpy as np

NROWS = 9
NCOLS = 9
NHEX = NROWS * NCOLS
ROW_LETTERS = "abcdefghi"

#: the chamber ``e5``
CHAMBER = 4 * NCOLS + 4

E, NE, NW, W, SW, SE = 0, 1, 2, 3, 4, 5
NDIR = 6
#: direction names by number, as the notation writes them
DIR_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
#: the longest path: a die shows at most 6
MAX_FACE = 6


def hex_name(hex_index: int) -> str:
    """``0`` -> ``"a1"``, ``40`` -> ``"e5"``, ``80`` -> ``"i9"``."""
    row, col = divmod(int(hex_index), NCOLS)
    return f"{ROW_LETTERS[row]}{col + 1}"


#: every hex name, in board order
HEX_NAMES: tuple[str, ...] = tuple(hex_name(h) for h in range(NHEX))


def _neighbour(hex_index: int, d: int) -> int:
    """The spec's neighbour table: the hex next to ``hex_index`` in direction ``d``, or -1."""
    row, col = divmod(hex_index, NCOLS)
    odd = row % 2 == 1
    if d == E:
        dc, dr = 1, 0
    elif d == W:
        dc, dr = -1, 0
    elif d == NE:
        dc, dr = (0 if odd else 1), 1
    elif d == NW:
        dc, dr = (-1 if odd else 0), 1
    elif d == SE:
        dc, dr = (0 if odd else 1), -1
    else:  # SW
        dc, dr = (-1 if odd else 0), -1
    if not 0 <= row + dr < NROWS:
        return -1
    return (row + dr) * NCOLS + (col + dc) % NCOLS


def _ricochets(hex_index: int, d: int) -> bool:
    """Whether a step from ``hex_index`` with heading ``d`` first bounces off row a or i."""
    row = hex_index // NCOLS
    return (d in (NE, NW) and row == NROWS - 1) or (d in (SE, SW) and row == 0)


def _build_neighbours() -> np.ndarray:
    table = np.empty((NHEX, NDIR), dtype=np.int64)
    for h in range(NHEX):
        for d in range(NDIR):
            table[h, d] = _neighbour(h, d)
    return table


#: NEIGHBOUR[hex, d]: the adjacent hex in direction ``d`` (wrap included), -1 past row a or i
NEIGHBOUR = _build_neighbours()


def _build_steps() -> tuple[np.ndarray, np.ndarray]:
    to = np.empty((NHEX, NDIR), dtype=np.int64)
    heading = np.empty((NHEX, NDIR), dtype=np.int64)
    for h in range(NHEX):
        for d in range(NDIR):
            nd = NDIR - d if _ricochets(h, d) else d
            to[h, d] = NEIGHBOUR[h, nd]
            heading[h, d] = nd
    return to, heading


#: STEP_TO[hex, d], STEP_HEADING[hex, d]: one step of a die with heading ``d`` (ricochet and
#: wrap applied) and its heading afterwards
STEP_TO, STEP_HEADING = _build_steps()


def _chamber_distance() -> np.ndarray:
    distance = np.full((NHEX, NDIR), NHEX, dtype=np.int64)
    for start in range(NHEX):
        for heading in range(NDIR):
            cur, head = start, heading
            for k in range(NHEX):
                nxt, head = int(STEP_TO[cur, head]), int(STEP_HEADING[cur, head])
                if nxt == CHAMBER:
                    distance[start, heading] = k
                    break
                cur = nxt
    return distance


#: CHAMBER_DISTANCE[hex, heading]: the steps a line of single steps (a bump chain) arriving
#: on ``hex`` with ``heading`` takes along itself before its next step would enter the
#: chamber (NHEX: never)
CHAMBER_DISTANCE = _chamber_distance()


def _build_paths() -> tuple[np.ndarray, np.ndarray]:
    path = np.empty((NHEX, NDIR, MAX_FACE), dtype=np.int64)
    heading = np.empty((NHEX, NDIR, MAX_FACE), dtype=np.int64)
    for h in range(NHEX):
        for d in range(NDIR):
            cur, head = h, d
            for k in range(MAX_FACE):
                cur, head = int(STEP_TO[cur, head]), int(STEP_HEADING[cur, head])
                path[h, d, k] = cur
                heading[h, d, k] = head
    return path, heading


#: PATH[hex, d, k]: where a die starting on ``hex`` in direction ``d`` is after ``k + 1``
#: steps; PATH_HEADING[hex, d, k]: its heading there
PATH, PATH_HEADING = _build_paths()


def _starting_directions() -> np.ndarray:
    """True where direction ``d`` is a move of its own from ``hex``: from row a, SE/SW take
    the same path as NE/NW (they ricochet at once), and from row i NE/NW repeat SE/SW."""
    allowed = np.ones((NHEX, NDIR), dtype=np.bool_)
    for h in range(NHEX):
        for d in range(NDIR):
            allowed[h, d] = not _ricochets(h, d)
    return allowed


#: occupancy bitsets: hex ``h`` is bit ``HEX_BIT[h]`` of word ``HEX_WORD[h]`` (two words of at
#: most 41 bits, so they fit an int64 in compiled and plain Python alike)
WORD_BITS = 41
HEX_WORD = np.array([h // WORD_BITS for h in range(NHEX)], dtype=np.int64)
HEX_BIT = np.array([1 << (h % WORD_BITS) for h in range(NHEX)], dtype=np.int64)


def _path_masks() -> np.ndarray:
    masks = np.zeros((NHEX, NDIR, MAX_FACE + 1, 2), dtype=np.int64)
    for h in range(NHEX):
        for d in range(NDIR):
            for face in range(1, MAX_FACE + 1):
                for k in range(face - 1):
                    p = int(PATH[h, d, k])
                    masks[h, d, face, HEX_WORD[p]] |= HEX_BIT[p]
    return masks


#: PATH_MASK[hex, d, face]: the two occupancy words of the hexes a die with ``face`` passes
#: before its last step (the chamber included, when it lies on the way)
PATH_MASK = _path_masks()

#: STARTS[hex, d]: whether ``d`` is a starting direction of its own from ``hex``
STARTS = _starting_directions()


def _notation_order() -> tuple[np.ndarray, np.ndarray]:
    """Per hex and face, the starting directions sorted the way their notation sorts: by
    landing hex, then by the direction's name (``E NE NW SE SW W``)."""
    order = np.zeros((NHEX, MAX_FACE + 1, NDIR), dtype=np.int64)
    count = np.zeros(NHEX, dtype=np.int64)
    for h in range(NHEX):
        dirs = [d for d in range(NDIR) if STARTS[h, d]]
        count[h] = len(dirs)
        for face in range(1, MAX_FACE + 1):
            ranked = sorted(dirs, key=lambda d: (int(PATH[h, d, face - 1]), DIR_NAMES[d]))
            order[h, face, : len(ranked)] = ranked
    return order, count


#: DIR_ORDER[hex, face, :N_STARTS[hex]]: the starting directions of a die with ``face`` on
#: ``hex`` in the order of their notation
DIR_ORDER, N_STARTS = _notation_order()


# a move candidate's fields in MOVE_CANDIDATES
CANDIDATE_DIR = 0
CANDIDATE_MASK = 1  # two words: CANDIDATE_MASK and CANDIDATE_MASK + 1
CANDIDATE_LAND = 3
CANDIDATE_FIELDS = 4


def _move_candidates() -> tuple[np.ndarray, np.ndarray]:
    """Per hex and face, the moves that can ever be legal, in the order of their notation:
    the starting directions whose path does not pass the chamber before its last step."""
    table = np.zeros((NHEX, MAX_FACE + 1, NDIR, CANDIDATE_FIELDS), dtype=np.int64)
    count = np.zeros((NHEX, MAX_FACE + 1), dtype=np.int64)
    for h in range(NHEX):
        for face in range(1, MAX_FACE + 1):
            n = 0
            for j in range(N_STARTS[h]):
                d = int(DIR_ORDER[h, face, j])
                if CHAMBER in PATH[h, d, : face - 1]:
                    continue
                table[h, face, n, CANDIDATE_DIR] = d
                table[h, face, n, CANDIDATE_MASK : CANDIDATE_MASK + 2] = PATH_MASK[h, d, face]
                table[h, face, n, CANDIDATE_LAND] = PATH[h, d, face - 1]
                n += 1
            count[h, face] = n
    return table, count


#: MOVE_CANDIDATES[hex, face, :N_MOVE_CANDIDATES[hex, face]]: what move generation tries
#: for a die with ``face`` on ``hex``, in notation order: the direction, the two occupancy
#: words the path must find empty (PATH_MASK) and the landing hex; every field of a row in
#: one place, so that a die's candidates are a few cache lines
MOVE_CANDIDATES, N_MOVE_CANDIDATES = _move_candidates()


def _candidate_chamber_distances() -> np.ndarray:
    table = np.zeros((NHEX, MAX_FACE + 1, NDIR), dtype=np.int64)
    for h in range(NHEX):
        for face in range(1, MAX_FACE + 1):
            for j in range(N_MOVE_CANDIDATES[h, face]):
                d = int(MOVE_CANDIDATES[h, face, j, CANDIDATE_DIR])
                land = PATH[h, d, face - 1]
                table[h, face, j] = CHAMBER_DISTANCE[land, PATH_HEADING[h, d, face - 1]]
    return table


#: CANDIDATE_CHAMBER_DISTANCE[hex, face, j]: the CHAMBER_DISTANCE of the ``j``-th move
#: candidate's landing hex, with the heading the die arrives with: how far a bump chain
#: started there may run before the chamber (move generation settles most bumps with it, in
#: the branch-free loop over a die's candidates). A table of its own, not a field of
#: MOVE_CANDIDATES: a row of five fields made every candidate's lookups slower
CANDIDATE_CHAMBER_DISTANCE = _candidate_chamber_distances()


def _build_exits() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    left = np.empty(NDIR, dtype=np.int64)
    left_heading = np.empty(NDIR, dtype=np.int64)
    right = np.empty(NDIR, dtype=np.int64)
    right_heading = np.empty(NDIR, dtype=np.int64)
    for h in range(NDIR):
        # left: 120° counter-clockwise; right: 120° clockwise (no ricochet on row e)
        left_heading[h] = (h + 2) % NDIR
        right_heading[h] = (h - 2) % NDIR
        left[h] = STEP_TO[CHAMBER, left_heading[h]]
        right[h] = STEP_TO[CHAMBER, right_heading[h]]
    return left, left_heading, right, right_heading


#: the chamber's exits by the heading a die arrives with: hex and the heading leaving it
LEFT_EXIT, LEFT_EXIT_HEADING, RIGHT_EXIT, RIGHT_EXIT_HEADING = _build_exits()

#: the three directions whose neighbours pair each adjacent couple of hexes exactly once
PAIR_DIRS = np.array([E, NE, NW], dtype=np.int64)
NPAIR = NHEX * len(PAIR_DIRS)


def _pair_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Adjacent pairs: pair ``p = anchor * 3 + k`` joins ``anchor`` and its neighbour in
    ``PAIR_DIRS[k]``. For the notation order the pairs are also listed by their lower hex in
    board order, partners ascending."""
    partner = np.full(NPAIR, -1, dtype=np.int64)
    upper = np.full((NHEX, 4), -1, dtype=np.int64)
    upper_pair = np.full((NHEX, 4), -1, dtype=np.int64)
    n_upper = np.zeros(NHEX, dtype=np.int64)
    by_lower: dict[int, list[tuple[int, int]]] = {h: [] for h in range(NHEX)}
    for anchor in range(NHEX):
        for k, d in enumerate(PAIR_DIRS):
            other = int(NEIGHBOUR[anchor, d])
            p = anchor * len(PAIR_DIRS) + k
            partner[p] = other
            if other >= 0:
                lo, hi = min(anchor, other), max(anchor, other)
                by_lower[lo].append((hi, p))
    for lo, pairs in by_lower.items():
        pairs.sort()
        n_upper[lo] = len(pairs)
        for j, (hi, p) in enumerate(pairs):
            upper[lo, j] = hi
            upper_pair[lo, j] = p
    return partner, upper, upper_pair, n_upper


#: PAIR_PARTNER[pair]: the anchor's neighbour in the pair (-1: none past row i)
#: UPPER[lo, j], UPPER_PAIR[lo, j], N_UPPER[lo]: the hexes above ``lo`` in board order that
#: are adjacent to it, ascending, with the pair joining them
PAIR_PARTNER, UPPER, UPPER_PAIR, N_UPPER = _pair_tables()


def _upper_bits() -> np.ndarray:
    bits = np.zeros((NHEX, 2), dtype=np.int64)
    for lo in range(NHEX):
        for j in range(N_UPPER[lo]):
            bits[lo, HEX_WORD[UPPER[lo, j]]] |= HEX_BIT[UPPER[lo, j]]
    return bits


#: UPPER_BITS[lo]: the hexes UPPER[lo, :N_UPPER[lo]] as two occupancy words
UPPER_BITS = _upper_bits()
