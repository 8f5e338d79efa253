"""The measurements of ``diceboard bench``: random games through the compiled kernel, through
the Python API and through the kernel without JIT; the cold-cache compile time; the start-up
time of the console script."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from diceboard.cli.bench.common import load_average
from diceboard.cli.errors import UsageError
from diceboard.core.game import Game

#: a cap on the actions of one random game; the games' own end rules stop them far sooner
MAX_ACTIONS = 100_000
#: the longest one timed batch of kernel playouts should take
BATCH_SECONDS = 0.2
#: the slowest a subprocess measurement may be beyond its budget before it counts as hung
SUBPROCESS_GRACE_SECONDS = 600.0


@dataclass(frozen=True)
class Throughput:
    """What one measurement of random games counted: decisions (plies), chance events, whole
    games finished, and the seconds they took."""

    plies: int
    chance: int
    games: int
    seconds: float

    @property
    def plies_per_second(self) -> float:
        """Decisions per second."""
        return self.plies / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_second(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, float]:
        """The counts and rates, for JSON."""
        return {
            "plies": self.plies,
            "chance_events": self.chance,
            "games": self.games,
            "seconds": self.seconds,
            "plies_per_second": self.plies_per_second,
            "games_per_second": self.games_per_second,
        }


def _start_arrays(game: Game) -> tuple[ModuleType, np.ndarray, np.ndarray]:
    return game.kernel, game.initial_state().kernel_state(), game.opts


def timed_playouts(game: Game, seconds: float, seed: int) -> Throughput:
    """Whole random games in the kernel (``random_playouts``) from the initial state for about
    ``seconds``, at least one game. Batches grow so that timer calls cost nothing."""
    kernel, start, opts = _start_arrays(game)
    totals = np.zeros(6, dtype=np.int64)
    batch = 1
    elapsed = 0.0
    call = 0
    while True:
        began = time.perf_counter()
        totals += kernel.random_playouts(start, opts, batch, seed + call, MAX_ACTIONS)
        took = time.perf_counter() - began
        elapsed += took
        call += 1
        remaining = seconds - elapsed
        if remaining <= 0:
            break
        per_game = took / batch
        batch = max(1, int(min(remaining, BATCH_SECONDS) / per_game)) if per_game > 0 else batch * 2
    return Throughput(int(totals[0]), int(totals[1]), int(totals[2]), elapsed)


def compiled_throughput(game: Game, seconds: float, seed: int) -> Throughput:
    """:func:`timed_playouts` with the compiled kernel; compiling (or loading it from the
    cache) happens before the clock starts."""
    kernel, start, opts = _start_arrays(game)
    kernel.random_playouts(start, opts, 1, seed, MAX_ACTIONS)
    return timed_playouts(game, seconds, seed)


def api_throughput(game: Game, seconds: float, seed: int) -> Throughput:
    """Random games through the Python API for about ``seconds``: ``legal_moves`` and
    ``play`` for decisions, ``chance_outcomes`` (with their probabilities) for rolls. The
    clock is read after every action, so a game cut off by the time still counts its plies.
    One untimed game first loads the compiled kernels, so the figure measures play alone."""
    rng = random.Random(seed)
    _random_game(game, rng)
    plies = chance = games = 0
    began = time.perf_counter()
    deadline = began + seconds
    now = began
    while now < deadline:
        state = game.initial_state()
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                games += 1
                break
            if state.is_chance():
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
                chance += 1
            else:
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
                plies += 1
            state = state.play(move)
            now = time.perf_counter()
            if now >= deadline:
                break
    return Throughput(plies, chance, games, now - began)


def _random_game(game: Game, rng: random.Random) -> None:
    """Play one random game through the API (untimed warm-up)."""
    state = game.initial_state()
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return
        if state.is_chance():
            state = state.play(rng.choice(state.legal_action_ids()))
        else:
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])


def _game_arguments(game: Game) -> list[str]:
    """Command-line arguments that make ``game`` again (its non-default options)."""
    argv: list[str] = []
    for key, value in game.non_default_options().items():
        if key == "variant":
            argv += ["--variant", str(value)]
        else:
            argv += ["--option", f"{key}={value}"]
    return argv


def _worker(task: str, game: Game, seconds: float, seed: int, env: dict[str, str]) -> Any:
    """Run :mod:`diceboard.cli.bench.worker` in a subprocess; its one line of JSON."""
    argv = [
        sys.executable,
        "-m",
        "diceboard.cli.bench.worker",
        task,
        game.name,
        json.dumps(game.non_default_options()),
        repr(seconds),
        str(seed),
    ]
    done = subprocess.run(
        argv,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds + SUBPROCESS_GRACE_SECONDS,
        check=False,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise UsageError(f"the {task} benchmark subprocess failed: {lines[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def nojit_throughput(game: Game, seconds: float, seed: int) -> Throughput:
    """:func:`timed_playouts` in a subprocess with ``NUMBA_DISABLE_JIT=1``: the kernel's
    source run as plain Python."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    data = _worker("nojit", game, seconds, seed, env)
    return Throughput(data["plies"], data["chance"], data["games"], data["seconds"])


