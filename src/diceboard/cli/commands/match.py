"""``diceboard match A B --game G --games N``: a match between two agents.

Also holds the arguments that the arena commands (``match``, ``tournament``, ``analyse``)
share: the seed, the backend and its workers, the output folder.

The arena (and with it the computer players) is imported when a command runs, not when its
parser is built: ``diceboard --help`` and ``diceboard match -h`` do not load the AI.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import TYPE_CHECKING

from diceboard.cli.arguments import (
    add_game_argument,
    add_game_arguments,
    make_game,
    non_negative_int,
    parse_options,
    positive_int,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import ArgumentParser, Subparsers, new_command
from diceboard.core.game import Game

if TYPE_CHECKING:
    from diceboard.arena.backends import Backend
    from diceboard.arena.match import SprtConfig
    from diceboard.arena.play import GameResult
    from diceboard.arena.progress import ProgressBar

EXAMPLES = """\
examples:
  diceboard match random greedy --game custodian --games 100 --seed 1 --out results/
  diceboard match level:3 level:2 --game custodian --variant chaos --games 400 --workers 2
  diceboard match mcts:iterations=2000 alphabeta:depth=3 --game chase --games 2000 \\
      --sprt --elo0 0 --elo1 30
  diceboard match random random --game custodian --games 1000 --backend ray \\
      --ray-address auto

Games come in pairs with colours swapped and the same dice (setup and Chaos rolls), so luck
largely cancels out. The Elo interval is computed on pairs (pentanomial) when the match is
whole pairs, on games (trinomial) otherwise. Results depend only on the seed, not on the
backend or the number of workers (for agents limited by iterations or depth, not by time).
"""


# --- shared by the arena commands -----------------------------------------------------------------
def add_game_option(parser: ArgumentParser) -> None:
    """``--game G`` (required), ``--variant V`` and ``--option k=v``."""
    add_game_argument(parser, "--game", metavar="G")
    add_game_arguments(parser, positional=False)


def add_run_arguments(parser: ArgumentParser, out_help: str, out_required: bool = False) -> None:
    """``--seed``, ``--workers``, ``--backend``, ``--ray-address``, ``--out``, ``--overwrite``,
    ``--no-progress``."""
    parser.add_argument(
        "--seed",
        metavar="S",
        type=non_negative_int,
        help="the root seed of every game's dice and agents (default: a random one, printed)",
    )
    parser.add_argument(
        "--workers",
        metavar="K",
        type=positive_int,
        default=1,
        help="games played at once: processes of the local pool, or CPUs of a local Ray "
        "(default 1)",
    )
    parser.add_argument(
        "--backend",
        type=backend_name,
        default="local",
        help="local: this machine's processes (default); ray: Ray tasks (needs "
        "pip install 'diceboard[ray]')",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="the Ray cluster to use (e.g. auto or ray://host:10001); default: a cluster that "
        "Ray finds by itself, else a new local Ray",
    )
    parser.add_argument("--out", metavar="DIR", required=out_required, help=out_help)
    parser.add_argument(
        "--overwrite", action="store_true", help="replace result files already in --out"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def backend_name(text: str) -> str:
    """An argparse type: one of the arena's backends."""
    from diceboard.arena.backends import BACKENDS

    if text not in BACKENDS:
        raise argparse.ArgumentTypeError(
            f"unknown backend {text!r}; backends: {', '.join(BACKENDS)}"
        )
    return text


def backend_from_args(args: argparse.Namespace) -> Backend:
    """The backend that ``--backend``, ``--workers`` and ``--ray-address`` describe."""
    from diceboard.arena.backends import Backend

    if args.ray_address is not None and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    return Backend(args.backend, args.workers, args.ray_address)


def game_of(args: argparse.Namespace, variant: str | None = None) -> Game:
    """The game of ``--game``, ``--variant`` (or ``variant``) and ``--option``."""
    chosen = variant if variant is not None else args.variant
    return make_game(args.game, chosen, parse_options(args.option))


