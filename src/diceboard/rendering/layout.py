"""The parts a board layout is made of: cells, the board's geometry, and hexes.

A game's rendering component builds its :class:`BoardGeometry` from these
(:mod:`diceboard.rendering.geometry` explains the coordinates); nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Point = tuple[float, float]

#: a pointy-topped hex of width 1 has circumradius 1/√3; rows are 1.5 circumradii apart
HEX_RADIUS = 1.0 / math.sqrt(3.0)
HEX_ROW_PITCH = 1.5 * HEX_RADIUS


@dataclass(frozen=True, slots=True)
class Cell:
    """One square or hex as drawn.

    ``outlines`` holds one polygon, or two for a split hex (its half at the left edge first).
    ``split`` marks a hex drawn at both side edges: its second image is at ``centre`` plus
    the board's ``wrap`` in x.
    """

    name: str
    centre: Point
    outlines: tuple[tuple[Point, ...], ...]
    split: bool = False
    chamber: bool = False

    def images(self, wrap: float | None) -> tuple[Point, ...]:
        """Every on-screen centre of the cell: one, or two for a split hex."""
        if self.split and wrap is not None:
            return (self.centre, (self.centre[0] + wrap, self.centre[1]))
        return (self.centre,)


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Every cell of a board plus what is needed to label and wrap it.

    ``column_labels`` are ``(text, x)`` and ``row_labels`` are ``(text, y)`` in screen order;
    ``wrap`` is the circumference of a board that wraps east–west (``None`` otherwise);
    ``die_size`` is the side of a die that fits inside one cell.
    """

    game: str
    kind: str
    cells: Mapping[str, Cell]
    width: float
    height: float
    wrap: float | None
    die_size: float
    column_labels: tuple[tuple[str, float], ...]
    row_labels: tuple[tuple[str, float], ...]
    flipped: bool

    def cell(self, name: str) -> Cell:
        """The cell called ``name`` (``KeyError`` if the board has none)."""
        return self.cells[name]


def hexagon(x: float, y: float) -> tuple[Point, ...]:
    """A pointy-topped hex of width 1, clockwise from its top vertex (y down)."""
    r, h = HEX_RADIUS, HEX_RADIUS / 2
    return (
        (x, y - r),
        (x + 0.5, y - h),
        (x + 0.5, y + h),
        (x, y + r),
        (x - 0.5, y + h),
        (x - 0.5, y - h),
    )


def split_halves(y: float, width: float) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """The two halves of a split hex: the east half at the left edge, the west at the right."""
    r, h = HEX_RADIUS, HEX_RADIUS / 2
    left = ((0.0, y - r), (0.5, y - h), (0.5, y + h), (0.0, y + r))
    right = ((width, y - r), (width, y + r), (width - 0.5, y + h), (width - 0.5, y - h))
    return left, right


def screen_order(labels: Iterable[tuple[str, float]]) -> tuple[tuple[str, float], ...]:
    """Coordinate labels ``(text, position)`` sorted by their position on screen."""
    return tuple(sorted(labels, key=_second))


def _second(item: tuple[str, float]) -> float:
    return item[1]