def compile_seconds(game: Game) -> tuple[float, float]:
    """Seconds to import the kernel and make the first call of each kernel function, in a
    subprocess whose numba cache is a new, empty folder (so everything compiles); and the
    part of it that the import took."""
    with tempfile.TemporaryDirectory(prefix="diceboard-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop("NUMBA_DISABLE_JIT", None)
        data = _worker("compile", game, 0.0, 0, env)
    return float(data["seconds"]), float(data["import_seconds"])


def console_script() -> list[str]:
    """The command that runs the ``diceboard`` console script of this Python."""
    name = "diceboard.exe" if os.name == "nt" else "diceboard"
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return [str(beside)]
    found = shutil.which("diceboard")
    if found is not None:
        return [found]
    return [sys.executable, "-m", "diceboard.cli"]


def moves_command(game: Game) -> list[str]:
    """``diceboard moves GAME start`` for ``game``."""
    return [*console_script(), "moves", game.name, "start", *_game_arguments(game)]


def command_seconds(argv: list[str], runs: int) -> list[float]:
    """Wall-clock seconds of ``runs`` runs of ``argv``, after one untimed run that warms the
    numba cache and the file system."""
    times = []
    for attempt in range(runs + 1):
        began = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        took = time.perf_counter() - began
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or ["no message"]
            raise UsageError(f"{' '.join(argv[-3:])} failed: {lines[-1]}")
        if attempt > 0:
            times.append(took)
    return times


def median(values: list[float]) -> float:
    """The median of ``values``."""
    return float(statistics.median(values))


# --- the C reference (bench custodian --against-c) -------------------------------------------
#: the C reference of Custodian random playouts, in a source checkout
C_REFERENCE = Path(__file__).resolve().parents[4] / "benchmarks" / "c" / "custodian_ref.c"
#: how gcc builds it: numba compiles the kernels for this machine's CPU, so the C program is
#: compiled for it too (-march=native), or the comparison would handicap C
C_FLAGS = ("-O3", "-march=native")
#: the options the C reference plays (option name -> the value it requires, or None: any)
C_OPTIONS = {"faces": "turn", "path": "no-reversal"}


def build_c_reference(directory: Path) -> Path:
    """Compile the C reference with gcc (:data:`C_FLAGS`) into ``directory``; its path."""
    if not C_REFERENCE.exists():
        raise UsageError(
            f"--against-c needs the C reference {C_REFERENCE.name} of a source checkout "
            "(benchmarks/c/), which this installation does not have"
        )
    gcc = shutil.which("gcc")
    if gcc is None:
        raise UsageError("--against-c needs gcc, which is not on PATH")
    binary = directory / "custodian_ref"
    done = subprocess.run(
        [gcc, *C_FLAGS, "-o", str(binary), str(C_REFERENCE)], capture_output=True, text=True
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise UsageError(f"gcc could not build the C reference: {lines[-1]}")
    return binary


def c_arguments(game: Game) -> list[str]:
    """The option arguments of the C reference for ``game`` (a UsageError for options it
    does not play)."""
    options = game.options
    for name, required in C_OPTIONS.items():
        if options.get(name) != required:
            raise UsageError(
                f"--against-c: the C reference plays only {name}={required}, "
                f"not {name}={options.get(name)}"
            )
    opts = game.opts
    return [str(int(opts[0])), str(int(opts[3])), str(int(opts[4])), str(int(opts[5]))]


def c_throughput(binary: Path, game: Game, seconds: float, seed: int) -> Throughput:
    """Random games of the C reference for about ``seconds``."""
    argv = [str(binary), "playouts", repr(seconds), str(seed), *c_arguments(game)]
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=seconds + SUBPROCESS_GRACE_SECONDS
    )
    if done.returncode != 0:
        raise UsageError(f"the C reference failed: {done.stderr.strip() or 'no message'}")
    plies, chance, games, *_, secs = done.stdout.split()
    return Throughput(int(plies), int(chance), int(games), float(secs))


def against_c(
    game: Game, seconds: float, seed: int, rounds: int
) -> tuple[Throughput, Throughput, tuple[float, float]]:
    """The compiled kernel's and the C reference's random games, interleaved: ``rounds``
    rounds of ``seconds / rounds`` each; and the 1-minute load average before and after."""
    c_arguments(game)  # refuse unsupported options before building anything
    load = load_average()[0]
    with tempfile.TemporaryDirectory(prefix="diceboard-cref-") as folder:
        binary = build_c_reference(Path(folder))
        kernel, start, opts = _start_arrays(game)
        kernel.random_playouts(start, opts, 1, seed, MAX_ACTIONS)  # compile or load first
        share = seconds / rounds
        ours = [0, 0, 0, 0.0]
        theirs = [0, 0, 0, 0.0]
        for r in range(rounds):
            for totals, figure in (
                (ours, timed_playouts(game, share, seed + r)),
                (theirs, c_throughput(binary, game, share, seed + r)),
            ):
                totals[0] += figure.plies
                totals[1] += figure.chance
                totals[2] += figure.games
                totals[3] += figure.seconds
    after = load_average()[0]
    return (
        Throughput(int(ours[0]), int(ours[1]), int(ours[2]), float(ours[3])),
        Throughput(int(theirs[0]), int(theirs[1]), int(theirs[2]), float(theirs[3])),
        (load, after),
    )
