"""Board geometry against the specs: Custodian's grid, and Chase's hexes checked against the
neighbour table of the Chase spec (every neighbour one hex width away, in its direction)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diceboard.core.errors import NotationError, OptionError
from diceboard.rendering.geometry import (
    HEX_ROW_PITCH,
    board_geometry,
    check_squares,
    nearest_image,
    split_at_edges,
)

ROWS = "abcdefghi"
# the spec's table: direction -> (dc, dR) for even R, then for odd R
SPEC_NEIGHBOURS = {
    "E": ((1, 0), (1, 0)),
    "W": ((-1, 0), (-1, 0)),
    "NE": ((1, 1), (0, 1)),
    "NW": ((0, 1), (-1, 1)),
    "SE": ((1, -1), (0, -1)),
    "SW": ((0, -1), (-1, -1)),
}
# where each direction points on screen (y down), unflipped
SCREEN_STEP = {
    "E": (1.0, 0.0),
    "W": (-1.0, 0.0),
    "NE": (0.5, -HEX_ROW_PITCH),
    "NW": (-0.5, -HEX_ROW_PITCH),
    "SE": (0.5, HEX_ROW_PITCH),
    "SW": (-0.5, HEX_ROW_PITCH),
}


def spec_neighbour(name: str, direction: str) -> str | None:
    """The spec's neighbour of hex ``name`` (None across rows a and i)."""
    r, c = ROWS.index(name[0]), int(name[1])
    dc, dr = SPEC_NEIGHBOURS[direction][r % 2]
    if not 0 <= r + dr <= 8:
        return None
    return f"{ROWS[r + dr]}{(c - 1 + dc) % 9 + 1}"


def test_custodian_grid() -> None:
    g = board_geometry("custodian")
    assert list(g.cells) == [f + r for f in "abcde" for r in "12345"]
    assert g.cells["a1"].centre == (0.5, 4.5)
    assert g.cells["e5"].centre == (4.5, 0.5)
    assert g.cells["c3"].centre == (2.5, 2.5)
    assert g.wrap is None and (g.width, g.height) == (5.0, 5.0)
    assert [t for t, _ in g.column_labels] == list("abcde")
    assert [t for t, _ in g.row_labels] == list("54321")  # top to bottom


def test_custodian_flipped_turns_the_board_round() -> None:
    g = board_geometry("custodian", flipped=True)
    assert g.cells["a1"].centre == (4.5, 0.5)
    assert g.cells["e5"].centre == (0.5, 4.5)
    assert [t for t, _ in g.column_labels] == list("edcba")
    assert [t for t, _ in g.row_labels] == list("12345")


def test_chase_cells() -> None:
    g = board_geometry("chase")
    assert list(g.cells) == [f"{r}{c}" for r in ROWS for c in range(1, 10)]
    assert [n for n, c in g.cells.items() if c.split] == ["b1", "d1", "f1", "h1"]
    assert [n for n, c in g.cells.items() if c.chamber] == ["e5"]
    assert g.wrap == g.width == 9
    # rows a to i from the bottom up; b is half a hex west of a
    assert g.cells["a1"].centre[0] == 0.5 and g.cells["b2"].centre[0] == 1.0
    assert g.cells["i5"].centre[1] < g.cells["e5"].centre[1] < g.cells["a5"].centre[1]
    assert g.cells["e5"].centre[0] == 4.5
    # the split hex's two images sit on the two side edges
    assert g.cells["b1"].images(g.wrap) == (
        (0.0, g.cells["b2"].centre[1]),
        (9.0, g.cells["b2"].centre[1]),
    )
    assert len(g.cells["b1"].outlines) == 2 and len(g.cells["a1"].outlines) == 1
    assert [t for t, _ in g.column_labels] == [str(c) for c in range(1, 10)]
    assert [t for t, _ in g.row_labels] == list("ihgfedcba")


@pytest.mark.parametrize("flipped", [False, True])
def test_chase_neighbours_follow_the_spec_table(flipped: bool) -> None:
    """Each spec neighbour is one hex width away (across the seam where it wraps), in the
    direction's screen direction (turned round when flipped)."""
    g = board_geometry("chase", flipped)
    sign = -1.0 if flipped else 1.0
    checked = 0
    for name, cell in g.cells.items():
        for direction, (sx, sy) in SCREEN_STEP.items():
            other = spec_neighbour(name, direction)
            if other is None:
                continue
            x0, y0 = cell.centre
            x1, y1 = g.cells[other].centre
            x1 = nearest_image(x0, x1, g.wrap)
            assert (x1 - x0, y1 - y0) == pytest.approx((sign * sx, sign * sy)), (name, direction)
            checked += 1
    # 81 hexes x 6 directions, less the 9 x 2 missing across row a and the 9 x 2 across row i
    assert checked == 81 * 6 - 36


def test_chase_adjacent_exactly_when_one_hex_apart() -> None:
    g = board_geometry("chase")
    adjacent = {
        frozenset((a, b))
        for a in g.cells
        for d in SPEC_NEIGHBOURS
        if (b := spec_neighbour(a, d)) is not None
    }
    for a, ca in g.cells.items():
        for b, cb in g.cells.items():
            if a >= b:
                continue
            dx = nearest_image(ca.centre[0], cb.centre[0], g.wrap) - ca.centre[0]
            near = math.isclose(math.hypot(dx, cb.centre[1] - ca.centre[1]), 1.0)
            assert near == (frozenset((a, b)) in adjacent), (a, b)


