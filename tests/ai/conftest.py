"""Positions shared by the computer-player tests (all hand-checked)."""

from __future__ import annotations

import pytest

import diceboard
from diceboard.core.game import State

#: Custodian, White to move: c4-b4 sandwiches b3 between b4 and b2, leaving Black one die
CUSTODIAN_WIN_IN_ONE = "....B1/..W1../.B1.../.W3.../..... W 0 10"
#: Chase, Blue to move: h1xi1NE takes Red's fifth die (Red is left with four and loses)
CHASE_WIN_IN_ONE = (
    "R5R5R5R5R5..../B1......../........./........./........./........./........./........./"
    "B3B3B3B3B3B3B2B2B2 B 0 0"
)
#: Chase, Blue to move after losing its a9 die: it totals 24 and must absorb first ({a1})
CHASE_ABSORB = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2. B 0 0"
)
#: the spec's first position of play
CUSTODIAN_PLAY = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


@pytest.fixture(scope="session")
def custodian_play() -> State:
    return diceboard.game("custodian").parse(CUSTODIAN_PLAY)


@pytest.fixture(scope="session")
def custodian_placement() -> State:
    """White to place its five rolled dice."""
    return diceboard.game("custodian").start(seed=3)


@pytest.fixture(scope="session")
def chaos_play() -> State:
    return diceboard.game("custodian", variant="chaos").parse(CUSTODIAN_PLAY)


@pytest.fixture(scope="session")
def chase_start() -> State:
    return diceboard.game("chase").start()


@pytest.fixture(scope="session")
def chase_absorb() -> State:
    return diceboard.game("chase").parse(CHASE_ABSORB)
