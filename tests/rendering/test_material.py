"""Each side's material as the boards and the web app show it: dice, pips and spares."""

from __future__ import annotations

import random

import diceboard
from diceboard.rendering.summary import SideMaterial, side_material


def test_chase_start_has_nine_dice_totalling_25_and_one_spare_each() -> None:
    state = diceboard.game("chase").start(seed=1)
    assert side_material(state) == {
        "B": SideMaterial(dice=9, pips=25, spares=1),
        "R": SideMaterial(dice=9, pips=25, spares=1),
    }


def test_a_captured_chase_die_becomes_a_spare() -> None:
    # a seeded random game until the first capture: the captured side has one die fewer on
    # the board and one spare more, and dice and spares always make the full ten
    rng = random.Random(7)
    state = diceboard.game("chase").start(seed=1)
    captured = False
    for _ in range(400):
        if state.is_terminal():
            break
        before = side_material(state)
        state = state.play(rng.choice(state.legal_action_ids()))
        after = side_material(state)
        for player, side in after.items():
            assert side.dice + (side.spares or 0) == 10
            if side.dice < before[player].dice:
                assert side.spares == (before[player].spares or 0) + before[player].dice - side.dice
                captured = True
    assert captured


def test_custodian_counts_dice_only() -> None:
    state = diceboard.game("custodian").start(seed=1)
    for side in side_material(state).values():
        assert side.pips is None and side.spares is None
