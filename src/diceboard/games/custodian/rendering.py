"""How Custodian Dice looks: its 5×5 board, White's and Black's dice, its board colours and
margins (the :class:`~diceboard.rendering.look.GameLook` the renderers read).

The board is a 5×5 grid: files ``a``–``e`` left to right, ranks ``1``–``5`` bottom to top.
This module is at the rendering layer: it imports the generic rendering parts and the core.
"""

from __future__ import annotations

from types import MappingProxyType

from diceboard.rendering.layout import BoardGeometry, Cell, screen_order
from diceboard.rendering.look import DieStyle, GameLook

FILES = "abcde"
RANKS = 5


def board_geometry(flipped: bool) -> BoardGeometry:
    """The 5×5 board in cell units (one square's side), turned 180° when ``flipped``."""
    size = float(RANKS)
    cells: dict[str, Cell] = {}
    for f, file in enumerate(FILES):
        for r in range(RANKS):
            x, y = f + 0.5, size - r - 0.5
            if flipped:
                x, y = size - x, size - y
            box = ((x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5))
            name = f"{file}{r + 1}"
            cells[name] = Cell(name, (x, y), (box,))
    columns = screen_order((f, cells[f + "1"].centre[0]) for f in FILES)
    rows = screen_order((str(r), cells[f"a{r}"].centre[1]) for r in range(1, RANKS + 1))
    # the geometry is cached and shared: its cells are read-only
    return BoardGeometry(
        "custodian",
        "square",
        MappingProxyType(cells),
        size,
        size,
        None,
        0.78,
        columns,
        rows,
        flipped,
    )


LOOK = GameLook(
    geometry=board_geometry,
    die_styles={
        "W": DieStyle("White", "#faf7ee", "#3a3a3a", "#1c1c1c", 0.14, False, (16, 231), (30, 107)),
        "B": DieStyle("Black", "#262626", "#000000", "#f4f4f4", 0.14, True, (231, 235), (97, 40)),
    },
    board_fill="#e8d8b4",
    board_stroke="#7a6440",
    # (left, top, right, bottom) with coordinates drawn, and without
    margins={True: (0.55, 0.2, 0.2, 0.55), False: (0.2, 0.2, 0.2, 0.2)},
)
