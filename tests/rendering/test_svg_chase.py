"""SVG pictures of Chase positions: the hex board with its split hexes and chamber, dice on
the seam, and last-move arrows along real paths (wraps, ricochets, bump chains).

These tests skip while ``diceboard.game("chase")`` is not available."""

from __future__ import annotations

import pytest

from diceboard.core.game import Game
from diceboard.rendering import svg
from tests.rendering.conftest import (
    CHASE_START,
    SVG,
    by_id,
    classes,
    legend_text,
    own_pips,
    parse_svg,
    polyline_points,
    translation,
    with_class,
)

#: Blue: a 6 on d6 and nine dice on row a (faces 25 in all); Red at its start
D6_ON_ROW_A = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./.....B6.../........./"
    "........./B1B2B3B4B1B2B3B2B1 B 0 0"
)
#: the same with a4 empty, so that d6 going SW can ricochet off row a
D6_A4_EMPTY = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./.....B6.../........./"
    "........./B1B2B3.B1B4B3B2B3 B 0 0"
)
#: a Blue 6 on the split hex b1
ON_SPLIT_HEX = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "B6......../B1B2B3B4B1B2B3B2B1 B 0 0"
)


def test_hexes_split_halves_and_chamber(chase: Game) -> None:
    root = parse_svg(svg.render(chase.parse(CHASE_START)))
    hexes = with_class(root, "hex")
    # 81 hexes as 85 elements: the 4 split hexes are drawn as two halves each
    assert len(hexes) == 85
    assert {h.get("data-square") for h in hexes} == set(chase.squares)
    assert all(h.tag == SVG + "polygon" for h in hexes)
    split = with_class(root, "split")
    assert [(h.get("data-square"), h.get("data-half")) for h in split] == [
        (name, half) for name in ("b1", "d1", "f1", "h1") for half in ("left", "right")
    ]
    chambers = [h for h in hexes if "chamber" in classes(h)]
    assert [h.get("data-square") for h in chambers] == ["e5"]
    assert len(with_class(root, "chamber-mark")) == 1
    # every hex is named; the split hexes at both edges
    names = [e.text for e in with_class(root, "cell")]
    assert len(names) == 85 and set(names) == set(chase.squares)


def test_start_position_dice_and_pips(chase: Game) -> None:
    root = parse_svg(svg.render(chase.parse(CHASE_START)))
    dice = with_class(root, "die")
    assert len(dice) == 18
    assert sum(d.get("data-owner") == "B" for d in dice) == 9
    faces = [1, 2, 3, 4, 5, 4, 3, 2, 1]
    assert [int(d.get("data-face", "0")) for d in dice if d.get("data-owner") == "B"] == faces
    for die in dice:
        assert len(own_pips(die)) == int(die.get("data-face", "0"))
    assert len(with_class(root, "pip")) == 50
    legend = legend_text(root)
    assert "Chase: Blue to move" in legend
    assert "Blue: 9 dice, total 25" in legend and "Red: 9 dice, total 25" in legend


def test_colour_blind_cue_beyond_colour(chase: Game) -> None:
    """Red dice differ from Blue in shape too: rounder corners and an inner ring."""
    root = parse_svg(svg.render(chase.parse(CHASE_START)))
    dice = {d.get("data-owner"): d for d in with_class(root, "die")}
    blue_body = with_class(dice["B"], "die-body")[0]
    red_body = with_class(dice["R"], "die-body")[0]
    assert blue_body.get("fill") != red_body.get("fill")
    assert float(red_body.get("rx", "0")) > float(blue_body.get("rx", "0"))
    assert with_class(dice["R"], "die-ring") and not with_class(dice["B"], "die-ring")


@pytest.mark.parametrize("flipped", [False, True])
def test_die_on_a_split_hex_shows_at_both_edges(chase: Game, flipped: bool) -> None:
    root = parse_svg(svg.render(chase.parse(ON_SPLIT_HEX), flipped=flipped))
    (die,) = [d for d in with_class(root, "die") if d.get("data-square") == "b1"]
    left, right = svg.split_hex_centres(chase, flipped=flipped)["b1"]
    assert translation(die) == pytest.approx(left)
    (wrap,) = [e for e in die if "wrap" in classes(e)]
    assert translation(wrap) == pytest.approx((right[0] - left[0], 0.0), abs=0.02)
    assert len(with_class(wrap, "wrap-copy")) == 1
    assert len(own_pips(die)) == 6


