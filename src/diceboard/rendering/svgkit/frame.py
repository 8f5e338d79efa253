"""Where the board lies in a picture: the margins for coordinates and the scale."""

from __future__ import annotations

import math
from dataclasses import dataclass

from diceboard.core.errors import OptionError
from diceboard.core.game import Game
from diceboard.rendering.geometry import BoardGeometry, Point, board_geometry

#: margins around the board in cell units, (left, top, right, bottom), by game and by whether
#: coordinates are drawn; Chase's dice on split hexes overhang the side edges by half a die
MARGINS = {
    ("custodian", True): (0.55, 0.2, 0.2, 0.55),
    ("custodian", False): (0.2, 0.2, 0.2, 0.2),
    ("chase", True): (0.95, 0.55, 0.95, 0.55),
    ("chase", False): (0.45, 0.2, 0.45, 0.2),
}


#: the font size of the text around the board, as a share of the board block's width, so
#: that the legend and hands read the same under either board
TEXT_SHARE = 0.03


@dataclass(frozen=True, slots=True)
class Frame:
    """The board block (board plus margins) at the picture's top-left corner:
    pixel = offset + cell units × scale."""

    geometry: BoardGeometry
    scale: float
    left: float
    top: float
    width: float
    height: float

    def point(self, p: Point) -> Point:
        """A point in cell units, in pixels."""
        return (self.left + p[0] * self.scale, self.top + p[1] * self.scale)

    def units(self, length: float) -> float:
        """A length in cell units, in pixels."""
        return length * self.scale

    @property
    def font(self) -> float:
        """The font size in pixels of the text around the board (legend, hands)."""
        return self.width * TEXT_SHARE


def make_frame(game: Game | str, size: float, flipped: bool, coordinates: bool) -> Frame:
    """The frame of a board block ``size`` pixels wide (``OptionError`` for a bad size)."""
    if (
        isinstance(size, bool)
        or not isinstance(size, int | float)
        or not math.isfinite(size)
        or size <= 0
    ):
        raise OptionError(f"size must be a positive number of pixels, not {size!r}")
    geometry = board_geometry(game, flipped)
    left, top, right, bottom = MARGINS[(geometry.game, bool(coordinates))]
    scale = size / (left + geometry.width + right)
    height = (top + geometry.height + bottom) * scale
    return Frame(geometry, scale, left * scale, top * scale, float(size), height)
