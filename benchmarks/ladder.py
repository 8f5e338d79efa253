"""Strength ladder of the computer players: each level against the one below, the strongest
against random, and (Chase) against a material-only alpha-beta. Plays through the arena's
``diceboard match`` (colour-swapped pairs with the same dice) and prints a table.

    python benchmarks/ladder.py --game chase --games 20 --workers 2 --scale 0.25

``--scale`` multiplies every time budget in the level specs (the shared 2-core machine cannot
afford full-length games of the top levels); 1 plays the levels as they are.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diceboard.ai.levels import LEVELS, level_spec, level_specs


def scaled(spec: str, scale: float) -> str:
    """``spec`` with its ``time=`` budget multiplied by ``scale``."""
    return re.sub(r"time=([0-9.]+)", lambda m: f"time={float(m.group(1)) * scale:.3g}", spec)


def match(game: str, a: str, b: str, games: int, workers: int, seed: int) -> dict[str, object]:
    """Play ``a`` against ``b``; return the arena's match.json summary."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            sys.executable,
            "-m",
            "diceboard.cli",
            "match",
            a,
            b,
            "--game",
            game,
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--workers",
            str(workers),
            "--no-progress",
            "--out",
            out,
        ]
        subprocess.run(command, check=True, capture_output=True, text=True)
        summary: dict[str, object] = json.loads((Path(out) / "match.json").read_text())
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chase")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument(
        "--levels",
        default="2-9",
        help="upper levels to test, e.g. 2-9 or 5-6 (those the game lacks, like Custodian's 9, "
        "are left out)",
    )
    parser.add_argument("--extra", action="store_true", help="also level 8 vs random, material")
    parser.add_argument("--only-extra", action="store_true", help="only the --extra pairs")
    args = parser.parse_args()
    low, _, high = args.levels.partition("-")
    pairs = []
    if not args.only_extra:
        for level in range(int(low), int(high or low) + 1):
            if level not in level_specs(args.game):
                continue
            upper = scaled(level_spec(level, args.game), args.scale)
            lower = scaled(level_spec(level - 1, args.game), args.scale)
            pairs.append((f"level {level} vs {level - 1}", upper, lower))
    if args.extra or args.only_extra:
        top = scaled(level_spec(max(LEVELS), args.game), args.scale)
        pairs.append(("level 8 vs random", top, "random"))
        if args.game == "chase":
            pairs.append(("level 8 vs material d3", top, "alphabeta:depth=3,eval=material"))
    print(
        f"{args.game}: {args.games} games a pair, time scale {args.scale}, seed {args.seed}\n\n"
        "| pair | agents | +won =drawn -lost | score | 95 % interval | seconds |\n"
        "| --- | --- | --- | --- | --- | --- |",
        flush=True,
    )
    for label, a, b in pairs:
        began = time.perf_counter()
        s = match(args.game, a, b, args.games, args.workers, args.seed)
        elo = s["elo"]
        assert isinstance(elo, dict)
        print(
            f"| {label} | `{a}` vs `{b}` | +{s['wins']} ={s['draws']} -{s['losses']} "
            f"| {100 * float(s['score']):.1f} % "  # type: ignore[arg-type]
            f"| [{100 * elo['score_low']:.1f}, {100 * elo['score_high']:.1f}] "
            f"| {time.perf_counter() - began:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
