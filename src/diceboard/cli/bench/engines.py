"""``diceboard bench GAME`` (each registered game: ``bench custodian``, ``bench chase``)
and ``bench all``: the engine benchmarks."""

from __future__ import annotations

import argparse
import json
import sys

from diceboard import games
from diceboard.cli.arguments import add_game_arguments, make_game, parse_options, positive_int
from diceboard.cli.bench import measure
from diceboard.cli.bench.common import (
    add_json,
    add_seconds,
    add_seed,
    add_skip,
    python_speed,
    speed_text,
)
from diceboard.cli.bench.cpu import one_core
from diceboard.cli.bench.report import EngineFigures, format_figures
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import ArgumentParser, Subparsers, new_command
from diceboard.core.game import Game

#: the games benchmarked, one target each: every registered game
GAMES = games.names()
#: the measurements that can be left out (the three throughputs always run)
STAGES = ("nojit", "compile", "moves")

EXAMPLES = """\
examples:
  diceboard bench custodian
  diceboard bench chase --seconds 5
  diceboard bench all --json > figures.json
  diceboard bench custodian --seconds 0.5 --skip compile --skip moves
  diceboard bench custodian --against-c --seconds 3
"""

DESCRIPTION = """\
Random games (a uniformly random legal action each ply, chance outcomes at random) from the
initial state, measured on one core in one run, three ways:
  1. the compiled kernel (kernel.random_playouts),
  2. the Python API (legal_moves + play, chance_outcomes for rolls),
  3. the kernel as plain Python (NUMBA_DISABLE_JIT=1, in a subprocess),
with the ratios between them; then the time to compile the kernel on a cold numba cache
(a subprocess with an empty NUMBA_CACHE_DIR) and the wall time of 'diceboard moves GAME start'
on a warm cache (median of --runs runs of the console script). A ply is one decision; chance
events are counted apart. Targets are printed beside the figures.

--against-c (Custodian Dice) builds the small C reference of the same rules, doing the same
work per ply (benchmarks/c/custodian_ref.c, checked against perft by the tests), with
gcc -O3 -march=native (numba compiles for this CPU too), and runs its random games
interleaved with the kernel's, in --rounds rounds, printing both, their ratio and the load
average."""


def register(subparsers: Subparsers) -> None:
    """Add ``bench GAME`` for each registered game, and ``bench all``."""
    for name in GAMES:
        parser = new_command(
            subparsers,
            name,
            f"benchmark the {games.info(name).title} engine",
            DESCRIPTION,
            EXAMPLES,
        )
        add_game_arguments(parser, positional=False)
        _add_common(parser)
        if name == "custodian":
            parser.add_argument(
                "--against-c",
                action="store_true",
                help="also run the C reference (built with gcc -O3 -march=native) interleaved "
                "with the kernel, and print the ratio",
            )
            parser.add_argument(
                "--rounds",
                metavar="N",
                type=positive_int,
                default=3,
                help="interleaved rounds of --against-c (default 3)",
            )
        parser.set_defaults(handler=run, games=(name,))
    parser = new_command(
        subparsers, "all", "benchmark every engine, one after the other", DESCRIPTION, EXAMPLES
    )
    _add_common(parser)
    parser.set_defaults(handler=run, games=GAMES, variant=None, option=[])


def _add_common(parser: ArgumentParser) -> None:
    add_seconds(parser, 2.0, "each throughput measurement")
    add_seed(parser, 0)
    parser.add_argument(
        "--runs",
        metavar="N",
        type=positive_int,
        default=5,
        help="runs of 'diceboard moves GAME start' to take the median of (default 5)",
    )
    add_skip(parser, STAGES)
    add_json(parser)
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 if a target is missed"
    )


def measure_game(game: Game, args: argparse.Namespace, core: int | None) -> EngineFigures:
    """Every measurement of one game."""
    figures = EngineFigures(
        game=game,
        core=core,
        seconds=args.seconds,
        compiled=measure.compiled_throughput(game, args.seconds, args.seed),
        api=measure.api_throughput(game, args.seconds, args.seed),
    )
    if "nojit" not in args.skip:
        figures.nojit = measure.nojit_throughput(game, args.seconds, args.seed)
    if "compile" not in args.skip:
        figures.compile_seconds, figures.import_seconds = measure.compile_seconds(game)
    if "moves" not in args.skip:
        figures.moves_command = measure.moves_command(game)
        figures.moves_times = measure.command_seconds(figures.moves_command, args.runs)
    return figures


def _games(args: argparse.Namespace) -> list[Game]:
    options = parse_options(args.option)
    if len(args.games) > 1:
        games = []
        for name in args.games:
            try:
                games.append(make_game(name, None, {}))
            except UsageError as error:
                print(f"diceboard: skipping {name}: {error}", file=sys.stderr)
        return games
    return [make_game(args.games[0], args.variant, options)]


def run(args: argparse.Namespace) -> int:
    """Measure, print the figures; with ``--strict`` fail when a target is missed."""
    games = _games(args)
    results = []
    extra: list[dict[str, object]] = []
    with one_core() as core:
        for index, game in enumerate(games):
            speed = [python_speed()]
            figures = measure_game(game, args, core)
            results.append(figures)
            against = None
            if getattr(args, "against_c", False):
                against = measure.against_c(game, args.seconds, args.seed, args.rounds)
            speed.append(python_speed())
            against_figures = {} if against is None else against_c_dict(*against)
            extra.append({**against_figures, "python_speed_ms": speed})
            if not args.json:
                if index:
                    print()
                print("\n".join(format_figures(figures)), flush=True)
                if against is not None:
                    print("\n".join(format_against_c(*against)), flush=True)
                print(f"  machine's speed before and after: {speed_text(speed)}", flush=True)
    if args.json:
        rows = [{**f.as_dict(), **more} for f, more in zip(results, extra, strict=True)]
        print(json.dumps(rows, indent=2))
    missed = any(not ok for figures in results for ok in figures.checks().values())
    return 1 if args.strict and missed else 0


#: the kernel's share of the C reference's speed that the kernels should reach
C_RATIO_TARGET = 0.8


def against_c_dict(
    kernel: measure.Throughput, c: measure.Throughput, load: tuple[float, float]
) -> dict[str, object]:
    """The ``--against-c`` figures, for ``--json``."""
    ratio = kernel.plies_per_second / c.plies_per_second if c.plies_per_second else 0.0
    return {
        "against_c": {
            "kernel": kernel.as_dict(),
            "c_reference": c.as_dict(),
            "ratio kernel/c": ratio,
            "target": C_RATIO_TARGET,
            "target_met": ratio >= C_RATIO_TARGET,
            "load_average": list(load),
        }
    }


def format_against_c(
    kernel: measure.Throughput, c: measure.Throughput, load: tuple[float, float]
) -> list[str]:
    """The ``--against-c`` figures as text lines."""
    ratio = kernel.plies_per_second / c.plies_per_second if c.plies_per_second else 0.0
    mark = "✓" if ratio >= C_RATIO_TARGET else "✗"
    return [
        f"Against C (interleaved; load average {load[0]:.2f} → {load[1]:.2f}):",
        f"  {'compiled kernel':<38} {kernel.plies_per_second:>14,.0f} plies/s",
        f"  {'C reference (gcc ' + ' '.join(measure.C_FLAGS) + ')':<38} "
        f"{c.plies_per_second:>14,.0f} plies/s",
        f"  {'ratio kernel / C':<38} {ratio:>14.2f}   target ≥ {C_RATIO_TARGET} {mark}",
    ]
