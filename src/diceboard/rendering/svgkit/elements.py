"""Small helpers to build SVG with :mod:`xml.etree.ElementTree` (which escapes text and
attributes, so the output is always well-formed XML) and to write numbers stably."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from diceboard.rendering.geometry import Point

Attribute = str | float | int


def number(value: float) -> str:
    """A coordinate as short, stable text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def rounded(point: Point) -> tuple[float, float]:
    """``point`` rounded as :func:`number` writes it."""
    return (round(point[0], 2), round(point[1], 2))


def attribute_name(key: str) -> str:
    """Python keyword to SVG attribute: ``class_`` -> ``class``, ``data_square`` ->
    ``data-square``, ``stroke_width`` -> ``stroke-width``."""
    return key.rstrip("_").replace("_", "-")


def element(parent: ET.Element, tag: str, **attributes: Attribute) -> ET.Element:
    """A child element of ``parent``, numbers written by :func:`number`."""
    child = ET.SubElement(parent, tag)
    for key, value in attributes.items():
        child.set(attribute_name(key), value if isinstance(value, str) else number(value))
    return child


def points(vertices: Iterable[Point]) -> str:
    """The ``points`` attribute of a polygon or polyline."""
    return " ".join(f"{number(x)},{number(y)}" for x, y in vertices)


def translate(x: float, y: float) -> str:
    """A ``transform`` that moves an element's origin to (x, y)."""
    return f"translate({number(x)} {number(y)})"


def text(
    parent: ET.Element, x: float, y: float, content: str, font: float, **attributes: Attribute
) -> ET.Element:
    """Text whose middle sits on ``y`` (a ``dy`` shift works in every renderer, unlike
    ``dominant-baseline``)."""
    child = element(parent, "text", x=x, y=y, dy="0.35em", font_size=font, **attributes)
    child.text = content
    return child
