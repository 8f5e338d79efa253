"""A slow, plain-Python reading of the Chase spec, written for the tests only.

It shares no code with the package: its own geometry (straight from the spec's neighbour
table), its own move simulation (dice really moved on a dict board, one step at a time), its
own notation. The tests compare it with the engine turn by turn: the legal turns of a position
in canonical notation, and the position (and static end) each one leads to.
"""

from __future__ import annotations

from dataclasses import dataclass

ROWS = "abcdefghi"
DIRS = ("E", "NE", "NW", "W", "SW", "SE")
CHAMBER = (4, 4)  # e5 as (column index, row index)

Hex = tuple[int, int]
Die = tuple[str, int]


def hex_name(h: Hex) -> str:
    return f"{ROWS[h[1]]}{h[0] + 1}"


def board_index(h: Hex) -> int:
    return h[1] * 9 + h[0]


def neighbour(h: Hex, d: str) -> Hex | None:
    """The spec's table: (c, R) and a direction, columns modulo 9."""
    c, r = h
    even = r % 2 == 0
    table = {
        "E": (c + 1, r),
        "W": (c - 1, r),
        "NE": (c + 1, r + 1) if even else (c, r + 1),
        "NW": (c, r + 1) if even else (c - 1, r + 1),
        "SE": (c + 1, r - 1) if even else (c, r - 1),
        "SW": (c, r - 1) if even else (c - 1, r - 1),
    }
    nc, nr = table[d]
    if not 0 <= nr <= 8:
        return None
    return (nc % 9, nr)


FLIP = {"NE": "SE", "SE": "NE", "NW": "SW", "SW": "NW"}


def step(h: Hex, heading: str) -> tuple[Hex, str]:
    """One step: ricochet first where the heading leaves row a or i, then move."""
    if (heading in ("NE", "NW") and h[1] == 8) or (heading in ("SE", "SW") and h[1] == 0):
        heading = FLIP[heading]
    nxt = neighbour(h, heading)
    assert nxt is not None
    return nxt, heading


def turn_left(d: str) -> str:
    return DIRS[(DIRS.index(d) + 2) % 6]


def turn_right(d: str) -> str:
    return DIRS[(DIRS.index(d) - 2) % 6]


@dataclass
class Position:
    board: dict[Hex, Die]
    to_move: str
    clock: int
    ply: int

    @staticmethod
    def parse(text: str) -> Position:
        rows, to_move, clock, ply = text.split()
        board: dict[Hex, Die] = {}
        for i, row in enumerate(rows.split("/")):
            r = 8 - i
            cells: list[Die | None] = []
            j = 0
            while j < len(row):
                if row[j] == ".":
                    cells.append(None)
                    j += 1
                else:
                    cells.append((row[j], int(row[j + 1])))
                    j += 2
            for c, cell in enumerate(cells):
                if cell is not None:
                    board[(c, r)] = cell
        return Position(board, to_move, int(clock), int(ply))

    def __str__(self) -> str:
        rows = []
        for r in range(8, -1, -1):
            row = ""
            for c in range(9):
                die = self.board.get((c, r))
                row += "." if die is None else f"{die[0]}{die[1]}"
            rows.append(row)
        return f"{'/'.join(rows)} {self.to_move} {self.clock} {self.ply}"

    def dice(self, owner: str) -> list[tuple[Hex, int]]:
        return sorted(
            ((h, die[1]) for h, die in self.board.items() if die[0] == owner),
            key=lambda item: board_index(item[0]),
        )

    def total(self, owner: str) -> int:
        return sum(face for _, face in self.dice(owner))


def other(owner: str) -> str:
    return "R" if owner == "B" else "B"


class Illegal(Exception):
    """A chain pushes a die into the chamber."""


def _place(board: dict[Hex, Die], die: Die, h: Hex, heading: str) -> None:
    """A die arrives on ``h`` with ``heading``: stop, capture, or bump (and so on)."""
    while True:
        if h == CHAMBER:
            raise Illegal
        occupant = board.get(h)
        board[h] = die
        if occupant is None or occupant[0] != die[0]:
            return
        die = occupant
        h, heading = step(h, heading)


