"""``diceboard tournament AGENT… --game G --games-per-pair N``: a round robin with ratings."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from diceboard.cli.arguments import positive_int
from diceboard.cli.commands.match import (
    add_game_option,
    add_run_arguments,
    backend_from_args,
    check_out,
    game_of,
    progress_bar,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

if TYPE_CHECKING:
    from diceboard.arena.play import GameResult

EXAMPLES = """\
examples:
  diceboard tournament random greedy alphabeta:depth=2 --game custodian --games-per-pair 20
  diceboard tournament level:1 level:2 level:3 --game chase --games-per-pair 50 \\
      --workers 2 --anchor mean --format csv --plot ratings.png --out results/

Ratings are Bradley-Terry maximum-likelihood Elo over all games (draws as half points), with
95 % intervals from the observed information. One virtual draw per pairing (--prior) keeps an
agent that won or lost every game at a finite rating; --prior 0 gives the pure fit.
"""


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number 0 or more, not {text!r}")
    return value


def _format_name(text: str) -> str:
    """An argparse type: one of the standings' formats (the arena is imported only now)."""
    from diceboard.arena.tournament import FORMATS

    if text not in FORMATS:
        raise argparse.ArgumentTypeError(
            f"invalid choice: {text!r} (choose from {', '.join(FORMATS)})"
        )
    return text


def register(subparsers: Subparsers) -> None:
    """Add the ``tournament`` command."""
    parser = new_command(
        subparsers,
        "tournament",
        "play a round robin between agents and rate them",
        "Every pair of AGENTs plays N games (colours alternate, each two games share their "
        "dice). Prints the standings with Elo ratings and their intervals; --plot draws them, "
        "--out saves every game (tournament.pgn), the standings (standings.csv, "
        "tournament.json with the crosstable) and one row per game (games.csv).",
        EXAMPLES,
    )
    parser.add_argument("agents", metavar="AGENT", nargs="+", help="agent specs (two or more)")
    add_game_option(parser)
    parser.add_argument(
        "--games-per-pair",
        required=True,
        metavar="N",
        type=positive_int,
        help="games between each two agents",
    )
    parser.add_argument(
        "--format",
        type=_format_name,
        default="text",
        help="how to print the standings: text (default), csv or json",
    )
    parser.add_argument("--plot", metavar="FILE", help="draw the ratings (e.g. ratings.png)")
    parser.add_argument(
        "--anchor",
        metavar="AGENT",
        help="the agent rated 0, or 'mean' for ratings that average 0 (default: the first agent)",
    )
    parser.add_argument(
        "--prior",
        metavar="D",
        type=_non_negative_float,
        default=1.0,
        help="virtual draws added to each pairing (default 1)",
    )
    add_run_arguments(
        parser, "save tournament.pgn, tournament.json, standings.csv and games.csv here"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print the standings."""
    from diceboard.arena.tournament import (
        TOURNAMENT_FILES,
        check_agents,
        run_tournament,
        write_tournament,
    )

    game = game_of(args)
    backend = backend_from_args(args)
    if args.anchor is None:
        anchor: str | None = args.agents[0]
    elif args.anchor == "mean":
        anchor = None
    elif args.anchor in args.agents:
        anchor = args.anchor
    else:
        raise UsageError(f"--anchor {args.anchor!r} is not one of the agents (or 'mean')")
    if args.plot is not None:
        from diceboard.arena.plotting import new_figure

        new_figure()  # fail now, not after the games, if matplotlib is missing
    check_agents(args.agents)
    check_out(args, TOURNAMENT_FILES)
    pairings = len(args.agents) * (len(args.agents) - 1) // 2
    bar = progress_bar(args, pairings * args.games_per_pair, "tournament")
    played = 0

    def on_game(_: GameResult) -> None:
        nonlocal played
        played += 1
        bar.update(played)

    try:
        result = run_tournament(
            game,
            args.agents,
            args.games_per_pair,
            args.seed,
            backend=backend,
            anchor=anchor,
            prior_draws=args.prior,
            record=args.out is not None,
            on_game=on_game,
        )
    finally:
        bar.close()
    print(result.format(args.format), end="")
    if args.seed is None and args.format == "csv":  # text and JSON state the seed themselves
        print(f"seed {result.seed} (pass --seed {result.seed} to repeat this run)", file=sys.stderr)
    sys.stdout.flush()  # the table first, then where the files went
    if args.plot is not None:
        print(f"wrote {result.plot(args.plot)}", file=sys.stderr)
    if args.out is not None:
        for path in write_tournament(result, args.out, overwrite=args.overwrite):
            print(f"wrote {path}", file=sys.stderr)
    return 0
