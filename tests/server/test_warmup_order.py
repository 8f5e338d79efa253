"""The engine's warm-up compiles once: the computer's workers start warming up only after the
server's kernels are ready (so they load them from the cache instead of compiling the same
kernels at the same time), and the health answer says the computer is not ready before."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from typing import Any

from diceboard.server.warmup import Warmup


def test_the_computer_starts_after_the_kernels_and_reports_when_warm() -> None:
    events: list[str] = []
    messages: list[str] = []
    release = threading.Event()
    seen_while_compiling: dict[str, Any] = {}
    warmup = Warmup(messages.append)

    def kernels() -> None:
        events.append("kernels begin")
        release.wait(5)
        events.append("kernels end")

    worker: Future[Any] = Future()

    def computer() -> list[Future[Any]]:
        events.append("computer")
        return [worker]

    async def start() -> None:
        events.append("start")

    async def scenario() -> None:
        task = asyncio.create_task(warmup.run(kernels, start, computer))
        await asyncio.sleep(0.05)
        seen_while_compiling.update(warmup.health())
        release.set()
        await task

    asyncio.run(scenario())
    assert events == ["kernels begin", "kernels end", "computer", "start"]
    assert seen_while_compiling["ready"] is False
    assert seen_while_compiling["computer_ready"] is False
    health = warmup.health()
    assert health["ready"] is True and health["computer_ready"] is False
    worker.set_result(None)
    assert warmup.health()["computer_ready"] is True
    assert any(m.startswith("computer players ready after") for m in messages)


def test_a_failed_kernel_warm_up_still_starts_the_computer_and_reports_the_error() -> None:
    started: list[bool] = []

    def kernels() -> None:
        raise RuntimeError("no compiler")

    def computer() -> list[Future[Any]]:
        started.append(True)
        return []

    async def start() -> None:
        raise AssertionError("the service does not start on kernels that failed")

    warmup = Warmup(lambda _: None)
    asyncio.run(warmup.run(kernels, start, computer))
    assert started == [True]
    assert warmup.ready and warmup.health()["error"] == "RuntimeError: no compiler"
