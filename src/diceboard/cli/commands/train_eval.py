"""``diceboard train-eval GAME``: train the network evaluation from self-play (PyTorch)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.files import write_text_atomic
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
    parser.add_argument("--seed", metavar="S", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--rounds", metavar="R", type=positive_int, default=3, help="rounds (default 3)"
    )
    parser.add_argument(
        "--games",
        metavar="N",
        type=positive_int,
        default=200,
        help="self-play games per round (default 200)",
    )
    parser.add_argument(
        "--depth",
        metavar="D",
        type=positive_int,
        default=2,
        help="search depth of the self-play players (default 2)",
    )
    parser.add_argument(
        "--epochs",
        metavar="E",
        type=positive_int,
        default=8,
        help="passes over the data per round (default 8)",
    )
    parser.add_argument(
        "--device",
        metavar="DEV",
        default="cpu",
        help="PyTorch device for training, e.g. cuda (default cpu)",
    )
    parser.add_argument(
        "--threads",
        metavar="T",
        type=positive_int,
        default=1,
        help="PyTorch CPU threads (default 1)",
    )
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="where to write the network JSON ('-' for stdout; default: the package's file)",
    )
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


def _check_writable(path: str) -> None:
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    if not target.parent.is_dir():
        raise FileNotFoundError(2, "no such folder", str(target.parent))


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
    path = None
    if args.out != "-":
        folder = Path(weights.__file__).parent
        path = args.out or str(folder / weights.weights_path(game.name, "net"))
        _check_writable(path)  # before minutes of self-play, not after
    command = (
        f"diceboard train-eval {game.name} --seed {args.seed} --rounds {args.rounds} "
        f"--games {args.games} --depth {args.depth} --epochs {args.epochs}"
    )
    extra = game.non_default_options()
    command += "".join(f" --option {k}={v}" for k, v in extra.items())
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
    text = record_text(record)
    if path is None:
        sys.stdout.write(text)
        return 0
    write_text_atomic(path, text)
    print(f"wrote {path}", file=sys.stderr)
    return 0
