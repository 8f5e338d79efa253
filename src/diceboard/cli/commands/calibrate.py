"""``diceboard calibrate GAME``: fit (or check) the map from engine values to win
probabilities."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.files import write_text_atomic
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard calibrate custodian --games 100 --seed 1     # rewrites the package's fit
  diceboard calibrate chase --games 200 --seed 1
  diceboard calibrate chase --check --games 60 --seed 2  # Brier score and reliability table
"""

DESCRIPTION = """\
Play self-play games (alphabeta:depth=2 with 15 % random moves), label every decision with
the searched value and the game's final score for the player to move (a draw counts half),
and fit the slope a of p = σ(a·2·atanh(v)) on the first 80 % of the games; the rest score it
(Brier score). The fit is written into the package's calibration.json under the game's name.
With --check nothing is fitted: fresh games score the committed calibration, printed as the
Brier score and a reliability table (predicted against observed, in deciles)."""


def register(subparsers: Subparsers) -> None:
    """Add the ``calibrate`` command."""
    parser = new_command(
        subparsers,
        "calibrate",
        "fit or check the win probability shown for engine values",
        DESCRIPTION,
        EXAMPLES,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--games", metavar="N", type=positive_int, default=100, help="self-play games (100)"
    )
    parser.add_argument("--seed", metavar="S", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="score the committed calibration on fresh games instead of fitting",
    )
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="the calibration JSON to update ('-' prints the entry; default: the package's)",
    )
    parser.set_defaults(handler=run)


def _progress(done: int, total: int) -> None:
    if done % 10 == 0 or done == total:
        print(f"{done}/{total} games", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Fit and write, or check and print."""
    from diceboard.ai import weights
    from diceboard.analysis import calibration as cal

    game = game_from_args(args)
    if args.check:
        fitted, raw, samples = cal.check_calibration(game, args.games, args.seed, _progress)
        print(
            f"{game.title}: {samples.finished}/{samples.played} games finished, "
            f"{fitted.positions} positions, {samples.seconds:.0f} s; "
            f"slope {cal.slope_for(game.name)}"
        )
        print(cal.reliability_table("calibrated", fitted))
        print(f"uncalibrated (1 + v) / 2: Brier score {raw.brier:.4f}")
        return 0
    entry = cal.fit_calibration(game, args.games, args.seed, _progress)
    entry["command"] = f"diceboard calibrate {game.name} --games {args.games} --seed {args.seed}"
    if args.out == "-":
        print(json.dumps(entry, indent=2))
        return 0
    path = Path(args.out or Path(weights.__file__).parent / cal.CALIBRATION_FILE)
    record = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    record[game.name] = entry
    write_text_atomic(str(path), json.dumps(record, indent=2, sort_keys=True) + "\n")
    held = entry["held_out"]
    print(
        f"{game.title}: slope {entry['slope']}; held-out Brier {held['brier']} "
        f"(uncalibrated {held['brier_uncalibrated']}) on {held['positions']} positions; "
        f"wrote {path}",
        file=sys.stderr,
    )
    return 0
