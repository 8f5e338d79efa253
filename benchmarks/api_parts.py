"""Where a ply of the Python API's random games goes, part by part.

    python benchmarks/api_parts.py [--game NAME ...] [--positions N] [--repeat R]

Plays random games through the public API until it has ``N`` decisions (default 20,000),
keeping each position and the move chosen there, then times over those same positions, best
of ``R`` passes (default 5): ``legal_moves()`` (as on a state's first call: the state keeps no
list), ``play(move)``, the compiled call that
``play`` makes (``game._advance``, the state's buffer and the first action: what the kernel
and handing the new state back cost), and the loop itself. Positions whose chosen move is
several actions (a Chase turn that absorbs first, a Chaos move joined with its roll) are
timed apart from the others, with their share of the decisions, since they cost many times
more. Prints nanoseconds per position and the load average; a shared machine moves these
figures from hour to hour, so compare parts within one run, or two trees run in turns.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import diceboard


def _positions(game: diceboard.Game, wanted: int, seed: int) -> list[tuple[Any, Any]]:
    """(state, chosen move) pairs of random games, decisions only."""
    rng = random.Random(seed)
    found: list[tuple[Any, Any]] = []
    while len(found) < wanted:
        state = game.initial_state()
        while not state.is_terminal() and len(found) < wanted:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.play(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            found.append((state, move))
            state = state.play(move)
    return found


def _best(run: Callable[[], None], repeat: int, count: int) -> float:
    """Nanoseconds a position: the best of ``repeat`` timed passes of ``run``."""
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - began)
    return best / max(count, 1) * 1e9


def _parts(game: diceboard.Game, chosen: list[tuple[Any, Any]], repeat: int) -> dict[str, float]:
    """Nanoseconds a position of each part, over the positions ``chosen``."""
    # legal_moves() keeps no list with a state, so each pass asks states that keep none (a
    # list kept by code inside, chance outcomes say, is let go first)
    for state, _ in chosen:
        state._moves = None
    calls = [(state._buf, move.actions[0]) for state, move in chosen]
    opts = game._opts
    game._advance(calls[0][0], opts, calls[0][1])  # finds the compiled function
    advance = game._advance

    def legal_moves() -> None:
        for state, _ in chosen:
            state.legal_moves()

    def play() -> None:
        for state, move in chosen:
            state.play(move)

    def kernel_call() -> None:
        for buf, action in calls:
            advance(buf, opts, action)

    def loop() -> None:
        for _state, _move in chosen:
            pass

    count = len(chosen)
    return {
        "legal_moves()": _best(legal_moves, repeat, count),
        "play(move)": _best(play, repeat, count),
        "  of which the compiled call (first action)": _best(kernel_call, repeat, count),
        "the loop alone": _best(loop, repeat, count),
    }


def measure(game: diceboard.Game, wanted: int, repeat: int) -> dict[str, dict[str, float]]:
    """Per kind of position (its chosen move one action or several): the share of the
    decisions, and nanoseconds a position of each part."""
    pairs = _positions(game, wanted, seed=1)
    kinds = {
        "one action": [p for p in pairs if len(p[1].actions) == 1],
        "several actions": [p for p in pairs if len(p[1].actions) > 1],
    }
    return {
        kind: {"share": len(chosen) / len(pairs), **_parts(game, chosen, repeat)}
        for kind, chosen in kinds.items()
        if chosen
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a registered game (default: all)")
    parser.add_argument("--positions", type=int, default=20_000, help="decisions (20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="passes, the best kept (5)")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.repeat < 1:
        parser.error("--positions and --repeat take a positive number")
    for name in args.game or diceboard.games.names():
        try:
            game = diceboard.game(name)
        except (KeyError, ValueError) as exc:
            parser.error(f"--game {name}: {exc}")
        before = os.getloadavg()
        figures = measure(game, args.positions, args.repeat)
        after = os.getloadavg()
        print(
            f"{game.title}: {args.positions:,} decisions of random games, best of "
            f"{args.repeat} (load average {before[0]:.2f} -> {after[0]:.2f})"
        )
        for kind, parts in figures.items():
            print(f"  moves of {kind}: {parts['share']:.1%} of the decisions")
            for part, ns in parts.items():
                if part != "share":
                    print(f"    {part:<46} {ns:>10,.0f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
