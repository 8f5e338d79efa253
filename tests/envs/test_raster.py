"""The numpy board pictures of the rgb_array render mode."""

from __future__ import annotations

import numpy as np
import pytest

import diceboard
from diceboard.core.game import Game
from diceboard.envs.raster import draw, rasterize
from diceboard.rendering.geometry import board_geometry


def _pixel(
    img: np.ndarray, game: Game, square: str, width: int, dx: float = 0.0, dy: float = 0.0
) -> tuple[int, ...]:
    geo = board_geometry(game)
    margin = max(4, width // 40)
    scale = (width - 2 * margin) / geo.width
    x, y = geo.cells[square].centre
    side = geo.die_size * scale
    row, col = int(margin + 10 + y * scale + dy * side), int(margin + x * scale + dx * side)
    return tuple(int(v) for v in img[row, col])


def test_custodian_picture_shows_dice_pips_and_empty_squares() -> None:
    game = diceboard.game("custodian", variant="chaos")
    state = game.parse("B5B2B6B2B6/...../..W?../...../W3W1.W4W2 W 1 11")
    img = draw(state, 300)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[1] == 300 and img.shape[2] == 3
    white_fill, white_pip = (250, 247, 238), (28, 28, 28)
    black_fill, black_pip = (38, 38, 38), (244, 244, 244)
    assert tuple(_pixel(img, game, "b1", 300)) == white_pip  # a 1: the centre pip
    assert tuple(_pixel(img, game, "b1", 300, 0.2, -0.2)) == white_fill
    assert tuple(_pixel(img, game, "a5", 300)) == black_pip  # a 5 has a centre pip
    assert tuple(_pixel(img, game, "b5", 300)) == black_fill  # a 2 has none
    assert tuple(_pixel(img, game, "c1", 300)) not in (white_fill, black_fill)  # empty
    assert tuple(_pixel(img, game, "c3", 300)) == white_fill  # the pending die: a ring, no pip
    # the bar along the top is the colour of the player to move
    assert tuple(img[3, 150]) == white_fill
    assert (
        tuple(draw(state.game.parse("B5B2B6B2B6/...../...../...../W3W1.W4W2 B 1 11"), 300)[3, 150])
        == black_fill
    )


def test_chase_picture_draws_the_chamber_and_split_hexes_twice() -> None:
    game = diceboard.game("chase")
    state = game.parse(
        "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./"
        "........./B1......../B2B3B4B5B4B3B2B1. B 0 0"
    )
    img = draw(state, 360)
    assert tuple(_pixel(img, game, "e5", 360)) == (120, 96, 150)  # the chamber
    blue = (0, 114, 178)
    assert tuple(_pixel(img, game, "b1", 360, 0.25, -0.3)) == blue  # the split hex, left image
    geo = board_geometry(game)
    margin = max(4, 360 // 40)
    scale = (360 - 2 * margin) / geo.width
    x, y = geo.cells["b1"].centre
    assert geo.wrap is not None
    right = img[
        int(margin + 10 + y * scale - 0.3 * geo.die_size * scale),
        int(margin + (x + geo.wrap - 0.25 * geo.die_size) * scale),
    ]
    assert tuple(right) == blue  # … and its right image


def test_rasterize_falls_back_to_numpy_and_checks_the_width() -> None:
    state = diceboard.game("custodian").start(seed=1)
    np.testing.assert_array_equal(rasterize(state, 200, use_svg=False), draw(state, 200))
    with pytest.raises(ValueError, match="at least 64 pixels"):
        rasterize(state, 10)
