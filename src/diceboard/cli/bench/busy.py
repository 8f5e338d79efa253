"""``--busy N`` of every bench target: the figures of a loaded machine, made the same way each
time. A figure that holds only while the other cores are idle does not hold; measuring beside
other work by hand (a ``python -c "while True: pass"`` started and, one hopes, ended) is easy
to forget and to leave running. Here the bench starts ``N`` processes that each keep a core
busy in a loop of plain Python, and ends them when it ends, however it ends: each also ends
by itself once its parent is gone (a bench killed outright leaves nothing spinning)."""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator

from diceboard.cli.arguments import bounded
from diceboard.cli.parsing import ArgumentParser

#: the most spinning processes a bench starts
MAX_BUSY = 64

#: a spinner: plain Python arithmetic, checking now and then (every few tens of
#: milliseconds) that the bench that started it is still its parent
SPIN = """\
import os
parent = os.getppid()
while os.getppid() == parent:
    for _ in range(200_000):
        pass
"""


def add_busy(parser: ArgumentParser) -> None:
    """``--busy N``, and the target's handler run with ``N`` cores kept busy meanwhile."""
    parser.add_argument(
        "--busy",
        metavar="N",
        type=bounded(int, 0, MAX_BUSY, f"the busy processes are 0 to {MAX_BUSY}"),
        default=0,
        help="keep N more cores busy while measuring, with processes that spin in plain "
        "Python, ended with the bench: the figures of a loaded machine (default 0)",
    )
    handler: Callable[[argparse.Namespace], int] = parser.get_default("handler")
    parser.set_defaults(handler=lambda args: _run_busy(handler, args))


def _run_busy(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    count = int(args.busy)
    if count:
        # (on standard error: the figures on standard output stay what --json promises)
        plural = "es" if count > 1 else ""
        print(
            f"diceboard bench: {count} spinning process{plural} keep{'' if plural else 's'} "
            f"{count} core{'s' if count > 1 else ''} busy meanwhile",
            file=sys.stderr,
            flush=True,
        )
    with busy_cores(count):
        return handler(args)


@contextlib.contextmanager
def busy_cores(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that each keep a core busy while the block runs, ended after it
    whatever happens (they are its value, for tests)."""
    spinners: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            spinners.append(
                subprocess.Popen(
                    # -I -S: no site packages, no environment: a spinner starts in milliseconds
                    [sys.executable, "-I", "-S", "-c", SPIN],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    # (Ctrl-C reaches them too: no traceback of theirs on the terminal)
                    stderr=subprocess.DEVNULL,
                )
            )
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()
