"""``diceboard train-eval GAME``: train the network evaluation from self-play (PyTorch)."""

from __future__ import annotations

import argparse
import importlib.util
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
  diceboard train-eval chase --seed 1 --rounds 3 --games 600    # rewrites chase-net.json
  diceboard train-eval custodian --rounds 1 --games 10 --out -  # a quick look, printed
"""

DESCRIPTION = """\
Train the network evaluation (eval=net) of the computer players: self-play games between
alphabeta:depth=D players give positions labelled by the search's value and the game's result;
a small network (sparse inputs per die, the linear features, two hidden layers) is trained on
them with PyTorch, and the next round plays with it. The network starts as the fitted linear
model. Seeded and on one CPU thread by default: the same command gives the same weights. Needs
the extra 'diceboard[train]' (PyTorch); playing with the result does not."""


def register(subparsers: Subparsers) -> None:
    """Add the ``train-eval`` command."""
    parser = new_command(
        subparsers,
        "train-eval",
        "train the network evaluation from self-play (needs PyTorch)",
        DESCRIPTION,
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_seed(parser)
    add_count(parser, "--rounds", "R", 3, "rounds")
    add_count(parser, "--games", "N", 200, "self-play games per round")
    add_count(parser, "--depth", "D", 2, "search depth of the self-play players")
    add_count(parser, "--epochs", "E", 8, "passes over the data per round")
    parser.add_argument(
        "--device",
        metavar="DEV",
        default="cpu",
        help="PyTorch device for training, e.g. cuda (default cpu)",
    )
    add_count(parser, "--threads", "T", 1, "PyTorch CPU threads")
    add_out(parser, "network")
    parser.set_defaults(handler=run)


def _progress(info: dict[str, Any]) -> None:
    if "total_seconds" in info:
        print(f"done in {info['total_seconds']} s", file=sys.stderr)
        return
    loss = info["validation_cross_entropy"] or {"net": "-", "linear": "-", "floor": "-"}
    print(
        f"round {info['round']}: {info['finished']}/{info['games']} games, "
        f"{info['positions']} positions ({info['self_play_seconds']} s), trained on "
        f"{info['trained_on']} ({info['train_seconds']} s, best epoch {info['best_epoch']}); "
        f"held-out cross-entropy net "
        f"{loss['net']}, linear {loss['linear']}, floor {loss['floor']}",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:
    """Train and write the network."""
    if importlib.util.find_spec("torch") is None:
        print(
            "diceboard train-eval: needs PyTorch: pip install 'diceboard[train]'",
            file=sys.stderr,
        )
        return 2
    from diceboard.ai import weights
    from diceboard.ai.training import Settings, record_text, train_evaluation

    game = game_from_args(args)
    if args.device != "cpu":
        import torch

        try:
            torch.empty(1, device=args.device)
        except (RuntimeError, AssertionError) as error:
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            print(f"diceboard train-eval: device {args.device!r}: {first}", file=sys.stderr)
            return 2
    path = output_path(args.out, weights.weights_path(game.name, "net"))
    command = (
        f"diceboard train-eval {game.name} --seed {args.seed} --rounds {args.rounds} "
        f"--games {args.games} --depth {args.depth} --epochs {args.epochs}"
    )
    extra = game.non_default_options()
    command += option_flags(extra)
    settings = Settings(
        rounds=args.rounds,
        games=args.games,
        depth=args.depth,
        epochs=args.epochs,
        device=args.device,
        threads=args.threads,
    )
    record = train_evaluation(game, args.seed, settings, log=_progress, command=command)
    if extra:
        record["options"] = extra
    return write_output(path, record_text(record))
