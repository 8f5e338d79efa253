"""The drivers every rules kernel shares, written once: perft and whole random games.

They are templates (:mod:`.specialise`): they call the game only through the module-level name
``game``, a binding module that provides ``legal_actions``, ``step``, ``STATE_LEN`` and
``MAX_LEGAL`` (each game's ``kernel/drivers.py``). :func:`compile_drivers` makes one compiled
copy per game, in which the game's kernel functions are ordinary compiled-in calls: as fast as
a hand-written copy, and cached by numba across processes.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from diceboard.kernel import CHANCE, RESULT, push_history
from diceboard.kernel.arrays import copy_into, copy_whole
from diceboard.kernel.rng import below, new_rng
from diceboard.kernel.specialise import specialise, template

__all__ = ["Drivers", "compile_drivers", "perft", "random_playouts"]

#: the game's binding; replaced by each game's own in the compiled copies
game: Any = None


@template
def perft(state: np.ndarray, opts: np.ndarray, depth: int, history: np.ndarray, nhist: int) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (every action counts:
    chance outcomes as branches, Chase's absorb decisions as actions of their own; a finished
    game ends a sequence early and is not counted).

    An explicit stack instead of recursion keeps the function cacheable by numba.
    """
    if depth == 0:
        return 1
    states = np.empty((depth + 1, game.STATE_LEN), dtype=np.int64)
    actions = np.empty((depth, game.MAX_LEGAL), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    hists = np.empty((depth + 1, history.shape[0] + depth), dtype=np.int64)
    nhists = np.zeros(depth + 1, dtype=np.int64)
    copy_whole(states[0], state)
    copy_into(hists[0], history, nhist)
    nhists[0] = nhist
    counts[0] = game.legal_actions(states[0], opts, actions[0])
    level = 0
    total = 0
    while level >= 0:
        if index[level] == counts[level]:
            level -= 1
            continue
        a = actions[level, index[level]]
        index[level] += 1
        if level == depth - 1:
            total += 1
            continue
        child = states[level + 1]
        copy_whole(child, states[level])
        copy_into(hists[level + 1], hists[level], nhists[level])
        nhists[level + 1] = game.step(child, opts, a, hists[level + 1], nhists[level])
        level += 1
        counts[level] = game.legal_actions(child, opts, actions[level])
        index[level] = 0
    return total


@template
def random_playouts(
    start: np.ndarray, opts: np.ndarray, games: int, seed: int, max_actions: int
) -> np.ndarray:
    """Play ``games`` games from ``start``, each action (decision or chance outcome) drawn
    uniformly from the legal ones (by :func:`.rng.below`, as the C reference of
    ``bench custodian --against-c`` draws). Returns ``[decisions, chance events, games finished,
    first-player wins, second-player wins, draws]`` (a game without chance, like Chase,
    counts no chance events)."""
    rng = new_rng(seed)
    state = start.copy()
    buf = np.empty(game.MAX_LEGAL, dtype=np.int64)
    history = np.empty(4096, dtype=np.int64)
    totals = np.zeros(6, dtype=np.int64)
    for _ in range(games):
        copy_whole(state, start)
        nhist = push_history(state, history, 0, True)
        for _ in range(max_actions):
            if state[RESULT] != 0:
                break
            n = game.legal_actions(state, opts, buf)
            if state[CHANCE] == 1:
                totals[1] += 1
            else:
                totals[0] += 1
            nhist = game.step(state, opts, buf[below(rng, n)], history, nhist)
        if state[RESULT] != 0:
            totals[2] += 1
            totals[2 + state[RESULT]] += 1
    return totals


class Drivers(NamedTuple):
    """The drivers compiled for one game."""

    perft: Any
    random_playouts: Any


def compile_drivers(game_name: str, binding: ModuleType) -> Drivers:
    """The drivers of this module compiled for ``game_name``, whose kernel ``binding``
    provides (compilation is lazy: each compiles, or loads from numba's cache, on first call)."""
    compiled = specialise(
        game_name,
        binding,
        [sys.modules[__name__]],
        module_name=f"diceboard.kernel._{game_name}_drivers",
    )
    return Drivers(perft=compiled["perft"], random_playouts=compiled["random_playouts"])
