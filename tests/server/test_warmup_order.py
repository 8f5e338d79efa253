"""The engine's warm-up compiles once: the computer's workers start warming a game up only
after the server's kernels of that game are ready (and before the server warms up what only
its own requests use) (so they load them from the cache instead of
compiling the same kernels at the same time), game by game, so that the first game's search
compiles while the server compiles the next game's kernels; the health answer says the
computer is not ready before."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

import pytest

from diceboard.server import warmup as warmup_module
from diceboard.server.warmup import WARM_UP_SWITCH_INTERVAL_S, Warmup


async def one_core_idle() -> float:
    """A machine with a core to spare (the warm-up compiles ahead beside the workers)."""
    return 1.0


async def no_core_idle() -> float:
    """A machine whose cores are all busy."""
    return 0.1


async def unknown_idle() -> None:
    """A platform that does not say."""
    return None


def searching_in_a_worker(
    search: Callable[[str], None],
) -> Callable[[str, bool], list[Future[Any]]]:
    """The ``computer`` of a warm-up whose first game's workers run ``search(name)`` (in a
    thread here, a process of its own in the server) and are warm once it returns; a later
    game's, warmed up beside, are done at once."""

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        future: Future[Any] = Future()
        if beside:
            future.set_result(None)
            return [future]

        def work() -> None:
            search(name)
            future.set_result(None)

        threading.Thread(target=work).start()
        return [future]

    return computer


class Service:
    """Stands in for the game service: records each step of its start in ``events``."""

    def __init__(self, events: list[str], by_game: bool = True, fail: str = "") -> None:
        self.events = events
        self.by_game = by_game
        self.fail = fail

    async def begin(self) -> bool:
        self.events.append("begin")
        return self.by_game

    async def resume(self, game: str) -> None:
        self.events.append(f"resume {game}")

    async def finish(self) -> None:
        if self.fail == "finish":
            raise AssertionError("the service does not finish on kernels that failed")
        self.events.append("finish")


