"""Seeds for every game of a run, derived from one root seed.

Each game needs a seed for its chance events (setup rolls, Chaos rolls) and one per agent.
They are derived from the run's root seed and the game's coordinates with numpy's
``SeedSequence``, so they depend only on *which* game it is, never on the order in which
games happen to be played (or on how many workers play them).

>>> chance_seed(7, 0) == chance_seed(7, 0) != chance_seed(7, 1)
True
"""

from __future__ import annotations

import secrets

import numpy as np

from diceboard.core.errors import OptionError

# the first word of every derivation names what the seed is for, so that streams never collide
_CHANCE = 1
_AGENT = 2


def derive(root: int, *path: int) -> int:
    """A 63-bit seed that depends only on ``root`` and ``path`` (non-negative integers)."""
    words = np.random.SeedSequence([root, *path]).generate_state(2, np.uint32)
    return (int(words[0]) << 31) ^ int(words[1])


def chance_seed(root: int, *path: int) -> int:
    """The seed of the chance stream of the game (or pair of games) at ``path``."""
    return derive(root, _CHANCE, *path)


def agent_seed(root: int, *path: int) -> int:
    """The seed of one agent of one game at ``path`` (the seat last)."""
    return derive(root, _AGENT, *path)


def root_seed(seed: int | None) -> int:
    """``seed`` checked, or a fresh random one (reported so that the run can be repeated)."""
    if seed is None:
        return secrets.randbits(32)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise OptionError(f"a seed is a whole number 0 or more, not {seed!r}")
    return int(seed)
