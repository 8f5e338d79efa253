"""``diceboard bench vector``: the batched simulator's throughput, beside the PettingZoo
environments' for comparison."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from diceboard import games
from diceboard.cli.arguments import positive_float, positive_int
from diceboard.cli.bench.report import _marks, _symbols
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command
from diceboard.core.game import Game

#: the batch size at which the simulator should reach each game's ``targets["vector_steps"]``
#: (steps per second, random legal actions)
TARGET_BATCH = 4096


def target(game: Game) -> float | None:
    """The steps per second the simulator should reach for ``game`` at :data:`TARGET_BATCH`."""
    value = games.info(game.name).targets.get("vector_steps")
    return None if value is None else float(value)


def pettingzoo_name(game: Game) -> str | None:
    """The PettingZoo environment module name of ``game`` (``None`` if it has none)."""
    return games.info(game.name).environments.get("pettingzoo")


DESCRIPTION = """\
Steps per second of the batched simulator (diceboard.vector): B games stepped together by the
compiled kernels on every core (numba prange), each step a uniformly random legal action in
every game, chance events rolled inside, finished games restarted (auto-reset). Measured at
each --batch size with step(..., donate=True) (the arrays reused in place); at the largest
batch also functionally (new arrays each step) and with the observations and legal-action
masks computed after every step. Then, for comparison, the PettingZoo AEC environment
stepping one game with random legal actions. A step is one decision in one game."""

EXAMPLES = """\
examples:
  diceboard bench vector
  diceboard bench vector --game custodian --seconds 0.5
  diceboard bench vector --batch 64 --batch 1024 --json
