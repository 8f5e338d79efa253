"""The board layers: squares or hexes, the board's marks, coordinates and highlights."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from diceboard.rendering import palette
from diceboard.rendering.svgkit.elements import element, number, points, text
from diceboard.rendering.svgkit.frame import Frame

_LABEL_FONT = 0.3  # cell units
_CELL_LABEL_FONT = 0.2
#: how far outside the board the row and column labels stand, in cell units
_ROW_LABEL_GAP = {"square": 0.275, "hex": 0.72}
_COLUMN_LABEL_GAP = 0.27


def draw_cells(root: ET.Element, frame: Frame) -> None:
    """``<g id="squares">``: one element per square or hex, two for a split hex, each with
    ``data-square`` and the class ``square`` or ``hex`` (plus ``chamber`` or ``split``)."""
    geometry = frame.geometry
    game = geometry.game
    layer = element(
        root,
        "g",
        id="squares",
        stroke=palette.board_stroke(game),
        stroke_width=frame.units(0.03),
    )
    for name, cell in geometry.cells.items():
        fill = palette.CHAMBER_FILL if cell.chamber else palette.board_fill(game)
        classes = [geometry.kind]
        if cell.chamber:
            classes.append("chamber")
        if cell.split:
            classes.append("split")
        for half, outline in zip(("left", "right"), cell.outlines, strict=False):
            extra = {"data_half": half} if cell.split else {}
            if geometry.kind == "square":
                (x0, y0), _, (x1, y1), _ = (frame.point(p) for p in outline)
                element(
                    layer,
                    "rect",
                    class_=" ".join(classes),
                    data_square=name,
                    x=x0,
                    y=y0,
                    width=x1 - x0,
                    height=y1 - y0,
                    fill=fill,
                )
            else:
                element(
                    layer,
                    "polygon",
                    class_=" ".join(classes),
                    data_square=name,
                    **extra,
                    points=points(map(frame.point, outline)),
                    fill=fill,
                )


def draw_marks(root: ET.Element, frame: Frame) -> None:
    """``<g id="board-marks">``: the board's border; for Chase the chamber's emblem and the
    side edges, dashed because they are one seam of a cylinder."""
    geometry = frame.geometry
    layer = element(root, "g", id="board-marks", pointer_events="none", fill="none")
    (x0, y0), (x1, y1) = frame.point((0, 0)), frame.point((geometry.width, geometry.height))
    if geometry.kind == "square":
        element(
            layer,
            "rect",
            class_="border",
            x=x0,
            y=y0,
            width=x1 - x0,
            height=y1 - y0,
            stroke=palette.board_stroke(geometry.game),
            stroke_width=frame.units(0.06),
        )
        return
    for name, cell in geometry.cells.items():
        if cell.chamber:
            cx, cy = frame.point(cell.centre)
            element(
                layer,
                "circle",
                class_="chamber-mark",
                data_square=name,
                cx=cx,
                cy=cy,
                r=frame.units(0.34),
                stroke=palette.CHAMBER_MARK,
                stroke_width=frame.units(0.05),
            )
    dash = f"{number(frame.units(0.12))} {number(frame.units(0.08))}"
    for x in (x0, x1):
        element(
            layer,
            "line",
            class_="seam",
            x1=x,
            y1=y0,
            x2=x,
            y2=y1,
            stroke=palette.SEAM_STROKE,
            stroke_width=frame.units(0.04),
            stroke_dasharray=dash,
        )


def draw_coordinates(root: ET.Element, frame: Frame) -> None:
    """``<g id="coordinates">``: row labels at the side(s), column labels below (and above);
    Chase also names every hex, since its offset rows make column numbers ambiguous."""
    geometry = frame.geometry
    layer = element(
        root,
        "g",
        id="coordinates",
        pointer_events="none",
        fill=palette.LABEL_FILL,
        text_anchor="middle",
    )
    font = frame.units(_LABEL_FONT)
    gap = _ROW_LABEL_GAP[geometry.kind]
    sides = [(-gap, "left")]
    places = [(geometry.height + _COLUMN_LABEL_GAP, "bottom")]
    if geometry.kind == "hex":
        sides.append((geometry.width + gap, "right"))
        places.append((-_COLUMN_LABEL_GAP, "top"))
    for label, y in geometry.row_labels:
        for x, side in sides:
            px, py = frame.point((x, y))
            text(layer, px, py, label, font, class_=f"coord row {side}")
    for label, x in geometry.column_labels:
        for y, side in places:
            px, py = frame.point((x, y))
            text(layer, px, py, label, font, class_=f"coord column {side}")
    if geometry.kind != "hex":
        return
    small = frame.units(_CELL_LABEL_FONT)
    for name, cell in geometry.cells.items():
        # a split hex names each half inside the board's edge; dice cover occupied hexes
        nudges = (0.24, -0.24) if cell.split else (0.0,)
        fill = palette.CHAMBER_MARK if cell.chamber else palette.CELL_LABEL_FILL
        for (cx, cy), nudge in zip(cell.images(geometry.wrap), nudges, strict=True):
            px, py = frame.point((cx + nudge, cy))
            text(layer, px, py, name, small, class_="coord cell", fill=fill)


def draw_highlights(root: ET.Element, frame: Frame, marked: list[str]) -> None:
    """``<g id="highlights">``: a translucent overlay on each marked square (both halves of
    a split hex), under the dice so that a marked die stays readable."""
    geometry = frame.geometry
    layer = element(root, "g", id="highlights", pointer_events="none")
    for name in dict.fromkeys(marked):
        for outline in geometry.cells[name].outlines:
            element(
                layer,
                "polygon",
                class_="highlight",
                data_square=name,
                points=points(map(frame.point, outline)),
                fill=palette.HIGHLIGHT_FILL,
                fill_opacity="0.55",
                stroke=palette.HIGHLIGHT_STROKE,
                stroke_width=frame.units(0.05),
            )
