"""How many threads a batch runs on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba

#: games per thread below which a batch runs on fewer threads: waking threads costs more than
#: a few games take, and on a busy machine a thread that waits for a core stalls the batch
MIN_GAMES_PER_THREAD = 128


@contextmanager
def threads_for(batch: int) -> Iterator[None]:
    """Run the enclosed parallel kernel calls on as many of numba's threads as ``batch``
    games keep busy (one thread below ``2 * MIN_GAMES_PER_THREAD`` games)."""
    available = numba.get_num_threads()
    wanted = max(1, min(available, batch // MIN_GAMES_PER_THREAD))
    if wanted == available:
        yield
        return
    numba.set_num_threads(wanted)
    try:
        yield
    finally:
        numba.set_num_threads(available)
