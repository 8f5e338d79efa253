"""``diceboard perft GAME POSITION DEPTH``: counts of action sequences, from the kernel."""

from __future__ import annotations

import argparse
import sys
import time

from diceboard.cli.arguments import (
    add_game_arguments,
    add_position_arguments,
    game_from_args,
    non_negative_int,
    state_from_args,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command
from diceboard.core.game import State

EXAMPLES = """\
examples:
  diceboard perft custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" 2     # 8788
  diceboard perft custodian initial 3                                             # 216
  diceboard perft custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" 2 --divide
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``perft`` command."""
    parser = new_command(
        subparsers,
        "perft",
        "count action sequences to a depth (move-generator check)",
        "Count the sequences of DEPTH actions from POSITION with the rules kernel's perft. "
        "Each legal action is a branch, chance outcomes included (a roll is one action, so "
        "a Chaos move and its roll are two plies); a game that ends before DEPTH ends its "
        "sequence uncounted.",
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_position_arguments(parser)
    parser.add_argument("depth", metavar="DEPTH", type=non_negative_int, help="plies to count")
    parser.add_argument(
        "--divide", action="store_true", help="print the count under each first action"
    )
    parser.add_argument(
        "--time", action="store_true", help="print the time taken and the rate to stderr"
    )
    parser.set_defaults(handler=run)


def perft(state: State, depth: int) -> int:
    """The kernel's perft count of ``state`` to ``depth``."""
    game = state.game
    history = state.kernel_history()
    return int(game.kernel.perft(state.kernel_state(), game.opts, depth, history, len(history)))


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Each first action (in notation) with the perft count to ``depth`` below it."""
    game = state.game
    rows = []
    for action in state.legal_action_ids():
        child = state.play(action)
        rows.append((game.action_notation(action, state), perft(child, depth - 1)))
    return sorted(rows)


def run(args: argparse.Namespace) -> int:
    """Count and print."""
    game = game_from_args(args)
    state = state_from_args(game, args)
    started = time.perf_counter()
    if args.divide:
        if args.depth < 1:
            raise UsageError("--divide needs a DEPTH of 1 or more")
        rows = divide(state, args.depth)
        width = max((len(name) for name, _ in rows), default=0)
        for name, count in rows:
            print(f"{name:<{width}}  {count}")
        total = sum(count for _, count in rows)
        print(f"total {total}")
    else:
        total = perft(state, args.depth)
        print(total)
    if args.time:
        seconds = time.perf_counter() - started
        rate = f"{total / seconds:,.0f} sequences/s" if seconds > 0 else "instant"
        print(f"perft {args.depth}: {total:,} in {seconds:.3f} s ({rate})", file=sys.stderr)
    return 0