def test_spec_adjacency_examples() -> None:
    """The spec's examples: a1 touches a2 a9 b1 b2; b1 touches a1 a9 b2 b9 c1 c9."""
    for name, expected in {
        "a1": {"a2", "a9", "b1", "b2"},
        "b1": {"a1", "a9", "b2", "b9", "c1", "c9"},
        "e5": {"d5", "d6", "e4", "e6", "f5", "f6"},
    }.items():
        found = {n for d in SPEC_NEIGHBOURS if (n := spec_neighbour(name, d)) is not None}
        assert found == expected


def test_chase_flipped_is_a_half_turn() -> None:
    plain, flipped = board_geometry("chase"), board_geometry("chase", True)
    for name, cell in plain.cells.items():
        x, y = cell.centre
        fx, fy = flipped.cells[name].centre
        assert fy == pytest.approx(plain.height - y)
        assert (fx - (9 - x)) % 9 == pytest.approx(0) or (fx - (9 - x)) % 9 == pytest.approx(9)
        if cell.split:
            assert fx == 0.0  # the main image is always the left edge's


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match="no board layout"):
        board_geometry("go")


def test_check_squares() -> None:
    g = board_geometry("custodian")
    assert check_squares("a1", g, "highlight") == ["a1"]
    assert check_squares(("b2", "c3"), g, "highlight") == ["b2", "c3"]
    with pytest.raises(NotationError, match=r"highlight: 'f1' is not a square .* a1 to e5"):
        check_squares(["a1", "f1"], g, "highlight")
    with pytest.raises(NotationError, match="must be square names"):
        check_squares(7, g, "highlight")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="not a square"):
        check_squares([None], g, "arrows")  # type: ignore[list-item]


def test_nearest_image() -> None:
    assert nearest_image(8.5, 0.5, 9.0) == 9.5
    assert nearest_image(0.5, 8.5, 9.0) == -0.5
    assert nearest_image(4.0, 5.0, 9.0) == 5.0
    assert nearest_image(0.5, 5.0, 9.0) == 5.0  # a tie keeps the point itself
    assert nearest_image(30.0, 0.0, 9.0) == 27.0
    assert nearest_image(8.5, 0.5, None) == 0.5


def test_split_at_edges_folds_a_path_across_the_seam() -> None:
    # the spec's example: a 6 on d6 going E passes d7 d8 d9 d1 d2 and lands on d3
    g = board_geometry("chase")
    path = [g.cells[n].centre for n in ["d6", "d7", "d8", "d9", "d1", "d2", "d3"]]
    unwrapped = [path[0]]
    for x, y in path[1:]:
        unwrapped.append((nearest_image(unwrapped[-1][0], x, 9.0), y))
    assert [x for x, _ in unwrapped] == [5, 6, 7, 8, 9, 10, 11]
    pieces = split_at_edges(unwrapped, 9.0)
    y = path[0][1]
    assert pieces == [[(5, y), (6, y), (7, y), (8, y), (9, y)], [(0, y), (1, y), (2, y)]]


def test_split_at_edges_without_wrap_or_crossing() -> None:
    line = [(0.5, 0.5), (2.5, 3.5)]
    assert split_at_edges(line, None) == [line]
    assert split_at_edges(line, 9.0) == [line]
    assert split_at_edges([(1.0, 1.0)], 9.0) == [[(1.0, 1.0)]]


def test_split_at_edges_crossing_mid_segment() -> None:
    pieces = split_at_edges([(8.5, 1.0), (9.5, 2.0)], 9.0)
    assert pieces == [[(8.5, 1.0), (9.0, 1.5)], [(0.0, 1.5), (0.5, 2.0)]]
    back = split_at_edges([(0.5, 1.0), (-0.5, 2.0)], 9.0)
    assert back == [[(0.5, 1.0), (0.0, 1.5)], [(9.0, 1.5), (8.5, 2.0)]]


steps = st.lists(st.sampled_from([-1.0, -0.5, 0.5, 1.0]), min_size=1, max_size=30)


@given(start=st.integers(0, 17).map(lambda k: k / 2), moves=steps)
def test_split_at_edges_keeps_every_piece_on_the_board(start: float, moves: list[float]) -> None:
    points = [(start, 0.0)]
    for i, dx in enumerate(moves):
        points.append((points[-1][0] + dx, float(i + 1)))
    pieces = split_at_edges(points, 9.0)
    for piece in pieces:
        assert len(piece) >= 2
        assert all(-1e-9 <= x <= 9 + 1e-9 for x, _ in piece)

    def length(line: list[tuple[float, float]]) -> float:
        return sum(math.dist(a, b) for a, b in itertools.pairwise(line))

    # folding moves pieces sideways but never changes how long the path is
    assert sum(length(p) for p in pieces) == pytest.approx(length(points))
    # consecutive pieces meet at the seam: one ends on an edge where the next begins
    for a, b in itertools.pairwise(pieces):
        assert {round(a[-1][0], 9), round(b[0][0], 9)} == {0.0, 9.0}
        assert a[-1][1] == pytest.approx(b[0][1])
