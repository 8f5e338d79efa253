"""Running the real ``diceboard`` console script in subprocesses, and checking its errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: the spec's first position of play
EXAMPLE = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
#: the Chase standard start
CHASE_START = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)


def script() -> str:
    """The console script installed beside this Python."""
    name = "diceboard.exe" if os.name == "nt" else "diceboard"
    path = Path(sys.executable).parent / name
    if not path.exists():
        pytest.fail(f"the diceboard console script is not installed at {path}")
    return str(path)


def environment() -> dict[str, str]:
    """The subprocess environment: colour off, the suite's shared numba cache (the root
    conftest sets NUMBA_CACHE_DIR), UTF-8 output."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env["NO_COLOR"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    env.setdefault("COLUMNS", "100")
    return env


def run(
    *args: str, stdin: str = "", timeout: float = 180, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``diceboard ARGS`` with ``stdin`` piped in; the finished process."""
    return subprocess.run(
        [script(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=environment(),
        cwd=cwd,
        check=False,
    )


def ok(*args: str, stdin: str = "", cwd: Path | None = None) -> str:
    """The stdout of a run that must succeed with nothing on stderr."""
    done = run(*args, stdin=stdin, cwd=cwd)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    assert "Traceback" not in done.stderr
    return done.stdout


def usage_error(*args: str, stdin: str = "", cwd: Path | None = None) -> str:
    """The message of a run that must fail as bad input: exit status 2, one line on stderr
    starting ``diceboard: error:``, no traceback, nothing on stdout."""
    done = run(*args, stdin=stdin, cwd=cwd)
    assert done.returncode == 2, f"exit {done.returncode}; stderr: {done.stderr!r}"
    lines = done.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {done.stderr!r}"
    assert lines[0].startswith("diceboard: error: "), lines[0]
    assert "Traceback" not in done.stderr
    assert done.stdout == "", f"bad input printed {done.stdout!r}"
    return lines[0].removeprefix("diceboard: error: ")
