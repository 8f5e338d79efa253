"""Link-only copies for compiled callers against numba's own libraries, in one process.

    python benchmarks/link_only.py [--rounds N] [--link-only-first]

Loads the package twice in this process, without numba's on-disk cache: once with the copies
for compiled callers compiled as numba's own code libraries, once link-only
(:mod:`diceboard.kernel.link_only`), and compiles in each the same work: both games' random
playouts, alpha-beta and batched simulator. Prints the CPU each load took (numba's own
compiler caches warm up in the first, so run it both ways round: ``--link-only-first``), then
times each piece of work with both loads' compiled code, interleaved over ``--rounds`` rounds
(the order swapped every round), with the median of each round's ratio: what the compiled code
gains or loses, measured on the same machine within milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from numba.core import dispatcher

from diceboard.kernel import link_only

Work = dict[str, Callable[[], Any]]


def _load(link_only_copies: bool) -> Work:
    """A fresh import of the package, its copies compiled link-only or not, and its work."""
    for name in [n for n in sys.modules if n.startswith("diceboard") and n != link_only.__name__]:
        del sys.modules[name]
    import diceboard.ai  # noqa: F401 - the kernel package installs link-only copies
    import diceboard.vector as dv
    from diceboard import games
    from diceboard.ai.alphabeta_agent import AlphaBetaAgent
    from diceboard.ai.benchmark import start_position
    from diceboard.cli.bench import measure

    if not link_only_copies:
        link_only.uninstall()
    work: Work = {}
    for name, playouts, depth in (("custodian", 3000, 11), ("chase", 600, 5)):
        game = games.game(name)
        kernel, start, opts = measure._start_arrays(game)
        kernel.random_playouts(start, opts, 1, 0, measure.MAX_ACTIONS)
        work[f"{name} {playouts} random games"] = lambda k=kernel, s=start, o=opts, n=playouts: (
            k.random_playouts(s, o, n, 7, measure.MAX_ACTIONS)
        )
        state = start_position(game, 0)
        AlphaBetaAgent(depth=1, seed=1).choose(state)
        work[f"{name} alpha-beta depth {depth}"] = lambda s=state, d=depth: AlphaBetaAgent(
            depth=d, seed=1
        ).choose(s)
        held = {"state": dv.init(name, seed=1, batch=4096)}
        for seed in range(30):  # every game past its first moves
            held["state"], _ = dv.random_step(held["state"], seed, donate=True)

        def steps(held: dict[str, Any] = held) -> None:
            for seed in range(20):
                held["state"], _ = dv.random_step(held["state"], seed, donate=True)

        work[f"{name} 20 simulator steps"] = steps
    link_only.install()
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--link-only-first", action="store_true")
    args = parser.parse_args()
    # nothing loaded from (or written to) numba's cache: both loads compile everything
    dispatcher.Dispatcher.enable_caching = lambda self: None
    loads: dict[bool, Work] = {}
    cpu: dict[bool, float] = {}
    for link in (True, False) if args.link_only_first else (False, True):
        began = time.process_time()
        loads[link] = _load(link)
        cpu[link] = time.process_time() - began
    print(f"compile CPU: numba's libraries {cpu[False]:.2f} s, link-only {cpu[True]:.2f} s")
    times: dict[str, dict[bool, list[float]]] = {k: {False: [], True: []} for k in loads[True]}
    for round_ in range(args.rounds):
        for name in times:
            for link in (False, True) if round_ % 2 == 0 else (True, False):
                began = time.perf_counter()
                loads[link][name]()
                times[name][link].append(time.perf_counter() - began)
    for name, by in times.items():
        ratios = [own / link for own, link in zip(by[False], by[True], strict=True)]
        print(
            f"{name:30s} numba's {statistics.median(by[False]) * 1e3:7.1f} ms"
            f"  link-only {statistics.median(by[True]) * 1e3:7.1f} ms"
            f"  speed of link-only: {statistics.median(ratios):.3f}x"
            f" ({min(ratios):.2f}-{max(ratios):.2f})"
        )
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
