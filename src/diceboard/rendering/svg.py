"""SVG pictures of positions: standalone documents for files and notebooks, and the board
that the web client makes interactive.

>>> import diceboard
>>> from diceboard.rendering import svg
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> picture = svg.render(state, highlight=["b2", "b3"])
>>> picture.startswith("<svg") and picture.count('class="die"')
10

Structure (what the web client may rely on), all coordinates absolute in the root's user
space:

- every square or hex is an element of class ``square`` or ``hex`` (plus ``chamber`` for
  Chase's ``e5``) carrying ``data-square``. A split hex (Chase ``b1 d1 f1 h1``) is drawn as
  two halves, each of class ``hex split`` with ``data-half="left"``/``"right"``: the 81
  hexes of Chase are 85 elements;
- every die is ``<g class="die" data-square data-owner data-face transform="translate(x y)">``
  drawn around its own origin (``data-face`` is ``?`` for a pending roll). A die on a split
  hex is drawn at both side edges: its group stands at the left image and holds a second
  ``<g class="die-image wrap-copy" transform="translate(W 0)">``, ``W`` being the board's
  width in pixels; a client that animates such a die should drop the copy first;
- ``<g id="highlights">`` and ``<g id="arrows">`` are separate layers; the dice are in
  ``<g id="dice">``; during Custodian setup the hands are in ``<g id="hands">``, their dice
  of class ``hand-die`` (with ``data-owner`` and ``data-face``);
- :func:`square_centres` gives each square's centre; :func:`split_hex_centres` both images of
  a split hex.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from diceboard.core.errors import NotationError, OptionError
from diceboard.core.game import Game, State
from diceboard.rendering import palette
from diceboard.rendering.geometry import (
    BoardGeometry,
    Cell,
    Point,
    board_geometry,
    nearest_image,
    split_at_edges,
)
from diceboard.rendering.pips import PIP_RADIUS, PIPS
from diceboard.rendering.summary import Face, Summary, last_move_segments, summarize

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: margins around the board, in cell units: (left, top, right, bottom)
_MARGINS = {
    # Chase's dice on split hexes overhang the side edges by half a die
    ("custodian", True): (0.55, 0.2, 0.2, 0.55),
    ("custodian", False): (0.2, 0.2, 0.2, 0.2),
    ("chase", True): (0.95, 0.55, 0.95, 0.55),
    ("chase", False): (0.45, 0.2, 0.45, 0.2),
}
_LABEL_FONT = 0.3  # cell units
_CELL_LABEL_FONT = 0.2
_TEXT_FONT = 0.3
_LINE_HEIGHT = 0.46
_HAND_DIE = 0.56
_HAND_PITCH = 0.68
_ARROW_WIDTH = 0.1
_HEAD_LENGTH = 0.32
_HEAD_WIDTH = 0.3

Polyline = Sequence[str]
#: the face of a key die in the legend: the body alone
BLANK = 0


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where the board lies in the picture: pixel = offset + unit * scale."""

    geometry: BoardGeometry
    scale: float
    left: float
    top: float
    width: float  # the board block (board and margins), in pixels
    height: float

    def point(self, p: Point) -> Point:
        return (self.left + p[0] * self.scale, self.top + p[1] * self.scale)

    def units(self, length: float) -> float:
        return length * self.scale


def _frame(game: Game | str, size: float, flipped: bool, coordinates: bool) -> _Frame:
    if isinstance(size, bool) or not isinstance(size, int | float) or not math.isfinite(size):
        raise OptionError(f"size must be a positive number of pixels, not {size!r}")
    if size <= 0:
        raise OptionError(f"size must be a positive number of pixels, not {size!r}")
    geometry = board_geometry(game, flipped)
    left, top, right, bottom = _MARGINS[(geometry.game, bool(coordinates))]
    scale = size / (left + geometry.width + right)
    return _Frame(
        geometry,
        scale,
        left * scale,
        top * scale,
        float(size),
        (top + geometry.height + bottom) * scale,
    )


