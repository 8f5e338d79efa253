"""Terminal boards: ANSI colour (256-colour or the basic 16) with a plain-text fallback.

The coloured board is the plain board with colours added: stripping the escape codes gives
back the plain text exactly, so both carry the same information. Each square is four
characters: a highlight marker (``*`` or a space), a two-character token (``W3``, ``R6``,
``B?`` for a die awaiting its roll, ``. `` for an empty square, ``()`` for Chase's
chamber) and a space.

>>> import diceboard
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> print(render(state, color=False, highlight=["b2"]))
     a   b   c   d   e
 5   B5  B2  B6  B2  B6   5
 4   .   .   .   .   .    4
 3   .   .   .   .   .    3
 2   .  *.   .   .   .    2
 1   W3  W1  W6  W4  W2   1
     a   b   c   d   e
Custodian Dice: White to move
clock 0, ply 10
W = White: 5 dice   B = Black: 5 dice

Chase's rows ``b d f h`` lie half a hex west of rows ``a c e g i`` (spec "Board"), so the
even rows are the ones drawn half a square in from the left; the split hex ``b1`` (and
``d1 f1 h1``) is drawn at both ends of its row.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from diceboard.core.errors import OptionError
from diceboard.core.game import State
from diceboard.rendering import palette
from diceboard.rendering.geometry import BoardGeometry, board_geometry, check_squares
from diceboard.rendering.summary import Face, Summary, summarize

#: characters per square; Chase's half-hex offset is half of it
CELL_WIDTH = 4
EMPTY_TOKEN = ". "
CHAMBER_TOKEN = "()"
HIGHLIGHT_MARK = "*"
#: SGR escape sequences, for tests and for callers that strip colour
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

Depth = Literal[0, 16, 256]
Colour = tuple[int, int]  # (foreground, background); -1 leaves one unchanged


@dataclass(frozen=True, slots=True)
class _Span:
    """A run of text with one colour role."""

    text: str
    role: str = ""  # "" (no colour), "label", "board", "highlight", "chamber", or "die:<P>"
    bold: bool = False


def supports_color(stream: object) -> bool:
    """Whether colour codes should be written to ``stream``.

    ``NO_COLOR`` (any non-empty value) turns colour off; otherwise ``FORCE_COLOR`` (non-empty,
    not ``0``) turns it on; otherwise colour needs a TTY whose ``TERM`` is not ``dumb``.
    """
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force.strip().lower() not in ("0", "false", "no"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    if not callable(isatty):
        return False
    try:
        return bool(isatty())
    except (ValueError, OSError):  # a closed or detached stream
        return False


def _auto_depth() -> Depth:
    if not supports_color(sys.stdout):
        return 0
    term = os.environ.get("TERM", "")
    colorterm = os.environ.get("COLORTERM", "")
    return 256 if "256" in term or colorterm in ("truecolor", "24bit") else 16


def _depth(color: bool | str | None) -> Depth:
    if color is None:
        return _auto_depth()
    if color is True:
        return 256
    if color is False:
        return 0
    if isinstance(color, str) and color.strip().lower() in ("256", "16", "basic"):
        return 256 if color.strip() == "256" else 16
    raise OptionError(
        f"color must be None (automatic), True, False, '256' or 'basic', not {color!r}"
    )


def render(
    state: State,
    *,
    color: bool | str | None = None,
    highlight: Iterable[str] | str = (),
    flipped: bool = False,
) -> str:
    """The board of ``state`` as terminal text, with the side to move, the clock and ply,
    the hands during Custodian setup, the last move and the result when the game is over.

    ``color``: ``None`` decides by :func:`supports_color` on standard output (256 colours
    where ``TERM`` or ``COLORTERM`` says so, else the basic 16); ``True`` or ``"256"`` for
    256 colours, ``"basic"`` for 16, ``False`` for plain text. ``highlight`` names squares
    to mark with ``*`` (and a colour). ``flipped`` shows the board from the second player's
    side. The text has no trailing newline.

    Raises :class:`~diceboard.core.errors.NotationError` for a square that the board lacks.
    """
    if not isinstance(state, State):
        raise TypeError(f"render() draws a diceboard State, not {type(state).__name__}")
    depth = _depth(color)
    geometry = board_geometry(state.game, flipped)
    marked = set(check_squares(highlight, geometry, "highlight"))
    summary = summarize(state)
    lines = _board_lines(geometry, state.board(), marked)
    lines.extend(_info_lines(state, summary))
    return "\n".join(_paint(line, depth, state.game.name) for line in lines)


# --- layout ---------------------------------------------------------------------------------
def _board_lines(
    geometry: BoardGeometry, board: dict[str, tuple[str, Face]], marked: set[str]
) -> list[list[_Span]]:
    """The rows of squares between two lines of column labels, each row labelled at both
    ends. A square's text column is four times its centre's x in cell units, so Chase's
    half-hex offsets come out as two characters."""
    rows: dict[float, list[tuple[int, str]]] = {}
    for name, cell in geometry.cells.items():
        for x, y in cell.images(geometry.wrap):
            rows.setdefault(round(y, 6), []).append((round(CELL_WIDTH * x) - CELL_WIDTH // 2, name))
    shift = -min(start for row in rows.values() for start, _ in row)
    width = shift + max(start for row in rows.values() for start, _ in row) + CELL_WIDTH
    label_width = max(len(text) for text, _ in geometry.row_labels)
    margin = " " * (label_width + 3)

    header = [" "] * width
    for text, x in geometry.column_labels:
        # under the die's owner letter, the token's first character
        header[round(CELL_WIDTH * x) - CELL_WIDTH // 2 + shift + 1] = text
    column_line = [_Span(margin), _Span("".join(header).rstrip(), "label")]

    lines: list[list[_Span]] = [column_line]
    for (label, _), y in zip(geometry.row_labels, sorted(rows), strict=True):
        spans = [_Span(f" {label:>{label_width}}", "label"), _Span("  ")]
        column = 0
        for start, name in sorted(rows[y]):
            if start + shift > column:
                spans.append(_Span(" " * (start + shift - column)))
            spans.extend(_cell(geometry, name, board.get(name), name in marked))
            column = start + shift + CELL_WIDTH
        spans.append(_Span(" " * (width - column + 2)))
        spans.append(_Span(label, "label"))
        lines.append(spans)
    lines.append(column_line)
    return lines


def _cell(
    geometry: BoardGeometry, name: str, die: tuple[str, Face] | None, marked: bool
) -> list[_Span]:
    cell = geometry.cells[name]
    role = "highlight" if marked else "chamber" if cell.chamber else "board"
    mark = _Span(HIGHLIGHT_MARK if marked else " ", role, bold=marked)
    if die is not None:
        owner, face = die
        token = _Span(owner + ("?" if face is None else str(face)), f"die:{owner}", bold=True)
    else:
        token = _Span(CHAMBER_TOKEN if cell.chamber else EMPTY_TOKEN, role)
    return [mark, token, _Span(" ", role)]


def _info_lines(state: State, summary: Summary) -> list[list[_Span]]:
    lines = [[_Span(f"{summary.title}: {summary.status}", bold=summary.result is not None)]]
    facts = summary.counters
    if summary.last_move is not None:
        facts += f"; last move {summary.last_move}"
    lines.append([_Span(facts)])
    for player, hand in summary.hands.items():
        spans = [_Span(f"{summary.name_of(player)}'s hand:")]
        for face in hand:
            spans.extend([_Span(" "), _Span("?" if face is None else str(face), f"die:{player}")])
        lines.append(spans)
    key: list[_Span] = []
    for player, name, material in zip(
        summary.players, summary.names, summary.material, strict=True
    ):
        if key:
            key.append(_Span("   "))
        to_move = player == summary.to_move and summary.result is None
        key.append(_Span(player, f"die:{player}", bold=True))
        key.append(_Span(f" = {name}: {material}", bold=to_move))
    lines.append(key)
    return lines


# --- colour ---------------------------------------------------------------------------------
def _colours(role: str, depth: Depth, game: str) -> Colour:
    if role.startswith("die:"):
        style = palette.die_style(game, role[4:])
        return style.ansi256 if depth == 256 else style.ansi16
    table = {
        "label": (palette.ANSI256_LABEL, palette.ANSI16_LABEL),
        "board": (palette.ANSI256_BOARD, palette.ANSI16_BOARD),
        "highlight": (palette.ANSI256_HIGHLIGHT, palette.ANSI16_HIGHLIGHT),
        "chamber": (palette.ANSI256_CHAMBER, palette.ANSI16_CHAMBER),
    }
    pair = table[role]
    return pair[0] if depth == 256 else pair[1]


def _sgr(fg: int, bg: int, bold: bool, depth: Depth) -> str:
    codes: list[str] = ["1"] if bold else []
    if depth == 256:
        if fg >= 0:
            codes.append(f"38;5;{fg}")
        if bg >= 0:
            codes.append(f"48;5;{bg}")
    else:
        codes.extend(str(c) for c in (fg, bg) if c >= 0)
    return f"\x1b[{';'.join(codes)}m" if codes else ""


def _paint(spans: list[_Span], depth: Depth, game: str) -> str:
    """One line of text: plain, or with each coloured span wrapped in SGR codes."""
    if depth == 0:
        return "".join(s.text for s in spans).rstrip()
    out: list[str] = []
    for (role, bold), group in itertools.groupby(spans, key=lambda s: (s.role, s.bold)):
        text = "".join(s.text for s in group)
        fg, bg = _colours(role, depth, game) if role else (-1, -1)
        start = _sgr(fg, bg, bold, depth)
        out.append(f"{start}{text}\x1b[0m" if start else text)
    text = "".join(out)
    # trailing blanks carry no colour: drop them as the plain text does
    return re.sub(r" +$", "", text)
