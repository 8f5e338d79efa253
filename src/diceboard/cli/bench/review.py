"""``diceboard bench review``: how long the web app's review of a game takes."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from diceboard import games
from diceboard.cli.arguments import positive_int
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Time the review of one game of --moves moves (random legal moves from a seeded start; the
review's own agent weighs every decision), two ways, interleaved over --rounds rounds: the
web app's review job (POST /api/games/{id}/review, polled until done, on an app in this
process with one worker process, as 'diceboard serve --computer-workers 1' runs it: the
record imported afresh each round, so nothing is cached) and diceboard.analysis.review
called directly in this process. Prints each way's median seconds, their ratio (the cost of
running the review a few moves per pool job, with progress) and the load average."""

EXAMPLES = """\
examples:
  diceboard bench review
  diceboard bench review --game custodian --moves 60 --rounds 2 --json
"""


def register(subparsers: Subparsers) -> None:
    """Add ``bench review``."""
    parser = new_command(
        subparsers,
        "review",
        "time of the web app's review of a game (and of the review called directly)",
        DESCRIPTION,
        EXAMPLES,
    )
    parser.add_argument("--game", default="chase", metavar="NAME", help="default: chase")
    parser.add_argument(
        "--moves", type=positive_int, default=100, metavar="N", help="moves (default 100)"
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=3, metavar="N", help="rounds (default 3)"
    )
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the moves")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def random_record(game_name: str, moves: int, seed: int) -> Any:
    """A record of ``moves`` random legal moves (rolls included) from the game's start; a
    game that ends sooner is played again with the next seed."""
    from diceboard.analysis.calibration import roll_chance
    from diceboard.records import GameRecord

    game = games.game(game_name)
    for attempt in range(1000):
        rng = random.Random(seed + attempt)
        state = game.initial_state()
        while len(state.move_stack()) < moves and state.outcome() is None:
            if state.is_chance():
                state = roll_chance(state, rng)
            else:
                state = state.play(rng.choice(state.legal_moves()))
        if len(state.move_stack()) == moves:
            return GameRecord.from_state(state)
    raise UsageError(f"no random game of {game_name} lasted {moves} moves")


def _web_review(client: Any, pgn: str) -> float:
    imported = client.post("/api/imports", json={"record": pgn})
    if imported.status_code != 201:
        raise UsageError(f"the import was refused: {imported.text}")
    game_id = imported.json()["id"]
    began = time.perf_counter()
    job = client.post(f"/api/games/{game_id}/review").json()
    while job["status"] == "running":
        time.sleep(0.05)
        job = client.get(f"/api/reviews/{job['job']}").json()
    if job["status"] != "done":
        raise UsageError(f"the review failed: {job['error']}")
    return time.perf_counter() - began


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    if args.game not in games.names():
        raise UsageError(f"unknown game {args.game!r}; games: {', '.join(games.names())}")
    try:
        with warnings.catch_warnings():
            # Starlette's notice about its test client's HTTP library is not for our users
            warnings.simplefilter("ignore", DeprecationWarning)
            from fastapi.testclient import TestClient

        from diceboard.server import ServerSettings, create_app
    except ImportError:
        raise UsageError("bench review needs the web extra: pip install '.[web]'") from None
    from diceboard.analysis.review import review

    record = random_record(args.game, args.moves, args.seed)
    pgn = record.to_pgn()
    load_before = os.getloadavg()[0]
    web: list[float] = []
    direct: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = ServerSettings(
            f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            computer_pool="process",
            computer_workers=1,
        )
        if hasattr(settings, "without_client_limits"):
            settings = settings.without_client_limits()  # one client imports every round
        with TestClient(create_app(settings)) as client:
            # untimed: the worker process starts, loads the kernels and compiles the search
            _web_review(client, random_record(args.game, 4, args.seed + 7).to_pgn())
            review(record)
            for _ in range(args.rounds):
                web.append(_web_review(client, pgn))
                began = time.perf_counter()
                review(record)
                direct.append(time.perf_counter() - began)
    figures = {
        "game": args.game,
        "moves": args.moves,
        "rounds": args.rounds,
        "web_seconds": statistics.median(web),
        "direct_seconds": statistics.median(direct),
        "ratio": statistics.median(web) / statistics.median(direct),
        "web_all": web,
        "direct_all": direct,
        "load_average": [load_before, os.getloadavg()[0]],
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"review of a {args.moves}-move {games.info(args.game).title} game, "
        f"median of {args.rounds} interleaved rounds"
    )
    print(f"  web app (review job, 1 worker process): {figures['web_seconds']:.2f} s")
    print(f"  diceboard.analysis.review, directly:    {figures['direct_seconds']:.2f} s")
    print(f"  ratio web / direct: {figures['ratio']:.2f}")
    print(f"  load average (1 min) before and after: {load_before:.2f}, {os.getloadavg()[0]:.2f}")
    return 0
