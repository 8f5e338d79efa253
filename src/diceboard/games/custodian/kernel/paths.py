"""The squares a Custodian walk passes: one path for each legal step, for drawing it.

The rules decide only where a walk of exactly ``face`` steps may end
(:func:`.walks.step_destinations`); a board picture also wants a way there. This finds one,
under the same rules — orthogonal steps through empty squares (the vacated start among them),
never straight back, and under the ``self-avoiding`` path option never onto a square already
visited — by an explicit depth-first search that tries to keep going the same way first, so
the path drawn turns as little as it can.
"""

from __future__ import annotations

import numpy as np

from diceboard.games.custodian.kernel.layout import NDIR, NEIGHBOUR
from diceboard.games.custodian.kernel.walks import occupied_mask
from diceboard.kernel import njit


@njit
def walk_path(
    state: np.ndarray, frm: int, to: int, length: int, self_avoiding: bool, out: np.ndarray
) -> int:
    """Write into ``out`` the squares of a walk of exactly ``length`` steps from ``frm`` to
    ``to`` (both included) and return how many there are; 0 when no such walk exists."""
    empty = ~occupied_mask(state) | (1 << frm)
    sq_at = np.empty(length + 1, dtype=np.int64)
    came = np.full(length + 1, -1, dtype=np.int64)  # direction of the step into each square
    tried = np.zeros(length + 1, dtype=np.int64)  # directions tried from each square
    sq_at[0] = frm
    depth = 0
    while depth >= 0:
        if depth == length:
            if sq_at[depth] == to:
                for i in range(length + 1):
                    out[i] = sq_at[i]
                return length + 1
            depth -= 1
            continue
        if tried[depth] == NDIR:
            depth -= 1
            continue
        k = tried[depth]
        tried[depth] = k + 1
        # the same direction as the last step first, then the others in order
        last = came[depth]
        d = k if last < 0 else (last + k) % NDIR
        if last >= 0 and d == NDIR - 1 - last:
            continue  # never straight back
        nxt = NEIGHBOUR[sq_at[depth], d]
        if nxt < 0 or not (empty >> nxt) & 1:
            continue
        if self_avoiding:
            seen = False
            for i in range(depth + 1):
                if sq_at[i] == nxt:
                    seen = True
            if seen:
                continue
        depth += 1
        sq_at[depth] = nxt
        came[depth] = d
        tried[depth] = 0
    return 0
