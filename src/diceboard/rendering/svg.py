"""SVG pictures of positions: standalone documents for files and notebooks, and the board
that the web client makes interactive.

>>> import diceboard
>>> from diceboard.rendering import svg
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> picture = svg.render(state, highlight=["b2", "b3"])
>>> picture.startswith("<svg"), picture.count('class="die"'), picture.count('class="pip"')
(True, 10, 37)

What the web client may rely on (all coordinates absolute, in the root's user space):

- every square or hex is an element of class ``square`` or ``hex`` (plus ``chamber`` for
  Chase's ``e5``) carrying ``data-square``. A split hex (Chase ``b1 d1 f1 h1``) is drawn as
  two halves, each of class ``hex split`` with ``data-half="left"`` or ``"right"``, so the 81
  hexes of Chase are 85 elements;
- every die is a ``<g class="die" data-square data-owner data-face transform="translate(x
  y)">`` drawn around its own origin (``data-face`` is ``?`` for a pending roll). A die on a
  split hex stands at the left edge's image and also holds ``<g class="wrap"
  transform="translate(W 0)">`` with a second image (class ``die-image wrap-copy``), ``W``
  being the board's width in pixels; a client that animates such a die drops that copy;
- the layers are ``<g>`` groups with ids, bottom to top: ``squares``, ``board-marks``,
  ``coordinates``, ``highlights``, ``dice``, ``arrows``, then ``hands`` (Custodian setup:
  ``g.hand-die`` with ``data-owner`` and ``data-face``) and ``legend``; all but the squares,
  dice and hands ignore the pointer;
- the root carries ``data-to-move`` (the letter of the player who decides next);
- :func:`square_centres` gives every square's centre; :func:`split_hex_centres` both images
  of each split hex.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from diceboard.core.errors import NotationError
from diceboard.core.game import Game, State
from diceboard.rendering import palette
from diceboard.rendering.geometry import check_squares
from diceboard.rendering.summary import last_move_segments, summarize
from diceboard.rendering.svgkit.arrows import draw_arrow
from diceboard.rendering.svgkit.board import (
    draw_cells,
    draw_coordinates,
    draw_highlights,
    draw_marks,
)
from diceboard.rendering.svgkit.dice import draw_dice, draw_hands, hands_width
from diceboard.rendering.svgkit.elements import element, number, rounded
from diceboard.rendering.svgkit.frame import make_frame
from diceboard.rendering.svgkit.legend import (
    draw_legend,
    legend_height,
    legend_rows,
)

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

Polyline = Sequence[str]


def square_centres(
    game: Game | str, *, size: float = 480, flipped: bool = False, coordinates: bool = True
) -> dict[str, tuple[float, float]]:
    """The centre of every square (hex) of ``game`` in the SVG coordinates of
    :func:`render` with the same ``size``, ``flipped`` and ``coordinates``, in board order.

    A split hex (Chase ``b1 d1 f1 h1``) has two images, at the left and right edges; this
    gives the left one, where its die's group stands. :func:`split_hex_centres` gives both.

    >>> centres = square_centres("custodian", size=480)
    >>> centres["a1"], centres["e5"]
    ((87.65, 392.35), (421.57, 58.43))
    """
    frame = make_frame(game, size, flipped, coordinates)
    cells = frame.geometry.cells
    return {name: rounded(frame.point(cell.centre)) for name, cell in cells.items()}


def split_hex_centres(
    game: Game | str, *, size: float = 480, flipped: bool = False, coordinates: bool = True
) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """Both images of each split hex, ``(left edge, right edge)``, in SVG coordinates; the
    right one is the left one moved right by the board's width. Empty where a board has none.

    >>> split_hex_centres("chase")["b1"]
    ((41.83, 316.6), (438.17, 316.6))
    """
    frame = make_frame(game, size, flipped, coordinates)
    wrap = frame.geometry.wrap
    split: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    for name, cell in frame.geometry.cells.items():
        if cell.split:
            left, right = cell.images(wrap)
            split[name] = (rounded(frame.point(left)), rounded(frame.point(right)))
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
    """A complete standalone SVG document of ``state`` (the same state gives the same bytes).

    ``size`` is the width in pixels of the board with its coordinates (the setup hands are
    added beside it, the legend below); ``highlight`` names squares to mark; ``last_move``
    draws the move that led here as arrows (Chase: along its real path, across the wrap and
    through ricochets, then each die it pushed); ``arrows`` adds polylines of square names
    (one square alone is drawn as a ring); ``flipped`` shows the board from the second
    player's side; ``coordinates`` labels the rows and columns (Chase: every hex too).
    ``interactive=True`` leaves out the title and legend and the fixed width and height, so
    that the picture scales to its container through its ``viewBox``.

    Raises :class:`~diceboard.core.errors.NotationError` for a square that the board lacks
    and :class:`~diceboard.core.errors.OptionError` for a bad ``size``.
    """
    if not isinstance(state, State):
        raise TypeError(f"render() draws a diceboard State, not {type(state).__name__}")
    frame = make_frame(state.game, size, flipped, coordinates)
    geometry = frame.geometry
    marked = check_squares(highlight, geometry, "highlight")
    extra = [check_squares(line, geometry, "arrows") for line in _polylines(arrows)]
    summary = summarize(state)

    width = frame.width + hands_width(frame, summary)
    legend = [] if interactive else legend_rows(summary, width / frame.font)
    height = frame.height + legend_height(frame, legend)

    root = ET.Element("svg")
    root.set("xmlns", SVG_NS)
    if not interactive:
        root.set("width", number(width))
        root.set("height", number(height))
    root.set("viewBox", f"0 0 {number(width)} {number(height)}")
    root.set("class", f"diceboard {state.game.name}" + (" flipped" if flipped else ""))
    root.set("font-family", FONT_FAMILY)
    root.set("data-to-move", state.to_move)
    if not interactive:
        ET.SubElement(root, "title").text = f"{summary.title}: {state}"
    element(root, "rect", class_="background", width=width, height=height, fill=palette.BACKGROUND)
    draw_cells(root, frame)
    draw_marks(root, frame)
    if coordinates:
        draw_coordinates(root, frame)
    draw_highlights(root, frame, marked)
    draw_dice(root, frame, state.game.name, state.board())
    layer = element(root, "g", id="arrows", pointer_events="none")
    if last_move:
        for i, line in enumerate(last_move_segments(state)):
            # the moving die's path first, then one line per die it pushed
            kind = "last-move" if i == 0 else "last-move chain"
            draw_arrow(layer, frame, line, kind, palette.LAST_MOVE_STROKE)
    for line in extra:
        draw_arrow(layer, frame, line, "extra", palette.EXTRA_ARROW_STROKE)
    if summary.hands:
        draw_hands(root, frame, state.game.name, summary)
    if legend:
        draw_legend(root, frame, state.game.name, legend)
    return ET.tostring(root, encoding="unicode")


def _polylines(arrows: Iterable[Polyline] | None) -> list[Polyline]:
    """``arrows`` as a list of polylines, each a non-empty sequence (squares checked later)."""
    if arrows is None:
        return []
    if isinstance(arrows, str):
        raise NotationError(
            "arrows must be a list of polylines, each a list of square names like ['a1', 'a3']"
        )
    try:
        lines = list(arrows)
    except TypeError:
        raise NotationError(
            f"arrows must be a list of polylines, not {type(arrows).__name__}"
        ) from None
    for line in lines:
        if isinstance(line, str) or not isinstance(line, Sequence) or not line:
            raise NotationError(
                f"each arrow must be a non-empty list of square names like ['a1', 'a3'], "
                f"not {line!r}"
            )
    return lines
