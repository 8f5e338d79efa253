"""The garbage collector's pauses kept short while the server runs.

Every open WebSocket holds a few hundred objects the collector tracks (its ASGI stack of
coroutines, its protocol, its queue) and every game in memory its chain of states, so with
a thousand games in play the collector tracks about half a million long-lived objects. Its
full passes, which walk all of them, then stop the event loop for 100 to 300 ms each, every
few seconds under load (their count grows by a quarter between passes): a move that
arrives meanwhile waits that long.

So the server moves what has lived a while out of the collector's way: every
:data:`FREEZE_EVERY` seconds, :func:`gc.freeze` moves every tracked object into the
permanent generation, which no automatic pass walks; the passes then walk only what was
made since. Objects frozen that later become garbage are still freed by reference counting;
only a cycle among them would wait, so every :data:`FULL_EVERY` seconds one full pass looks
at everything (one long pause in that time instead of one every few seconds).

Why every second: at a thousand moves a second, what ten seconds of play leave behind makes
the automatic full passes 60 to 170 ms long again (``diceboard bench server --games 1000``:
p99 65 to 115 ms when freezing every 10 s, 30 ms every second). The price is that a cycle
made in the last second is frozen before a young pass could free it: under that load about
60 objects a second wait for the full pass (some megabytes in its 15 minutes).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

#: seconds between moving the tracked objects out of the automatic passes' way
FREEZE_EVERY = 1.0
#: seconds between full passes over everything, frozen objects included
FULL_EVERY = 900.0


async def keep_pauses_short(
    freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY
) -> None:
    """Freeze the collector's tracked objects every ``freeze_every`` seconds and collect
    everything every ``full_every`` seconds, until cancelled."""
    gc.freeze()
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            log.info(
                "full garbage collection: %d unreachable objects, %.0f ms",
                found,
                1000 * (time.perf_counter() - started),
            )
            last_full = time.monotonic()
        gc.freeze()
