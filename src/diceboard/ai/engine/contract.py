"""What a game binding gives the search templates: the type-checking stand-in for ``game``.

The templates in :mod:`diceboard.ai.engine` reach the game only through the names below, as
``game.legal_actions(...)`` and so on. :func:`~diceboard.ai.engine.specialise.specialise`
binds ``game`` to a real binding module (one per game: its ``ai`` component,
``diceboard/games/<game>/ai.py``, found by :func:`diceboard.ai.bindings.binding`) that
defines each of these names; this module only states the contract and is never called.

A binding re-exports the rules kernel's entry points (the kernel contract of
``docs/architecture.md``) and adds what search needs beyond the rules: position features for
the evaluation and which actions leave the turn unfinished.
"""

from __future__ import annotations

import numpy as np

#: length of the kernel's state array
STATE_LEN: int = 0
#: size of a buffer that holds every legal action of any state
MAX_LEGAL: int = 0
#: size of the action space
NUM_ACTIONS: int = 0
#: length of the feature vector
NUM_FEATURES: int = 0
#: index of the material feature (what ``eval=material`` keeps)
MATERIAL_FEATURE: int = 0
#: number of the network's sparse inputs (see :func:`net_inputs`)
NET_INPUTS: int = 0
#: most of them active in one position
NET_MAX_ACTIVE: int = 0


def legal_actions(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> int:
    """The kernel's legal action ids (decisions, or outcomes at a chance node) into ``out``."""
    raise NotImplementedError


def step(state: np.ndarray, opts: np.ndarray, action: int, history: np.ndarray, nhist: int) -> int:
    """The kernel's ``step``: apply ``action`` in place, return the new history length."""
    raise NotImplementedError


def features(state: np.ndarray, opts: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out[:NUM_FEATURES]`` with the position's features, seen from the player to
    move (``state[TO_MOVE]``): mostly "theirs subtracted from mine" counts."""
    raise NotImplementedError


def net_inputs(state: np.ndarray, opts: np.ndarray, out: np.ndarray, start: int) -> int:
    """Write the indices (below ``NET_INPUTS``, as floats) of the network's active 0/1
    inputs, seen from the player to move, into ``out[start:]``; return how many (at most
    ``NET_MAX_ACTIVE``)."""
    raise NotImplementedError


def endgame(state: np.ndarray, opts: np.ndarray) -> float:
    """A term added to the linear model's logit by ``eval=endgame``, for the player to move
    (what the features miss in endings; 0.0 where the game has none)."""
    raise NotImplementedError


def extends_turn(action: int) -> bool:
    """Whether ``action`` is only part of a turn (the same player decides again to finish it,
    like a Chase absorption); search does not count it as a ply."""
    raise NotImplementedError


def progress_limit(opts: np.ndarray) -> int:
    """The game's no-capture limit under ``opts`` (moves without progress before a draw; 0
    when the game has none)."""
    raise NotImplementedError