def square_centres(
    game: Game | str, *, size: float = 480, flipped: bool = False, coordinates: bool = True
) -> dict[str, tuple[float, float]]:
    """The centre of every square (hex) of ``game`` in the SVG coordinates of
    :func:`render` with the same ``size``, ``flipped`` and ``coordinates``, in board order.

    A split hex (Chase ``b1 d1 f1 h1``) has two images; this gives the one at the screen's
    left edge, where its die's group stands; :func:`split_hex_centres` gives both.

    >>> centres = square_centres("custodian", size=480)
    >>> centres["a1"], centres["e5"]
    ((63.44, 414.47), (414.47, 63.44))
    """
    frame = _frame(game, size, flipped, coordinates)
    return {
        name: _rounded(frame.point(cell.centre)) for name, cell in frame.geometry.cells.items()
    }


def split_hex_centres(
    game: Game | str, *, size: float = 480, flipped: bool = False, coordinates: bool = True
) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """Both images of each split hex, ``(left edge, right edge)``, in SVG coordinates; the
    right one is the left one moved by the board's width. Empty for boards without them.

    >>> split_hex_centres("chase")["b1"]
    ((41.16, 362.2), (438.84, 362.2))
    """
    frame = _frame(game, size, flipped, coordinates)
    wrap = frame.geometry.wrap
    split: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    for name, cell in frame.geometry.cells.items():
        if cell.split:
            left, right = cell.images(wrap)
            split[name] = (_rounded(frame.point(left)), _rounded(frame.point(right)))
    return split


def render(
    state: State,
    *,
    size: float = 480,
    highlight: Iterable[str] | str = (),
    last_move: bool = True,
    arrows: Iterable[Polyline] | None = None,
    flipped: bool = False,
    coordinates: bool = True,
    interactive: bool = False,
) -> str:
    """A complete standalone SVG document of ``state``.

    ``size`` is the width in pixels of the board with its coordinates (hands and legend are
    added beside and below it); ``highlight`` names squares to mark; ``last_move`` draws the
    move that led here as arrows (Chase: along the real path, across the wrap and through
    ricochets); ``arrows`` adds polylines of square names (a single square is drawn as a ring);
    ``flipped`` shows the board from the second player's side; ``coordinates`` labels files
    and ranks (Chase: rows, columns and every hex). ``interactive=True`` leaves out the title
    and legend and the fixed width and height, so that the picture scales to its container.

    Raises :class:`~diceboard.core.errors.NotationError` for a square name that the board
    does not have and :class:`~diceboard.core.errors.OptionError` for a bad ``size``.
    """
    if not isinstance(state, State):
        raise TypeError(f"render() draws a diceboard State, not {type(state).__name__}")
    frame = _frame(state.game, size, flipped, coordinates)
    geometry = frame.geometry
    marked = _squares(highlight, geometry, "highlight")
    extra = [_squares(line, geometry, "arrows") for line in _polylines(arrows)]
    summary = summarize(state)
    board = state.board()

    hands_width = _hands_width(frame, summary)
    legend_lines = [] if interactive else _legend_lines(state, summary)
    legend_height = _legend_height(frame, legend_lines)
    total_width = frame.width + hands_width
    total_height = frame.height + legend_height

    root = ET.Element("svg")
    root.set("xmlns", SVG_NS)
    if not interactive:
        root.set("width", _n(total_width))
        root.set("height", _n(total_height))
    root.set("viewBox", f"0 0 {_n(total_width)} {_n(total_height)}")
    root.set("class", f"diceboard {state.game.name}" + (" flipped" if flipped else ""))
    root.set("font-family", FONT_FAMILY)
    if not interactive:
        title = ET.SubElement(root, "title")
        title.text = f"{summary.title}: {state}"
    _sub(
        root,
        "rect",
        {"class": "background", "x": 0, "y": 0, "width": total_width, "height": total_height,
         "fill": palette.BACKGROUND},
    )
    _draw_cells(root, frame)
    _draw_board_marks(root, frame)
    if coordinates:
        _draw_coordinates(root, frame)
    _draw_highlights(root, frame, marked)
    _draw_dice(root, frame, state.game.name, board)
    arrow_layer = _sub(root, "g", {"id": "arrows", "pointer-events": "none"})
    if last_move:
        for i, line in enumerate(last_move_segments(state)):
            kind = "last-move" if i == 0 else "last-move chain"
            _draw_arrow(arrow_layer, frame, line, kind, palette.LAST_MOVE_STROKE)
    for line in extra:
        _draw_arrow(arrow_layer, frame, line, "extra", palette.EXTRA_ARROW_STROKE)
    if summary.hands:
        _draw_hands(root, frame, state.game.name, summary)
    if legend_lines:
        _draw_legend(root, frame, state, summary, legend_lines)
    return ET.tostring(root, encoding="unicode")


