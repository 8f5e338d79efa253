"""``diceboard bench server``: the web app under load (concurrent games over WebSockets)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from diceboard.cli.arguments import bounded, positive_float, positive_int
from diceboard.cli.bench.common import (
    TREES,
    by_round,
    in_turns,
    load_average,
    load_text,
    median_of,
    python_speed,
    ratio_of,
    speed_text,
    tree_folder,
)
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
move is stored. Only loopback addresses are used. With --rounds N the load test is run N
times (each on a server of its own, unless --url), one line per round with the load
average, then the medians: a tail latency swings with the machine's load from minute to
minute, and one run says little about the next. --against DIR compares two trees in one run:
each round load-tests a server of this tree and one of the package in DIR (another tree's src
folder), in turns, with the same seed, and the figures end with each tree's medians, their
ratio and the rounds compared one by one (the median of each round's ratio, and in how many
rounds this tree was the faster); the load generator is this tree's for both."""

EXAMPLES = """\
examples:
  diceboard bench server
  diceboard bench server --games 50 --seconds 10
  diceboard bench server --url http://127.0.0.1:8000 --json
  diceboard bench server --games 1000 --rounds 3
  diceboard bench server --games 1000 --rounds 3 --against /tmp/old-tree/src
"""

MAX_GAMES = 2000


