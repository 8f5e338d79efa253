"""``diceboard review FILE``: weigh every move of a recorded game and mark the mistakes."""

from __future__ import annotations

import argparse
import sys

from diceboard.cli.files import read_text, write_text_atomic
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard review game.pgn
  diceboard review game.pgn --out reviewed.pgn
  diceboard review abstractplay-export.json --agent alphabeta:depth=4 --out reviewed.json
"""

DESCRIPTION = """\
Review every decision of each game in FILE (PGN, a diceboard JSON record, or an Abstract Play
JSON export): one search of the position (every move to the same budget) gives the value of the
best move and of the move played, turned into the mover's win probability before and after by
the calibration. A move that gives away 5 points of win probability or more is an inaccuracy
(?!), 10 a mistake (?), 20 a blunder (??). Prints each side's accuracy, 100 x (1 - the mean
win-probability loss of its moves), and the marked moves; --out writes the record with the
glyphs and a comment on each marked move naming the better move (.json: a JSON record)."""


def register(subparsers: Subparsers) -> None:
    """Add the ``review`` command."""
    from diceboard.analysis.review import DEFAULT_AGENT

    parser = new_command(
        subparsers, "review", "mark the mistakes of a recorded game", DESCRIPTION, EXAMPLES
    )
    parser.add_argument("file", metavar="FILE", help="the record file")
    parser.add_argument(
        "--agent",
        metavar="SPEC",
        default=DEFAULT_AGENT,
        help=f"the engine that reviews (default {DEFAULT_AGENT})",
    )
    parser.add_argument("--seed", metavar="S", type=int, default=1, help="the engine's seed")
    parser.add_argument(
        "--out", metavar="FILE", help="write the annotated record here ('-': standard output)"
    )
    parser.set_defaults(handler=run)


def load_records(path: str) -> list:  # type: ignore[type-arg]
    """The records of a PGN or JSON file."""
    from diceboard.records import GameRecord, read_pgn

    text = read_text(path)
    if text.lstrip().startswith("{"):
        return [GameRecord.from_json(text)]
    return read_pgn(text)


def run(args: argparse.Namespace) -> int:
    """Review, print the summary, and write the annotated record."""
    from diceboard.ai import agent
    from diceboard.analysis.review import review, summary_text

    agent(args.agent)  # a bad spec fails before the file is read
    records = load_records(args.file)
    annotated = []
    for record in records:
        result = review(record, args.agent, seed=args.seed)
        print(summary_text(result))
        annotated.append(result.annotated())
    if args.out:
        if args.out.endswith(".json") and len(annotated) == 1:
            text = annotated[0].to_json()
        else:
            text = "\n".join(rec.to_pgn() for rec in annotated)
        if args.out == "-":
            sys.stdout.write(text)
        else:
            write_text_atomic(args.out, text)
            print(f"wrote {args.out}", file=sys.stderr)
    return 0
