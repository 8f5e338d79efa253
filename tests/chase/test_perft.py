"""Perft counts fixed as regression fixtures.

Perft counts kernel decisions (an absorb step is one), as the kernel's ``perft`` does. Depths
1 and 2 of every fixture are checked against the plain-Python reading of the spec in
:mod:`.reference`, depth 3 of the start too (slow), and depth 2 against a perft through the
Python API; the deeper counts pin the kernel's behaviour.
"""

from __future__ import annotations

import pytest

import diceboard

from . import reference

START = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)
#: a split into the chamber is among Red's moves
SPLIT = (
    "R2R2R5R1..R4../.R4R1....../........./..R3....../.B5B5....../.....B1.../R3B1..B4..../"
    "....B2..../...B1B5...B1 R 63 63"
)
#: Blue lost a die and must absorb 10 pips: 4 ways to begin
ABSORB = (
    "R1.R2R1..R4../.R1......./R5......../........R3/.B5B5....../....R5..../.B1....B1../"
    "...B1B1R3.../...B5B5.... B 0 82"
)
#: late in a game, few dice left on both sides
LATE = (
    "R1.R1R5....R2/R6....B5.R3./........./....R2..../.....R2.../.......B2./B1..B5...../"
    "...B1.R3.../...B3B6..B2. R 23 121"
)

FIXTURES = [
    (START, [46, 2114, 95578]),
    (SPLIT, [49, 2393, 112600]),
    (ABSORB, [4, 179, 6598]),
    (LATE, [45, 1626, 71518]),
]


def perft(state: diceboard.State, depth: int) -> int:
    game = state.game
    hist = state.kernel_history()
    return int(game.kernel.perft(state.kernel_state(), game.opts, depth, hist, len(hist)))


def api_perft(state: diceboard.State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(api_perft(state.play(a), depth - 1) for a in state.legal_action_ids())


@pytest.mark.parametrize(("position", "counts"), FIXTURES)
def test_perft(chase, position: str, counts: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = chase.parse(position)
    assert [perft(state, d) for d in (1, 2, 3)] == counts
    ref = reference.Position.parse(position)
    assert [reference.perft(ref, d) for d in (1, 2)] == counts[:2]
    assert api_perft(state, 2) == counts[1]


@pytest.mark.slow
def test_start_depth_3_against_the_reference() -> None:
    assert reference.perft(reference.Position.parse(START), 3) == 95578


@pytest.mark.slow
def test_start_depth_4(chase) -> None:  # type: ignore[no-untyped-def]
    assert perft(chase.start(), 4) == 4_302_438
