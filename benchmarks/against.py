"""What the ``*_against.py`` benchmarks share: another commit's package beside this checkout's,
and one measuring loop run in a process of its own for either.

Each tree runs with its own numba cache (kept for the whole comparison, so that only the first
round compiles), and the loop's process sees the package of its tree only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]

#: the name of this checkout's tree
THIS = "this checkout"


@contextmanager
def trees(rev: str, tool: str) -> Iterator[dict[str, tuple[Path, Path]]]:
    """``{name: (source folder, numba cache folder)}`` for this checkout and for ``src/`` of
    the commit ``rev`` (exported with ``git archive`` into a temporary folder, removed after
    the block). ``tool`` names the benchmark in its errors."""
    with tempfile.TemporaryDirectory(prefix=f"diceboard-{tool}-") as tmp:
        folder = Path(tmp)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True, check=False
        )
        if archive.returncode != 0:
            raise SystemExit(f"{tool}: git archive {rev} failed")
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        sources = {THIS: ROOT / "src", rev: folder / "src"}
        yield {name: (src, folder / f"cache-{i}") for i, (name, src) in enumerate(sources.items())}


def run_loop(tool: str, tree: tuple[Path, Path], code: str, *args: str) -> list[str]:
    """Run ``code`` (a Python program reading ``sys.argv[1:]`` = ``args``) with ``tree``'s
    package and numba cache; return the words of its output (its last line names the
    failure if it fails)."""
    src, cache = tree
    env = {**os.environ, "PYTHONPATH": str(src), "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise SystemExit(f"{tool}: the loop failed in {src}: {lines[-1]}")
    return done.stdout.split()


def arguments(doc: str, seconds: float, seconds_help: str) -> argparse.ArgumentParser:
    """The options every comparison takes: the commit, --seconds, --rounds and --game."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("rev", help="the commit to compare with, e.g. a5d0c0f")
    parser.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument(
        "--game", action="append", default=None, help="a game (repeatable; default both)"
    )
    return parser


def interleaved(
    tool: str, args: argparse.Namespace, measure: Callable[[tuple[Path, Path], str, int], T]
) -> tuple[list[str], dict[tuple[str, str], list[T]], tuple[float, float]]:
    """``measure(tree, game, round)`` for every round, game and tree (this checkout's, then
    ``args.rev``'s), in that order, for the games of :func:`arguments`' options. Returns the
    games, ``{(game, tree name): [one figure per round]}`` and the 1-minute load average
    before and after."""
    games = args.game or ["custodian", "chase"]
    before = os.getloadavg()[0]
    figures: dict[tuple[str, str], list[T]] = {}
    with trees(args.rev, tool) as folders:
        for r in range(args.rounds):
            for game in games:
                for name, tree in folders.items():
                    figures.setdefault((game, name), []).append(measure(tree, game, r))
    return games, figures, (before, os.getloadavg()[0])