@pytest.mark.parametrize("flipped", [False, True])
def test_dice_stand_on_their_hex_centres(chase: Game, flipped: bool) -> None:
    root = parse_svg(svg.render(chase.parse(ON_SPLIT_HEX), flipped=flipped, size=700))
    centres = svg.square_centres(chase, flipped=flipped, size=700)
    for die in with_class(root, "die"):
        assert translation(die) == pytest.approx(centres[die.get("data-square", "")])
    # flipped, Blue's home row is at the top
    blue_y = {translation(d)[1] for d in with_class(root, "die") if d.get("data-owner") == "B"}
    red_y = {translation(d)[1] for d in with_class(root, "die") if d.get("data-owner") == "R"}
    assert (max(blue_y) < min(red_y)) == flipped


def _board_edges(chase: Game) -> tuple[float, float]:
    left, right = svg.split_hex_centres(chase)["b1"]
    return left[0], right[0]


def test_wrap_arrow_leaves_one_edge_and_enters_at_the_other(chase: Game) -> None:
    # the spec's example: a 6 on d6 going E passes d7 d8 d9 d1 d2 and lands on d3
    state = chase.parse(D6_ON_ROW_A).play("d6-d3E")
    root = parse_svg(svg.render(state))
    arrow = with_class(by_id(root, "arrows"), "last-move")[0]
    assert arrow.get("data-squares") == "d6 d7 d8 d9 d1 d2 d3"
    first, second = (polyline_points(p) for p in with_class(arrow, "arrow-line"))
    west, east = _board_edges(chase)
    centres = svg.square_centres(chase)
    assert first[0] == pytest.approx(centres["d6"], abs=0.01)
    assert first[-1][0] == pytest.approx(east, abs=0.01)  # leaves at the east edge ...
    assert second[0][0] == pytest.approx(west, abs=0.01)  # ... and comes back at the west
    assert [y for _, y in first + second] == [pytest.approx(centres["d6"][1], abs=0.01)] * (
        len(first) + len(second)
    )
    (head,) = with_class(arrow, "arrow-head")
    tip = polyline_points(head)[0]
    assert centres["d2"][0] < tip[0] < centres["d3"][0]


def test_ricochet_arrow_bounces_off_row_a(chase: Game) -> None:
    # the spec's example: a 6 on d6 going SW passes c5 b5 a4 b4 c3 and lands on d3
    state = chase.parse(D6_A4_EMPTY).play("d6-d3SW")
    root = parse_svg(svg.render(state))
    arrow = with_class(by_id(root, "arrows"), "last-move")[0]
    assert arrow.get("data-squares") == "d6 c5 b5 a4 b4 c3 d3"
    (line,) = with_class(arrow, "arrow-line")
    points = polyline_points(line)
    centres = svg.square_centres(chase)
    lowest = max(points, key=lambda p: p[1])
    assert lowest == pytest.approx(centres["a4"], abs=0.01)
    assert points[:6] == [
        pytest.approx(centres[n], abs=0.01) for n in ("d6", "c5", "b5", "a4", "b4", "c3")
    ]


def test_bump_chain_arrows(chase: Game) -> None:
    # a1 steps E onto its friend on a2, which is pushed on along row a
    before = chase.parse(CHASE_START)
    move = before.parse_move("a1-a2E")
    segments = before.move_segments(move)
    state = before.play(move)
    arrows = list(by_id(parse_svg(svg.render(state)), "arrows"))
    assert len(arrows) == len(segments) >= 2
    assert classes(arrows[0]) == {"arrow", "last-move"}
    assert all(classes(a) == {"arrow", "last-move", "chain"} for a in arrows[1:])
    assert [a.get("data-squares") for a in arrows] == [" ".join(s) for s in segments]


def test_highlighting_a_split_hex_marks_both_halves(chase: Game) -> None:
    root = parse_svg(svg.render(chase.parse(CHASE_START), highlight=["b1", "e5"]))
    layer = by_id(root, "highlights")
    assert [e.get("data-square") for e in layer] == ["b1", "b1", "e5"]


def test_interactive_chase(chase: Game) -> None:
    state = chase.parse(CHASE_START)
    text = svg.render(state, interactive=True)
    root = parse_svg(text)
    assert root.get("width") is None and root.get("viewBox") is not None
    assert root.find(SVG + "title") is None
    assert text == svg.render(chase.parse(CHASE_START), interactive=True)
