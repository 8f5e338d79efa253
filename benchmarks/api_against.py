"""The Python API's speed against another commit's, interleaved in one run.

    python benchmarks/api_against.py REV [--seconds S] [--rounds N] [--game NAME ...]

Exports ``src/`` of the commit ``REV`` (``git archive``) into a temporary folder, then runs the
same random-game loop (``legal_moves`` + ``play``, ``chance_outcomes`` for rolls: the public
API only) once per round and game with this checkout's package and once with the other's, each
in its own process with its own numba cache (compiling happens before the clock starts). The
clock is the process's CPU time, so that a loaded machine slows neither side by waiting. Prints
plies per CPU second of both, their ratio and the load average before and after. Needs git.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the loop each process runs: public API only, so that it means the same in both trees
LOOP = """
import random, sys, time
import diceboard
game = diceboard.game(sys.argv[1])
seconds = float(sys.argv[2])
rng = random.Random(int(sys.argv[3]))

def play(deadline):
    plies = 0
    while True:
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                move = outcomes[rng.randrange(len(outcomes))][0]
            else:
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
                plies += 1
            state = state.play(move)
            if deadline is not None and time.process_time() >= deadline:
                return plies
        if deadline is None:
            return plies

play(None)  # one untimed game: compiles or loads the kernels
began = time.process_time()
plies = play(began + seconds)
print(plies, time.process_time() - began)
"""


def _run(src: Path, cache: Path, game: str, seconds: float, seed: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", LOOP, game, repr(seconds), str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise SystemExit(f"api_against: the loop failed in {src}: {lines[-1]}")
    plies, took = done.stdout.split()
    return int(plies) / float(took)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the commit to compare with, e.g. de04169^")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="CPU seconds per measurement (3)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument(
        "--game", action="append", default=None, help="a game (repeatable; default both)"
    )
    args = parser.parse_args()
    games = args.game or ["custodian", "chase"]
    with tempfile.TemporaryDirectory(prefix="diceboard-api-against-") as tmp:
        folder = Path(tmp)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.rev, "src"], capture_output=True, check=False
        )
        if archive.returncode != 0:
            raise SystemExit(f"api_against: git archive {args.rev} failed")
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        trees = {"this checkout": ROOT / "src", args.rev: folder / "src"}
        caches = {name: folder / f"cache-{i}" for i, name in enumerate(trees)}
        load = os.getloadavg()
        figures: dict[tuple[str, str], list[float]] = {}
        for r in range(args.rounds):
            for game in games:
                for name, src in trees.items():
                    rate = _run(src, caches[name], game, args.seconds, r)
                    figures.setdefault((game, name), []).append(rate)
        after = os.getloadavg()
    print(
        f"Python API, random games, {args.rounds} interleaved rounds of {args.seconds:g} CPU s "
        f"(load average {load[0]:.2f} -> {after[0]:.2f}):"
    )
    for game in games:
        ours = figures[(game, "this checkout")]
        theirs = figures[(game, args.rev)]
        mean_ours, mean_theirs = sum(ours) / len(ours), sum(theirs) / len(theirs)
        print(f"  {game:<10} this checkout {mean_ours:>10,.0f} plies/s   {args.rev} ", end="")
        print(f"{mean_theirs:>10,.0f} plies/s   ratio {mean_ours / mean_theirs:5.2f}")
        rounds = ", ".join(f"{a / b:.2f}" for a, b in zip(ours, theirs, strict=True))
        print(f"  {'':<10} ratio per round: {rounds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
