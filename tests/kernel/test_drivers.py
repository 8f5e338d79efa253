"""The shared perft and playout drivers, compiled once per game."""

from __future__ import annotations

import numpy as np

import diceboard
from diceboard.games.chase import kernel as chase_kernel
from diceboard.games.custodian import kernel as custodian_kernel
from diceboard.kernel.cache import STAMP_ATTR


def test_each_game_has_its_own_compiled_copy() -> None:
    stamps = []
    for name, kernel in (("custodian", custodian_kernel), ("chase", chase_kernel)):
        for entry in (kernel.perft, kernel.random_playouts):
            func = getattr(entry, "py_func", entry)
            assert func.__qualname__ == f"{name}.{func.__name__}"
            assert func.__globals__["game"].legal_actions is kernel.legal_actions
            stamps.append(getattr(func, STAMP_ATTR))
    assert stamps[0] == stamps[1] != stamps[2] == stamps[3]


def test_playouts_count_chance_events_where_the_game_has_them() -> None:
    game = diceboard.game("custodian", variant="chaos")
    state = game.start(seed=3)
    totals = game.kernel.random_playouts(state.kernel_state(), game.opts, 5, 1, 3000)
    decisions, chances, finished = (int(x) for x in totals[:3])
    assert finished == 5 and decisions > 0 and chances > 0
    assert int(totals[3:].sum()) == finished
    chase = diceboard.game("chase")
    start = chase.initial_state().kernel_state()
    totals = chase.kernel.random_playouts(start, chase.opts, 3, 1, 5000)
    assert int(totals[1]) == 0 and int(totals[2]) == 3
    assert totals.dtype == np.int64