# --- input checks ---------------------------------------------------------------------------
def _squares(names: Iterable[str] | str, geometry: BoardGeometry, what: str) -> list[str]:
    """The square names of ``names`` (one name alone is allowed), checked against the board."""
    if isinstance(names, str):
        names = [names]
    result: list[str] = []
    try:
        items = list(names)
    except TypeError:
        raise NotationError(
            f"{what} must be square names (like 'a1'), not {type(names).__name__}"
        ) from None
    for name in items:
        if not isinstance(name, str) or name not in geometry.cells:
            first, last = next(iter(geometry.cells)), next(reversed(geometry.cells))
            raise NotationError(
                f"{what}: {name!r} is not a square of the {geometry.game} board "
                f"(squares are {first} to {last})"
            )
        result.append(name)
    return result


def _polylines(arrows: Iterable[Polyline] | None) -> list[Polyline]:
    if arrows is None:
        return []
    if isinstance(arrows, str):
        raise NotationError(
            "arrows must be a list of polylines, each a list of square names like ['a1', 'a3']"
        )
    lines = list(arrows)
    for line in lines:
        if isinstance(line, str) or not line:
            raise NotationError(
                f"each arrow must be a non-empty list of square names like ['a1', 'a3'], "
                f"not {line!r}"
            )
    return lines