def test_the_computer_starts_after_the_kernels_and_reports_when_warm() -> None:
    events: list[str] = []
    messages: list[str] = []
    release = threading.Event()
    seen_while_compiling: dict[str, Any] = {}
    warmup = Warmup(messages.append, spare=one_core_idle)

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

    async def scenario() -> None:
        task = asyncio.create_task(
            warmup.run(
                kernels,
                Service(events),
                computer,
                ["one", "two"],
                serving=lambda name: events.append(f"serving {name}"),
            )
        )
        await asyncio.sleep(0.05)
        seen_while_compiling.update(warmup.health())
        release.set()
        await task

    asyncio.run(scenario())
    assert events == [
        "begin",
        "kernels one begin",
        "kernels one end",
        "computer one",
        "serving one",
        "resume one",
        "kernels two begin",
        "kernels two end",
        "computer two beside",
        "serving two",
        "resume two",
        "finish",
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


@pytest.mark.parametrize("spare", [one_core_idle, unknown_idle])
def test_the_first_games_search_warms_up_while_the_next_games_kernels_compile(
    spare: Callable[[], Awaitable[float | None]],
) -> None:
    """Where a core is idle (or nobody knows), the next game's kernels compile beside the
    first game's search."""
    second_kernels = threading.Event()
    overlapped: list[bool] = []

    def kernels(name: str) -> None:
        if name == "two":
            second_kernels.set()
            time.sleep(0.1)

    computer = searching_in_a_worker(lambda name: overlapped.append(second_kernels.wait(5)))
    warmup = Warmup(lambda _: None, spare=spare)
    asyncio.run(warmup.run(kernels, Service([]), computer, ["one", "two"]))
    assert warmup.computer[0].result(5) is None
    assert overlapped == [True]


def test_with_no_core_to_spare_the_next_games_kernels_wait_for_the_first_computer() -> None:
    """Beside a busy core, the first game's computer players (their search compiling in a
    worker) get the core left to themselves: the next game's kernels wait until they are
    warm."""
    events: list[str] = []

    def kernels(name: str) -> None:
        events.append(f"kernels {name}")

    phases: list[str] = []

    def search(name: str) -> None:
        time.sleep(0.3)
        phases.append(warmup.health()["phase"])
        events.append(f"computer {name} warm")

    computer = searching_in_a_worker(search)
    messages: list[str] = []
    warmup = Warmup(messages.append, spare=no_core_idle)
    asyncio.run(warmup.run(kernels, Service([]), computer, ["one", "two"]))
    assert events == ["kernels one", "computer one warm", "kernels two"]
    # what /api/health says meanwhile
    assert phases == ["waiting for the computer players before compiling the two kernels"]
    assert any(
        m.startswith("no core to spare (0.1 idle): the two kernels wait until") for m in messages
    )


def test_the_next_games_kernels_wait_for_a_computer_that_never_warms_up_only_so_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(warmup_module, "FIRST_COMPUTER_WAIT_S", 0.3)
    events: list[str] = []
    never: Future[Any] = Future()

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        if beside:
            done: Future[Any] = Future()
            done.set_result(None)
            return [done]
        return [never]

    warmup = Warmup(lambda _: None, spare=no_core_idle)
    began = time.monotonic()
    asyncio.run(
        warmup.run(
            lambda name: events.append(f"kernels {name}"), Service([]), computer, ["one", "two"]
        )
    )
    assert events == ["kernels one", "kernels two"]
    assert 0.25 <= time.monotonic() - began < 5
    assert warmup.ready and not never.done()


def test_the_workers_compile_the_first_games_search_once_its_rules_kernels_are_ready() -> None:
    """With ``search_ahead`` the server compiles the first game's rules kernels first and hands
    the workers its search before compiling the rest of that game's kernels; a later game
    is warmed up as before."""
    events: list[str] = []
    messages: list[str] = []

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        events.append(f"computer {name}" + (" beside" if beside else ""))
        done: Future[Any] = Future()
        done.set_result(None)
        return [done]

    warmup = Warmup(messages.append)
    asyncio.run(
        warmup.run(
            lambda name: events.append(f"kernels {name}"),
            Service([]),
            computer,
            ["one", "two"],
            search_ahead=(
                lambda name: events.append(f"rules {name}"),
                lambda name: events.append(f"search {name}"),
            ),
        )
    )
    assert events == [
        "rules one",
        "search one",
        "kernels one",
        "computer one",
        "kernels two",
        "computer two beside",
    ]
    assert any(m.startswith("one rules ready after") for m in messages)


def test_without_workers_the_search_is_not_compiled_ahead() -> None:
    events: list[str] = []
    warmup = Warmup(lambda _: None)
    asyncio.run(
        warmup.run(
            lambda name: events.append(f"kernels {name}"),
            Service([]),
            None,
            ["one"],
            search_ahead=(
                lambda name: events.append(f"rules {name}"),
                lambda name: events.append(f"search {name}"),
            ),
        )
    )
    assert events == ["kernels one"]


def test_a_failed_kernel_warm_up_still_starts_the_computer_and_reports_the_error() -> None:
    started: list[str] = []

    def kernels(name: str) -> None:
        raise RuntimeError("no compiler")

    def computer(name: str, beside: bool) -> list[Future[Any]]:
        started.append(name)
        return []

    events: list[str] = []
    warmup = Warmup(lambda _: None)
    asyncio.run(warmup.run(kernels, Service(events, fail="finish"), computer, ["one", "two"]))
    assert events == ["begin"], "no game is resumed on kernels that failed"
    assert started == ["one", "two"]
    assert warmup.ready and warmup.health()["error"] == "RuntimeError: no compiler"
    assert warmup.health()["kernels_ready"] == []


def test_a_games_requests_go_ahead_once_its_own_kernels_are_ready() -> None:
    release = threading.Event()
    seen: dict[str, Any] = {}

    def kernels(name: str) -> None:
        if name == "two":
            release.wait(5)

    warmup = Warmup(lambda _: None)

    async def scenario() -> None:
        task = asyncio.create_task(warmup.run(kernels, Service([]), None, ["one", "two"]))
        await asyncio.wait_for(warmup.wait_for("one"), 5)
        seen["one"] = warmup.game_ready("one")
        waiting = [
            asyncio.create_task(warmup.wait_for("two")),
            asyncio.create_task(warmup.wait_for(None)),
        ]
        await asyncio.sleep(0.1)
        seen["waiting"] = [not t.done() for t in waiting]
        seen["health"] = warmup.health()
        release.set()
        await asyncio.wait_for(asyncio.gather(*waiting), 5)
        await task

    asyncio.run(scenario())
    assert seen["one"] is True
    assert seen["waiting"] == [True, True], "the second game and 'any game' wait for 'two'"
    assert seen["health"]["ready"] is False and seen["health"]["games_ready"] == ["one"]
    assert warmup.ready and warmup.health()["games_ready"] == ["custodian", "chase"]


def test_without_game_by_game_resuming_every_request_waits_for_every_game() -> None:
    events: list[str] = []
    opened: list[bool] = []

    def kernels(name: str) -> None:
        opened.append(warmup.game_ready("one"))

    warmup = Warmup(lambda _: None)
    asyncio.run(warmup.run(kernels, Service(events, by_game=False), None, ["one", "two"]))
    assert events == ["begin", "finish"]
    assert opened == [False, False], "no game opens before every game's kernels are ready"
    assert warmup.game_ready("one") and warmup.game_ready("two")


def test_a_compile_that_outlives_the_server_ends_quietly(monkeypatch: Any) -> None:
    """A server stopped during the warm-up closes its event loop while a compile runs on in
    its thread: the thread, finishing, has nobody to tell and must not raise (a traceback
    after the server's goodbye)."""
    from diceboard.server.warmup import _in_daemon_thread

    errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    release = threading.Event()
    loop = asyncio.new_event_loop()
    task = loop.create_task(_in_daemon_thread(lambda: release.wait(30) and None))
    loop.run_until_complete(asyncio.sleep(0.05))  # the compile is running
    task.cancel()
    loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
    loop.close()
    release.set()
    for thread in threading.enumerate():
        if thread.name == "engine-warm-up":
            thread.join(30)
    assert errors == []


def test_requests_get_the_interpreter_lock_back_sooner_while_the_engine_warms_up() -> None:
    """The switch interval is short while the kernels compile and Python's own again after,
    however the warm-up ends (finished, or cancelled by a server stopping)."""
    before = sys.getswitchinterval()
    assert before > WARM_UP_SWITCH_INTERVAL_S
    during: list[float] = []

    def kernels(name: str) -> None:
        during.append(sys.getswitchinterval())

    asyncio.run(Warmup(lambda _: None).run(kernels, Service([]), None, ["one"]))
    assert during == [WARM_UP_SWITCH_INTERVAL_S]
    assert sys.getswitchinterval() == before

    release = threading.Event()

    async def stopped_while_compiling() -> None:
        def blocked(name: str) -> None:
            during.append(sys.getswitchinterval())
            release.wait(5)

        task = asyncio.create_task(Warmup(lambda _: None).run(blocked, Service([]), None, ["a"]))
        while len(during) < 2:
            await asyncio.sleep(0.01)
        task.cancel()
        release.set()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(stopped_while_compiling())
    assert during == [WARM_UP_SWITCH_INTERVAL_S] * 2
    assert sys.getswitchinterval() == before
