"""``diceboard moves GAME POSITION``: the legal moves, one a line."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from diceboard.cli.arguments import (
    add_game_arguments,
    add_position_arguments,
    game_from_args,
    state_from_args,
)
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard moves custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
  diceboard moves custodian initial            # a chance node: =1 … =6, 1/6 each
  diceboard moves custodian start --seed 7 --variant chaos
  diceboard moves chase start
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``moves`` command."""
    parser = new_command(
        subparsers,
        "moves",
        "list the legal moves of a position",
        "Print the legal moves of POSITION in canonical notation, one a line, sorted. At a "
        "chance node (a roll is pending) print each chance outcome with its probability. A "
        "finished game has no moves: its result goes to stderr.",
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_position_arguments(parser)
    parser.add_argument(
        "--count", action="store_true", help="print only the number of moves (or outcomes)"
    )
    parser.set_defaults(handler=run)


def probability_text(p: float) -> str:
    """A probability as a short fraction where it is one (``1/6``), else a decimal."""
    fraction = Fraction(p).limit_denominator(1000)
    if abs(float(fraction) - p) < 1e-12:
        return str(fraction)
    return f"{p:.6g}"


def run(args: argparse.Namespace) -> int:
    """Print the moves."""
    game = game_from_args(args)
    state = state_from_args(game, args)
    if state.is_terminal():
        print(f"diceboard: the game is over: {state.outcome()}; no moves", file=sys.stderr)
        lines: list[str] = []
    elif state.is_chance():
        lines = [f"{move} {probability_text(p)}" for move, p in state.chance_outcomes()]
    else:
        lines = [str(move) for move in state.legal_moves()]
    if args.count:
        print(len(lines))
    elif lines:
        print("\n".join(lines))
    return 0
