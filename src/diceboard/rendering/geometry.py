"""Board geometry shared by every renderer: where each square or hex lies on screen.

Coordinates are in *cell units* (a square's side, a hex's width) with the origin at the
board's top-left corner and y pointing down, as in SVG. The board itself covers
``0 ≤ x ≤ width`` and ``0 ≤ y ≤ height``; renderers add their margins and scale.

Each game lays out its own board (``board_geometry`` in its rendering component,
``diceboard/games/<game>/rendering.py``) from the parts here: :class:`Cell`,
:class:`BoardGeometry`, and for hex boards :func:`hexagon` and :func:`split_halves`. A board
that wraps east–west (a cylinder, circumference :attr:`BoardGeometry.wrap`) may have *split*
cells, drawn at both side edges: a split cell's :attr:`Cell.centre` is always its image at the
screen's left edge and ``centre + wrap`` (in x) the one at the right edge, flipped or not.

``flipped=True`` turns the board 180° (the view from the second player's side).

>>> g = board_geometry("custodian")
>>> g.kind, g.width, g.cells["a1"].centre
('square', 5.0, (0.5, 4.5))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from functools import cache

from diceboard.core.errors import NotationError
from diceboard.core.game import Game
from diceboard.rendering.layout import (
    HEX_RADIUS,
    HEX_ROW_PITCH,
    BoardGeometry,
    Cell,
    Point,
    hexagon,
    screen_order,
    split_halves,
)
from diceboard.rendering.look import look

__all__ = [
    "HEX_RADIUS",
    "HEX_ROW_PITCH",
    "BoardGeometry",
    "Cell",
    "Point",
    "board_geometry",
    "check_squares",
    "hexagon",
    "nearest_image",
    "screen_order",
    "split_at_edges",
    "split_halves",
]


def board_geometry(game: Game | str, flipped: bool = False) -> BoardGeometry:
    """The board of ``game`` (a :class:`~diceboard.core.game.Game` or its name) in cell units.

    The game's rendering component lays it out; :class:`~diceboard.core.errors.OptionError`
    for a game without one.
    """
    name = game if isinstance(game, str) else game.name
    return _geometry(name, bool(flipped))


def check_squares(names: Iterable[str] | str, geometry: BoardGeometry, what: str) -> list[str]:
    """``names`` (an iterable of square names, or one name) as a list, each checked to be on
    the board; :class:`~diceboard.core.errors.NotationError` names the first that is not."""
    if isinstance(names, str):
        names = [names]
    try:
        items = list(names)
    except TypeError:
        raise NotationError(
            f"{what} must be square names like 'a1', not {type(names).__name__}"
        ) from None
    for name in items:
        if not isinstance(name, str) or name not in geometry.cells:
            names_in_order = list(geometry.cells)
            first, last = names_in_order[0], names_in_order[-1]
            raise NotationError(
                f"{what}: {name!r} is not a square of the {geometry.game} board "
                f"(squares are {first} to {last})"
            )
    return items


@cache
def _geometry(name: str, flipped: bool) -> BoardGeometry:
    return look(name).geometry(flipped)


def nearest_image(x_from: float, x_to: float, wrap: float | None) -> float:
    """The x of ``x_to``'s image (``x_to`` plus a multiple of ``wrap``) nearest ``x_from``.

    On a board that wraps, the short way round is the way a die goes between neighbours. A
    tie (exactly half the circumference) keeps ``x_to`` itself.
    """
    if wrap is None:
        return x_to
    k = round((x_from - x_to) / wrap)
    best = x_to
    for shift in (k - 1, k, k + 1):
        candidate = x_to + shift * wrap
        if abs(candidate - x_from) < abs(best - x_from) - 1e-9:
            best = candidate
    return best


def split_at_edges(points: list[Point], wrap: float | None) -> list[list[Point]]:
    """Cut an unwrapped polyline where it crosses a side edge and fold each piece back onto
    the board, so that a path across the seam leaves one edge and re-enters at the other.

    ``points`` must be continuous (consecutive points no more than half the circumference
    apart, as :func:`nearest_image` makes them). Without a wrap the polyline comes back whole.
    """
    if wrap is None or len(points) < 2:
        return [list(points)]
    pieces: list[list[Point]] = []
    current: list[Point] = []
    current_tile: int | None = None
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        cuts = [0.0, 1.0]
        lo, hi = sorted((x0, x1))
        for m in range(math.floor(lo / wrap) + 1, math.ceil(hi / wrap)):
            edge = m * wrap
            if lo < edge < hi:
                cuts.append((edge - x0) / (x1 - x0))
        cuts.sort()
        for t0, t1 in itertools.pairwise(cuts):
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            tile = math.floor(((a[0] + b[0]) / 2) / wrap)
            shift = tile * wrap
            a = (a[0] - shift, a[1])
            b = (b[0] - shift, b[1])
            if tile != current_tile:
                if current:
                    pieces.append(current)
                current = [a]
                current_tile = tile
            current.append(b)
    if current:
        pieces.append(current)
    return pieces
