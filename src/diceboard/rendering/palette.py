"""Colours and die styles of both renderers.

Each game declares its players' :class:`DieStyle` and its board colours in its rendering
component (:mod:`diceboard.rendering.look`); the colours shared by every board are here.
Colour is never the only cue: the second player's dice also differ in shape (rounder corners
and a second, inner outline in SVG; the owner letter in the terminal), so the two sides can
be told apart in greyscale too.
"""

from __future__ import annotations

from diceboard.core.errors import OptionError
from diceboard.rendering.look import DieStyle, look

__all__ = ["DieStyle", "board_fill", "board_stroke", "die_style"]


def die_style(game: str, player: str) -> DieStyle:
    """The style of ``player``'s dice in ``game`` (``OptionError`` for an unknown pair)."""
    try:
        return look(game).die_styles[player]
    except (KeyError, OptionError):
        raise OptionError(f"no die style for player {player!r} of the game {game!r}") from None


def board_fill(game: str) -> str:
    """The fill of ``game``'s squares or hexes."""
    return look(game).board_fill


def board_stroke(game: str) -> str:
    """The colour of ``game``'s board lines."""
    return look(game).board_stroke


# --- SVG board colours ------------------------------------------------------------------
CHAMBER_FILL = "#4a4a68"
CHAMBER_MARK = "#d9d4f0"
SEAM_STROKE = "#5b5140"
LABEL_FILL = "#4d4433"
CELL_LABEL_FILL = "#a79c84"
HIGHLIGHT_FILL = "#ffd22e"
HIGHLIGHT_STROKE = "#b58900"
LAST_MOVE_STROKE = "#2b2b2b"
EXTRA_ARROW_STROKE = "#8e2c8e"
BACKGROUND = "#ffffff"
TEXT_FILL = "#222222"

# --- terminal colours: (foreground, background) ----------------------------------------
ANSI256_BOARD = (238, 187)
ANSI256_CHAMBER = (231, 60)
ANSI256_HIGHLIGHT = (16, 220)
ANSI256_LABEL = (244, -1)
ANSI16_BOARD = (30, 47)
ANSI16_CHAMBER = (97, 45)
ANSI16_HIGHLIGHT = (30, 103)
ANSI16_LABEL = (90, -1)
