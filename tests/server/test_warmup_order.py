"""The engine's warm-up compiles once: the computer's workers start warming a game up only
after the server's kernels of that game are ready (so they load them from the cache instead of
compiling the same kernels at the same time), game by game, so that the first game's search
compiles while the server compiles the next game's kernels; the health answer says the
computer is not ready before."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future
from typing import Any

from diceboard.server.warmup import Warmup


def test_the_computer_starts_after_the_kernels_and_reports_when_warm() -> None:
    events: list[str] = []
    messages: list[str] = []
    release = threading.Event()
    seen_while_compiling: dict[str, Any] = {}
    warmup = Warmup(messages.append)

    def kernels(name: str) -> None:
        events.append(f"kernels {name} begin")
        release.wait(5)
        events.append(f"kernels {name} end")

    worker: Future[Any] = Future()

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        events.append(f"computer {name}" + (" beside" if beside else ""))
        if beside:
            done: Future[Any] = Future()
            done.set_result(None)
            return [done]
        return [worker]

    async def start() -> None:
        events.append("start")

    async def scenario() -> None:
        task = asyncio.create_task(warmup.run(kernels, start, computer, ["one", "two"]))
        await asyncio.sleep(0.05)
        seen_while_compiling.update(warmup.health())
        release.set()
        await task

    asyncio.run(scenario())
    assert events == [
        "kernels one begin",
        "kernels one end",
        "computer one",
        "kernels two begin",
        "kernels two end",
        "computer two beside",
        "start",
    ]
    assert seen_while_compiling["ready"] is False
    assert seen_while_compiling["computer_ready"] is False
    assert seen_while_compiling["kernels_ready"] == []
    health = warmup.health()
    assert health["ready"] is True and health["computer_ready"] is False
    assert health["kernels_ready"] == ["one", "two"]
    worker.set_result(None)
    assert warmup.health()["computer_ready"] is True
    assert "computer players ready for one after" in " ".join(messages)
    assert any(m.startswith("two kernels ready after") for m in messages)


def test_the_first_games_search_warms_up_while_the_next_games_kernels_compile() -> None:
    second_kernels = threading.Event()
    overlapped: list[bool] = []

    def kernels(name: str) -> None:
        if name == "two":
            second_kernels.set()
            time.sleep(0.1)

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        future: Future[Any] = Future()
        if beside:
            future.set_result(None)
            return [future]

        def search() -> None:  # what a worker does meanwhile, in its own process
            overlapped.append(second_kernels.wait(5))
            future.set_result(None)

        threading.Thread(target=search).start()
        return [future]

    async def start() -> None:
        pass

    warmup = Warmup(lambda _: None)
    asyncio.run(warmup.run(kernels, start, computer, ["one", "two"]))
    assert warmup.computer[0].result(5) is None
    assert overlapped == [True]


def test_a_failed_kernel_warm_up_still_starts_the_computer_and_reports_the_error() -> None:
    started: list[str] = []

    def kernels(name: str) -> None:
        raise RuntimeError("no compiler")

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        started.append(name)
        return []

    async def start() -> None:
        raise AssertionError("the service does not start on kernels that failed")

    warmup = Warmup(lambda _: None)
    asyncio.run(warmup.run(kernels, start, computer, ["one", "two"]))
    assert started == ["one", "two"]
    assert warmup.ready and warmup.health()["error"] == "RuntimeError: no compiler"
    assert warmup.health()["kernels_ready"] == []
