"""``diceboard replay FILE``: step through a recorded game."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from diceboard.cli.arguments import positive_int
from diceboard.cli.console import Console, wants_color
from diceboard.cli.errors import UsageError
from diceboard.cli.files import read_text
from diceboard.cli.parsing import Subparsers, new_command
from diceboard.cli.viewer import Viewer

if TYPE_CHECKING:
    from diceboard.records import GameRecord

EXAMPLES = """\
examples:
  diceboard replay game.pgn
  diceboard replay tournament.pgn --game 3
  diceboard replay game.pgn < /dev/null        # print every position
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``replay`` command."""
    parser = new_command(
        subparsers,
        "replay",
        "step through a recorded game",
        "Show a game from a record file (PGN, or the JSON of one record), position by "
        "position: Enter or n for the next, p the previous, g N to go to ply N, q to quit. "
        "When standard input is not a terminal every position is printed in turn.",
        EXAMPLES,
    )
    parser.add_argument("file", metavar="FILE", help="the record file")
    parser.add_argument(
        "--game", metavar="N", type=positive_int, default=1, help="which game of the file (from 1)"
    )
    parser.add_argument("--no-color", action="store_true", help="plain text boards")
    parser.add_argument("--flip", action="store_true", help="show the board upside down")
    parser.set_defaults(handler=run)


def load_records(path: str) -> list[GameRecord]:
    """The records in the file ``path``; a bad record raises an error that names the file."""
    from diceboard.records import GameRecord, read_pgn

    text = read_text(path)
    try:
        if text.lstrip().startswith("{"):
            return [GameRecord.from_json(text)]
        return read_pgn(text)
    except ValueError as error:
        raise UsageError(f"{path}: {error}") from None


def run(args: argparse.Namespace) -> int:
    """Load the record and show it."""
    records = load_records(args.file)
    if not records:
        raise UsageError(f"{args.file} holds no game")
    if args.game > len(records):
        count = f"{len(records)} game{'s' if len(records) != 1 else ''}"
        raise UsageError(f"{args.file} holds {count}; --game must be 1 to {len(records)}")
    console = Console(color=wants_color(args.no_color))
    return Viewer(records[args.game - 1], console, args.flip).run()
