"""Speed of the record layer (a benchmark that prints; not a test).

    python -m tests.records.benchmark [games]

For random whole games of each game it times making the record from the final state (which
replays and checks every move), writing and reading PGN text, and writing and reading JSON.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import diceboard
from diceboard.core.game import Game
from diceboard.records import GameRecord
from tests.records.helpers import play_random


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Seconds per call of ``fn``, over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def bench(label: str, game: Game, games: int) -> None:
    states = [play_random(game.initial_state(), seed) for seed in range(games)]
    plies = sum(len(s.move_stack()) for s in states) / games
    records = [GameRecord.from_state(s) for s in states]
    moves = sum(len(r.moves) for r in records) / games
    texts = [r.to_pgn() for r in records]
    jsons = [r.to_json() for r in records]
    rows = {
        "from_state": timed(lambda: [GameRecord.from_state(s) for s in states], 1),
        "to_pgn": timed(lambda: [r.to_pgn() for r in records], 3),
        "from_pgn": timed(lambda: [GameRecord.from_pgn(t) for t in texts], 1),
        "to_json": timed(lambda: [r.to_json() for r in records], 3),
        "from_json": timed(lambda: [GameRecord.from_json(j) for j in jsons], 1),
    }
    cells = "  ".join(f"{name} {1000 * sec / games:7.2f}" for name, sec in rows.items())
    print(f"{label:<22} {moves:6.1f} moves ({plies:6.1f} actions)  ms/game: {cells}")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    bench("custodian standard", diceboard.game("custodian"), games)
    bench("custodian chaos", diceboard.game("custodian", variant="chaos"), games)
    try:
        chase = diceboard.game("chase")
    except Exception as exc:  # the Chase engine may not be there yet
        print(f"chase: not available ({exc})")
    else:
        bench("chase", chase, games)


if __name__ == "__main__":
    main()
