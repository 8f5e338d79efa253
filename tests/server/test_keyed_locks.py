"""Locks by key (a game, a client): one body at a time per key, in order, and nothing kept
once nobody holds or waits for a key's lock (also after a waiter is cancelled or a body
fails)."""

from __future__ import annotations

import asyncio

import pytest

from diceboard.server.keyed_locks import KeyedLocks


def test_one_body_at_a_time_per_game_in_the_order_asked() -> None:
    async def scenario() -> list[str]:
        locks = KeyedLocks()
        seen: list[str] = []

        async def act(game: str, name: str) -> None:
            async with locks.hold(game):
                seen.append(f"{name} in")
                await asyncio.sleep(0.01)
                seen.append(f"{name} out")

        await asyncio.gather(act("g", "a"), act("g", "b"), act("g", "c"))
        assert len(locks) == 0
        return seen

    assert asyncio.run(scenario()) == ["a in", "a out", "b in", "b out", "c in", "c out"]


def test_other_games_do_not_wait() -> None:
    async def scenario() -> None:
        locks = KeyedLocks()
        async with locks.hold("g"):
            # another game's lock is free although this one's is held
            await asyncio.wait_for(locks.hold("h").__aenter__(), 1.0)
            assert len(locks) == 2

    asyncio.run(scenario())


def test_a_cancelled_waiter_and_a_failed_body_leave_nothing_behind() -> None:
    async def scenario() -> None:
        locks = KeyedLocks()
        held = asyncio.Event()
        release = asyncio.Event()

        async def holder() -> None:
            async with locks.hold("g"):
                held.set()
                await release.wait()

        async def waiter() -> None:
            async with locks.hold("g"):
                raise AssertionError("a cancelled waiter never runs its body")

        first = asyncio.create_task(holder())
        await held.wait()
        second = asyncio.create_task(waiter())
        await asyncio.sleep(0)
        second.cancel()
        with pytest.raises(asyncio.CancelledError):
            await second
        release.set()
        await first
        assert len(locks) == 0

        with pytest.raises(ValueError, match="bad move"):
            async with locks.hold("g"):
                raise ValueError("bad move")
        assert len(locks) == 0
        # and the lock is free again
        async with locks.hold("g"):
            assert len(locks) == 1

    asyncio.run(scenario())
