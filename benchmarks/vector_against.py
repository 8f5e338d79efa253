"""The batched simulator's speed against another commit's, interleaved in one run.

    python benchmarks/vector_against.py REV [--seconds S] [--rounds N] [--batch B] [--game NAME ...]

Exports ``src/`` of the commit ``REV`` (``git archive``) and runs the same loop once per round
and game with this checkout's package and once with the other's, each in its own process with
its own numba cache: a batch of ``B`` games (``diceboard.vector``, random legal actions, on one
thread), first played until every game in it has ended once (so that the games are at every
stage), then stepped in place (``donate=True``), functionally (new state each step) and with
``random_step`` in place (the actions picked inside the step; nan for a tree without it) for
``S`` CPU seconds each. The clock is the process's CPU time, so that a loaded machine slows
neither side by waiting; one thread, so that CPU time is the step's time. Prints steps per CPU
second of both trees, their ratios per round and the load average before and after. A machine
whose speed drifts from minute to minute (a shared one) moves both trees alike within a round:
the ratios are the figures to read.
"""

from __future__ import annotations

from pathlib import Path

from against import THIS, arguments, interleaved, run_loop

#: the loop each process runs: the public functional API only, so that it means the same in
#: both trees
LOOP = """
import sys, time
import numpy as np
import diceboard.vector as dv
from diceboard.vector.threads import forced_threads

game, batch, seconds, seed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(seed)
with forced_threads(1):
    state = dv.init(game, seed=seed, batch=batch)
    ended = state.terminated | state.truncated
    for _ in range(5000):
        state = dv.step(state, dv.random_actions(state, rng), donate=True)
        ended |= state.terminated | state.truncated
        if ended.all():
            break
    for _ in range(4):  # both ways compiled or loaded before the clock starts
        state = dv.step(state, dv.random_actions(state, rng))
    rates = []
    for donate in (True, False):
        steps = 0
        began = time.process_time()
        while time.process_time() - began < seconds:
            for _ in range(8):
                state = dv.step(state, dv.random_actions(state, rng), donate=donate)
            steps += 8 * batch
        rates.append(steps / (time.process_time() - began))
    if hasattr(dv, "random_step"):  # a tree from before it measures nan
        state, _ = dv.random_step(state, rng, donate=True)
        steps = 0
        began = time.process_time()
        while time.process_time() - began < seconds:
            for _ in range(8):
                state, _ = dv.random_step(state, rng, donate=True)
            steps += 8 * batch
        rates.append(steps / (time.process_time() - began))
    else:
        rates.append(float("nan"))
print(*rates)
"""

WAYS = ("in place", "functional", "random_step")


def _run(tree: tuple[Path, Path], game: str, batch: int, seconds: float, seed: int) -> list[float]:
    """Steps per CPU second in place and functionally."""
    words = run_loop("vector_against", tree, LOOP, game, str(batch), repr(seconds), str(seed))
    return [float(w) for w in words]


def main() -> int:
    parser = arguments(__doc__, 2.0, "CPU seconds per way (2)")
    parser.add_argument("--batch", type=int, default=4096, help="games in the batch (4096)")
    args = parser.parse_args()
    games, figures, load = interleaved(
        "vector_against",
        args,
        lambda tree, game, r: _run(tree, game, args.batch, args.seconds, r),
    )
    print(
        f"Batched simulator, batch {args.batch:,}, 1 thread, {args.rounds} interleaved rounds "
        f"of {args.seconds:g} CPU s a way (load average {load[0]:.2f} -> {load[1]:.2f}):"
    )
    for game in games:
        ours, theirs = figures[(game, THIS)], figures[(game, args.rev)]
        for w, way in enumerate(WAYS):
            mine = sum(run[w] for run in ours) / len(ours)
            other = sum(run[w] for run in theirs) / len(theirs)
            rounds = ", ".join(f"{a[w] / b[w]:.2f}" for a, b in zip(ours, theirs, strict=True))
            print(
                f"  {game:<10} {way:<11} this checkout {mine:>11,.0f} steps/s   {args.rev} "
                f"{other:>11,.0f} steps/s   ratio {mine / other:5.2f}  (rounds: {rounds})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
