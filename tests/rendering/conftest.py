"""Fixtures and helpers of the rendering tests: games, known positions, SVG queries."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import diceboard
from diceboard.core.game import Game

SVG = "{http://www.w3.org/2000/svg}"
#: the spec's first position of play (Custodian Dice, "Positions")
CUSTODIAN_EXAMPLE = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
#: the spec's standard start (Chase, last line)
CHASE_START = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def parse_svg(text: str) -> ET.Element:
    """The document's root; fails the test unless it is well-formed XML with an svg root."""
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    """Every element below ``root`` whose class list holds ``name``, in document order."""
    return [e for e in root.iter() if name in classes(e)]


def by_id(root: ET.Element, name: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == name]
    assert len(found) == 1, f"expected one element with id {name!r}, found {len(found)}"
    return found[0]


def legend_text(root: ET.Element) -> str:
    """The legend's words, its lines joined by spaces (lines wrap to the picture's width)."""
    legend = by_id(root, "legend")
    return " ".join(e.text or "" for e in legend.iter(SVG + "text"))


def translation(element: ET.Element) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", ""))
    assert m is not None, element.get("transform")
    return float(m.group(1)), float(m.group(2))


def own_pips(die: ET.Element) -> list[ET.Element]:
    """The pips of a die group's main image (not of its wrap copy)."""
    image = next(e for e in die if classes(e) == {"die-image"})
    return [e for e in image if "pip" in classes(e)]


def polyline_points(element: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())
    ]


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


@pytest.fixture
def custodian() -> Game:
    return diceboard.game("custodian")


@pytest.fixture
def chaos() -> Game:
    return diceboard.game("custodian", variant="chaos")


@pytest.fixture
def chase() -> Game:
    """The Chase game."""
    return diceboard.game("chase")
