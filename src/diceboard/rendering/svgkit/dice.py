"""Dice: drawn as dice (rounded squares with pips, ``?`` for a pending roll) in the owner's
style, on the board and in the setup hands."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from diceboard.rendering import palette
from diceboard.rendering.pips import PIP_RADIUS, PIPS
from diceboard.rendering.summary import Face, Summary
from diceboard.rendering.svgkit.elements import element, text, translate
from diceboard.rendering.svgkit.frame import Frame

#: the face of a die drawn as a body alone (the legend's key)
BLANK = 0
_HAND_DIE = 0.56  # cell units
_HAND_PITCH = 0.68
_HAND_PADDING = 0.3


def die_image(
    parent: ET.Element, style: palette.DieStyle, face: Face, side: float, classes: str
) -> ET.Element:
    """A die ``side`` pixels wide centred on the origin of ``parent``: its body, the inner
    ring that marks the second player's dice, and its pips (or ``?``)."""
    image = element(parent, "g", class_=classes)
    half = side / 2
    element(
        image,
        "rect",
        class_="die-body",
        x=-half,
        y=-half,
        width=side,
        height=side,
        rx=side * style.corner,
        fill=style.fill,
        stroke=style.stroke,
        stroke_width=side * 0.06,
    )
    if style.inner_ring:
        inset = side * 0.1
        element(
            image,
            "rect",
            class_="die-ring",
            x=-half + inset,
            y=-half + inset,
            width=side - 2 * inset,
            height=side - 2 * inset,
            rx=side * max(style.corner - 0.08, 0.04),
            fill="none",
            stroke=style.pip,
            stroke_width=side * 0.03,
            stroke_opacity="0.7",
        )
    if face is None:
        text(
            image,
            0,
            0,
            "?",
            side * 0.62,
            class_="pending",
            fill=style.pip,
            text_anchor="middle",
            font_weight="bold",
        )
    elif face != BLANK:
        for x, y in PIPS[face]:
            element(
                image,
                "circle",
                class_="pip",
                cx=x * side,
                cy=y * side,
                r=PIP_RADIUS * side,
                fill=style.pip,
            )
    return image


def draw_dice(
    root: ET.Element, frame: Frame, game: str, board: dict[str, tuple[str, Face]]
) -> None:
    """``<g id="dice">``: one ``g.die`` per die, translated to its square's centre. A die on
    a split hex also holds a ``wrap-copy`` image one board width to the right."""
    geometry = frame.geometry
    layer = element(root, "g", id="dice")
    side = frame.units(geometry.die_size)
    for name, (owner, face) in board.items():
        cell = geometry.cells[name]
        group = element(
            layer,
            "g",
            class_="die",
            data_square=name,
            data_owner=owner,
            data_face="?" if face is None else str(face),
            transform=translate(*frame.point(cell.centre)),
        )
        style = palette.die_style(game, owner)
        die_image(group, style, face, side, "die-image")
        if cell.split and geometry.wrap is not None:
            copy = element(
                group, "g", class_="wrap", transform=translate(frame.units(geometry.wrap), 0)
            )
            die_image(copy, style, face, side, "die-image wrap-copy")


def hands_width(frame: Frame, summary: Summary) -> float:
    """The width in pixels of the hands panel (0 outside setup)."""
    if not summary.hands:
        return 0.0
    most = max(3, *(len(hand) for hand in summary.hands.values()))
    return frame.units(2 * _HAND_PADDING + most * _HAND_PITCH)


def draw_hands(root: ET.Element, frame: Frame, game: str, summary: Summary) -> None:
    """``<g id="hands">`` beside the board: each player's dice not yet placed, the top
    player's at the top. Hand dice are ``g.hand-die`` with ``data-owner`` and ``data-face``."""
    geometry = frame.geometry
    layer = element(root, "g", id="hands")
    first, second = summary.players
    top_player, bottom_player = (first, second) if geometry.flipped else (second, first)
    x0 = frame.width + frame.units(_HAND_PADDING)
    side = frame.units(_HAND_DIE)
    # each hand's label and dice take 1.25 cell units: level with the first and last ranks
    for player, offset in ((top_player, 0.35), (bottom_player, geometry.height - 1.25)):
        hand = summary.hands.get(player)
        if not hand:
            continue
        group = element(layer, "g", class_="hand", data_owner=player)
        _, label_y = frame.point((0, offset))
        text(
            group,
            x0,
            label_y,
            f"{summary.name_of(player)}'s hand",
            frame.font,
            class_="hand-label",
            fill=palette.TEXT_FILL,
        )
        style = palette.die_style(game, player)
        for i, face in enumerate(hand):
            x = x0 + frame.units(_HAND_PITCH * i + _HAND_DIE / 2)
            die = element(
                group,
                "g",
                class_="hand-die",
                data_owner=player,
                data_face="?" if face is None else str(face),
                transform=translate(x, label_y + frame.units(0.7)),
            )
            die_image(die, style, face, side, "die-image")
