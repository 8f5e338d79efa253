"""How many cores are idle, from Linux's CPU times (hand-made ``/proc/stat`` files with known
answers, and the real one where there is one)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from diceboard.server import spare_cores as spare
from diceboard.server.spare_cores import core_times, idle_between, spare_cores

#: the first lines of a real /proc/stat: the machine's sum, then a line per core (user nice
#: system idle iowait irq softirq steal guest guest_nice)
STAT = """cpu  4705 356 584 3699176 23060 0 277 15 0 0
cpu0 1393 280 290 1849588 11530 0 139 8 0 0
cpu1 3312 76 294 1849588 11530 0 138 7 0 0
intr 114930548 113199788 3 0 5 263 0 4
ctxt 114998346
"""


def test_each_cores_idle_and_total_times_are_read(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text(STAT)
    # idle counts the time waiting for the disk too; guest time is already in user time
    assert core_times(stat) == {
        0: (1849588 + 11530, 1393 + 280 + 290 + 1849588 + 11530 + 139 + 8),
        1: (1849588 + 11530, 3312 + 76 + 294 + 1849588 + 11530 + 138 + 7),
    }


@pytest.mark.parametrize(
    "text",
    ["", "intr 1 2 3\n", "cpu 1 2 3 4 5\n", "cpu0 1 2 x 4 5\n", "cpu0 1 2 3\n", "\x80\x81"],
)
def test_a_file_not_as_linux_writes_it_says_nothing(tmp_path: Path, text: str) -> None:
    stat = tmp_path / "stat"
    stat.write_bytes(text.encode("latin-1"))
    assert core_times(stat) is None


def test_a_missing_file_says_nothing(tmp_path: Path) -> None:
    assert core_times(tmp_path / "none") is None
    assert asyncio.run(spare_cores(0.01, stat=tmp_path / "none")) is None


@pytest.mark.parametrize(
    ("after", "cores", "idle"),
    [
        # core 0 idle half the time, core 1 never: half a core
        ({0: (150, 1100), 1: (100, 1100)}, [0, 1], 0.5),
        # both idle throughout: two cores (more idle ticks than ticks are one core's at most)
        ({0: (200, 1100), 1: (250, 1100)}, [0, 1], 2.0),
        # only the cores this process may run on count
        ({0: (200, 1100), 1: (100, 1100)}, [1], 0.0),
        # a core neither reading knows, or no time passed: nothing known
        ({0: (150, 1100), 1: (100, 1100)}, [7], None),
        ({0: (100, 1000), 1: (100, 1000)}, [0, 1], None),
    ],
)
def test_idle_cores_between_two_readings(
    after: dict[int, tuple[int, int]], cores: list[int], idle: float | None
) -> None:
    before = {0: (100, 1000), 1: (100, 1000)}
    assert idle_between(before, after, cores) == idle


def test_the_idle_cores_are_counted_over_the_moment_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stat = tmp_path / "stat"
    stat.write_text("cpu0 0 0 0 100 0\ncpu1 0 0 0 100 0\n")
    monkeypatch.setattr(spare, "usable_cores", lambda known: [0, 1])

    async def watched() -> float | None:
        async def meanwhile() -> None:  # core 0 busy throughout, core 1 idle a quarter
            stat.write_text("cpu0 20 0 0 100 0\ncpu1 15 0 0 105 0\n")

        counting = asyncio.create_task(spare_cores(0.05, stat=stat))
        await asyncio.sleep(0)  # the first reading is taken
        await meanwhile()
        return await counting

    assert asyncio.run(watched()) == 0.25


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="Linux only")
def test_the_machines_idle_cores_are_between_none_and_all() -> None:
    idle = asyncio.run(spare_cores(0.05))
    assert idle is not None
    assert 0.0 <= idle <= (os.cpu_count() or 1)
