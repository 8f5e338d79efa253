"""``diceboard apply GAME POSITION MOVE…``: the position after some moves."""

from __future__ import annotations

import argparse

from diceboard.cli.arguments import (
    add_game_arguments,
    add_position_arguments,
    game_from_args,
    state_from_args,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard apply custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" b1-b2=2
  diceboard apply custodian initial =3 =1 =6 =4 =2 =5 =2 =6 =2 =6
  diceboard apply custodian start --seed 1 --variant chaos b1-b3 =4
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``apply`` command."""
    parser = new_command(
        subparsers,
        "apply",
        "play moves from a position and print the result",
        "Play each MOVE in turn from POSITION (decisions in notation, chance outcomes as "
        "=1 … =6) and print the resulting position string; if the game is over, a second line "
        "gives the result and its reason.",
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_position_arguments(parser)
    parser.add_argument("moves", metavar="MOVE", nargs="+", help="a move or chance outcome")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the moves and print the position."""
    game = game_from_args(args)
    state = state_from_args(game, args)
    for number, text in enumerate(args.moves, start=1):
        try:
            state = state.play(text)
        except ValueError as error:
            raise UsageError(f"move {number} ({text}): {error}") from None
    print(state)
    outcome = state.outcome()
    if outcome is not None:
        print(outcome)
    return 0