# --- drawing helpers ------------------------------------------------------------------------
def _n(value: float) -> str:
    """A coordinate as short, stable text: two decimals at most."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _rounded(p: Point) -> tuple[float, float]:
    return (round(p[0], 2), round(p[1], 2))


def _sub(parent: ET.Element, tag: str, attrs: dict[str, str | float | int]) -> ET.Element:
    element = ET.SubElement(parent, tag)
    for key, value in attrs.items():
        element.set(key, value if isinstance(value, str) else _n(value))
    return element


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _text(
    parent: ET.Element, x: float, y: float, text: str, font: float, attrs: dict[str, str]
) -> ET.Element:
    """Text centred vertically on ``y`` (``dy`` works in every renderer; baselines do not)."""
    element = _sub(parent, "text", {"x": x, "y": y, "dy": "0.35em", "font-size": font, **attrs})
    element.text = text
    return element


# --- board ----------------------------------------------------------------------------------
def _draw_cells(root: ET.Element, frame: _Frame) -> None:
    geometry = frame.geometry
    game = geometry.game
    layer = _sub(root, "g", {"id": "squares", "stroke": palette.BOARD_STROKE,
                             "stroke-width": frame.units(0.03)})
    for name, cell in geometry.cells.items():
        fill = palette.CHAMBER_FILL if cell.chamber else palette.BOARD_FILL[game]
        classes = geometry.kind + (" chamber" if cell.chamber else "") + (" split" if cell.split else "")
        for half, outline in zip(("left", "right"), cell.outlines, strict=False):
            attrs: dict[str, str | float | int] = {"class": classes, "data-square": name}
            if cell.split:
                attrs["data-half"] = half
            if geometry.kind == "square":
                (x0, y0), _, (x1, y1), _ = (frame.point(p) for p in outline)
                attrs.update({"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0})
                _sub(layer, "rect", {**attrs, "fill": fill})
            else:
                _sub(layer, "polygon", {**attrs, "points": _points(map(frame.point, outline)),
                                        "fill": fill})


def _draw_board_marks(root: ET.Element, frame: _Frame) -> None:
    """The board's outline; Chase's chamber emblem and its wrapping side edges."""
    geometry = frame.geometry
    layer = _sub(root, "g", {"id": "board-marks", "pointer-events": "none", "fill": "none"})
    (x0, y0), (x1, y1) = frame.point((0, 0)), frame.point((geometry.width, geometry.height))
    if geometry.kind == "square":
        _sub(layer, "rect", {"class": "border", "x": x0, "y": y0, "width": x1 - x0,
                             "height": y1 - y0, "stroke": palette.BOARD_STROKE,
                             "stroke-width": frame.units(0.06)})
        return
    for cell in geometry.cells.values():
        if cell.chamber:
            cx, cy = frame.point(cell.centre)
            _sub(layer, "circle", {"class": "chamber-mark", "cx": cx, "cy": cy,
                                   "r": frame.units(0.34), "stroke": palette.CHAMBER_MARK,
                                   "stroke-width": frame.units(0.05)})
    # the side edges are one seam of the cylinder: dashed, to say the board goes on
    for x in (x0, x1):
        _sub(layer, "line", {"class": "seam", "x1": x, "y1": y0, "x2": x, "y2": y1,
                             "stroke": palette.SEAM_STROKE, "stroke-width": frame.units(0.04),
                             "stroke-dasharray": f"{_n(frame.units(0.12))} {_n(frame.units(0.08))}"})


def _draw_coordinates(root: ET.Element, frame: _Frame) -> None:
    geometry = frame.geometry
    layer = _sub(root, "g", {"id": "coordinates", "pointer-events": "none",
                             "fill": palette.LABEL_FILL, "text-anchor": "middle"})
    font = frame.units(_LABEL_FONT)
    left_x = -frame.left / frame.scale / 2 if geometry.kind == "square" else -0.72
    right_x = geometry.width + 0.72
    sides = [(left_x, "left")] + ([(right_x, "right")] if geometry.kind == "hex" else [])
    for text, y in geometry.row_labels:
        for x, side in sides:
            px, py = frame.point((x, y))
            _text(layer, px, py, text, font, {"class": f"coord row {side}"})
    bottom_y = geometry.height + 0.27
    places = [(bottom_y, "bottom")] + ([(-0.27, "top")] if geometry.kind == "hex" else [])
    for text, x in geometry.column_labels:
        for y, side in places:
            px, py = frame.point((x, y))
            _text(layer, px, py, text, font, {"class": f"coord column {side}"})
    if geometry.kind == "hex":
        # offset rows make column numbers ambiguous off rows a and i: name every hex
        small = frame.units(_CELL_LABEL_FONT)
        for name, cell in geometry.cells.items():
            # a split hex's halves show the name inside the board edge; dice cover the rest
            nudges = (0.24, -0.24) if cell.split else (0.0,)
            for (cx, cy), nudge in zip(cell.images(geometry.wrap), nudges, strict=True):
                x, y = frame.point((cx + nudge, cy))
                fill = palette.CHAMBER_MARK if cell.chamber else palette.CELL_LABEL_FILL
                _text(layer, x, y, name, small, {"class": "coord cell", "fill": fill})


def _draw_highlights(root: ET.Element, frame: _Frame, marked: list[str]) -> None:
    geometry = frame.geometry
    layer = _sub(root, "g", {"id": "highlights", "pointer-events": "none"})
    for name in dict.fromkeys(marked):
        cell = geometry.cells[name]
        for outline in cell.outlines:
            attrs: dict[str, str | float | int] = {
                "class": "highlight", "data-square": name, "fill": palette.HIGHLIGHT_FILL,
                "fill-opacity": "0.55", "stroke": palette.HIGHLIGHT_STROKE,
                "stroke-width": frame.units(0.05),
            }
            _sub(layer, "polygon", {**attrs, "points": _points(map(frame.point, outline))})


# --- dice -----------------------------------------------------------------------------------
def _die_image(
    parent: ET.Element, style: palette.DieStyle, face: Face, side: float, classes: str
) -> ET.Element:
    """A die of side ``side`` pixels around the origin of ``parent``."""
    image = _sub(parent, "g", {"class": classes})
    half = side / 2
    _sub(image, "rect", {"class": "die-body", "x": -half, "y": -half, "width": side,
                         "height": side, "rx": side * style.corner, "fill": style.fill,
                         "stroke": style.stroke, "stroke-width": side * 0.06})
    if style.inner_ring:
        inset = side * 0.1
        _sub(image, "rect", {"class": "die-ring", "x": -half + inset, "y": -half + inset,
                             "width": side - 2 * inset, "height": side - 2 * inset,
                             "rx": side * max(style.corner - 0.08, 0.04), "fill": "none",
                             "stroke": style.pip, "stroke-width": side * 0.03,
                             "stroke-opacity": "0.7"})
    if face == BLANK:
        pass
    elif face is None:
        _text(image, 0, 0, "?", side * 0.62, {"class": "pending", "fill": style.pip,
                                               "text-anchor": "middle", "font-weight": "bold"})
    else:
        for x, y in PIPS[face]:
            _sub(image, "circle", {"class": "pip", "cx": x * side, "cy": y * side,
                                   "r": PIP_RADIUS * side, "fill": style.pip})
    return image


def _draw_dice(
    root: ET.Element, frame: _Frame, game: str, board: dict[str, tuple[str, Face]]
) -> None:
    geometry = frame.geometry
    layer = _sub(root, "g", {"id": "dice"})
    side = frame.units(geometry.die_size)
    for name, (owner, face) in board.items():
        cell = geometry.cells[name]
        x, y = frame.point(cell.centre)
        group = _sub(layer, "g", {
            "class": "die", "data-square": name, "data-owner": owner,
            "data-face": "?" if face is None else str(face),
            "transform": f"translate({_n(x)} {_n(y)})",
        })
        style = palette.die_style(game, owner)
        _die_image(group, style, face, side, "die-image")
        if cell.split and geometry.wrap is not None:
            copy = _sub(group, "g", {"class": "wrap", "transform":
                                     f"translate({_n(frame.units(geometry.wrap))} 0)"})
            _die_image(copy, style, face, side, "die-image wrap-copy")


# --- arrows ---------------------------------------------------------------------------------
def _unwrapped(frame: _Frame, line: Sequence[str]) -> list[Point]:
    """The centres along ``line``, each image taken nearest the previous point, so that the
    path is continuous across the seam (in cell units)."""
    geometry = frame.geometry
    points: list[Point] = []
    for name in line:
        x, y = geometry.cells[name].centre
        if points:
            x = nearest_image(points[-1][0], x, geometry.wrap)
        points.append((x, y))
    return points


def _draw_arrow(
    layer: ET.Element, frame: _Frame, line: Sequence[str], kind: str, colour: str
) -> None:
    geometry = frame.geometry
    group = _sub(layer, "g", {"class": f"arrow {kind}", "data-squares": " ".join(line),
                              "stroke": colour, "fill": colour, "opacity": "0.72"})
    points = _unwrapped(frame, line)
    width = frame.units(_ARROW_WIDTH * (0.7 if "chain" in kind else 1.0))
    if all(p == points[0] for p in points):
        # a single square (a placement) or a walk back to its start: a ring on the square
        for centre in geometry.cells[line[0]].images(geometry.wrap):
            cx, cy = frame.point(centre)
            _sub(group, "circle", {"class": "arrow-ring", "cx": cx, "cy": cy,
                                   "r": frame.units(0.36), "fill": "none",
                                   "stroke-width": width})
        return
    # stop short of the last centre by the head's length, then draw the head there
    (ax, ay), (bx, by) = points[-2], points[-1]
    seg = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / seg, (by - ay) / seg
    tip = (bx - ux * 0.08, by - uy * 0.08)
    base = (tip[0] - ux * _HEAD_LENGTH, tip[1] - uy * _HEAD_LENGTH)
    shaft = [*points[:-1], base] if seg > _HEAD_LENGTH + 0.1 else [*points[:-1], points[-1]]
    pieces = split_at_edges(shaft, geometry.wrap)
    start = pieces[0][0]
    _sub(group, "circle", {"class": "arrow-tail", "cx": frame.point(start)[0],
                           "cy": frame.point(start)[1], "r": width * 0.9, "stroke": "none"})
    dash = {"stroke-dasharray": f"{_n(width * 2)} {_n(width * 1.2)}"} if "chain" in kind else {}
    for piece in pieces:
        _sub(group, "polyline", {"class": "arrow-line", "points": _points(map(frame.point, piece)),
                                 "fill": "none", "stroke-width": width, "stroke-linecap": "round",
                                 "stroke-linejoin": "round", **dash})
    # the head sits in the same tile as the end of the last piece
    shift = pieces[-1][-1][0] - shaft[-1][0]
    half = _HEAD_WIDTH / 2
    head = [
        (tip[0] + shift, tip[1]),
        (base[0] + shift - uy * half, base[1] + ux * half),
        (base[0] + shift + uy * half, base[1] - ux * half),
    ]
    _sub(group, "polygon", {"class": "arrow-head", "points": _points(map(frame.point, head)),
                            "stroke": "none"})


# --- hands and legend -----------------------------------------------------------------------
def _hands_width(frame: _Frame, summary: Summary) -> float:
    if not summary.hands:
        return 0.0
    most = max(len(hand) for hand in summary.hands.values())
    return frame.units(0.3 + max(most, 3) * _HAND_PITCH + 0.3)


def _draw_hands(root: ET.Element, frame: _Frame, game: str, summary: Summary) -> None:
    """Dice not yet placed, beside the board: the top player's hand at the top."""
    geometry = frame.geometry
    layer = _sub(root, "g", {"id": "hands"})
    first, second = summary.players
    top_player, bottom_player = (first, second) if geometry.flipped else (second, first)
    x0 = frame.width + frame.units(0.3)
    side = frame.units(_HAND_DIE)
    font = frame.units(_TEXT_FONT * 0.9)
    label_offsets = {top_player: 0.35, bottom_player: geometry.height - 1.25}
    for player, offset in label_offsets.items():
        hand = summary.hands.get(player)
        if not hand:
            continue
        group = _sub(layer, "g", {"class": "hand", "data-owner": player})
        _, label_y = frame.point((0, offset))
        label = f"{summary.name_of(player)}'s hand"
        _sub(group, "text", {"x": x0, "y": label_y, "dy": "0.35em", "font-size": font,
                             "fill": palette.TEXT_FILL}).text = label
        style = palette.die_style(game, player)
        for i, face in enumerate(hand):
            x = x0 + frame.units(_HAND_PITCH * i + _HAND_DIE / 2)
            y = label_y + frame.units(0.7)
            die = _sub(group, "g", {"class": "hand-die", "data-owner": player,
                                    "data-face": "?" if face is None else str(face),
                                    "transform": f"translate({_n(x)} {_n(y)})"})
            _die_image(die, style, face, side, "die-image")


