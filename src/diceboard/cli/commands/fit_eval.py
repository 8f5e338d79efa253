"""``diceboard fit-eval GAME``: fit the computer players' evaluation from self-play games."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.files import write_text_atomic
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
    parser.add_argument(
        "--games",
        metavar="N",
        type=positive_int,
        default=4000,
        help="self-play games per round (default 4000)",
    )
    parser.add_argument("--seed", metavar="S", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--rounds",
        metavar="R",
        type=positive_int,
        default=2,
        help="rounds of self-play and fitting (default 2)",
    )
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="where to write the weights JSON ('-' for stdout; default: the package's file)",
    )
    parser.set_defaults(handler=run)


def _progress(info: dict[str, Any]) -> None:
    loss = info["validation_log_loss"]
    print(
        f"round {info['round']}: {info['finished']}/{info['games']} games finished, "
        f"{info['positions']} positions, {info['seconds']} s; validation log loss "
        f"fitted {loss['fitted']}, material {loss['material']}, coin {loss['coin']}",
        file=sys.stderr,
    )


def _check_writable(path: str) -> None:
    """Fail now, as writing would later, if ``path`` is a folder or its folder is missing."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    if not target.parent.is_dir():
        raise FileNotFoundError(2, "no such folder", str(target.parent))


def run(args: argparse.Namespace) -> int:
    """Fit and write the weights."""
    from diceboard.ai import weights
    from diceboard.ai.fitting import fit_evaluation, record_text

    game = game_from_args(args)
    path = None
    if args.out != "-":
        path = args.out or str(Path(weights.__file__).parent / weights.weights_path(game.name))
        _check_writable(path)  # before minutes of self-play, not after
    record = fit_evaluation(game, args.games, args.seed, args.rounds, log=_progress)
    extra = game.non_default_options()
    if extra:
        record["options"] = extra
        record["command"] += "".join(f" --option {k}={v}" for k, v in extra.items())
    text = record_text(record)
    if path is None:
        sys.stdout.write(text)
        return 0
    write_text_atomic(path, text)
    print(f"wrote {path}", file=sys.stderr)
    return 0
