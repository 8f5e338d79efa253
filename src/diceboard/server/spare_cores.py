"""How many of the machine's cores nobody is using at the moment.

The engine's warm-up compiles some work ahead, for later (see :mod:`.warmup`): where a core
is idle, that costs nothing; where none is (another program keeps the other core of a
2-core machine busy), it takes CPU from the work a player is waiting for. Linux counts, per
core, the time spent idle since boot (``/proc/stat``); two readings a moment apart tell how
many cores were idle in between. Elsewhere nothing is known (``None``).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

#: where Linux keeps the CPU times since boot (its first line sums every core's)
PROC_STAT = Path("/proc/stat")

#: how long :func:`spare_cores` watches by default: long enough for a few scheduler ticks
#: (100 a second), short enough that whoever waits for it hardly notices
SAMPLE_SECONDS = 0.2


def cpu_times(stat: Path = PROC_STAT) -> tuple[int, int] | None:
    """The machine's idle and total CPU time since boot, in clock ticks summed over every
    core (idle includes time waiting for the disk), or ``None`` where ``stat`` cannot be read
    as Linux writes it."""
    try:
        first = stat.read_text(encoding="ascii").split("\n", 1)[0].split()
        if not first or first[0] != "cpu":
            return None
        ticks = [int(field) for field in first[1:]]
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if len(ticks) < 5:
        return None
    # user nice system idle iowait irq softirq steal (guest time is counted in user already)
    idle = ticks[3] + ticks[4]
    return idle, sum(ticks[:8])


def cores_idle_between(before: tuple[int, int], after: tuple[int, int], cores: int) -> float | None:
    """How many of ``cores`` cores were idle, on average, between two :func:`cpu_times`
    readings (``None`` when no time passed between them)."""
    total = after[1] - before[1]
    if total <= 0:
        return None
    idle = max(0, after[0] - before[0])
    return cores * min(1.0, idle / total)


async def spare_cores(
    seconds: float = SAMPLE_SECONDS, stat: Path = PROC_STAT, cores: int | None = None
) -> float | None:
    """How many cores were idle, on average, over the next ``seconds`` (waited for without
    blocking the event loop); ``None`` where the platform does not say. ``cores``: the
    machine's (default: as many as the operating system reports)."""
    count = cores if cores is not None else os.cpu_count() or 1
    before = cpu_times(stat)
    if before is None:
        return None
    await asyncio.sleep(seconds)
    after = cpu_times(stat)
    if after is None:
        return None
    return cores_idle_between(before, after, count)
