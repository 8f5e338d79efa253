"""``diceboard play GAME``: a game in the terminal, humans and computer players."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from diceboard import games
from diceboard.cli.arguments import (
    INITIAL,
    add_game_arguments,
    add_seed_argument,
    game_from_args,
    resolve_position,
)
from diceboard.cli.console import Console, wants_color
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command
from diceboard.cli.play.seats import HUMAN, make_seats
from diceboard.cli.play.session import Session, Settings
from diceboard.core.game import Game


def seat_options() -> dict[str, tuple[str, ...]]:
    """The seat options (colour names, every registered game's) with the titles of the
    games whose players they name; a game uses the two of its own players' colours."""
    options: dict[str, tuple[str, ...]] = {}
    for info in games.infos():
        for colour in info.colour_names:
            options[colour] = (*options.get(colour, ()), info.title)
    return options


#: what the first and the second player are when no option names them
DEFAULT_SPECS = (HUMAN, "random")

EXAMPLES = """\
examples:
  diceboard play custodian                               # you (White) against random
  diceboard play custodian --black level:5 --seed 7
  diceboard play custodian --variant chaos --white random --black human
  diceboard play chase --red mcts                        # you are Blue
  diceboard play custodian --position start --seed 3 --save game.pgn < moves.txt
"""

DESCRIPTION = """\
Play a game in the terminal. Each side is 'human' or a computer player (an agent spec such as
random, greedy, alphabeta:depth=4, mcts:time=1.0, level:5). Rolls (setup rolls, Chaos rolls)
are made by a random number generator seeded with --seed and shown.

At your prompt type a move in notation (shorthands work: a Chase turn without its direction
or absorption prefix, a Custodian step without its face; when they fit several moves you
choose from a numbered list), or a square to see where its die can go (then one of
the squares shown plays it there), or one of:
? (legal moves), hint, undo, board, flip, save FILE, resign, quit, help.
With standard input from a pipe or file the board is plain text and each line read is echoed;
the end of input leaves the game."""


def register(subparsers: Subparsers) -> None:
    """Add the ``play`` command."""
    parser = new_command(subparsers, "play", "play a game in the terminal", DESCRIPTION, EXAMPLES)
    add_game_arguments(parser)
    for colour, titles in seat_options().items():
        parser.add_argument(
            f"--{colour}",
            metavar="SPEC",
            help=f"who plays {colour.capitalize()}: human or an agent spec ({', '.join(titles)})",
        )
    add_seed_argument(parser, "seed of the rolls and the computer players (default: random)")
    parser.add_argument(
        "--position",
        metavar="POS",
        default=INITIAL,
        help="where to begin: initial (default, before the setup rolls), start, or a "
        "position string",
    )
    parser.add_argument("--no-color", action="store_true", help="plain text boards")
    parser.add_argument("--flip", action="store_true", help="show the board upside down")
    parser.add_argument(
        "--hint",
        metavar="SPEC",
        help="the computer player that answers 'hint' (default: the strongest available)",
    )
    parser.add_argument(
        "--save", metavar="FILE", help="write the record to FILE when the session ends"
    )
    parser.set_defaults(handler=run)


def seat_specs(game: Game, args: argparse.Namespace) -> tuple[str, str]:
    """The specs of ``game``'s two players from the seat options; options of another game's
    colours are an error."""
    own = [name.lower() for name in game.player_names]
    for colour in seat_options():
        if colour not in own and getattr(args, colour, None) is not None:
            raise UsageError(
                f"--{colour} is not a side in {game.title}: its players are "
                f"--{own[0]} and --{own[1]}"
            )
    given = [getattr(args, colour, None) for colour in own]
    return (
        given[0] if given[0] is not None else DEFAULT_SPECS[0],
        given[1] if given[1] is not None else DEFAULT_SPECS[1],
    )


def run(args: argparse.Namespace) -> int:
    """Set up the seats and the board, then play."""
    game = game_from_args(args)
    if args.save is not None:
        folder = Path(args.save).expanduser().parent
        if not folder.is_dir():
            raise UsageError(f"--save {args.save}: the folder {folder} does not exist")
    specs = seat_specs(game, args)
    # a game without --seed still gets a seed, shown and recorded, so that it can be replayed
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    state = resolve_position(game, args.position, seed)
    seats = make_seats(game, specs, seed)
    if args.hint is not None:
        import diceboard

        diceboard.agent(args.hint)  # an unknown spec is a usage error now, not at the prompt
    console = Console(color=wants_color(args.no_color))
    settings = Settings(seed=seed, flipped=args.flip, hint_spec=args.hint, save_path=args.save)
    return Session(state, seats, console, settings).run()
