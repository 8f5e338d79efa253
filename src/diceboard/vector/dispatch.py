"""One compiled entry point per kernel function, switching on a game id.

The batched loops of :mod:`diceboard.vector.kernels` are written once for every game. Numba
cannot cache a function that receives other compiled functions as arguments (their types
embed addresses that change each run), so the game is chosen by an integer instead: each
function below branches to that game's kernel. The branch is the same for a whole batch,
so it costs nothing measurable; adding a game means adding one branch to each function.
"""

from __future__ import annotations

import numpy as np

from diceboard.envs.encoding.chase import encode as chase_encode
from diceboard.envs.encoding.custodian import encode as custodian_encode
from diceboard.games.chase.kernel import legal_actions as chase_legal_actions
from diceboard.games.chase.kernel import step as chase_step
from diceboard.games.custodian.kernel import legal_actions as custodian_legal_actions
from diceboard.games.custodian.kernel import step as custodian_step
from diceboard.kernel import njit

#: game ids of the dispatch functions
CUSTODIAN = 0
CHASE = 1
#: the game ids that the functions below handle
SUPPORTED: tuple[int, ...] = (CUSTODIAN, CHASE)


@njit
def legal_actions(game_id: int, state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """The game's ``legal_actions``."""
    if game_id == CHASE:
        return chase_legal_actions(state, opts, out)
    return custodian_legal_actions(state, opts, out)


@njit
def step(
    game_id: int,
    state: np.ndarray,
    opts: np.ndarray,
    action: int,
    history: np.ndarray,
    nhist: int,
) -> int:
    """The game's ``step``."""
    if game_id == CHASE:
        return chase_step(state, opts, action, history, nhist)
    return custodian_step(state, opts, action, history, nhist)


@njit
def encode(
    game_id: int,
    state: np.ndarray,
    opts: np.ndarray,
    history: np.ndarray,
    nhist: int,
    perspective: int,
    out: np.ndarray,
) -> None:
    """The game's observation ``encode``."""
    if game_id == CHASE:
        chase_encode(state, opts, history, nhist, perspective, out)
    else:
        custodian_encode(state, opts, history, nhist, perspective, out)
