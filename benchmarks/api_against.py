"""The Python API's speed against another commit's, interleaved in one run.

    python benchmarks/api_against.py REV [--seconds S] [--rounds N] [--game NAME ...]

Exports ``src/`` of the commit ``REV`` (``git archive``) into a temporary folder, then runs the
same random-game loop (``legal_moves`` + ``play``, ``chance_outcomes`` for rolls: the public
API only) once per round and game with this checkout's package and once with the other's, each
in its own process with its own numba cache (compiling happens before the clock starts). The
clock is the process's CPU time, so that a loaded machine slows neither side by waiting. Prints
plies per CPU second of both, their ratio and the load average before and after, and for each
side the share of the time spent in the garbage collector and the memory that finished games
keep alive (resident memory over 20,000 plies of games kept, whose every state stays alive
through its last state's parents; Linux). Needs git.
"""

from __future__ import annotations

from pathlib import Path

from against import THIS, arguments, interleaved, run_loop

#: the loop each process runs: public API only, so that it means the same in both trees
LOOP = """
import gc, os, random, sys, time
import diceboard
game = diceboard.game(sys.argv[1])
seconds = float(sys.argv[2])
rng = random.Random(int(sys.argv[3]))

def play(deadline, keep=None, wanted=0):
    # the clock is read every 256 plies: a read costs a system call, which on a loaded
    # machine is a sizeable part of a ply
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
            if plies & 255 == 0 and time.process_time() >= deadline:
                return plies
        if keep is not None:
            keep.append(state)  # and, through its parents, every state of its game
            if plies >= wanted:
                return plies

collecting = [0.0, 0.0]  # seconds in the garbage collector, when the running pass began

def timed(phase, info):
    now = time.process_time()
    if phase == "start":
        collecting[1] = now
    else:
        collecting[0] += now - collecting[1]

def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

play(float("inf"), keep=[], wanted=1)  # one untimed game: compiles or loads the kernels
gc.callbacks.append(timed)
began = time.process_time()
plies = play(began + seconds)
took = time.process_time() - began
gc.callbacks.remove(timed)
# the memory a finished game's states hold, kept alive by its last state
gc.collect()
before, kept = resident(), []
kept_plies = play(float("inf"), keep=kept, wanted=20000)
per_ply = (resident() - before) / kept_plies
print(plies, took, collecting[0], per_ply)
"""


def _run(
    tree: tuple[Path, Path], game: str, seconds: float, seed: int
) -> tuple[float, float, float]:
    """Plies per CPU second, the share of that time in the garbage collector, and the bytes
    of memory per ply of finished games kept alive."""
    words = run_loop("api_against", tree, LOOP, game, repr(seconds), str(seed))
    plies, took, collecting, per_ply = (float(x) for x in words)
    return plies / took, collecting / took, per_ply


def main() -> int:
    parser = arguments(__doc__, 3.0, "CPU seconds per measurement (3)")
    args = parser.parse_args()
    games, figures, load = interleaved(
        "api_against",
        args,
        lambda tree, game, r: _run(tree, game, args.seconds, r),
    )
    print(
        f"Python API, random games, {args.rounds} interleaved rounds of {args.seconds:g} CPU s "
        f"(load average {load[0]:.2f} -> {load[1]:.2f}):"
    )
    for game in games:
        ours = [rate for rate, _, _ in figures[(game, THIS)]]
        theirs = [rate for rate, _, _ in figures[(game, args.rev)]]
        mean_ours, mean_theirs = sum(ours) / len(ours), sum(theirs) / len(theirs)
        print(f"  {game:<10} this checkout {mean_ours:>10,.0f} plies/s   {args.rev} ", end="")
        print(f"{mean_theirs:>10,.0f} plies/s   ratio {mean_ours / mean_theirs:5.2f}")
        rounds = ", ".join(f"{a / b:.2f}" for a, b in zip(ours, theirs, strict=True))
        print(f"  {'':<10} ratio per round: {rounds}")
        for name in (THIS, args.rev):
            runs = figures[(game, name)]
            share = sum(c for _, c, _ in runs) / len(runs)
            memory = sum(m for _, _, m in runs) / len(runs)
            print(
                f"  {'':<10} {name}: {share:.1%} of the time in the garbage collector, "
                f"{memory / 1024:.2f} KiB of memory per ply of kept games"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
