"""How many cores are idle, from Linux's CPU times (hand-made ``/proc/stat`` files with known
answers, and the real one where there is one)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from diceboard.server.spare_cores import cores_idle_between, cpu_times, spare_cores

#: the first lines of a real /proc/stat (user nice system idle iowait irq softirq steal guest
#: guest_nice), then a core's own line
STAT = """cpu  4705 356 584 3699176 23060 0 277 15 0 0
cpu0 1393 280 290 1849588 11530 0 139 8 0 0
intr 114930548 113199788 3 0 5 263 0 4 [...]
"""


def test_the_idle_and_total_times_are_read_from_the_first_line(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text(STAT)
    # idle counts the time waiting for the disk too; guest time is already in user time
    assert cpu_times(stat) == (3699176 + 23060, 4705 + 356 + 584 + 3699176 + 23060 + 277 + 15)


@pytest.mark.parametrize(
    "text",
    ["", "intr 1 2 3\n", "cpu 1 2 x 4 5\n", "cpu 1 2 3\n", "\x00\x01", "cpu0 1 2 3 4 5\n"],
)
def test_a_file_not_as_linux_writes_it_says_nothing(tmp_path: Path, text: str) -> None:
    stat = tmp_path / "stat"
    stat.write_text(text)
    assert cpu_times(stat) is None


def test_a_missing_file_says_nothing(tmp_path: Path) -> None:
    assert cpu_times(tmp_path / "none") is None
    assert asyncio.run(spare_cores(0.01, stat=tmp_path / "none")) is None


@pytest.mark.parametrize(
    ("before", "after", "cores", "idle"),
    [
        ((100, 1000), (150, 1100), 2, 1.0),  # half the ticks idle on 2 cores: one core
        ((100, 1000), (100, 1100), 2, 0.0),  # no idle tick: every core busy
        ((100, 1000), (300, 1200), 4, 4.0),  # every tick idle
        ((100, 1000), (100, 1000), 2, None),  # no time passed
    ],
)
def test_idle_cores_between_two_readings(
    before: tuple[int, int], after: tuple[int, int], cores: int, idle: float | None
) -> None:
    assert cores_idle_between(before, after, cores) == idle


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="Linux only")
def test_the_machines_idle_cores_are_between_none_and_all() -> None:
    idle = asyncio.run(spare_cores(0.05))
    assert idle is not None
    assert 0.0 <= idle <= (os.cpu_count() or 1)
