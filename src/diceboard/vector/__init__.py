"""The batched simulator: ``B`` games in numpy arrays, stepped together (on several threads
where that is faster) by the compiled rules kernels, with a functional API in the manner of pgx.

>>> import numpy as np
>>> import diceboard.vector as dv
>>> state = dv.init("custodian", seed=0, batch=256)
>>> rng = np.random.default_rng(0)
>>> for _ in range(10):
...     state = dv.step(state, dv.random_actions(state, rng))
>>> state.observation.shape, state.rewards.shape, state.terminated.shape
((256, 42, 5, 5), (256, 2), (256,))

Chance events (setup rolls, Chaos rolls) are rolled inside from each game's own random stream,
derived from the seed; ``state.chance_outcomes`` logs the ones the last step rolled, so a game
can be replayed exactly through the Python API.
"""

from diceboard.vector.api import games, init, random_actions, random_step, reset, step
from diceboard.vector.state import BatchConfig, VectorState
from diceboard.vector.threads import get_threads, set_threads

__all__ = [
    "BatchConfig",
    "VectorState",
    "games",
    "get_threads",
    "init",
    "random_actions",
    "random_step",
    "reset",
    "set_threads",
    "step",
]