def progress_bar(args: argparse.Namespace, total: int, label: str) -> ProgressBar:
    """A progress bar on stderr (drawn only on a terminal, and not with ``--no-progress``)."""
    from diceboard.arena.progress import ProgressBar

    enabled = False if args.no_progress else None
    return ProgressBar(total, label, stream=sys.stderr, enabled=enabled)


def check_out(args: argparse.Namespace, names: tuple[str, ...]) -> None:
    """Fail before playing, not after, if ``--out`` cannot take the result files."""
    if args.out is not None:
        from diceboard.arena.output import prepare_out_dir

        prepare_out_dir(args.out, names, args.overwrite)


def command_line() -> str:
    """The command as typed (for reports)."""
    return shlex.join(["diceboard", *sys.argv[1:]])


# --- the match command ----------------------------------------------------------------------------
def register(subparsers: Subparsers) -> None:
    """Add the ``match`` command."""
    parser = new_command(
        subparsers,
        "match",
        "play a match between two agents (Elo, confidence interval, SPRT)",
        "Play N games between agents A and B (agent specs such as random, greedy, "
        "alphabeta:depth=4, mcts:iterations=5000, level:3), print wins, draws and losses, the "
        "score and A's Elo advantage with a 95 % interval, and with --out save every game "
        "(match.pgn) with a summary (match.json) and one row per game (match.csv).",
        EXAMPLES,
    )
    parser.add_argument(
        "a", metavar="A", help="the first agent (plays first in the first game of each pair)"
    )
    parser.add_argument("b", metavar="B", help="the second agent")
    add_game_option(parser)
    parser.add_argument(
        "--games",
        required=True,
        metavar="N",
        type=positive_int,
        help="the number of games (with --sprt: the most)",
    )
    add_run_arguments(parser, "save match.pgn, match.json and match.csv in this folder")
    sprt = parser.add_argument_group("SPRT (stop as soon as the result is clear)")
    sprt.add_argument(
        "--sprt",
        action="store_true",
        help="run a GSPRT on game pairs: H0 'A is at most ELO0 stronger' against H1 'at least "
        "ELO1'",
    )
    sprt.add_argument("--elo0", type=float, metavar="E", help="H0's Elo difference (default 0)")
    sprt.add_argument("--elo1", type=float, metavar="E", help="H1's Elo difference (default 50)")
    sprt.add_argument("--alpha", type=float, metavar="P", help="false H1 rate (default 0.05)")
    sprt.add_argument("--beta", type=float, metavar="P", help="false H0 rate (default 0.05)")
    parser.set_defaults(handler=run)


def sprt_from_args(args: argparse.Namespace) -> SprtConfig | None:
    """The SPRT settings, or ``None`` without ``--sprt``."""
    from diceboard.arena.match import SprtConfig

    given = {
        name: getattr(args, name)
        for name in ("elo0", "elo1", "alpha", "beta")
        if getattr(args, name) is not None
    }
    if not args.sprt:
        if given:
            raise UsageError(f"--{next(iter(given))} needs --sprt")
        return None
    return SprtConfig(**given)


def run(args: argparse.Namespace) -> int:
    """Play the match and report it."""
    from diceboard.arena.match import MATCH_FILES, MatchResult, check_agent, run_match, write_match

    game = game_of(args)
    backend = backend_from_args(args)
    sprt = sprt_from_args(args)
    check_agent(args.a)
    check_agent(args.b)
    check_out(args, MATCH_FILES)
    bar = progress_bar(args, args.games, "match")
    points = 0.0
    played = 0

    def on_game(game_result: GameResult) -> None:
        nonlocal points, played
        points += game_result.score_of(MatchResult.a_seat(game_result.index))
        played += 1
        bar.update(played, f"{args.a} (A) scores {100 * points / played:.1f} %")

    try:
        result = run_match(
            game,
            args.a,
            args.b,
            args.games,
            args.seed,
            backend=backend,
            sprt=sprt,
            record=args.out is not None,
            on_game=on_game,
        )
    finally:
        bar.close()
    print(result.summary())
    if args.out is not None:
        sys.stdout.flush()  # the report first, then where the files went
        for path in write_match(result, args.out, overwrite=args.overwrite):
            print(f"wrote {path}", file=sys.stderr)
    return 0
