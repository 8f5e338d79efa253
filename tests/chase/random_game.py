"""A random game driven from Python, printed one position (and the legal actions) a line.

Run as a script (``python random_game.py SEED [LIMIT]``) it prints the same lines that
:func:`lines` returns; the tests run it with ``NUMBA_DISABLE_JIT=1`` to compare the plain-Python
kernel with the compiled one decision by decision.
"""

from __future__ import annotations

import random
import sys

import diceboard


def lines(seed: int, limit: int = 80) -> list[str]:
    """Each state of a seeded random game: position, legal action ids, and at the end the
    outcome."""
    rng = random.Random(seed)
    state = diceboard.game("chase").start()
    out = []
    for _ in range(limit):
        ids = state.legal_action_ids()
        out.append(f"{state} {ids}")
        if state.is_terminal():
            out.append(str(state.outcome()))
            break
        state = state.play(ids[rng.randrange(len(ids))])
    return out


if __name__ == "__main__":
    print("\n".join(lines(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 80)))
