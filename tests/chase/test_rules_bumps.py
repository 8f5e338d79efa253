"""Bumps and bump chains on hand-built positions."""

from __future__ import annotations

import pytest

from diceboard import IllegalMoveError
from diceboard.games.chase.kernel.bump import CHAMBER_DISTANCE, chain_stays_out
from diceboard.games.chase.kernel.geometry import (
    CANDIDATE_CHAMBER_DISTANCE,
    CANDIDATE_DIR,
    CHAMBER,
    HEX_NAMES,
    MAX_FACE,
    MOVE_CANDIDATES,
    N_MOVE_CANDIDATES,
    NDIR,
    NHEX,
    PATH,
    PATH_HEADING,
    STEP_HEADING,
    STEP_TO,
    E,
    W,
)

from .helpers import dice, moves, state

RED = "i1:5 i3:5 i5:5 i7:5 i9:5"


def test_a_chain_along_a_row() -> None:
    # d1 (2) → d2 → d3: pushes the 3 on to d4, which pushes the 4 on to d5
    st = state("d1:2 d3:3 d4:4 a1:6 a5:6 a7:4", RED)
    after = st.play("d1-d3E")
    assert {h: dice(after).get(h) for h in ("d1", "d3", "d4", "d5")} == {
        "d1": None,
        "d3": "B2",
        "d4": "B3",
        "d5": "B4",
    }
    assert st.move_segments("d1-d3E") == [["d1", "d2", "d3"], ["d3", "d4"], ["d4", "d5"]]
    assert str(after).endswith(" R 1 1")  # no die was taken: the clock runs on


def test_a_chain_across_the_wrap() -> None:
    st = state("c8:1 c9:2 c1:3 a1:6 a4:6 a7:6 b5:1", RED)
    after = st.play("c8-c9E")
    assert {h: dice(after).get(h) for h in ("c8", "c9", "c1", "c2")} == {
        "c8": None,
        "c9": "B1",
        "c1": "B2",
        "c2": "B3",
    }


def test_a_bumped_die_ricochets_off_the_edge() -> None:
    # c3 SW: b3, a2 (arriving heading SW); the die on a2 steps SW from row a: it ricochets
    # to NW and lands on b2
    st = state("c3:2 a2:5 a5:6 a7:6 a9:6", RED)
    after = st.play("c3-a2SW")
    assert dice(after)["a2"] == "B2" and dice(after)["b2"] == "B5"
    assert st.move_segments("c3-a2SW") == [["c3", "b3", "a2"], ["a2", "b2"]]


def test_a_chain_that_ends_on_an_enemy_die_captures_it() -> None:
    st = state("d1:2 d3:3 a1:6 a5:6 a7:6 a9:2", "d4:5 i2:4 i3:4 i5:4 i7:4 i9:4")
    assert "d1-d3E" in moves(st)  # written with "-": the landing hex holds a friendly die
    after = st.play("d1-d3E")
    assert dice(after)["d3"] == "B2" and dice(after)["d4"] == "B3"
    assert str(after).endswith(" R 0 1")  # a capture restarts the clock
    assert all(m.startswith("{") for m in moves(after))  # Red lost 5 pips: it absorbs first


def test_a_chain_may_end_on_the_hex_the_mover_left() -> None:
    st = state("a1:1 a2:2 a3:3 a4:4 a5:5 a6:4 a7:3 a8:2 a9:1", RED)
    after = st.play("a1-a2E")
    assert str(after).split("/")[-1].split()[0] == "B1B1B2B3B4B5B4B3B2"
    segments = st.move_segments("a1-a2E")
    assert segments[0] == ["a1", "a2"]
    assert segments[1:] == [[f"a{i}", f"a{i % 9 + 1}"] for i in range(2, 10)]


def test_a_chain_into_the_chamber_makes_the_move_illegal() -> None:
    st = state("e1:2 e3:3 e4:4 a1:6 a5:6 a9:4", RED)
    assert not moves(st, "e1-e3E")
    with pytest.raises(
        IllegalMoveError,
        match="e5 is the chamber: a bump chain from e1 going E would push the die on e4 into it",
    ):
        st.play("e1-e3E")
    # a die on e4 going E would pass the chamber: no move either
    assert not moves(st, "e4-e8E")


def test_the_chamber_distance_of_a_line() -> None:
    e4, e3, a1 = (HEX_NAMES.index(name) for name in ("e4", "e3", "a1"))
    assert CHAMBER_DISTANCE[e4, E] == 0 and CHAMBER_DISTANCE[e3, E] == 1
    assert CHAMBER_DISTANCE[e4, W] == 7  # e3 e2 e1 e9 e8 e7 e6, then e5
    assert CHAMBER_DISTANCE[a1, E] == NHEX  # row a never meets it
    for start in range(NHEX):
        for heading in range(NDIR):
            steps = int(CHAMBER_DISTANCE[start, heading])
            cur, head = start, heading
            for _ in range(min(steps, NHEX)):
                assert STEP_TO[cur, head] != CHAMBER
                cur, head = int(STEP_TO[cur, head]), int(STEP_HEADING[cur, head])
            assert (STEP_TO[cur, head] == CHAMBER) == (steps < NHEX)
    # the chain from e1 going E above needs e3 and e4 (2 dice besides the mover): with 3
    # dice on the board it may reach the chamber, with 2 it cannot
    assert not chain_stays_out(e3, E, 3) and chain_stays_out(e3, E, 2)


def test_a_chain_aimed_at_the_chamber_that_stops_short_is_legal() -> None:
    # e1 (2) E lands on e3: the chain's line runs e3, e4, then the chamber. With six dice
    # the side could fill it, so move generation walks the chain: e4 is empty, and the bump
    # is legal. With the die on e4 the chain reaches the chamber (the test above).
    st = state("e1:2 e3:3 a1:6 a3:2 a5:6 a9:6", RED)
    assert not chain_stays_out(HEX_NAMES.index("e3"), E, 6)
    assert "e1-e3E" in moves(st)
    assert dice(st.play("e1-e3E"))["e4"] == "B3"
    # far from the chamber the table settles the bump by itself: the same answer
    st = state("c1:2 c3:3 a1:6 a3:2 a5:6 a9:6", RED)
    assert chain_stays_out(HEX_NAMES.index("c3"), E, 6)
    assert "c1-c3E" in moves(st) and dice(st.play("c1-c3E"))["c4"] == "B3"


def test_each_move_candidate_knows_its_landings_chamber_distance() -> None:
    for h in range(NHEX):
        for face in range(1, MAX_FACE + 1):
            for j in range(N_MOVE_CANDIDATES[h, face]):
                d = MOVE_CANDIDATES[h, face, j, CANDIDATE_DIR]
                land, heading = PATH[h, d, face - 1], PATH_HEADING[h, d, face - 1]
                assert CANDIDATE_CHAMBER_DISTANCE[h, face, j] == CHAMBER_DISTANCE[land, heading]
