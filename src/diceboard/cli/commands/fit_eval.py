"""``diceboard fit-eval GAME``: fit the computer players' evaluation from self-play games."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from diceboard.cli.arguments import add_game_arguments, game_from_args
from diceboard.cli.evalfiles import (
    add_count,
    add_out,
    add_seed,
    option_flags,
    output_path,
    write_output,
)
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard fit-eval custodian                        # rewrites the package's custodian.json
  diceboard fit-eval chase --games 4000 --seed 1
  diceboard fit-eval custodian --games 200 --out -    # a quick look, printed, nothing written
"""

DESCRIPTION = """\
Play self-play games with the compiled engine, sample positions, and fit a logistic regression
of the game result (for the player to move; a draw counts half) on the position features. The
first round's players look one move ahead by material; each later round's players use the
weights just fitted. The last 20 % of each round's games are kept out of the fit and score it
(mean log loss; a coin scores 0.693). Seeded: the same command gives the same weights. By
default the result replaces the weights file that the package's players load."""


def register(subparsers: Subparsers) -> None:
    """Add the ``fit-eval`` command."""
    parser = new_command(
        subparsers,
        "fit-eval",
        "fit the evaluation of the computer players from self-play",
        DESCRIPTION,
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_count(parser, "--games", "N", 4000, "self-play games per round")
    add_seed(parser)
    add_count(parser, "--rounds", "R", 2, "rounds of self-play and fitting")
    add_out(parser, "weights")
    parser.set_defaults(handler=run)


def _progress(info: dict[str, Any]) -> None:
    loss = info["validation_log_loss"]
    print(
        f"round {info['round']}: {info['finished']}/{info['games']} games finished, "
        f"{info['positions']} positions, {info['seconds']} s; validation log loss "
        f"fitted {loss['fitted']}, material {loss['material']}, coin {loss['coin']}",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:
    """Fit and write the weights."""
    from diceboard.ai import weights
    from diceboard.ai.fitting import fit_evaluation, record_text

    game = game_from_args(args)
    path = output_path(args.out, weights.weights_path(game.name))
    record = fit_evaluation(game, args.games, args.seed, args.rounds, log=_progress)
    extra = game.non_default_options()
    if extra:
        record["options"] = extra
        record["command"] += option_flags(extra)
    return write_output(path, record_text(record))
