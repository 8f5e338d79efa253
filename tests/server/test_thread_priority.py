"""The threads that compile ahead for later (the other games' kernels in the server, their
searches in a worker) run at a lower priority than the work the first computer move waits
for; the threads that the first move waits for keep the usual one."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import pytest

from diceboard.server import thread_priority
from diceboard.server.warmup import Warmup

from .test_warmup_order import Service

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="only Linux has a priority per thread"
)


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_only_the_calling_thread_is_lowered() -> None:
    found: dict[str, object] = {}

    def lowered() -> None:
        before = _nice()
        found["done"] = thread_priority.lower_this_thread()
        found["raised by"] = _nice() - before

    thread = threading.Thread(target=lowered)
    before = _nice()
    thread.start()
    thread.join()
    expected = min(19, before + thread_priority.AHEAD_NICE) - before
    assert found == {"done": True, "raised by": expected}
    assert _nice() == before


def test_a_refusal_leaves_the_priority_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise PermissionError("not here")

    monkeypatch.setattr(thread_priority.os, "setpriority", refuse)
    assert thread_priority.lower_this_thread() is False


def test_later_games_compile_at_a_lower_priority_than_the_first() -> None:
    nice_of: dict[str, int] = {}

    def kernels(name: str) -> None:
        nice_of[f"kernels {name}"] = _nice()

    def serving(name: str) -> None:
        nice_of[f"serving {name}"] = _nice()

    base = _nice()
    lowered = min(19, base + thread_priority.AHEAD_NICE)
    asyncio.run(Warmup().run(kernels, Service([]), None, ["one", "two"], serving=serving))
    assert nice_of == {
        "kernels one": base,
        "serving one": base,
        "kernels two": lowered,
        "serving two": lowered,
    }
    assert _nice() == base


def test_a_worker_warms_a_later_game_up_at_a_lower_priority(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from diceboard.server import computer_players

    nice_of: dict[str, int] = {}
    done = threading.Event()

    def kernels(game: str) -> None:
        nice_of["kernels"] = _nice()

    def search(game: str) -> None:
        nice_of["search"] = _nice()
        done.set()

    monkeypatch.setattr(computer_players, "warm_up_kernels", kernels)
    monkeypatch.setattr(computer_players, "warm_up_search", search)
    monkeypatch.setattr(computer_players, "_WARMED", set())
    base = _nice()
    computer_players.warm_up_beside("a-later-game")
    assert done.wait(10)
    lowered = min(19, base + thread_priority.AHEAD_NICE)
    assert nice_of == {"kernels": lowered, "search": lowered}
    assert _nice() == base
