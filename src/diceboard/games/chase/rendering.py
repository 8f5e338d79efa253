"""How Chase looks: its 81-hex board, Blue's and Red's dice, its board colours and margins
(the :class:`~diceboard.rendering.look.GameLook` the renderers read).

The board (spec "Board") has 9 rows of 9 pointy-topped hexes, rows ``a``–``i`` bottom to top.
Rows ``a c e g i`` (even row index) have their hexes centred at x = 0.5 … 8.5; rows
``b d f h`` (odd row index) sit half a hex west, centred at x = 0 … 8, so their column 1
(``b1 d1 f1 h1``) is the hex split across both side edges: its east half lies at the west
edge (centre x = 0) and its west half at the east edge (centre x = 9, one board width on).
The board wraps east–west, with circumference 9. ``e5`` is the fission chamber.

Blue and Red are the Okabe–Ito blue and vermilion, a pair that stays apart under every
common colour-vision deficiency; Red's dice are also rounder, with an inner outline.
This module is at the rendering layer: it imports the generic rendering parts and the core.
"""

from __future__ import annotations

from types import MappingProxyType

from diceboard.rendering.layout import (
    HEX_RADIUS,
    HEX_ROW_PITCH,
    BoardGeometry,
    Cell,
    hexagon,
    screen_order,
    split_halves,
)
from diceboard.rendering.look import DieStyle, GameLook

ROWS = "abcdefghi"
COLUMNS = 9
CHAMBER = "e5"


def board_geometry(flipped: bool) -> BoardGeometry:
    """The hex board in cell units (one hex's width), turned 180° when ``flipped``."""
    width = float(COLUMNS)
    height = 2 * HEX_RADIUS + (len(ROWS) - 1) * HEX_ROW_PITCH
    cells: dict[str, Cell] = {}
    for row_index, row in enumerate(ROWS):
        odd = row_index % 2 == 1
        y = HEX_RADIUS + (len(ROWS) - 1 - row_index) * HEX_ROW_PITCH
        if flipped:
            y = height - y
        for column in range(1, COLUMNS + 1):
            name = f"{row}{column}"
            if odd and column == 1:
                # the split hex: its two halves are the same cell, at both side edges
                cells[name] = Cell(name, (0.0, y), split_halves(y, width), split=True)
                continue
            x = column - 1.0 if odd else column - 0.5
            if flipped:
                x = width - x
            cells[name] = Cell(name, (x, y), (hexagon(x, y),), chamber=name == CHAMBER)
    # columns are labelled along rows a and i, whose hexes sit under whole column numbers
    columns = screen_order((str(c), cells[f"a{c}"].centre[0]) for c in range(1, COLUMNS + 1))
    rows = screen_order((row, cells[row + "2"].centre[1]) for row in ROWS)
    return BoardGeometry(
        "chase",
        "hex",
        MappingProxyType(cells),
        width,
        height,
        width,
        0.68,
        columns,
        rows,
        flipped,
    )


LOOK = GameLook(
    geometry=board_geometry,
    die_styles={
        "B": DieStyle("Blue", "#0072b2", "#00324f", "#ffffff", 0.1, False, (231, 25), (97, 44)),
        "R": DieStyle("Red", "#d55e00", "#6b2f00", "#ffffff", 0.3, True, (231, 166), (97, 41)),
    },
    board_fill="#ebe5d5",
    board_stroke="#8a7f66",
    # (left, top, right, bottom) with coordinates drawn, and without; the dice on split hexes
    # overhang the side edges by half a die
    margins={True: (0.95, 0.55, 0.95, 0.55), False: (0.45, 0.2, 0.45, 0.2)},
    # a side's faces total 25; less means it has an absorption to make
    shows_pip_total=True,
    # a captured die becomes its owner's spare, and a chamber split needs one
    dice_per_side=10,
)