def _legend_lines(state: State, summary: Summary) -> list[str]:
    first = summary.status
    if summary.result is None:
        first = f"{summary.title}: {summary.status}  ({summary.counters})"
    else:
        first = f"{summary.title}: {summary.result}"
    lines = [first]
    if summary.last_move is not None:
        lines.append(f"last move {summary.last_move}")
    lines.append("")  # the player key
    return lines


def _legend_height(frame: _Frame, lines: list[str]) -> float:
    return frame.units(_LINE_HEIGHT * len(lines) + 0.25) if lines else 0.0


def _draw_legend(
    root: ET.Element, frame: _Frame, state: State, summary: Summary, lines: list[str]
) -> None:
    layer = _sub(root, "g", {"id": "legend", "fill": palette.TEXT_FILL})
    font = frame.units(_TEXT_FONT)
    x = frame.units(0.25)
    y = frame.height + frame.units(_LINE_HEIGHT / 2)
    for text in lines[:-1]:
        _text(layer, x, y, text, font, {"class": "legend-line"})
        y += frame.units(_LINE_HEIGHT)
    # the player key: each side's die look, name and material on the board
    board = state.board()
    side = frame.units(0.34)
    for player, name in zip(summary.players, summary.names, strict=True):
        faces = [face for owner, face in board.values() if owner == player]
        dice = f"{len(faces)} {'die' if len(faces) == 1 else 'dice'}"
        if state.game.name == "chase":
            dice += f", total {sum(f for f in faces if f is not None)}"
        key = _sub(layer, "g", {"class": "player-key", "data-owner": player,
                                "transform": f"translate({_n(x + side / 2)} {_n(y)})"})
        _die_image(key, palette.die_style(state.game.name, player), BLANK, side, "die-image")
        attrs = {"class": "legend-player"}
        if player == summary.to_move and summary.result is None:
            attrs["font-weight"] = "bold"
        _text(layer, x + side * 1.4, y, f"{name} ({dice})", font, attrs)
        x += frame.units(3.1)
