"""Building Chase positions for the tests."""

from __future__ import annotations

from typing import Any

import diceboard

ROWS = "abcdefghi"


def pos(blue: str, red: str, to: str = "B", clock: int = 0, ply: int = 0) -> str:
    """A position string from dice written ``"d6:6 a1:5"`` per side."""
    cells: dict[str, str] = {}
    for letter, dice in (("B", blue), ("R", red)):
        for item in dice.split():
            hex_name, face = item.split(":")
            assert hex_name not in cells, f"{hex_name} given twice"
            cells[hex_name] = f"{letter}{face}"
    rows = ["".join(cells.get(f"{r}{c}", ".") for c in range(1, 10)) for r in reversed(ROWS)]
    return f"{'/'.join(rows)} {to} {clock} {ply}"


def state(
    blue: str, red: str, to: str = "B", clock: int = 0, ply: int = 0, **options: Any
) -> diceboard.State:
    """The state of :func:`pos` in a Chase game with ``options``."""
    return diceboard.game("chase", **options).parse(pos(blue, red, to, clock, ply))


def dice(st: diceboard.State) -> dict[str, str]:
    """The board as ``{"d6": "B6", …}``."""
    return {name: f"{owner}{face}" for name, (owner, face) in st.board().items()}


def moves(st: diceboard.State, start: str = "") -> list[str]:
    """The legal turns (as text) that begin with ``start``."""
    return [str(m) for m in st.legal_moves() if str(m).startswith(start)]
