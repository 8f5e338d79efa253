"""Where the board lies in a picture: the margins for coordinates (each game's, from its
:class:`~diceboard.rendering.look.GameLook`) and the scale."""

from __future__ import annotations

import math
from dataclasses import dataclass

from diceboard.core.errors import OptionError
from diceboard.core.game import Game
from diceboard.rendering.geometry import BoardGeometry, Point, board_geometry
from diceboard.rendering.look import look

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
    left, top, right, bottom = look(geometry.game).margins[bool(coordinates)]
    scale = size / (left + geometry.width + right)
    height = (top + geometry.height + bottom) * scale
    return Frame(geometry, scale, left * scale, top * scale, float(size), height)
