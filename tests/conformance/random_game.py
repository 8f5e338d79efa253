"""Play a random game of any registered game and print every position (one per line).

Run as a script by the compiled-versus-plain-kernel test: the same seed gives the same choices
in both kernels as long as both list the same legal actions.
"""

from __future__ import annotations

import random
import sys

import diceboard


def positions(name: str, variant: str, seed: int, max_plies: int) -> list[str]:
    rng = random.Random(seed)
    state = diceboard.game(name, variant=variant).initial_state()
    out = [str(state)]
    for _ in range(max_plies):
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
        out.append(str(state))
    out.append(str(state.outcome()))
    return out


if __name__ == "__main__":
    name, variant, seed, plies = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print("\n".join(positions(name, variant, seed, plies)))
