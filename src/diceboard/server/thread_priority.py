"""Compiling what nobody waits for yet at a lower priority than what somebody does.

A cold start compiles, at once, what the first computer move needs (the first game's kernels
in the server, its search in a worker) and what it does not (the other games' kernels and
searches). On a machine whose other cores are busy, the two share the little CPU there is,
and the first move waits for work it does not need. Linux gives each thread its own nice
value, so the threads that compile ahead for later raise theirs: where a core is free they
run as fast as before, and where none is they take what the waiting work leaves.
"""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger(__name__)

#: the nice value of a thread that compiles ahead (0 is the default, 19 the lowest priority):
#: low enough to leave a busy core to the work awaited, high enough that the thread still
#: runs often, since it holds the interpreter lock while numba types and lowers code (the
#: server's event loop waits for that lock)
AHEAD_NICE = 10


def lower_this_thread(nice: int = AHEAD_NICE) -> bool:
    """Raise the calling thread's nice value by ``nice`` (a lower priority; any user may).
    Whether it did: not where the platform has no per-thread priority (only Linux has)."""
    if not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return False
    thread = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, current + nice))
    except OSError as exc:  # e.g. a sandbox that forbids it: compile at the usual priority
        log.debug("could not lower the priority of thread %s: %s", thread, exc)
        return False
    return True
