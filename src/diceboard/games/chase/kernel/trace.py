"""Recording where dice go during a move, for drawing it (``State.move_segments``).

A trace is a flat ``int64`` array of pairs ``segment, hex`` (row ``n`` at ``2n``, ``2n + 1``):
segment 0 is the moving die's path, each later segment one displaced die. Rule code records
into it as it resolves a move; a zero-length trace records nothing, which is what play uses
(a zero-length view of the state: flat, so that making it costs neither an allocation nor a
compiled reshape).
"""

from __future__ import annotations

import numpy as np

from diceboard.kernel import njit_borrowing

#: rows (pairs) enough for any move: the path (7) plus two rows for each of at most 2 × 20 displaced
#: dice
MAX_TRACE = 96


@njit_borrowing
def record(trace: np.ndarray, n: int, segment: int, hex_index: int) -> int:
    """Append ``(segment, hex_index)`` to ``trace`` (if it records) and return its length."""
    if trace.shape[0] == 0:
        return n
    trace[2 * n] = segment
    trace[2 * n + 1] = hex_index
    return n + 1
