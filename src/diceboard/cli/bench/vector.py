"""``diceboard bench vector``: the batched simulator's throughput, beside the PettingZoo
environments' for comparison."""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from diceboard import games
from diceboard.cli.arguments import positive_float, positive_int
from diceboard.cli.bench.common import in_turns, median_of, python_speed, speed_text
from diceboard.cli.bench.report import _marks, _symbols
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command
from diceboard.core.game import Game

#: the batch size at which the simulator should reach each game's ``targets["vector_steps"]``
#: (steps per second on one thread, random legal actions: the speed of a core, which does not
#: depend on what the machine's other cores are doing)
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
compiled kernels, each step a uniformly random legal action in every game, chance events
rolled inside, finished games restarted (auto-reset), after every game of the batch has
ended at least once (so that the games are at every stage, not all at their first moves, which
cost less). Measured at each --batch size with
step(..., donate=True) (the arrays reused in place) three ways, interleaved over --rounds
rounds (in reverse order every other round): on 1 thread, on N threads (the batch cut into N
chunks stepped at once), and as the simulator runs by default (it measures both and uses the
faster), with the ratios to 1 thread (and under them, with more than one round, the range
and median of the rounds' own ratios) and the load average. At the largest batch the same three
ways with random_step (the actions picked inside the step, one pass over the batch), then
functionally (new arrays each step) and with the observations and legal-action masks computed
after every step. Then, for comparison, the PettingZoo AEC environment stepping one game with
random legal actions. A step is one decision in one game."""

EXAMPLES = """\
examples:
  diceboard bench vector
  diceboard bench vector --game custodian --seconds 0.5
  diceboard bench vector --batch 64 --batch 1024 --json
"""


#: labels of the three ways a batch is stepped (:func:`measure_ways`)
ONE_THREAD = "in place, 1 thread"
N_THREADS = "in place, N threads"
DEFAULT = "in place"
#: the ways compared with 1 thread, and the keys of their ratios (in the JSON figures)
RATIO_KEYS = ((N_THREADS, "n_threads/1"), (DEFAULT, "default/1"))


@dataclass
class Measure:
    """One throughput: ``steps`` decisions in ``seconds``."""

    label: str
    steps: int
    seconds: float
    batch: int = 1
    #: threads it ran on (0: the simulator's own choice, measured call by call)
    threads: int = 0
    #: steps per second in each round of an interleaved measurement (:func:`measure_ways`)
    by_round: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Steps per second."""
        return self.steps / self.seconds if self.seconds > 0 else 0.0


def round_ratios(way: Measure, base: Measure) -> list[float]:
    """``way``'s steps per second over ``base``'s, round by round (the two measured in the
    same rounds; empty where either has no rounds).

    >>> fast = Measure("a", 0, 1, by_round=[3.0, 2.0])
    >>> round_ratios(fast, Measure("b", 0, 1, by_round=[2.0, 2.0]))
    [1.5, 1.0]
    """
    if len(way.by_round) != len(base.by_round):
        return []
    return [w / b for w, b in zip(way.by_round, base.by_round, strict=True) if b > 0]


def spread(ratios: list[float]) -> str:
    """The range and median of per-round ratios, as the figures print them.

    >>> spread([0.91, 1.04, 0.97])
    '0.91–1.04, median 0.97'
    """
    return f"{min(ratios):.2f}–{max(ratios):.2f}, median {median_of(ratios):.2f}"


@dataclass
class VectorFigures:
    """Every measurement of one game."""

    game: Game
    threads: int
    seconds: float
    rounds: int = 1
    #: 1-minute load average before and after the measurements
    load: tuple[float, float] = (0.0, 0.0)
    #: the machine's speed before and after them (:func:`~.common.python_speed`, ms)
    speed: tuple[float, ...] = ()
    measures: list[Measure] = field(default_factory=list)
    #: the three ways at the largest batch with the actions picked inside the step
    picked: list[Measure] = field(default_factory=list)
    pettingzoo: Measure | None = None
    pettingzoo_error: str | None = None

    def headline(self) -> Measure | None:
        """The in-place measure at the target batch (what the target is about)."""
        return self.find(TARGET_BATCH, DEFAULT)

    def target_measure(self) -> Measure | None:
        """The one-thread in-place measure at the target batch (what the target is about)."""
        return self.find(TARGET_BATCH, ONE_THREAD)

    def find(self, batch: int, label: str) -> Measure | None:
        """The measure of ``label`` at ``batch``."""
        for m in self.measures:
            if m.batch == batch and m.label == label:
                return m
        return None

    def ratios(self) -> dict[int, dict[str, float]]:
        """Per batch: steps per second on N threads and by default, over 1 thread."""
        out: dict[int, dict[str, float]] = {}
        for m in self.measures:
            if m.label != ONE_THREAD or m.per_second <= 0:
                continue
            ratios = {}
            for label, key in RATIO_KEYS:
                other = self.find(m.batch, label)
                if other is not None:
                    ratios[key] = other.per_second / m.per_second
            out[m.batch] = ratios
        return out

    def ratios_by_round(self, measures: list[Measure], batch: int) -> dict[str, list[float]]:
        """At ``batch``: steps per second on N threads and by default over 1 thread, round by
        round (among ``measures``: :attr:`measures`, or :attr:`picked`)."""
        found = {m.label: m for m in measures if m.batch == batch}
        one = found.get(ONE_THREAD)
        if one is None:
            return {}
        out = {}
        for label, key in RATIO_KEYS:
            other = found.get(label)
            if other is not None and len(other.by_round) > 1:
                out[key] = round_ratios(other, one)
        return out

    def as_dict(self) -> dict[str, Any]:
        """The figures as plain data (for ``--json``)."""
        head = self.target_measure()
        goal = target(self.game)
        return {
            "game": self.game.name,
            "options": self.game.non_default_options(),
            "threads": self.threads,
            "seconds": self.seconds,
            "rounds": self.rounds,
            "load_average": list(self.load),
            "python_speed_ms": list(self.speed),
            "ratios": {str(b): r for b, r in self.ratios().items()},
            "ratios_by_round": {
                str(b): self.ratios_by_round(self.measures, b) for b in self.ratios()
            },
            "measures": [{**asdict(m), "steps_per_second": m.per_second} for m in self.measures],
            "picked_in_the_step": [
                {**asdict(m), "steps_per_second": m.per_second} for m in self.picked
            ],
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
    parser.add_argument(
        "--rounds",
        metavar="N",
        type=positive_int,
        default=3,
        help="rounds of the 1-thread / N-thread / default measurements, interleaved "
        "(default 3; each round takes --seconds / rounds per way)",
    )
    parser.add_argument("--seed", metavar="N", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--threads",
        metavar="N",
        type=positive_int,
        help="N, the threads of the N-thread measurements (default: every core this process "
        "may run on)",
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
    state: Any, seconds: float, seed: int, donate: bool, observe: bool, picked: bool = False
) -> tuple[int, float]:
    import diceboard.vector as dv

    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(4):
            if picked:
                state, _ = dv.random_step(state, rng, donate=donate)
            else:
                state = dv.step(state, dv.random_actions(state, rng), donate=donate)
            if observe:
                state.observation  # noqa: B018  (computed on first use)
                state.legal_action_mask  # noqa: B018
            steps += state.batch_size
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - start


def _start(game: Game, batch: int, seed: int, observe: bool) -> Any:
    import diceboard.vector as dv

    state = dv.init(game, seed=seed, batch=batch)
    # compile (serial and parallel loops: the default choice tries both), warm the caches
    for _ in range(6):
        state = dv.step(state, dv.random_actions(state, seed), donate=True)
        if observe:  # the encoders load (or compile) on first use: not part of the figure
            state.observation  # noqa: B018
            state.legal_action_mask  # noqa: B018
    return _scatter(state, seed)


#: the most steps :func:`_scatter` plays
SCATTER_STEPS = 5000


def _scatter(state: Any, seed: int) -> Any:
    """Play on until every game of the batch has ended at least once (at most
    :data:`SCATTER_STEPS` steps). A new batch's games all start together, and the work of a
    step depends on how far its games are (Custodian Dice's placements cost less than its
    moves), so without this the figures would measure the openings; after it the games are
    spread over every stage, as in a long run."""
    import diceboard.vector as dv

    rng = np.random.default_rng(seed)
    ended = state.terminated | state.truncated
    for _ in range(SCATTER_STEPS):
        if ended.all():
            break
        state = dv.step(state, dv.random_actions(state, rng), donate=True)
        ended |= state.terminated | state.truncated
    return state


def measure_batch(
    game: Game, batch: int, seconds: float, seed: int, *, donate: bool = True, observe: bool = False
) -> tuple[int, float]:
    """Steps and seconds of random legal play at ``batch`` (after a warm-up step)."""
    return _time_steps(_start(game, batch, seed, observe), seconds, seed, donate, observe)


def measure_ways(
    game: Game,
    batch: int,
    seconds: float,
    seed: int,
    threads: int,
    rounds: int,
    picked: bool = False,
) -> list[Measure]:
    """In-place stepping at ``batch`` on 1 thread, on ``threads`` threads and by default
    (the simulator's measured choice), interleaved: ``rounds`` rounds of ``seconds / rounds``
    per way (in reverse order every other round), each way on its own batch (so that the
    default's measurements are its own).
    ``picked``: with ``random_step`` (the actions picked inside the step) instead of
    ``step(state, random_actions(state))``."""
    from diceboard.vector.threads import forced_threads

    ways = [(ONE_THREAD, 1), (N_THREADS, threads), (DEFAULT, 0)]
    states = {}
    for label, count in ways:
        if count:
            with forced_threads(count):
                states[label] = _start(game, batch, seed, False)
        else:
            states[label] = _start(game, batch, seed, False)
            # let the default choice measure both ways before the clock starts
            for _ in range(8):
                states[label] = _advance(states[label], seed)
    totals = {label: [0, 0.0] for label, _ in ways}
    by_round: dict[str, list[float]] = {label: [] for label, _ in ways}
    share = seconds / rounds
    for r in range(rounds):
        # reversed every other round: beside a busy core the way right after the N-thread one
        # measured 1-2 % slower (the same way before and after it, 16 rounds, four runs:
        # 0.979-1.005), and the default would otherwise always come there
        for label, count in in_turns(ways, r):
            if count:
                with forced_threads(count):
                    steps, secs = _time_steps(states[label], share, seed + r, True, False, picked)
            else:
                steps, secs = _time_steps(states[label], share, seed + r, True, False, picked)
            totals[label][0] += steps
            totals[label][1] += secs
            by_round[label].append(steps / secs if secs > 0 else 0.0)
    return [
        Measure(
            label, int(totals[label][0]), float(totals[label][1]), batch, count, by_round[label]
        )
        for label, count in ways
    ]


def _advance(state: Any, seed: int) -> Any:
    import diceboard.vector as dv

    return dv.step(state, dv.random_actions(state, seed), donate=True)


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
    figures = VectorFigures(game, threads, args.seconds, rounds=args.rounds)
    before = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    speed_before = python_speed()
    for batch in batches:
        figures.measures += measure_ways(game, batch, args.seconds, args.seed, threads, args.rounds)
    largest = batches[-1]
    figures.picked = measure_ways(
        game, largest, args.seconds, args.seed, threads, args.rounds, picked=True
    )
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
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    figures.speed = (speed_before, python_speed())
    figures.load = (before, after)
    return figures


def format_figures(figures: VectorFigures) -> list[str]:
    """The figures of one game as text lines."""
    yes, no = _marks()
    at_least, times = _symbols()
    game = figures.game
    n = figures.threads
    cores = os.cpu_count() or 1
    lines = [
        f"Batched simulator: {game.title} — random legal actions, 1 and {n} thread(s), "
        f"{figures.seconds:g} s each way in {figures.rounds} interleaved "
        f"round(s); load average {figures.load[0]:.2f} → {figures.load[1]:.2f} on {cores} "
        "core(s)"
    ]
    if figures.speed:
        lines.append(f"  machine's speed before and after: {speed_text(figures.speed)}")
    goal = target(game)
    head = f"{'':<26}{'1 thread':>14}{f'{n} threads':>14}{'ratio':>8}{'default':>14}{'ratio':>8}"
    lines.append(head + "   (steps/s; ratios to 1 thread)")
    ratios = figures.ratios()
    for m in figures.measures:
        if m.label != ONE_THREAD:
            continue
        many = figures.find(m.batch, N_THREADS)
        auto = figures.find(m.batch, DEFAULT)
        r = ratios.get(m.batch, {})
        line = f"  {f'batch {m.batch:>6,}':<24}{m.per_second:>14,.0f}"
        line += f"{many.per_second:>14,.0f}" if many else f"{'':>14}"
        line += f"{r.get('n_threads/1', 0):>7.2f}{times}"
        line += f"{auto.per_second:>14,.0f}" if auto else f"{'':>14}"
        line += f"{r.get('default/1', 0):>7.2f}{times}"
        if m.batch == TARGET_BATCH and goal is not None:
            mark = yes if m.per_second >= goal else no
            line += f"   target (1 thread) {at_least} {goal:,.0f} {mark}"
        lines.append(line)
        lines += _by_round_line(figures.ratios_by_round(figures.measures, m.batch), n)
    if figures.picked:
        one, many, auto = figures.picked
        base = one.per_second or 1.0
        line = f"  {f'batch {one.batch:>6,}, random_step':<24}{one.per_second:>14,.0f}"
        line += f"{many.per_second:>14,.0f}{many.per_second / base:>7.2f}{times}"
        line += f"{auto.per_second:>14,.0f}{auto.per_second / base:>7.2f}{times}"
        lines.append(line + "   (the actions picked inside the step)")
        lines += _by_round_line(figures.ratios_by_round(figures.picked, one.batch), n)
    for m in figures.measures:
        if m.label in (ONE_THREAD, N_THREADS, DEFAULT):
            continue
        label = f"batch {m.batch:>6,}, {m.label} (default threads)"
        lines.append(f"  {label:<52} {m.per_second:>14,.0f} steps/s")
    if figures.pettingzoo is not None:
        pz = figures.pettingzoo
        lines.append(
            f"  {'PettingZoo ' + pz.label + ' (one game, AEC)':<52} {pz.per_second:>14,.0f} steps/s"
        )
        headline = figures.headline()
        if headline is not None and pz.per_second > 0:
            ratio = headline.per_second / pz.per_second
            lines.append(f"  {'batched simulator / PettingZoo':<52} {ratio:>14,.0f}{times}")
    elif figures.pettingzoo_error:
        lines.append(f"  PettingZoo: not measured: {figures.pettingzoo_error}")
    return lines


def _by_round_line(ratios: dict[str, list[float]], threads: int) -> list[str]:
    """The spread of the round-by-round ratios under a figure's line (none for one round):
    a ratio of the totals can hide rounds on either side of 1."""
    names = {N_THREADS: f"{threads} threads", DEFAULT: "default"}
    parts = [
        f"{names[label]} {spread(ratios[key])}" for label, key in RATIO_KEYS if ratios.get(key)
    ]
    return [f"{'':<26}by round, to 1 thread: {' · '.join(parts)}"] if parts else []


def run(args: argparse.Namespace) -> int:
    """Measure and print; with ``--strict`` fail when a target is missed."""
    import diceboard
    from diceboard.vector.threads import MAX_THREADS, get_threads, set_threads

    if args.threads is not None:
        if args.threads > MAX_THREADS:
            raise UsageError(f"--threads {args.threads}: at most {MAX_THREADS}")
        set_threads(args.threads)
    threads = get_threads()
    names = games.names() if args.game == "all" else (args.game,)
    results = []
    for index, name in enumerate(names):
        figures = measure_game(diceboard.game(name), args, threads)
        results.append(figures)
        if not args.json:
            if index:
                print()
            print("\n".join(format_figures(figures)), flush=True)
    if args.json:
        print(json.dumps([f.as_dict() for f in results], indent=2))
    missed = [f for f in results if f.as_dict()["target_met"] is False]
    return 1 if args.strict and missed else 0
