"""How a game looks: what each game's rendering component declares for the renderers.

A game's rendering component (``diceboard/games/<game>/rendering.py``, found through the
registry) defines ``LOOK``, a :class:`GameLook`: its board's layout, its players'
:class:`DieStyle`, its board colours and the margins around its board. The generic renderers
read it through :func:`look` and never name a game.

>>> look("chase").geometry(False).kind
'hex'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from diceboard.core.errors import OptionError
from diceboard.games import canonical_name, component, names
from diceboard.rendering.layout import BoardGeometry


@dataclass(frozen=True, slots=True)
class DieStyle:
    """How one player's dice look.

    ``corner`` is the corner radius as a fraction of the die's side; ``inner_ring`` draws a
    second outline inside the first (the shape cue of the second player's dice).
    ANSI colours are ``(foreground, background)`` pairs: 256-colour indices and basic SGR
    codes.
    """

    name: str
    fill: str
    stroke: str
    pip: str
    corner: float
    inner_ring: bool
    ansi256: tuple[int, int]
    ansi16: tuple[int, int]


#: margins around a board in cell units: (left, top, right, bottom)
Margins = tuple[float, float, float, float]


@dataclass(frozen=True)
class GameLook:
    """What the renderers need from one game.

    ``geometry(flipped)`` lays out the board (:mod:`diceboard.rendering.geometry`);
    ``die_styles`` maps each player letter to the look of their dice; ``margins`` maps
    whether coordinates are drawn to the margins around the board; ``shows_pip_total`` makes
    the summary give each side's total of faces beside its dice count; ``dice_per_side``, where
    set, is a side's full set of dice, those off the board being its spares (Chase's ten).
    """

    geometry: Callable[[bool], BoardGeometry]
    die_styles: Mapping[str, DieStyle]
    board_fill: str
    board_stroke: str
    margins: Mapping[bool, Margins]
    shows_pip_total: bool = False
    dice_per_side: int | None = None


@functools.cache
def look(game_name: str) -> GameLook:
    """The :class:`GameLook` of ``game_name`` (a registered name or alias); an unknown game,
    or one without a rendering component, raises :class:`~diceboard.core.OptionError`."""
    try:
        declared = component(canonical_name(game_name), "rendering").LOOK
    except OptionError:
        raise OptionError(
            f"no board layout for the game {game_name!r}; games: {', '.join(names())}"
        ) from None
    if not isinstance(declared, GameLook):
        raise TypeError(f"the rendering component of {game_name!r} declares no GameLook")
    return declared
