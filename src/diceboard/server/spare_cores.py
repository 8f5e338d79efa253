"""How many of the cores this process may run on nobody is using at the moment.

The engine's warm-up compiles some work ahead, for later (see :mod:`.warmup`): where a core
is idle, that costs nothing; where none is (another program keeps the other core of a
2-core machine busy), it takes CPU from the work a player is waiting for. Linux counts, per
core, the time spent idle since boot (``/proc/stat``); two readings a moment apart tell how
much of each core was idle in between. Only the cores this process may run on count (a
container or ``taskset`` may allow a few of many). Elsewhere nothing is known (``None``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

#: where Linux keeps the CPU times since boot (a line per core: ``cpu0``, ``cpu1``, ...)
PROC_STAT = Path("/proc/stat")

#: how long :func:`spare_cores` watches by default: long enough for a score of scheduler
#: ticks per core (100 a second), short enough that whoever waits for it hardly notices
SAMPLE_SECONDS = 0.2

#: each core's idle and total CPU time since boot, in clock ticks, by the core's number
CoreTimes = Mapping[int, tuple[int, int]]


def core_times(stat: Path = PROC_STAT) -> CoreTimes | None:
    """Each core's idle and total CPU time since boot (idle includes time waiting for the
    disk), or ``None`` where ``stat`` cannot be read as Linux writes it."""
    try:
        lines = stat.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    times: dict[int, tuple[int, int]] = {}
    for line in lines:
        fields = line.split()
        if not fields or not fields[0].startswith("cpu") or not fields[0][3:].isdigit():
            continue  # the machine's sum ("cpu"), interrupts, context switches, ...
        try:
            # user nice system idle iowait irq softirq steal (guest time is in user already)
            ticks = [int(field) for field in fields[1:9]]
        except ValueError:
            return None
        if len(ticks) < 5:
            return None
        times[int(fields[0][3:])] = (ticks[3] + ticks[4], sum(ticks))
    return times or None


def idle_between(before: CoreTimes, after: CoreTimes, cores: Iterable[int]) -> float | None:
    """How many of ``cores`` were idle, on average, between two :func:`core_times` readings
    (each core's idle share, summed); ``None`` when neither reading knows any of them, or no
    time passed."""
    idle = 0.0
    counted = 0
    for core in cores:
        if core not in before or core not in after:
            continue
        total = after[core][1] - before[core][1]
        if total <= 0:
            continue
        idle += min(1.0, max(0, after[core][0] - before[core][0]) / total)
        counted += 1
    return idle if counted else None


def usable_cores(known: Iterable[int]) -> Iterable[int]:
    """The cores this process may run on (all the ``known`` ones where the platform does not
    say)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return affinity(0) if affinity is not None else known


async def spare_cores(seconds: float = SAMPLE_SECONDS, stat: Path = PROC_STAT) -> float | None:
    """How many of the cores this process may run on were idle, on average, over the next
    ``seconds`` (waited for without blocking the event loop); ``None`` where the platform
    does not say."""
    before = core_times(stat)
    if before is None:
        return None
    await asyncio.sleep(seconds)
    after = core_times(stat)
    if after is None:
        return None
    return idle_between(before, after, usable_cores(after))
