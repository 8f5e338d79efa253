"""``diceboard bench endings GAME``: how often the top players convert won endings."""

from __future__ import annotations

import argparse
import os
import time

from diceboard.cli.arguments import add_game_arguments, game_from_args, positive_int
from diceboard.cli.parsing import Subparsers, new_command

#: the players compared by default: level 8's search, and the same with the endgame term
DEFAULT_ATTACKERS = ("alphabeta:time=1.8,eval=linear", "alphabeta:time=1.8,eval=endgame")
#: the defender: a short search that values its dice's shelter (corners, then the rim),
#: distance from the attackers and moves, through the endgame term seen from its side
DEFAULT_DEFENDER = "alphabeta:depth=2,eval=endgame"

EXAMPLES = """\
examples:
  diceboard bench endings custodian
  diceboard bench endings custodian --defender alphabeta:depth=3,eval=endgame
  diceboard bench endings custodian --limit 2 --attacker alphabeta:depth=2 \\
      --attacker alphabeta:depth=2,eval=endgame
"""

DESCRIPTION = f"""\
Play the game's committed won endings (positions where one side has more dice,
ai/weights/GAME-endings.json) to the end: each attacker (--attacker, repeatable; default
{" and ".join(DEFAULT_ATTACKERS)}) plays the side with more dice against the same defender
(default {DEFAULT_DEFENDER}, which heads for the corners), ending by ending, the attackers
taking turns. Prints each game's result, moves and how it ended, then each attacker's
conversion rate (wins / endings) and the load average."""


def register(subparsers: Subparsers) -> None:
    """Add ``bench endings``."""
    parser = new_command(
        subparsers, "endings", "conversion rate of won endings", DESCRIPTION, EXAMPLES
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--attacker",
        metavar="SPEC",
        action="append",
        help="an attacker to measure (repeatable)",
    )
    parser.add_argument("--defender", metavar="SPEC", default=DEFAULT_DEFENDER, help="the defender")
    parser.add_argument(
        "--limit", metavar="N", type=positive_int, help="play only the first N endings"
    )
    parser.add_argument("--seed", metavar="N", type=int, default=1, help="seed (default 1)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play and print."""
    from diceboard.ai import agent
    from diceboard.ai.endings import EndingResult, conversion_rate, convert, load_endings

    game = game_from_args(args)
    attackers = list(args.attacker or DEFAULT_ATTACKERS)
    for spec in [*attackers, args.defender]:
        agent(spec, seed=0)  # a bad spec fails now, with its one-line error
    endings = load_endings(game)[: args.limit]
    print(f"{game.title}: {len(endings)} endings, defender {args.defender}", flush=True)
    results: dict[str, list[EndingResult]] = {spec: [] for spec in attackers}
    started = time.perf_counter()
    for ending in endings:
        print(f"  {ending.name}  ({ending.position}; {ending.attacker} attacks)", flush=True)
        for spec in attackers:
            (result,) = convert(game, [ending], spec, args.defender, args.seed)
            results[spec].append(result)
            word = {1.0: "won", 0.5: "drawn", 0.0: "lost"}[result.score]
            print(f"    {spec:<40} {word:<6} {result.moves:>4} moves  {result.reason}", flush=True)
    print("conversion rate:")
    for spec in attackers:
        won = sum(1 for r in results[spec] if r.score == 1.0)
        rate = conversion_rate(results[spec])
        print(f"  {spec:<40} {rate:6.1%}  ({won} of {len(endings)})")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    loads = " ".join(f"{x:.2f}" for x in load)
    print(f"  {time.perf_counter() - started:.0f} s; load average: {loads}")
    return 0
