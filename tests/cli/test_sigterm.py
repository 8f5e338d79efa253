"""SIGTERM ends a command as Ctrl-C does (its ``finally`` blocks run), with status 143."""

from __future__ import annotations

import os
import signal
import time

import pytest

from diceboard.cli.main import EXIT_TERMINATED, main


def test_sigterm_is_an_interrupt_that_exits_143(monkeypatch: pytest.MonkeyPatch) -> None:
    from diceboard.cli.bench import startup

    cleaned: list[str] = []

    def killed(args: object) -> int:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(30)  # (interrupted)
            return 0
        finally:
            cleaned.append("finally")

    monkeypatch.setattr(startup, "run", killed)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["bench", "startup"]) == EXIT_TERMINATED == 143
    assert cleaned == ["finally"]
    assert signal.getsignal(signal.SIGTERM) == before  # the caller's handler is back
