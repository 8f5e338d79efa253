"""What the benchmark commands share: their options (how long a measurement runs, the seed,
the measurements left out, JSON output) and the lines that say where the figures were taken
(the core pinned to, the machine's load and its speed that minute)."""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from diceboard.cli.arguments import positive_float
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import ArgumentParser

T = TypeVar("T")


def add_seconds(parser: ArgumentParser, default: float, what: str) -> None:
    """``--seconds S``: how long `what` runs (e.g. "each throughput measurement")."""
    parser.add_argument(
        "--seconds",
        metavar="S",
        type=positive_float,
        default=default,
        help=f"seconds for {what} (default {default:g})",
    )


def add_seed(parser: ArgumentParser, default: int, what: str = "random seed") -> None:
    """``--seed N``."""
    parser.add_argument(
        "--seed", metavar="N", type=int, default=default, help=f"{what} (default {default})"
    )


def add_skip(parser: ArgumentParser, stages: Sequence[str]) -> None:
    """``--skip STAGE`` (repeatable): the measurements among `stages` to leave out."""
    named = f"{', '.join(stages[:-1])} or {stages[-1]}" if len(stages) > 1 else stages[0]
    parser.add_argument(
        "--skip",
        metavar="STAGE",
        action="append",
        choices=stages,
        default=[],
        help=f"leave out a measurement: {named} (repeatable)",
    )


def add_json(parser: ArgumentParser) -> None:
    """``--json``: the figures as JSON instead of lines of text."""
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def core_line(core: int | None) -> str:
    """The line saying which core the figures were taken on (``cpu.one_core``'s answer)."""
    return f"  one core: {'core ' + str(core) if core is not None else 'not pinned'}"


def load_average() -> tuple[float, float, float]:
    """The load average over 1, 5 and 15 minutes (zeros where the platform has none): the
    figures of a loaded machine are read with it."""
    if not hasattr(os, "getloadavg"):
        return (0.0, 0.0, 0.0)
    one, five, fifteen = os.getloadavg()
    return (one, five, fifteen)


#: the additions of :func:`python_speed`'s loop (about a tenth of a second here)
SPEED_ADDITIONS = 1_000_000


def python_speed() -> float:
    """Milliseconds of wall time that a fixed loop of plain Python (:data:`SPEED_ADDITIONS`
    additions) takes now: how fast this machine runs Python this minute.

    The load average says how many processes wanted a core, not how fast a core ran: on this
    project's shared virtual machine ten million additions took 0.85 s in one minute and 1.62 s
    a few minutes later with nothing else running and the load average under 2 (7 December),
    and every figure of a benchmark moved with it. Printed beside the figures, it tells a slow
    minute from a slow tree."""
    began = time.perf_counter()
    total = 0
    for i in range(SPEED_ADDITIONS):
        total += i
    return (time.perf_counter() - began) * 1000.0


def speed_text(milliseconds: Sequence[float]) -> str:
    """What :func:`python_speed` measured, as the reports print it: ``a million Python
    additions 92 ms`` (or ``92 → 110 ms`` before and after).

    >>> speed_text([91.6, 110.2])
    'a million Python additions 92 → 110 ms'
    """
    times = " → ".join(f"{ms:.0f}" for ms in milliseconds)
    return f"a million Python additions {times} ms"


def load_text(load: Sequence[float]) -> str:
    """A load average as the reports print it: ``2.4, 2.7, 2.7``."""
    return ", ".join(f"{x:.1f}" for x in load)


def median_of(values: Iterable[float | None]) -> float | None:
    """The median of the figures measured (``None`` and NaN, a figure that a round or a start
    could not give, left out), or ``None`` where there is none."""
    present = [v for v in values if v is not None and not math.isnan(v)]
    return float(statistics.median(present)) if present else None


def tree_folder(option: str, folder: str) -> str:
    """``folder``, given with ``option`` (``--against``, ``--src``) as another tree to run:
    a :class:`~diceboard.cli.errors.UsageError` unless it holds the diceboard package."""
    if not (Path(folder) / "diceboard" / "__init__.py").is_file():
        raise UsageError(
            f"{option} {folder}: no diceboard package there (give the folder that holds it: a "
            "tree's src folder)"
        )
    return folder


#: the two trees a comparison runs: this one and the one given with ``--against``
TREES = ("this", "against")


def in_turns(trees: Sequence[T], index: int) -> Sequence[T]:
    """The trees in the order round ``index`` (from 0) runs them: swapped every round, since
    a tree that always went first would always meet the same machine (also the order of
    ``bench vector``'s three ways: reversed every other round).

    >>> [list(in_turns("abc", r)) for r in range(3)]
    [['a', 'b', 'c'], ['c', 'b', 'a'], ['a', 'b', 'c']]
    """
    return trees if index % 2 == 0 else trees[::-1]


def by_round(runs: Iterable[dict[str, Any]], figure: str) -> dict[str, float | int | None]:
    """Two trees compared round by round on ``figure`` (lower is better): ``runs`` name their
    ``round`` and ``tree`` (one of :data:`TREES`) beside their figures. The median of the
    rounds' ratios (the other tree's over this one's: above 1, this tree is faster), in how
    many rounds this tree was the faster, and of how many (those where both runs have the
    figure). A round's two runs follow each other and meet nearly the same machine: on one
    whose speed drifts within minutes, the rounds' ratios say more than the ratio of the
    medians."""
    rounds: dict[int, dict[str, float | None]] = {}
    for run in runs:
        rounds.setdefault(run["round"], {})[run["tree"]] = run.get(figure)
    both = [
        (this, other)
        for this, other in ((r.get("this"), r.get("against")) for r in rounds.values())
        if this is not None and other is not None
    ]
    return {
        "median_ratio": median_of(ratio_of(other, this) for this, other in both),
        "faster": sum(1 for this, other in both if this < other),
        "rounds": len(both),
    }


def ratio_of(other: float | None, this: float | None) -> float | None:
    """``other / this``, two trees' figures compared (lower is better: above 1, this tree's
    is lower); ``None`` where either is missing or ``this`` is not positive."""
    if other is None or this is None or this <= 0:
        return None
    return other / this