def play_move(pos: Position, frm: Hex, d: str) -> tuple[str, Position] | None:
    """The notation and the position after moving the die on ``frm`` towards ``d``, or
    None when the move is illegal."""
    owner, face = pos.board[frm]
    cur, heading = frm, d
    for k in range(face):
        cur, heading = step(cur, heading)
        if k < face - 1 and (cur == CHAMBER or cur in pos.board):
            return None
    board = dict(pos.board)
    own_before = len(pos.dice(owner))
    del board[frm]
    landing = board.get(cur)
    sep = "x" if landing is not None and landing[0] != owner else "-"
    try:
        if cur == CHAMBER:
            divides = face >= 2 and own_before < 10
            parts = [(face + 1) // 2, face // 2] if divides else [face]
            exits = [turn_left(heading), turn_right(heading)]
            for part, exit_dir in zip(parts, exits, strict=False):
                exit_hex = neighbour(CHAMBER, exit_dir)
                assert exit_hex is not None
                _place(board, (owner, part), exit_hex, exit_dir)
        else:
            _place(board, (owner, face), cur, heading)
    except Illegal:
        return None
    return f"{hex_name(frm)}{sep}{hex_name(cur)}{d}", _finish(pos, board)


def _finish(pos: Position, board: dict[Hex, Die]) -> Position:
    changed = any(
        len([1 for die in board.values() if die[0] == p])
        != len([1 for die in pos.board.values() if die[0] == p])
        for p in "BR"
    )
    return Position(board, other(pos.to_move), 0 if changed else pos.clock + 1, pos.ply + 1)


def acts(pos: Position) -> dict[str, Position]:
    """Every legal move and transfer (no absorbing) with the position it leads to."""
    owner = pos.to_move
    out: dict[str, Position] = {}
    for h, _ in pos.dice(owner):
        for d in DIRS:
            if (h[1] == 0 and d in ("SE", "SW")) or (h[1] == 8 and d in ("NE", "NW")):
                continue  # the same move as NE/NW (SE/SW), written that way
            result = play_move(pos, h, d)
            if result is not None:
                out[result[0]] = result[1]
    for h, a in pos.dice(owner):
        for d in DIRS:
            g = neighbour(h, d)
            if g is None or board_index(g) < board_index(h):
                continue
            die = pos.board.get(g)
            if die is None or die[0] != owner:
                continue
            b = die[1]
            for a2 in range(1, 7):
                b2 = a + b - a2
                if a2 != a and 1 <= b2 <= 6:
                    board = dict(pos.board)
                    board[h] = (owner, a2)
                    board[g] = (owner, b2)
                    text = f"{hex_name(h)}={a2},{hex_name(g)}={b2}"
                    out[text] = _finish(pos, board)
    return out


def absorb_steps(pos: Position) -> list[tuple[Hex, Position]]:
    """The raises open to the player to move: any one of its lowest dice."""
    owner = pos.to_move
    missing = 25 - pos.total(owner)
    low = min(face for _, face in pos.dice(owner))
    steps = []
    for h, face in pos.dice(owner):
        if face == low:
            board = dict(pos.board)
            board[h] = (owner, face + min(missing, 6 - face))
            steps.append((h, Position(board, pos.to_move, pos.clock, pos.ply)))
    return steps


def turns(pos: Position) -> dict[str, Position]:
    """Every legal turn in canonical notation with the position it leads to."""
    owner = pos.to_move
    if pos.total(owner) >= 25:
        return acts(pos)
    finals: dict[str, tuple[list[int], list[Hex], Position]] = {}
    stack: list[tuple[list[Hex], Position]] = [([], pos)]
    while stack:
        seq, cur = stack.pop()
        if cur.total(owner) >= 25:
            key = str(cur)
            order = [board_index(h) for h in seq]
            if key not in finals or order < finals[key][0]:
                finals[key] = (order, seq, cur)
            continue
        for h, child in absorb_steps(cur):
            stack.append(([*seq, h], child))
    out = {}
    for _, seq, cur in finals.values():
        prefix = "{" + ",".join(hex_name(h) for h in seq) + "}"
        for text, after in acts(cur).items():
            out[prefix + text] = after
    return out


def static_end(pos: Position, no_capture_limit: int = 100) -> str | None:
    """The end a position alone decides: elimination, no-capture limit, immobilized."""
    for p in "BR":
        if len(pos.dice(p)) <= 4:
            return "elimination"
    if no_capture_limit and pos.clock >= no_capture_limit:
        return "no-capture-limit"
    if not turns(pos):
        return "immobilized"
    return None


def decisions(pos: Position) -> list[Position]:
    """The positions after each single decision (an absorb step or an act), as the kernel
    counts them for perft: an absorb step is offered only if a turn can still follow."""
    owner = pos.to_move
    if pos.total(owner) >= 25:
        return list(acts(pos).values())
    return [child for _, child in absorb_steps(pos) if turns(child)]


def perft(pos: Position, depth: int, no_capture_limit: int = 100) -> int:
    """Decision sequences of length ``depth`` (a finished game ends a sequence uncounted).
    Only for short sequences: no repetition can occur within them from a parsed position."""
    if depth == 0:
        return 1
    total = 0
    for child in decisions(pos):
        finished_turn = child.ply != pos.ply
        if depth > 1 and finished_turn and static_end(child, no_capture_limit) is not None:
            continue
        total += 1 if depth == 1 else perft(child, depth - 1, no_capture_limit)
    return total
