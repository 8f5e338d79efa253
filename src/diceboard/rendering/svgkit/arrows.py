"""Arrows along polylines of square names: the last move and any the caller adds.

On Chase's cylinder each next square is taken at its image nearest the previous one, so the
path is continuous; it is then cut where it crosses a side edge and each piece is folded
back onto the board, so an arrow across the seam leaves one edge and re-enters at the other.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from diceboard.rendering.geometry import Point, nearest_image, split_at_edges
from diceboard.rendering.svgkit.elements import element, number, points
from diceboard.rendering.svgkit.frame import Frame

_WIDTH = 0.1  # cell units
_HEAD_LENGTH = 0.32
_HEAD_WIDTH = 0.3
_TIP_GAP = 0.08  # the tip stops this short of the last square's centre
_RING_RADIUS = 0.36


def _unwrapped(frame: Frame, line: Sequence[str]) -> list[Point]:
    """The centres along ``line`` in cell units, each image nearest the one before."""
    geometry = frame.geometry
    path: list[Point] = []
    for name in line:
        x, y = geometry.cells[name].centre
        if path:
            x = nearest_image(path[-1][0], x, geometry.wrap)
        path.append((x, y))
    return path


def draw_arrow(
    layer: ET.Element, frame: Frame, line: Sequence[str], kind: str, colour: str
) -> ET.Element:
    """One ``g.arrow`` (classes ``arrow`` and ``kind``, ``data-squares`` the square names):
    a tail dot, one polyline per piece between side edges, and a head; a line that never
    leaves its square (a placement, a walk back to the start) is a ring on that square."""
    geometry = frame.geometry
    group = element(
        layer,
        "g",
        class_=f"arrow {kind}",
        data_squares=" ".join(line),
        stroke=colour,
        fill=colour,
        opacity="0.72",
    )
    chain = "chain" in kind.split()
    width = frame.units(_WIDTH * (0.7 if chain else 1.0))
    path = _unwrapped(frame, line)
    if all(p == path[0] for p in path):
        for centre in geometry.cells[line[0]].images(geometry.wrap):
            cx, cy = frame.point(centre)
            element(
                group,
                "circle",
                class_="arrow-ring",
                cx=cx,
                cy=cy,
                r=frame.units(_RING_RADIUS),
                fill="none",
                stroke_width=width,
            )
        return group
    # a square named twice in a row adds nothing to the drawing
    path = [p for i, p in enumerate(path) if i == 0 or p != path[i - 1]]
    before, end = path[-2], path[-1]
    length = math.hypot(end[0] - before[0], end[1] - before[1])
    ux, uy = (end[0] - before[0]) / length, (end[1] - before[1]) / length
    tip = (end[0] - ux * _TIP_GAP, end[1] - uy * _TIP_GAP)
    base = (tip[0] - ux * _HEAD_LENGTH, tip[1] - uy * _HEAD_LENGTH)
    shaft = [*path[:-1], base] if length > _HEAD_LENGTH + _TIP_GAP else path
    pieces = split_at_edges(shaft, geometry.wrap)
    tail_x, tail_y = frame.point(pieces[0][0])
    element(
        group, "circle", class_="arrow-tail", cx=tail_x, cy=tail_y, r=width * 0.9, stroke="none"
    )
    dash = {"stroke_dasharray": f"{number(width * 2)} {number(width * 1.2)}"} if chain else {}
    for piece in pieces:
        element(
            group,
            "polyline",
            class_="arrow-line",
            points=points(map(frame.point, piece)),
            fill="none",
            stroke_width=width,
            stroke_linecap="round",
            stroke_linejoin="round",
            **dash,
        )
    # the head goes where the last piece ends, folded back onto the board like it
    shift = pieces[-1][-1][0] - shaft[-1][0]
    half = _HEAD_WIDTH / 2
    head = [
        (tip[0] + shift, tip[1]),
        (base[0] + shift - uy * half, base[1] + ux * half),
        (base[0] + shift + uy * half, base[1] - ux * half),
    ]
    element(
        group, "polygon", class_="arrow-head", points=points(map(frame.point, head)), stroke="none"
    )
    return group
