"""The garbage collector's pauses kept short while the server runs.

Every open WebSocket holds a few hundred objects the collector tracks (its ASGI stack of
coroutines, its protocol, its queue) and every game in memory its chain of states, so with
a thousand games in play the collector tracks about half a million long-lived objects. Its
full passes, which walk all of them, then stop the event loop for 100 to 300 ms each, every
few seconds under load (their count grows by a quarter between passes): a move that
arrives meanwhile waits that long.

So the server moves what has lived a while out of the collector's way: every
:data:`FREEZE_EVERY` seconds, :func:`gc.freeze` moves every tracked object into the
permanent generation, which no pass but a full one walks. Objects frozen that later become
garbage are still freed by reference counting; only a cycle among them would wait, so every
:data:`FULL_EVERY` seconds one full pass looks at everything (one long pause in that time
instead of one every few seconds).

Why every second: at a thousand moves a second, what ten seconds of play leave behind makes
the automatic full passes 60 to 170 ms long again (``diceboard bench server --games 1000``:
p99 65 to 115 ms when freezing every 10 s, 30 ms every second). The price is that a cycle
that becomes garbage after it was frozen waits for the full pass (how much: below).

The young passes are the server's own too: while it runs, the automatic ones are off and
every :data:`YOUNG_EVERY` seconds one pass walks what was made since the last. CPython
counts an allocation up and any free down, so under steady play, where each move frees the
previous move's waiting coroutines (old, frozen objects) as it makes new ones, the
automatic young pass came only after 20,000 to 30,000 new objects had piled up: a 10 to
35 ms stall, at a thousand games often enough to set the p99, and it found nothing (steady
play makes no cycles; connecting and disconnecting do). A pass every 0.1 s walks a tenth of
that. A cycle that outlives its first young pass is not looked at again until the full
pass (no pass walks the middle generation): measured with a full pass after 40 s of
``bench server --games 1000``, 2,900 objects waited (3,500 with the automatic passes), all
from the games' and sockets' setup; 30 s of play later, none more (26).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

#: seconds between moving the tracked objects out of the passes' way
FREEZE_EVERY = 1.0
#: seconds between passes over what was made since the last
YOUNG_EVERY = 0.1
#: seconds between full passes over everything, frozen objects included
FULL_EVERY = 900.0

#: how many :func:`keep_pauses_short` run (tests may run several servers in one process),
#: and whether the automatic passes were on before the first: the last to stop restores them
_running = 0
_was_enabled = False


async def keep_pauses_short(
    freeze_every: float = FREEZE_EVERY,
    full_every: float = FULL_EVERY,
    young_every: float = YOUNG_EVERY,
) -> None:
    """Until cancelled: collect what is young every ``young_every`` seconds (instead of the
    automatic passes), freeze every tracked object every ``freeze_every`` seconds and
    collect everything every ``full_every`` seconds."""
    global _running, _was_enabled
    if _running == 0:
        _was_enabled = gc.isenabled()
    _running += 1
    gc.disable()
    try:
        gc.freeze()
        last_freeze = last_full = time.monotonic()
        while True:
            await asyncio.sleep(min(young_every, freeze_every))
            now = time.monotonic()
            if now - last_full >= full_every:
                _collect_everything()
                last_full = now
            else:
                gc.collect(0)
            if now - last_freeze >= freeze_every:
                gc.freeze()
                last_freeze = now
    finally:
        _running -= 1
        if _running == 0 and _was_enabled:
            gc.enable()


def _collect_everything() -> None:
    started = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    log.info(
        "full garbage collection: %d unreachable objects, %.0f ms",
        found,
        1000 * (time.perf_counter() - started),
    )
    gc.freeze()
