"""The legend under a standalone picture: the game and its status or result, the counters
and the last move, and a key of both players' dice."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from diceboard.rendering import palette
from diceboard.rendering.summary import Summary
from diceboard.rendering.svgkit.dice import BLANK, die_image
from diceboard.rendering.svgkit.elements import element, text, translate
from diceboard.rendering.svgkit.frame import Frame

# sizes in ems of the legend's font (Frame.font)
_LINE_HEIGHT = 1.65
_CHAR_WIDTH = 0.56  # average advance of a sans-serif character
_KEY_DIE = 1.3
_KEY_GAP = 1.6
_INDENT = 1.0


@dataclass(frozen=True, slots=True)
class KeyEntry:
    """One player in the key: their die's look, their name and material."""

    player: str
    text: str
    bold: bool


Row = list[str] | list[KeyEntry]


def _text_width(content: str) -> float:
    """An estimate in ems (there are no font metrics without a renderer)."""
    return len(content) * _CHAR_WIDTH


def _key_width(entry: KeyEntry) -> float:
    return _KEY_DIE * 1.4 + _text_width(entry.text) + _KEY_GAP


def _pack(phrases: list[str], chars: int, separator: str) -> list[str]:
    """Lines of at most ``chars`` characters, keeping phrases whole where they fit."""
    lines: list[str] = []
    for phrase in phrases:
        if lines and len(lines[-1]) + len(separator) + len(phrase) <= chars:
            lines[-1] += separator + phrase
        else:
            lines.extend(textwrap.wrap(phrase, chars))
    return lines


def legend_rows(summary: Summary, width: float) -> list[Row]:
    """The legend's rows, wrapped to ``width`` ems."""
    chars = max(int((width - 2 * _INDENT) / _CHAR_WIDTH), 12)
    rows: list[Row] = []
    rows.extend([line] for line in textwrap.wrap(f"{summary.title}: {summary.status}", chars))
    facts = [summary.counters]
    if summary.last_move is not None:
        facts.append(f"last move {summary.last_move}")
    rows.extend([line] for line in _pack(facts, chars, " · "))
    key: list[KeyEntry] = []
    used = 0.0
    for player, name, material in zip(
        summary.players, summary.names, summary.material, strict=True
    ):
        bold = player == summary.to_move and summary.result is None
        entry = KeyEntry(player, f"{name}: {material}", bold)
        if key and used + _key_width(entry) > width - _INDENT:
            rows.append(key)
            key, used = [], 0.0
        key.append(entry)
        used += _key_width(entry)
    rows.append(key)
    return rows


def legend_height(frame: Frame, rows: list[Row]) -> float:
    """The legend's height in pixels (0 without rows)."""
    return frame.font * (_LINE_HEIGHT * len(rows) + 0.6) if rows else 0.0


def draw_legend(root: ET.Element, frame: Frame, game: str, rows: list[Row]) -> None:
    """``<g id="legend">`` under the board block."""
    layer = element(root, "g", id="legend", fill=palette.TEXT_FILL)
    font = frame.font
    side = font * _KEY_DIE
    y = frame.height + font * _LINE_HEIGHT / 2
    for row in rows:
        x = font * _INDENT
        for item in row:
            if isinstance(item, str):
                text(layer, x, y, item, font, class_="legend-line")
                continue
            key = element(
                layer,
                "g",
                class_="player-key",
                data_owner=item.player,
                transform=translate(x + side / 2, y),
            )
            die_image(key, palette.die_style(game, item.player), BLANK, side, "die-image")
            weight = {"font_weight": "bold"} if item.bold else {}
            text(layer, x + side * 1.4, y, item.text, font, class_="legend-player", **weight)
            x += font * _key_width(item)
        y += font * _LINE_HEIGHT
