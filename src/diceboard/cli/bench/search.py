"""``diceboard bench search GAME``: speed of the computer players' searches."""

from __future__ import annotations

import argparse
import json
from typing import Any

from diceboard import games
from diceboard.cli.arguments import add_game_arguments, game_from_args
from diceboard.cli.bench.common import add_json, add_seconds, add_seed, add_skip, core_line
from diceboard.cli.bench.cpu import one_core
from diceboard.cli.parsing import Subparsers, new_command

EXAMPLES = """\
examples:
  diceboard bench search custodian
  diceboard bench search chase --seconds 5 --json
  diceboard bench search custodian --variant chaos --skip compile
"""


def _mcts_targets() -> str:
    """The registered games' MCTS targets, for the description."""
    declared = [
        f"{info.targets['mcts_simulations']:,.0f}/s ({info.title})"
        for info in games.infos()
        if "mcts_simulations" in info.targets
    ]
    return " or ".join(declared) if declared else "none"


DESCRIPTION = f"""\
Search speed from the game's start position (the first decision; setup rolls drawn with
--seed), on one core: MCTS simulations per second with its default settings (random playouts
cut at 8 actions) and with heuristic playouts, alpha-beta nodes per second (the search tree's
nodes, and all the positions it makes, counting the children it evaluates only to order
moves), how closely
alphabeta:time and mcts:time keep their budget over a few moves, and the time to compile the
game's search on a cold numba cache (then to load it from the warm cache). Targets are printed
beside the figures: MCTS {_mcts_targets()}, alpha-beta 300,000/s."""

STAGES = ("budget", "compile")


def register(subparsers: Subparsers) -> None:
    """Add ``bench search``."""
    parser = new_command(
        subparsers, "search", "benchmark the computer players' search", DESCRIPTION, EXAMPLES
    )
    add_game_arguments(parser)
    add_seconds(parser, 2.0, "each rate measurement")
    add_seed(parser, 0, "setup seed")
    add_skip(parser, STAGES)
    add_json(parser)
    parser.set_defaults(handler=run)


def _line(label: str, value: str, target: str = "") -> str:
    return f"  {label:<44} {value:>16}  {target}".rstrip()


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    from diceboard.ai import benchmark

    game = game_from_args(args)
    state = benchmark.start_position(game, args.seed)
    figures: dict[str, Any] = {"game": game.name, "position": str(state)}
    with one_core() as core:
        figures["core"] = core
        mcts = [
            benchmark.mcts_rate(state, args.seconds),
            benchmark.mcts_rate(state, args.seconds, playout="heuristic"),
        ]
        tree, positions = benchmark.alphabeta_rate(state, args.seconds)
        if "budget" not in args.skip:
            figures["budget_overshoot"] = {
                spec: benchmark.budget_overshoots(game, spec, 6, args.seed)
                for spec in ("alphabeta:time=0.5", "mcts:time=0.5")
            }
        if "compile" not in args.skip:
            figures["compile_seconds"] = benchmark.compile_seconds(game)
    target = float(games.info(game.name).targets.get("mcts_simulations", 0.0))
    figures["rates"] = {r.label: round(r.per_second) for r in [*mcts, tree, positions]}
    figures["alphabeta_depth"] = tree.detail
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{game.title}: search from {state}")
    print(core_line(core))
    for rate in mcts:
        ok = "ok" if rate.per_second >= target else "MISSED"
        print(
            _line(
                f"{rate.label} simulations/s",
                f"{rate.per_second:,.0f}",
                f"target {target:,.0f} {ok}",
            )
        )
    ok = "ok" if positions.per_second >= benchmark.ALPHABETA_TARGET else "MISSED"
    print(
        _line(
            f"alphabeta positions/s ({positions.detail})",
            f"{positions.per_second:,.0f}",
            f"target {benchmark.ALPHABETA_TARGET:,.0f} {ok}",
        )
    )
    print(_line("alphabeta search-tree nodes/s", f"{tree.per_second:,.0f}"))
    for spec, overs in figures.get("budget_overshoot", {}).items():
        worst = max(overs) if overs else 0.0
        ok = "ok" if worst <= benchmark.BUDGET_TOLERANCE else "MISSED"
        print(
            _line(
                f"{spec}: worst move over budget",
                f"{100 * worst:+.1f} %",
                f"target +{100 * benchmark.BUDGET_TOLERANCE:.0f} % {ok}",
            )
        )
    compile_ = figures.get("compile_seconds")
    if compile_:
        print(
            _line(
                "compile, cold cache: kernel / search",
                f"{compile_['cold_kernel']:.1f} s / {compile_['cold_search']:.1f} s",
            )
        )
        print(
            _line(
                "load, warm cache: kernel / search",
                f"{compile_['warm_kernel']:.2f} s / {compile_['warm_search']:.2f} s",
            )
        )
    return 0
