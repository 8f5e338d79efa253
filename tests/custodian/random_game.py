"""Play a random Custodian Dice game driven by Python's RNG and print every position.

Run as a script by the no-JIT agreement test: the same seed gives the same choices in the
compiled and the plain-Python kernel as long as both list the same legal actions.
"""

from __future__ import annotations

import random
import sys

import diceboard


def positions(seed: int, **options: str) -> list[str]:
    rng = random.Random(seed)
    state = diceboard.game("custodian", **options).initial_state()
    out = [str(state)]
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
        out.append(str(state))
    outcome = state.outcome()
    out.append(str(outcome))
    return out


if __name__ == "__main__":
    seed = int(sys.argv[1])
    opts = dict(arg.split("=", 1) for arg in sys.argv[2:])
    print("\n".join(positions(seed, **opts)))
