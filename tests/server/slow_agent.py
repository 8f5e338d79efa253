"""A computer player that takes a fixed time per answer, for tests of how the server shares
the computer between clients: ``level:N`` replaced, in threads of the test process, by a
random mover that sleeps ``delay`` seconds first (a sleep, so the figures do not depend on
how loaded the machine is)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from diceboard.ai import specs
from diceboard.core.game import State
from diceboard.core.move import Move


@dataclass
class _Analysis:
    best: Move
    value: float
    pv: list[Move]


class SlowLevels:
    """While installed, every ``level:N`` agent is a :class:`SlowAgent` of ``delay`` seconds;
    ``calls`` holds the (start, end) of each answer."""

    delay = 0.3
    calls: ClassVar[list[tuple[float, float]]] = []


@dataclass
class SlowAgent:
    """Answers after ``delay`` seconds with a random legal move."""

    delay: float
    seed: int | None

    def _think(self, state: State) -> Move:
        started = time.monotonic()
        time.sleep(self.delay)
        SlowLevels.calls.append((started, time.monotonic()))
        return random.Random(self.seed).choice(list(state.legal_moves()))

    def choose(self, state: State) -> Move:
        return self._think(state)

    def analyse(self, state: State) -> _Analysis:
        best = self._think(state)
        return _Analysis(best, 0.0, [best])


@pytest.fixture
def slow_levels(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[SlowLevels]]:
    """Install slow levels (set ``SlowLevels.delay`` to change the time per answer)."""
    monkeypatch.setattr(SlowLevels, "delay", 0.3)
    monkeypatch.setattr(SlowLevels, "calls", [])

    def factory(_params: dict[str, str], seed: int | None) -> Any:
        return SlowAgent(SlowLevels.delay, seed)

    monkeypatch.setitem(specs.FACTORIES, "level", factory)
    yield SlowLevels
