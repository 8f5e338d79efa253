"""``diceboard bench eval GAME``: search speed with the linear and the network evaluation."""

from __future__ import annotations

import argparse

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.bench.common import add_seconds, add_seed, core_line, load_average
from diceboard.cli.bench.cpu import one_core
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard bench eval chase
  diceboard bench eval custodian --seconds 0.5 --positions 8
"""

DESCRIPTION = """\
Alpha-beta nodes per second and MCTS simulations per second (leaves scored by the evaluation
alone) with eval=linear and with eval=net, on one core, from the same positions of a seeded
random game; the two evaluations take turns position by position, so the machine's load
falls on both alike. Prints each rate, the ratio net/linear, the mean depth reached, and the
load average."""


def register(subparsers: Subparsers) -> None:
    """Add ``bench eval``."""
    parser = new_command(
        subparsers, "eval", "compare the evaluations' search speed", DESCRIPTION, EXAMPLES
    )
    add_game_arguments(parser)
    add_seconds(parser, 1.0, "each search")
    parser.add_argument(
        "--positions",
        metavar="N",
        type=positive_int,
        default=6,
        help="positions searched (default 6)",
    )
    add_seed(parser, 1, "seed")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    from diceboard.ai.eval_speed import COMPARED, compare

    game = game_from_args(args)
    print(f"{game.title}: {args.positions} positions, {args.seconds} s a search, interleaved")
    with one_core() as core:
        print(core_line(core))
        for kind, unit in (("alphabeta", "nodes/s"), ("mcts", "simulations/s")):
            tallies = compare(game, kind, args.seconds, args.positions, args.seed)
            for evaluation in COMPARED:
                t = tallies[evaluation]
                depth = sum(t.depths) / len(t.depths) if t.depths else 0.0
                extra = f"  mean depth {depth:.1f}" if kind == "alphabeta" else ""
                print(f"  {kind} eval={evaluation:<7} {t.per_second:>12,.0f} {unit}{extra}")
            ratio = tallies["net"].per_second / max(tallies["linear"].per_second, 1e-9)
            print(f"  {kind} net / linear: {ratio:.2f}")
    load = load_average()
    print(f"  load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0
