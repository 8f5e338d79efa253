"""The subprocess side of ``diceboard bench``:

``python -m diceboard.cli.bench.worker nojit|compile GAME OPTIONS_JSON SECONDS SEED``

prints one line of JSON. ``nojit`` times random kernel games (the parent sets
``NUMBA_DISABLE_JIT=1``); ``compile`` times importing the game's kernel and the first call of
each kernel function (the parent points ``NUMBA_CACHE_DIR`` at an empty folder).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

import diceboard
from diceboard.cli.bench.measure import MAX_ACTIONS, timed_playouts
from diceboard.core.game import Game
from diceboard.kernel import HASH


def nojit(game: Game, seconds: float, seed: int) -> dict[str, Any]:
    """Random kernel games for ``seconds``; the counts."""
    result = timed_playouts(game, seconds, seed)
    return {
        "plies": result.plies,
        "chance": result.chance,
        "games": result.games,
        "seconds": result.seconds,
    }


def compile_kernel(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Seconds to import the kernel (it is imported with its game) and to call each kernel
    function once, which compiles it."""
    began = time.perf_counter()
    game = diceboard.game(name, **options)
    kernel = game.kernel
    imported = time.perf_counter()
    state = game.initial_state()  # the start function and any static end checks
    arr = state.kernel_state()
    history = np.empty(MAX_ACTIONS, dtype=np.int64)
    history[0] = arr[HASH]
    buffer = np.empty(kernel.MAX_LEGAL, dtype=np.int64)
    count = kernel.legal_actions(arr, game.opts, buffer)
    kernel.step(arr, game.opts, buffer[0] if count else 0, history, 1)
    start = state.kernel_state()
    kernel.perft(start, game.opts, 2, history, 1)
    kernel.random_playouts(start, game.opts, 1, 0, MAX_ACTIONS)
    done = time.perf_counter()
    return {"seconds": done - began, "import_seconds": imported - began}


def main(argv: list[str]) -> int:
    """Run one task; print its JSON line."""
    task, name, options_json, seconds, seed = argv
    options = json.loads(options_json)
    if task == "nojit":
        data = nojit(diceboard.game(name, **options), float(seconds), int(seed))
    elif task == "compile":
        data = compile_kernel(name, options)
    else:
        raise SystemExit(f"unknown task {task!r}")
    print(json.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