_think = bounded(float, 0, 60, "the think time is 0 to 60 seconds")
_rounds = bounded(int, 1, 20, "the rounds are 1 to 20")


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
    parser.add_argument(
        "--whole-snapshots",
        action="store_true",
        help="players ask for whole snapshots after every move, instead of the changes only "
        "(what the browser asks for): to see what the smaller messages save",
    )
    parser.add_argument(
        "--rounds",
        type=_rounds,
        default=1,
        metavar="N",
        help="run the load test this many times and give the medians (default 1, at most 20)",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="also load-test a server of the package in this folder, in turns with this tree's, "
        "and compare the two",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the load test and print its figures."""
    try:
        from diceboard.server.loadtest import check_loopback
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
    if args.against:
        if args.url:
            raise UsageError("--against starts a server of each tree: no --url")
        tree_folder("--against", args.against)
        return _compare(args)
    reports = []
    figures: list[dict[str, Any]] = []
    for index in range(args.rounds):
        report = _one_load_test(args, args.seed + index)
        reports.append(report)
        figures.append(_figures(report))
        if args.rounds > 1 and not args.json:
            print(f"round {index + 1}: {round_line(figures[-1])}", flush=True)
    lost = any(report.lost for report in reports)
    if args.json:
        if args.rounds == 1:
            print(json.dumps(figures[0]))
        else:
            print(json.dumps({"rounds": figures, "medians": medians(figures)}))
    elif args.rounds == 1:
        print("\n".join(reports[0].lines()))
        print(f"machine's speed just after: {speed_text([figures[0]['python_speed_ms']])}")
    else:
        middle = medians(figures)
        print(
            f"medians of {args.rounds} rounds: p50 {_ms(middle['p50_ms'])} · p99 "
            f"{_ms(middle['p99_ms'])} (target < 100 ms) · max {_ms(middle['max_ms'])} · "
            f"serving process {_ms(middle['serving_ms_per_move'], 2)} a move"
        )
        print("accounting: " + ("every move stored" if not lost else "MISMATCH (above)"))
    return 0 if not lost else 1


def _compare(args: argparse.Namespace) -> int:
    """``--against``: the two trees' servers load-tested in turns, each round with its own
    seed for both; each round's lines, then each tree's medians and the comparison."""
    trees = list(zip(TREES, (None, args.against), strict=True))
    figures: list[dict[str, Any]] = []
    for index in range(args.rounds):
        for tree, src in in_turns(trees, index):
            report = _one_load_test(args, args.seed + index, src)
            figures.append({"round": index + 1, "tree": tree, **_figures(report)})
            if not args.json:
                where = f"{tree} ({src or 'installed'})"
                print(f"round {index + 1} {where}: {round_line(figures[-1])}", flush=True)
    summary = compare(figures)
    lost = any(f["lost"] for f in figures)
    if args.json:
        print(json.dumps({"against": args.against, "rounds": figures, **summary}))
        return 0 if not lost else 1
    names = {"p50_ms": "p50", "p99_ms": "p99", "max_ms": "max", "serving_ms_per_move": "serving"}
    print(f"medians of {args.rounds} rounds:")
    for figure, name in names.items():
        ratio = summary["ratio"][figure]
        rounds = summary["by_round"][figure]
        # (a move's CPU differs between trees by a few hundredths of a millisecond)
        digits = 2 if figure == "serving_ms_per_move" else 1
        print(
            f"  {name:<8} this {_ms(summary['medians']['this'][figure], digits):>9} · against "
            f"{_ms(summary['medians']['against'][figure], digits):>9} · against / this "
            f"{_times(ratio):>6} · by round {_times(rounds['median_ratio']):>6}, this lower "
            f"in {rounds['faster']} of {rounds['rounds']}"
        )
    print("  (serving: the server process's CPU a move; a ratio above 1: this tree is lower)")
    print("accounting: " + ("every move stored" if not lost else "MISMATCH (above)"))
    return 0 if not lost else 1


def compare(figures: list[dict[str, Any]]) -> dict[str, Any]:
    """Rounds of two trees (``figures`` with ``round`` and ``tree``, ``"this"`` or
    ``"against"``): each tree's medians, the ratio of the medians (the other tree's over
    this one's) and the rounds compared one by one
    (:func:`~diceboard.cli.bench.common.by_round`), for each of :data:`MEDIAN_FIGURES`."""
    middle = {tree: medians([f for f in figures if f["tree"] == tree]) for tree in TREES}
    return {
        "medians": middle,
        "ratio": {
            name: ratio_of(middle["against"][name], middle["this"][name]) for name in MEDIAN_FIGURES
        },
        "by_round": {name: by_round(figures, name) for name in MEDIAN_FIGURES},
    }


def _times(value: float | None) -> str:
    return "?" if value is None else f"{value:.2f}x"


def _one_load_test(args: argparse.Namespace, seed: int, src: str | None = None) -> Any:
    """One load test (a :class:`~diceboard.server.loadtest.LoadReport`): on the server at
    ``--url``, else on one started for it (of the package in ``src``: another tree's)."""
    from diceboard.server.load_player import LoadBroken
    from diceboard.server.loadtest import (
        LoadRefused,
        load_test,
        run_load,
        running_server,
        wait_until_ready,
    )

    if args.url:
        import httpx2

        try:
            wait_until_ready(args.url.rstrip("/"))
            return load_test(
                run_load(
                    args.url.rstrip("/"),
                    args.games,
                    args.seconds,
                    args.moves,
                    seed,
                    args.think,
                    delta=not args.whole_snapshots,
                )
            )
        except (LoadRefused, LoadBroken) as exc:
            raise UsageError(str(exc)) from None
        except (httpx2.HTTPError, OSError, RuntimeError) as exc:
            raise UsageError(f"no diceboard server answered at {args.url}: {exc}") from None
    try:
        with running_server(src=src) as served:
            return load_test(
                run_load(
                    served.base,
                    args.games,
                    args.seconds,
                    args.moves,
                    seed,
                    args.think,
                    server_pid=served.pid,
                    delta=not args.whole_snapshots,
                )
            )
    except (LoadRefused, LoadBroken) as exc:  # the server it started refused the load test
        raise UsageError(str(exc)) from None


def _figures(report: Any) -> dict[str, Any]:
    """A load test's figures, as ``--json`` prints them, with the load average just after."""
    return {
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
        "serving_ms_per_move": report.serving_ms_per_move,
        "client_cpu_s": report.client_cpu_s,
        "lost": report.lost,
        "load_average": list(load_average()),
        "python_speed_ms": python_speed(),
    }


#: the figures that :func:`medians` gives
MEDIAN_FIGURES = ("p50_ms", "p90_ms", "p99_ms", "max_ms", "serving_ms_per_move", "client_cpu_s")


def medians(figures: list[dict[str, Any]]) -> dict[str, float | None]:
    """The median of each of :data:`MEDIAN_FIGURES` over the rounds that have it."""
    return {name: median_of(f.get(name) for f in figures) for name in MEDIAN_FIGURES}


def round_line(figures: dict[str, Any]) -> str:
    """One round's figures (:func:`_figures`) on one line, with the load average after it."""
    seconds = figures["seconds"]
    rate = figures["moves"] / seconds if seconds else 0.0
    client = 100 * figures["client_cpu_s"] / seconds if seconds else 0.0
    lost = figures["lost"]
    return (
        f"{figures['moves']} moves ({rate:.0f}/s) · p50 {_ms(figures['p50_ms'])} · p99 "
        f"{_ms(figures['p99_ms'])} · max {_ms(figures['max_ms'])} · serving process "
        f"{_ms(figures['serving_ms_per_move'], 2)} a move · client {client:.0f} % of a core · "
        f"{'every move stored' if not lost else 'MISMATCH in ' + str(len(lost))}"
        f" (load average {load_text(figures['load_average'])}; "
        f"{speed_text([figures['python_speed_ms']])})"
    )


def _ms(value: float | None, digits: int = 1) -> str:
    return "?" if value is None or value != value else f"{value:.{digits}f} ms"
