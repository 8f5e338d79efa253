"""``diceboard puzzles generate GAME``: find one-move puzzles in engine self-play;
``diceboard puzzles rate FILE``: rate a set's difficulty again, in place."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.errors import UsageError
from diceboard.cli.files import read_text, write_text_atomic
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard puzzles generate chase --count 200 --seed 1 --out chase-puzzles.json
  diceboard puzzles generate custodian --count 5 --seed 2 --out -
  diceboard puzzles rate src/diceboard/analysis/puzzle_sets/chase.json
"""

DESCRIPTION = """\
Play self-play games (alphabeta:depth=2, 15 % random moves) and keep the positions where one
move wins the game, wins material or saves a die, proved by alphabeta:depth=4 on the position
string with a margin over every other move of three quarters of a die in win probability (at
most 20 points); moves that differ only in the face turned to are one answer. Positions are
de-duplicated. Writes JSON with the generation figures; prints the generation rate.

Difficulty 1-5 is rated from several signals, each measured by the engine: the weakest
computer level that plays the move at least half the time, the shallowest search depth that
finds it, how many plies ahead its point lies, how much the solution hides at a glance
(depth 1), how many other moves look as good then, and how many moves there are (see
diceboard.analysis.puzzle_rating). 'rate FILE' rates a set again in place (deterministic:
the same file gives the same ratings) and prints how many puzzles each difficulty has."""


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
    rate = sub.add_parser("rate", help="rate a puzzle set's difficulty again, in place")
    rate.add_argument("file", metavar="FILE", help="a puzzle set (JSON, as generate writes it)")
    rate.add_argument("--out", metavar="FILE", help="write here instead ('-': stdout)")
    rate.set_defaults(handler=run_rate)


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


def _rating_progress(done: int, total: int) -> None:
    if done % 20 == 0 or done == total:
        print(f"{done}/{total} puzzles rated", file=sys.stderr)


def read_set(path: str) -> dict[str, Any]:
    """The puzzle set in ``path``, checked to be one (``UsageError`` saying why not)."""
    try:
        document = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(document, dict) or document.get("format") != "diceboard-puzzles":
        raise UsageError(f"{path}: not a puzzle set (its 'format' is not 'diceboard-puzzles')")
    puzzles = document.get("puzzles")
    if not isinstance(puzzles, list) or not all(isinstance(p, dict) for p in puzzles):
        raise UsageError(f"{path}: its 'puzzles' is not a list of puzzles")
    needed = ("id", "game", "position", "solution", "line", "theme", "solved", "second")
    for number, puzzle in enumerate(puzzles, 1):
        missing = [k for k in needed if k not in puzzle]
        if missing:
            raise UsageError(f"{path}: puzzle {number} has no {', '.join(missing)}")
    return document


def run_rate(args: argparse.Namespace) -> int:
    """Rate again and write."""
    from diceboard.analysis.puzzles import rate_set

    document = read_set(args.file)
    began = time.perf_counter()
    try:
        counts = rate_set(document, _rating_progress)
    except (KeyError, TypeError) as error:
        raise UsageError(f"{args.file}: a puzzle is malformed ({error!r})") from None
    seconds = time.perf_counter() - began
    text = json.dumps(document, indent=1) + "\n"
    out = args.out or args.file
    if out == "-":
        sys.stdout.write(text)
    else:
        write_text_atomic(out, text)
    shown = ", ".join(f"{n} at {d}" for d, n in counts.items())
    print(
        f"{len(document['puzzles'])} puzzles rated in {seconds:.1f} s: {shown}",
        file=sys.stderr,
    )
    return 0
