"""Perft counts fixed as regression fixtures.

Depth 1 is checked against the naive oracle and depth 2 against a perft through the Python API;
the placement counts follow by hand (25 = 5 faces × 5 squares, then 4 × 4, then 3 × 3) and the
Chaos depth 2 is depth 1 × 6 rolls. Deeper counts pin the kernel's behaviour."""

from __future__ import annotations

import pytest

import diceboard

from .oracle import legal_moves as oracle_moves

START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
MIDDLE = "B5.B6../..B2.W3/.W1.B4./W6..B2./W3...W2 B 14 31"

# (options, position, [perft(1), perft(2), perft(3)])
FIXTURES = [
    ({}, START, [84, 8788, 660808]),
    ({}, "initial", [6, 36, 216]),
    ({}, "...../...../...../...../..... W 0 0 W12346,B22566", [25, 400, 3600]),
    ({"variant": "chaos"}, START, [21, 126, 3318]),
    ({"variant": "no-jumping"}, START, [84, 8768, 643216]),
    ({"path": "self-avoiding"}, START, [80, 7428, 518900]),
    ({"capture": "single"}, MIDDLE, [51, 2972, 206822]),
]


def perft(state: diceboard.State, depth: int) -> int:
    game = state.game
    return int(
        game.kernel.perft(
            state.kernel_state(),
            game.opts,
            depth,
            state.kernel_history(),
            len(state.kernel_history()),
        )
    )


def slow_perft(state: diceboard.State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(slow_perft(state.play(a), depth - 1) for a in state.legal_action_ids())


def load(options: dict[str, str], position: str) -> diceboard.State:
    game = diceboard.game("custodian", **options)
    return game.initial_state() if position == "initial" else game.parse(position)


@pytest.mark.parametrize(("options", "position", "counts"), FIXTURES)
def test_perft(options: dict[str, str], position: str, counts: list[int] | None) -> None:
    state = load(options, position)
    assert perft(state, 1) == len(state.legal_action_ids())
    assert perft(state, 2) == slow_perft(state, 2)
    if counts is not None:
        assert [perft(state, d) for d in (1, 2, 3)] == counts


def test_middle_game_counts() -> None:
    state = load({}, MIDDLE)
    assert {str(m) for m in state.legal_moves()} == oracle_moves(MIDDLE)
    assert [perft(state, d) for d in (1, 2, 3)] == MIDDLE_COUNTS


MIDDLE_COUNTS = [51, 2972, 206946]


@pytest.mark.slow
def test_perft_depth_4_from_the_start() -> None:
    assert perft(load({}, START), 4) == START_DEPTH_4


START_DEPTH_4 = 58_295_936
