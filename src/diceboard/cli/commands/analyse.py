"""``diceboard analyse GAME --games N --agent SPEC --out DIR``: a balance report."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from diceboard.cli.arguments import add_game_argument, make_game, parse_options, positive_int
from diceboard.cli.commands.match import (
    add_run_arguments,
    backend_from_args,
    check_out,
    command_line,
    progress_bar,
)
from diceboard.cli.parsing import Subparsers, new_command

if TYPE_CHECKING:
    from diceboard.arena.play import GameResult

EXAMPLES = """\
examples:
  diceboard analyse custodian --games 2000 --agent random --seed 1 --out balance/
  diceboard analyse custodian --variant standard --variant chaos --variant no-jumping \\
      --games 500 --agent level:2 --workers 2 --out balance/
  diceboard analyse chase --games 300 --agent greedy --out chase-balance/

One agent plays both sides. Game g of every variant uses the same dice and agent seeds, so
variants are compared game by game. The report (report.html) is one self-contained file with
inline SVG plots (needs matplotlib: pip install 'diceboard[report]'); games.csv holds one row
per game.
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``analyse`` command."""
    parser = new_command(
        subparsers,
        "analyse",
        "a balance report: self-play statistics by seat, variant and setup",
        "Play N self-play games of AGENT in each variant of GAME and write a balance report "
        "for game designers: win rate by seat with 95 % Wilson intervals, draws and their "
        "reasons, game length, captures over time, the effect of the setup rolls (in a game "
        "that has them) and, for several variants, a side-by-side comparison.",
        EXAMPLES,
    )
    add_game_argument(parser)
    parser.add_argument(
        "--variant",
        metavar="V",
        action="append",
        default=[],
        help="a variant to analyse (repeat to compare several; default: the standard game)",
    )
    parser.add_argument(
        "--option",
        metavar="K=V",
        action="append",
        default=[],
        help="a game option applied to every variant, e.g. --option capture=single",
    )
    parser.add_argument(
        "--games", required=True, metavar="N", type=positive_int, help="games per variant"
    )
    parser.add_argument("--agent", required=True, metavar="SPEC", help="the agent on both sides")
    add_run_arguments(parser, "write report.html and games.csv in this folder", out_required=True)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and write the report."""
    from diceboard.arena.balance import analyse
    from diceboard.arena.match import check_agent
    from diceboard.arena.report import REPORT_FILES, variant_summary, write_report

    options = parse_options(args.option)
    games = [make_game(args.game, v, options) for v in (args.variant or [None])]
    backend = backend_from_args(args)
    from diceboard.arena.plotting import new_figure

    new_figure()  # fail now, not after the games, if matplotlib is missing
    check_agent(args.agent)
    check_out(args, REPORT_FILES)
    bar = progress_bar(args, len(games) * args.games, "analyse")
    played = 0

    def on_game(_: GameResult) -> None:
        nonlocal played
        played += 1
        bar.update(played)

    try:
        result = analyse(games, args.agent, args.games, args.seed, backend=backend, on_game=on_game)
    finally:
        bar.close()
    print(
        f"{games[0].title}: {args.games} games per variant, agent {args.agent}, seed {result.seed}"
    )
    for variant in result.variants:
        print(variant_summary(variant))
    sys.stdout.flush()  # the report first, then where the files went
    for path in write_report(result, args.out, args.overwrite, command_line()):
        print(f"wrote {path}", file=sys.stderr)
    return 0
