"""``diceboard render GAME POSITION``: the board as SVG or as terminal text."""

from __future__ import annotations

import argparse
import sys

from diceboard.cli.arguments import (
    add_game_arguments,
    add_position_arguments,
    game_from_args,
    parse_squares,
    positive_int,
    state_from_args,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.files import write_text_atomic
from diceboard.cli.parsing import Subparsers, new_command

FORMATS = ("svg", "txt", "ansi")

EXAMPLES = """\
examples:
  diceboard render custodian start --seed 3 -o board.svg --size 480 --highlight b1,d2
  diceboard render custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" --format ansi
  diceboard render chase start --flip -o chase.svg
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``render`` command."""
    parser = new_command(
        subparsers,
        "render",
        "draw a position as SVG or as a terminal board",
        "Draw POSITION. With -o FILE the picture is written to FILE (SVG unless --format says "
        "otherwise); without it the board is printed: plain text, or ANSI colours when stdout "
        "is a colour terminal, or the SVG text with --format svg.",
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_position_arguments(parser)
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE ('-': stdout)")
    parser.add_argument(
        "--format", choices=FORMATS, help="svg, txt (plain text) or ansi (text in colour)"
    )
    parser.add_argument("--size", metavar="N", type=positive_int, help="SVG width in pixels")
    parser.add_argument(
        "--highlight", metavar="SQUARES", default="", help="squares to mark, e.g. a1,b2"
    )
    parser.add_argument("--flip", action="store_true", help="draw the board upside down")
    parser.set_defaults(handler=run)


def _format(args: argparse.Namespace) -> str:
    if args.format is not None:
        return str(args.format)
    if args.output not in (None, "-"):
        return "svg"
    from diceboard.rendering import terminal

    return "ansi" if terminal.supports_color(sys.stdout) else "txt"


def run(args: argparse.Namespace) -> int:
    """Render and write or print."""
    game = game_from_args(args)
    state = state_from_args(game, args)
    highlight = parse_squares(game, args.highlight)
    kind = _format(args)
    if args.size is not None and kind != "svg":
        raise UsageError("--size applies to SVG output only")
    if kind == "svg":
        from diceboard.rendering import svg

        if args.size is None:
            text = svg.render(state, highlight=highlight, flipped=args.flip)
        else:
            text = svg.render(state, size=args.size, highlight=highlight, flipped=args.flip)
    else:
        from diceboard.rendering import terminal

        text = terminal.render(state, color=kind == "ansi", highlight=highlight, flipped=args.flip)
    if not text.endswith("\n"):
        text += "\n"
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        write_text_atomic(args.output, text)
    return 0
