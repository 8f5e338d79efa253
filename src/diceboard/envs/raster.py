"""Positions as RGB arrays, for the environments' ``rgb_array`` render mode.

The picture is the SVG board of :mod:`diceboard.rendering.svg` when a rasteriser for it is
installed (``cairosvg``); otherwise the board is drawn here with numpy from the same geometry,
pip layouts and colours: cells as filled polygons, dice as coloured squares with their pips,
a die awaiting its roll as an empty die with a ring, and a bar along the top in the colour of
the player to move (grey once the game is over).
"""

from __future__ import annotations

import io
from functools import cache

import numpy as np

from diceboard.core.game import State
from diceboard.rendering.geometry import BoardGeometry, Point, board_geometry
from diceboard.rendering.palette import die_style
from diceboard.rendering.pips import PIP_RADIUS, PIPS

_BACKGROUND = (236, 228, 210)
_CELL = (214, 196, 160)
_CELL_ALT = (196, 174, 134)
_CHAMBER = (120, 96, 150)
_LINE = (90, 74, 50)
_OVER = (150, 150, 150)
_BAR = 10


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@cache
def _cairosvg_available() -> bool:
    try:
        import cairosvg  # noqa: F401
        from PIL import Image  # noqa: F401
    except ImportError:
        return False
    return True


def rasterize(state: State, width: int = 480, *, use_svg: bool | None = None) -> np.ndarray:
    """An ``(height, width, 3)`` ``uint8`` picture of ``state``.

    ``use_svg``: ``None`` rasterises the SVG board when ``cairosvg`` is installed and draws
    with numpy otherwise; ``False`` always draws with numpy; ``True`` insists on the SVG.
    """
    if width < 64:
        raise ValueError(f"a picture needs a width of at least 64 pixels, not {width}")
    if use_svg or (use_svg is None and _cairosvg_available()):
        return _from_svg(state, width)
    return draw(state, width)


def _from_svg(state: State, width: int) -> np.ndarray:
    import cairosvg
    from PIL import Image

    from diceboard.rendering import svg

    png = cairosvg.svg2png(bytestring=svg.render(state, size=width).encode(), output_width=width)
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()


def draw(state: State, width: int = 480) -> np.ndarray:
    """The board of ``state`` drawn with numpy alone (see the module docstring)."""
    geo = board_geometry(state.game)
    margin = max(4, width // 40)
    scale = (width - 2 * margin) / geo.width
    height = round(geo.height * scale) + 2 * margin + _BAR
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = _BACKGROUND

    def to_px(p: Point) -> tuple[float, float]:
        return margin + p[0] * scale, margin + _BAR + p[1] * scale

    for k, cell in enumerate(geo.cells.values()):
        colour = _CHAMBER if cell.chamber else (_CELL if _shade(geo, k) else _CELL_ALT)
        for outline in cell.outlines:
            _polygon(img, [to_px(p) for p in outline], colour, _LINE)
    if state.is_terminal():
        img[:_BAR] = _OVER
    else:
        player = state.to_move
        img[:_BAR] = _rgb(die_style(state.game.name, player).fill)
    img[_BAR - 2 : _BAR] = _LINE
    side = geo.die_size * scale
    for name, (owner, face) in state.board().items():
        style = die_style(state.game.name, owner)
        for centre in geo.cells[name].images(geo.wrap):
            cx, cy = to_px(centre)
            _die(img, cx, cy, side, _rgb(style.fill), _rgb(style.stroke), _rgb(style.pip), face)
    return img


def _shade(geo: BoardGeometry, index: int) -> bool:
    # a chequer on the square board; hex rows alternate
    if geo.kind == "square":
        return (index // 5 + index % 5) % 2 == 0
    return (index // 9) % 2 == 0


def _polygon(
    img: np.ndarray,
    points: list[tuple[float, float]],
    fill: tuple[int, int, int],
    edge: tuple[int, int, int],
) -> None:
    """Fill a convex polygon (pixel centres inside it) and darken its border pixels."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = max(int(min(xs)), 0), min(int(max(xs)) + 1, img.shape[1])
    y0, y1 = max(int(min(ys)), 0), min(int(max(ys)) + 1, img.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    gx, gy = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
    # signed distance to each edge; the sign of the polygon's winding decides "inside"
    area = sum(
        points[i][0] * points[(i + 1) % len(points)][1]
        - points[(i + 1) % len(points)][0] * points[i][1]
        for i in range(len(points))
    )
    orient = 1.0 if area > 0 else -1.0
    dist = np.full(gx.shape, np.inf)
    for i, (ax, ay) in enumerate(points):
        bx, by = points[(i + 1) % len(points)]
        length = float(np.hypot(bx - ax, by - ay)) or 1.0
        d = orient * ((bx - ax) * (gy - ay) - (by - ay) * (gx - ax)) / length
        dist = np.minimum(dist, d)
    region = img[y0:y1, x0:x1]
    region[dist >= 0] = fill
    region[(dist >= 0) & (dist < 1.2)] = edge


def _disc(
    img: np.ndarray, cx: float, cy: float, r: float, colour: tuple[int, int, int], ring: float = 0
) -> None:
    x0, x1 = max(int(cx - r), 0), min(int(cx + r) + 2, img.shape[1])
    y0, y1 = max(int(cy - r), 0), min(int(cy + r) + 2, img.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    gx, gy = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
    d = np.hypot(gx - cx, gy - cy)
    inside = d <= r if ring <= 0 else (d <= r) & (d >= r - ring)
    img[y0:y1, x0:x1][inside] = colour


def _die(
    img: np.ndarray,
    cx: float,
    cy: float,
    side: float,
    fill: tuple[int, int, int],
    stroke: tuple[int, int, int],
    pip: tuple[int, int, int],
    face: int | None,
) -> None:
    h = side / 2
    _polygon(
        img, [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)], fill, stroke
    )
    if face is None:
        # the roll is pending: a ring where the pips will be
        _disc(img, cx, cy, side * 0.3, pip, ring=max(1.5, side * 0.06))
        return
    for px, py in PIPS[face]:
        _disc(img, cx + px * side, cy + py * side, max(1.0, PIP_RADIUS * side), pip)
