"""``diceboard perft GAME POSITION DEPTH``: counts of move sequences, by the rules kernel's
perft (actions) or through the game API (whole turns)."""

from __future__ import annotations

import argparse
import sys
import time

from diceboard import games
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
from diceboard.core.move import Move

#: the deepest perft asked for (a count to depth 12 already takes hours; deeper ones would
#: exhaust memory or recursion before they ended)
MAX_DEPTH = 40


def _depth(text: str) -> int:
    value = non_negative_int(text)
    if value > MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_DEPTH}, not {text[:30]}")
    return value


EXAMPLES = """\
examples:
  diceboard perft custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" 2     # 8788
  diceboard perft custodian initial 3                                             # 216
  diceboard perft custodian "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10" 2 --divide
  diceboard perft chase start 2 --divide                                          # turns
  diceboard perft chase start 3 --unit actions --time
"""


UNITS = ("actions", "turns")


def default_unit(game_name: str) -> str:
    """What perft counts unless --unit says otherwise: kernel actions where every move is one
    action, whole turns where a turn can be several (the registry's ``multi_action_moves``:
    a Chase turn absorbs, then acts)."""
    return "turns" if games.info(game_name).multi_action_moves else "actions"


def register(subparsers: Subparsers) -> None:
    """Add the ``perft`` command."""
    parser = new_command(
        subparsers,
        "perft",
        "count move sequences to a depth (move-generator check)",
        "Count the sequences of DEPTH plies from POSITION. Chance outcomes (rolls) are "
        "branches like moves, so a Chaos move and its roll are two plies; a game that ends "
        "before DEPTH ends its sequence uncounted.\n\n"
        "Units: 'actions' counts kernel actions with the rules kernel's perft (the default for "
        "a game where every move is one action, like Custodian Dice); 'turns' counts whole "
        "turns as the game API lists them (the default for a game where a turn may be several "
        "actions, like Chase, where a turn may absorb pips before it acts: {a1,b6}d6-d3SW is "
        "one turn but three kernel actions).",
        EXAMPLES,
    )
    add_game_arguments(parser)
    add_position_arguments(parser)
    parser.add_argument(
        "depth", metavar="DEPTH", type=_depth, help=f"plies to count (at most {MAX_DEPTH})"
    )
    parser.add_argument(
        "--divide", action="store_true", help="print the count under each first move"
    )
    parser.add_argument(
        "--unit", choices=UNITS, help="count kernel actions or whole turns (see above)"
    )
    parser.add_argument(
        "--time", action="store_true", help="print the time taken and the rate to stderr"
    )
    parser.set_defaults(handler=run)


def kernel_perft(state: State, depth: int) -> int:
    """The kernel's perft count of ``state`` to ``depth`` (action sequences)."""
    game = state.game
    history = state.kernel_history()
    return int(game.kernel.perft(state.kernel_state(), game.opts, depth, history, len(history)))


def _branches(state: State) -> list[Move]:
    """The turns of ``state``: its legal moves, or its chance outcomes at a roll."""
    if state.is_chance():
        return [move for move, _ in state.chance_outcomes()]
    return state.legal_moves()


def turn_perft(state: State, depth: int) -> int:
    """The number of sequences of ``depth`` whole turns (chance outcomes included) from
    ``state``, through the game API; the last ply is counted without being played."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    branches = _branches(state)
    if depth == 1:
        return len(branches)
    return sum(turn_perft(state.play(move), depth - 1) for move in branches)


def count(state: State, depth: int, unit: str) -> int:
    """Perft of ``state`` to ``depth`` in ``unit`` (``actions`` or ``turns``)."""
    return kernel_perft(state, depth) if unit == "actions" else turn_perft(state, depth)


def divide(state: State, depth: int, unit: str) -> list[tuple[str, int]]:
    """Each first action or turn (in notation) with the count to ``depth`` below it."""
    if unit == "turns":
        if state.is_terminal():
            return []
        return [
            (move.notation, count(state.play(move), depth - 1, unit)) for move in _branches(state)
        ]
    game = state.game
    rows = []
    for action in state.legal_action_ids():
        child = state.play(action)
        rows.append((game.action_notation(action, state), count(child, depth - 1, unit)))
    return sorted(rows)


def run(args: argparse.Namespace) -> int:
    """Count and print."""
    game = game_from_args(args)
    state = state_from_args(game, args)
    unit = args.unit or default_unit(game.name)
    started = time.perf_counter()
    if args.divide:
        if args.depth < 1:
            raise UsageError("--divide needs a DEPTH of 1 or more")
        rows = divide(state, args.depth, unit)
        width = max((len(name) for name, _ in rows), default=0)
        for name, n in rows:
            print(f"{name:<{width}}  {n}")
        total = sum(n for _, n in rows)
        print(f"total {total}")
    else:
        total = count(state, args.depth, unit)
        print(total)
    if args.time:
        seconds = time.perf_counter() - started
        rate = f"{total / seconds:,.0f}/s" if seconds > 0 else "instant"
        print(
            f"perft {args.depth} ({unit}): {total:,} in {seconds:.3f} s ({rate})",
            file=sys.stderr,
        )
    return 0
