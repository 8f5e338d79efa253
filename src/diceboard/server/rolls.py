"""The server's dice rolls: every chance event of a game comes from the game's stored seed.

The roll made before move number ``index`` (counting every move of the game, rolls included)
is a pure function of ``(seed, index)``, so a stored game replays exactly, and taking a move
back and playing it again brings the same roll (nobody can fish for a better one).
"""

from __future__ import annotations

import random

from diceboard.core.game import State
from diceboard.core.move import Move


def roll(seed: int, index: int, count: int) -> int:
    """Which of ``count`` equally likely outcomes comes up at move ``index`` of the game."""
    # random.Random seeded with a str hashes it with SHA-512: the same on every platform
    return random.Random(f"diceboard-roll:{seed}:{index}").randrange(count)


def resolve_chance(state: State, seed: int, index: int) -> tuple[State, list[Move]]:
    """Play the chance outcomes due in ``state`` (none if it is a decision), numbering them
    from move ``index``. Returns the next decision (or final) state and the rolls."""
    rolls: list[Move] = []
    while state.is_chance():
        outcomes = state.chance_outcomes()
        move = outcomes[roll(seed, index + len(rolls), len(outcomes))][0]
        state = state.play(move)
        rolls.append(move)
    return state, rolls
