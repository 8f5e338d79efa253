"""``diceboard bench server``: the web app under load (concurrent games over WebSockets)."""

from __future__ import annotations

import argparse
import asyncio
import json

from diceboard.cli.arguments import bounded, positive_float, positive_int
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Start 'diceboard serve' on a free loopback port with a fresh SQLite database (or use --url,
a server already running on this machine), open GAMES online games with two WebSocket players
each, and let every player answer its turn with a random legal move (after thinking --think
seconds on average) until each game has made
--moves decisions, is over, or --seconds have passed. Prints the move latency (from sending a
move to receiving the state that holds it), the CPU time the server (a server it started) and
this client used meanwhile (the client plays every game from one process on the same cores as
the server: when it is busy, it takes the server's time), and checks that every acknowledged
move is stored. Only loopback addresses are used."""

EXAMPLES = """\
examples:
  diceboard bench server
  diceboard bench server --games 50 --seconds 10
  diceboard bench server --url http://127.0.0.1:8000 --json
"""

MAX_GAMES = 2000


_think = bounded(float, 0, 60, "the think time is 0 to 60 seconds")


def register(subparsers: Subparsers) -> None:
    """Add ``bench server``."""
    parser = new_command(
        subparsers,
        "server",
        "load-test the web app (concurrent games over WebSockets)",
        DESCRIPTION,
        EXAMPLES,
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=200,
        metavar="N",
        help=f"concurrent games (default 200, at most {MAX_GAMES})",
    )
    parser.add_argument(
        "--moves",
        type=positive_int,
        default=40,
        metavar="N",
        help="decisions per game at most (default 40)",
    )
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="stop after this many seconds of play (default 60, at most 600)",
    )
    parser.add_argument(
        "--url", metavar="URL", help="a running server on a loopback address (default: start one)"
    )
    parser.add_argument(
        "--think",
        type=_think,
        default=1.0,
        metavar="S",
        help="a player's mean thinking time per move, uniform from 0 to twice this (default 1; "
        "0 moves at once and measures the server saturated)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the load test and print its figures."""
    try:
        from diceboard.server.loadtest import (
            LoadRefused,
            check_loopback,
            run_load,
            running_server,
            wait_until_ready,
        )
    except ImportError as exc:
        raise UsageError(
            f"the server bench needs the 'web' extra ({exc.name} is missing)"
        ) from None
    if args.games > MAX_GAMES:
        raise UsageError(f"--games is at most {MAX_GAMES}, not {args.games}")
    if args.seconds > 600:
        raise UsageError(f"--seconds is at most 600, not {args.seconds:g}")
    if args.url:
        check_loopback(args.url)
        import httpx

        try:
            wait_until_ready(args.url.rstrip("/"))
            report = asyncio.run(
                run_load(
                    args.url.rstrip("/"),
                    args.games,
                    args.seconds,
                    args.moves,
                    args.seed,
                    args.think,
                )
            )
        except LoadRefused as exc:
            raise UsageError(str(exc)) from None
        except (httpx.HTTPError, OSError, RuntimeError) as exc:
            raise UsageError(f"no diceboard server answered at {args.url}: {exc}") from None
    else:
        try:
            with running_server() as served:
                report = asyncio.run(
                    run_load(
                        served.base,
                        args.games,
                        args.seconds,
                        args.moves,
                        args.seed,
                        args.think,
                        server_pid=served.pid,
                    )
                )
        except LoadRefused as exc:  # the server it started refused the load test
            raise UsageError(str(exc)) from None
    if args.json:
        print(
            json.dumps(
                {
                    "games": report.games,
                    "moves": report.moves,
                    "rejected": report.rejected,
                    "seconds": report.seconds,
                    "p50_ms": report.percentile(50),
                    "p90_ms": report.percentile(90),
                    "p99_ms": report.percentile(99),
                    "max_ms": max(report.latencies_ms, default=None),
                    "server_cpu_s": report.server_cpu_s,
                    "serving_cpu_s": report.serving_cpu_s,
                    "client_cpu_s": report.client_cpu_s,
                    "lost": report.lost,
                }
            )
        )
    else:
        print("\n".join(report.lines()))
    return 0 if not report.lost else 1
