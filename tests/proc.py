"""What the tests read of other processes through ``/proc`` (Linux)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc here")


def _stat(pid: int) -> list[str]:
    # the fields after the command's name, which may hold spaces and brackets
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_ticks(pid: int) -> int:
    """The CPU time process ``pid`` has used, user and system, in clock ticks."""
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12])


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` ends within ``within`` seconds (a zombie nobody reaped, as an
    orphan in a container may stay, counts as ended)."""
    deadline = time.monotonic() + within
    while True:
        try:
            if _stat(pid)[0] == "Z":
                return True
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == pid:
                    found.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                continue
    return found


def ends_when_its_parent_is_killed(script: str, sig: int) -> bool:
    """Run ``script`` in a fresh interpreter (it starts a process, prints its pid and waits),
    kill that interpreter with ``sig`` once the process runs, and say whether the process then
    ends by itself (nothing in the killed parent stops it)."""
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert not gone(child, within=0.3), "the process ended before its parent was killed"
        parent.send_signal(sig)
        parent.wait()
        return gone(child)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
