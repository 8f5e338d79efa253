"""The collector's passes (:mod:`diceboard.server.collector`): what has lived a while is
frozen out of the young passes, a cycle among frozen objects is still collected at the next
full pass, young cycles are collected by the server's own passes while the automatic ones
are off, and the automatic ones come back when the last server stops."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from diceboard.server.collector import keep_pauses_short


class _Node:
    """An object that refers to itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector_paused() -> Iterator[None]:
    """No automatic passes during the test, and nothing left frozen after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


@pytest.mark.usefixtures("collector_paused")
def test_a_frozen_cycle_waits_for_the_full_pass() -> None:
    async def main() -> None:
        gc.unfreeze()
        cycle = _Node()
        ref = weakref.ref(cycle)
        del cycle
        task = asyncio.create_task(keep_pauses_short(freeze_every=0.05, full_every=0.5))
        await asyncio.sleep(0.01)
        # frozen at once: an explicit pass, as the automatic ones, leaves it alone
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert ref() is not None
        for _ in range(100):
            await asyncio.sleep(0.05)
            if ref() is None:
                break
        # the full pass came, found the cycle, and froze the survivors again
        assert ref() is None
        assert gc.get_freeze_count() > 0
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


@pytest.mark.usefixtures("collector_paused")
def test_young_cycles_are_collected_between_freezes() -> None:
    async def main() -> None:
        task = asyncio.create_task(
            keep_pauses_short(freeze_every=60.0, full_every=900.0, young_every=0.02)
        )
        await asyncio.sleep(0.01)  # the first freeze
        cycle = _Node()
        ref = weakref.ref(cycle)
        del cycle
        for _ in range(100):  # no explicit pass: the server's own young passes find it
            await asyncio.sleep(0.02)
            if ref() is None:
                break
        assert ref() is None
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


@pytest.mark.usefixtures("collector_paused")
def test_the_automatic_passes_are_off_while_servers_run_and_back_after_the_last() -> None:
    gc.enable()

    async def main() -> None:
        first = asyncio.create_task(keep_pauses_short(young_every=0.01))
        second = asyncio.create_task(keep_pauses_short(young_every=0.01))
        await asyncio.sleep(0.03)
        assert not gc.isenabled()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert not gc.isenabled()  # the second server still runs its own passes
        second.cancel()
        with pytest.raises(asyncio.CancelledError):
            await second
        assert gc.isenabled()

    asyncio.run(main())


@pytest.mark.usefixtures("collector_paused")
def test_passes_left_off_before_the_server_stay_off() -> None:
    async def main() -> None:
        task = asyncio.create_task(keep_pauses_short(young_every=0.01))
        await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not gc.isenabled()

    asyncio.run(main())
