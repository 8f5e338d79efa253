"""``diceboard puzzles generate GAME``: find one-move puzzles in engine self-play."""

from __future__ import annotations

import argparse
import json
import sys

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.files import write_text_atomic
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard puzzles generate chase --count 200 --seed 1 --out chase-puzzles.json
  diceboard puzzles generate custodian --count 5 --seed 2 --out -
"""

DESCRIPTION = """\
Play self-play games (alphabeta:depth=2, 15 % random moves) and keep the positions where one
move wins the game, wins material or saves a die, proved by alphabeta:depth=4 on the position
string with a margin over every other move of three quarters of a die in win probability (at
most 20 points); moves that differ only in the face turned to are one answer. Positions are
de-duplicated; difficulty 1-4 is the shallowest depth that finds the move. Writes JSON with
the generation figures; prints the generation rate."""


def register(subparsers: Subparsers) -> None:
    """Add the ``puzzles`` command."""
    parser = new_command(
        subparsers, "puzzles", "generate puzzles from engine self-play", DESCRIPTION, EXAMPLES
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    gen = sub.add_parser("generate", help="find puzzles and write them as JSON")
    add_game_arguments(gen)
    gen.add_argument("--count", metavar="N", type=positive_int, default=200, help="puzzles")
    gen.add_argument("--seed", metavar="S", type=int, default=1, help="random seed (default 1)")
    gen.add_argument("--out", metavar="FILE", required=True, help="the JSON file ('-': stdout)")
    gen.set_defaults(handler=run)


def _progress(games: int, candidates: int, found: int) -> None:
    if games % 10 == 0:
        print(f"{games} games, {candidates} candidates, {found} puzzles", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Generate and write."""
    from diceboard.analysis.puzzles import generate, puzzle_document

    game = game_from_args(args)
    puzzles, figures = generate(game, args.count, args.seed, _progress)
    command = f"diceboard puzzles generate {game.name} --count {args.count} --seed {args.seed}"
    text = json.dumps(puzzle_document(game, puzzles, command, figures), indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_text_atomic(args.out, text)
    print(
        f"{figures['puzzles']} puzzles from {figures['games']} games "
        f"({figures['candidates']} candidates) in {figures['seconds']} s: "
        f"{figures['per_minute']} puzzles a minute",
        file=sys.stderr,
    )
    return 0