"""


@dataclass
class Measure:
    """One throughput: ``steps`` decisions in ``seconds``."""

    label: str
    steps: int
    seconds: float
    batch: int = 1

    @property
    def per_second(self) -> float:
        """Steps per second."""
        return self.steps / self.seconds if self.seconds > 0 else 0.0


@dataclass
class VectorFigures:
    """Every measurement of one game."""

    game: Game
    threads: int
    seconds: float
    layer: str = "?"
    measures: list[Measure] = field(default_factory=list)
    pettingzoo: Measure | None = None
    pettingzoo_error: str | None = None

    def headline(self) -> Measure | None:
        """The in-place measure at the target batch (what the target is about)."""
        for m in self.measures:
            if m.batch == TARGET_BATCH and m.label == "in place":
                return m
        return None

    def as_dict(self) -> dict[str, Any]:
        """The figures as plain data (for ``--json``)."""
        head = self.headline()
        goal = target(self.game)
        return {
            "game": self.game.name,
            "options": self.game.non_default_options(),
            "threads": self.threads,
            "threading_layer": self.layer,
            "seconds": self.seconds,
            "measures": [{**asdict(m), "steps_per_second": m.per_second} for m in self.measures],
            "pettingzoo": None
            if self.pettingzoo is None
            else {**asdict(self.pettingzoo), "steps_per_second": self.pettingzoo.per_second},
            "pettingzoo_error": self.pettingzoo_error,
            "target": goal,
            "target_met": None if head is None or goal is None else head.per_second >= goal,
        }


def register(subparsers: Subparsers) -> None:
    """Add ``bench vector``."""
    parser = new_command(
        subparsers, "vector", "benchmark the batched simulator", DESCRIPTION, EXAMPLES
    )
    parser.add_argument(
        "--game",
        choices=(*games.names(), "all"),
        default="all",
        help="the game to measure (default: all)",
    )
    parser.add_argument(
        "--batch",
        metavar="B",
        type=positive_int,
        action="append",
        help=f"a batch size (repeatable; default 1, 256 and {TARGET_BATCH})",
    )
    parser.add_argument(
        "--seconds",
        metavar="S",
        type=positive_float,
        default=1.0,
        help="seconds for each measurement (default 1)",
    )
    parser.add_argument("--seed", metavar="N", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--threads",
        metavar="N",
        type=positive_int,
        help="numba threads (default: every core numba sees)",
    )
    parser.add_argument(
        "--threading-layer",
        choices=("default", "workqueue", "omp", "tbb"),
        default="default",
        help="numba's threading layer (default: numba's choice; 'workqueue' copes best with "
        "cores that other programs keep busy)",
    )
    parser.add_argument(
        "--no-pettingzoo", action="store_true", help="leave out the PettingZoo comparison"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 if a target is missed"
    )
    parser.set_defaults(handler=run)


def _time_steps(
    state: Any, seconds: float, seed: int, donate: bool, observe: bool
) -> tuple[int, float]:
    import diceboard.vector as dv

    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(4):
            state = dv.step(state, dv.random_actions(state, rng), donate=donate)
            if observe:
                state.observation  # noqa: B018  (computed on first use)
                state.legal_action_mask  # noqa: B018
            steps += state.batch_size
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - start


def measure_batch(
    game: Game, batch: int, seconds: float, seed: int, *, donate: bool = True, observe: bool = False
) -> tuple[int, float]:
    """Steps and seconds of random legal play at ``batch`` (after a warm-up step)."""
    import diceboard.vector as dv

    state = dv.init(game, seed=seed, batch=batch)
    state = dv.step(state, dv.random_actions(state, seed), donate=True)  # compile, warm caches
    if observe:  # the encoders load (or compile) on first use: not part of the figure
        state.observation  # noqa: B018
        state.legal_action_mask  # noqa: B018
    return _time_steps(state, seconds, seed, donate, observe)


def measure_pettingzoo(game: Game, seconds: float, seed: int) -> tuple[int, float]:
    """Steps and seconds of the PettingZoo AEC environment with random legal actions."""
    from diceboard.envs.pettingzoo import env_module

    module = env_module(game.name)
    options: dict[str, Any] = {}
    if len(games.info(game.name).variants) > 1:
        options["variant"] = game.variant
    options.update({k: v for k, v in game.non_default_options().items() if k != "variant"})
    env = module.raw_env(**options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(16):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    return steps, time.perf_counter() - start


def measure_game(game: Game, args: argparse.Namespace, threads: int) -> VectorFigures:
    """Every measurement of one game."""
    batches = sorted(set(args.batch or (1, 256, TARGET_BATCH)))
    figures = VectorFigures(game, threads, args.seconds)
    for batch in batches:
        steps, secs = measure_batch(game, batch, args.seconds, args.seed)
        figures.measures.append(Measure("in place", steps, secs, batch))
    largest = batches[-1]
    steps, secs = measure_batch(game, largest, args.seconds, args.seed, donate=False)
    figures.measures.append(Measure("functional", steps, secs, largest))
    steps, secs = measure_batch(game, largest, args.seconds, args.seed, observe=True)
    figures.measures.append(Measure("with observations and masks", steps, secs, largest))
    if not args.no_pettingzoo and pettingzoo_name(game) is not None:
        try:
            steps, secs = measure_pettingzoo(game, args.seconds, args.seed)
            figures.pettingzoo = Measure(str(pettingzoo_name(game)), steps, secs)
        except ImportError as error:
            figures.pettingzoo_error = f"PettingZoo is not installed ({error.name})"
    return figures


def format_figures(figures: VectorFigures) -> list[str]:
    """The figures of one game as text lines."""
    yes, no = _marks()
    at_least, times = _symbols()
    game = figures.game
    lines = [
        f"Batched simulator: {game.title} — random legal actions, {figures.threads} thread(s) "
        f"({figures.layer}), {figures.seconds:g} s each"
    ]
    goal = target(game)
    for m in figures.measures:
        label = f"batch {m.batch:>6,}" + ("" if m.label == "in place" else f", {m.label}")
        line = f"  {label:<44} {m.per_second:>14,.0f} steps/s"
        if m.label == "in place" and m.batch == TARGET_BATCH and goal is not None:
            mark = yes if m.per_second >= goal else no
            line += f"   target {at_least} {goal:,.0f} {mark}"
        lines.append(line)
    if figures.pettingzoo is not None:
        pz = figures.pettingzoo
        lines.append(
            f"  {'PettingZoo ' + pz.label + ' (one game, AEC)':<44} {pz.per_second:>14,.0f} steps/s"
        )
        head = figures.headline()
        if head is not None and pz.per_second > 0:
            ratio = head.per_second / pz.per_second
            lines.append(f"  {'batched simulator / PettingZoo':<44} {ratio:>14,.0f}{times}")
    elif figures.pettingzoo_error:
        lines.append(f"  PettingZoo: not measured: {figures.pettingzoo_error}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Measure and print; with ``--strict`` fail when a target is missed."""
    import numba

    import diceboard

    if args.threading_layer != "default":
        # must be set before the first parallel function runs in this process
        numba.config.THREADING_LAYER = args.threading_layer  # type: ignore[attr-defined]
    if args.threads is not None:
        most = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
        if args.threads > most:
            raise UsageError(
                f"--threads {args.threads}: numba has only {most} threads "
                "(set NUMBA_NUM_THREADS to allow more)"
            )
        numba.set_num_threads(args.threads)
    threads = numba.get_num_threads()
    names = games.names() if args.game == "all" else (args.game,)
    results = []
    for index, name in enumerate(names):
        figures = measure_game(diceboard.game(name), args, threads)
        figures.layer = str(numba.threading_layer())  # type: ignore[attr-defined]
        results.append(figures)
        if not args.json:
            if index:
                print()
            print("\n".join(format_figures(figures)), flush=True)
    if args.json:
        print(json.dumps([f.as_dict() for f in results], indent=2))
    missed = [f for f in results if f.as_dict()["target_met"] is False]
    return 1 if args.strict and missed else 0
