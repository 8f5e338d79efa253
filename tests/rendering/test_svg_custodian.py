"""SVG pictures of Custodian Dice positions, checked by parsing them as XML."""

from __future__ import annotations

import math

import pytest

import diceboard
from diceboard.core.errors import NotationError, OptionError
from diceboard.core.game import Game
from diceboard.rendering import svg
from tests.rendering.conftest import (
    CUSTODIAN_EXAMPLE,
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


def test_known_position_dice_and_pips(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    root = parse_svg(svg.render(state))
    dice = with_class(root, "die")
    assert len(dice) == 10
    found = {d.get("data-square"): (d.get("data-owner"), d.get("data-face")) for d in dice}
    assert found == {
        "a5": ("B", "5"), "b5": ("B", "2"), "c5": ("B", "6"), "d5": ("B", "2"), "e5": ("B", "6"),
        "a1": ("W", "3"), "b1": ("W", "1"), "c1": ("W", "6"), "d1": ("W", "4"), "e1": ("W", "2"),
    }  # fmt: skip
    for die in dice:
        assert len(own_pips(die)) == int(die.get("data-face", "0"))
    assert len(with_class(root, "pip")) == 5 + 2 + 6 + 2 + 6 + 3 + 1 + 6 + 4 + 2


@pytest.mark.parametrize("face", range(1, 7))
def test_every_face_has_its_pip_count(custodian: Game, face: int) -> None:
    state = custodian.parse(f"B{face}B{7 - face}.../...../...../...../W{face}.... W 0 0")
    root = parse_svg(svg.render(state))
    dice = [d for d in with_class(root, "die") if d.get("data-face") == str(face)]
    assert {d.get("data-square") for d in dice} == {"a5", "a1"}
    for die in dice:
        pips = own_pips(die)
        assert len(pips) == face
        # pips are distinct spots inside the die
        centres = {(p.get("cx"), p.get("cy")) for p in pips}
        assert len(centres) == face


def test_pip_layouts_are_symmetric_and_standard() -> None:
    from diceboard.rendering.pips import PIPS

    for face, spots in PIPS.items():
        assert len(spots) == face
        # every standard face looks the same turned half round
        assert sorted(spots) == sorted((-x + 0.0, -y + 0.0) for x, y in spots)
        assert ((0.0, 0.0) in spots) == (face % 2 == 1)


def test_pending_roll_is_a_question_mark(chaos: Game) -> None:
    state = chaos.parse("B5B2B6B2B6/...../...../.W?.../W3W1.W4W2 W 1 11")
    root = parse_svg(svg.render(state))
    (pending,) = [d for d in with_class(root, "die") if d.get("data-square") == "b2"]
    assert pending.get("data-face") == "?"
    assert own_pips(pending) == []
    (mark,) = with_class(pending, "pending")
    assert mark.text == "?"
    assert "awaits its roll" in legend_text(root)


def test_squares_carry_their_names(custodian: Game) -> None:
    root = parse_svg(svg.render(custodian.parse(CUSTODIAN_EXAMPLE)))
    squares = with_class(root, "square")
    assert len(squares) == 25
    assert [s.get("data-square") for s in squares] == list(custodian.squares)
    assert all(s.tag == SVG + "rect" for s in squares)


def test_highlights_are_their_own_layer(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    root = parse_svg(svg.render(state, highlight=["b2", "b3", "b2"]))
    layer = by_id(root, "highlights")
    assert [e.get("data-square") for e in layer] == ["b2", "b3"]
    assert all("highlight" in classes(e) for e in layer)
    assert len(by_id(parse_svg(svg.render(state)), "highlights")) == 0
    one = parse_svg(svg.render(state, highlight="c3"))  # one name alone is a square, not letters
    assert [e.get("data-square") for e in by_id(one, "highlights")] == ["c3"]


def test_last_move_arrow(custodian: Game) -> None:
    before = custodian.parse(CUSTODIAN_EXAMPLE)
    state = before.play("b1-b2=2")
    root = parse_svg(svg.render(state))
    layer = by_id(root, "arrows")
    (arrow,) = list(layer)
    assert classes(arrow) == {"arrow", "last-move"}
    assert arrow.get("data-squares") == "b1 b2"
    (line,) = with_class(arrow, "arrow-line")
    (head,) = with_class(arrow, "arrow-head")
    centres = svg.square_centres(custodian)
    # the line starts on b1's centre and heads straight for b2 (up the screen)
    start = polyline_points(line)[0]
    assert start == pytest.approx(centres["b1"], abs=0.01)
    tip = polyline_points(head)[0]
    assert tip[0] == pytest.approx(centres["b2"][0], abs=0.01)
    assert centres["b2"][1] < tip[1] < centres["b1"][1]
    assert "last move b1-b2=2" in legend_text(root)
    assert len(by_id(parse_svg(svg.render(state, last_move=False)), "arrows")) == 0
    # a parsed position has no last move
    assert len(by_id(parse_svg(svg.render(before)), "arrows")) == 0


def test_last_move_through_a_separate_chaos_roll(chaos: Game) -> None:
    state = chaos.parse(CUSTODIAN_EXAMPLE).play("c1-b2").play("=4")
    assert state.last_move is not None and state.last_move.notation == "=4"
    root = parse_svg(svg.render(state))
    (arrow,) = list(by_id(root, "arrows"))
    # the die on c1 showed 6: the arrow follows its walk, square by square, to b2
    walk = arrow.get("data-squares").split()
    assert (walk[0], walk[-1], len(walk)) == ("c1", "b2", 7)
    assert "last move c1-b2=4" in legend_text(root)


def test_placement_is_a_ring(custodian: Game) -> None:
    state = custodian.parse("...../...../...../...../..... W 0 0 W12346,B22566").play("6@c1")
    root = parse_svg(svg.render(state))
    (arrow,) = list(by_id(root, "arrows"))
    (ring,) = with_class(arrow, "arrow-ring")
    cx, cy = float(ring.get("cx", "0")), float(ring.get("cy", "0"))
    assert (cx, cy) == pytest.approx(svg.square_centres(custodian)["c1"], abs=0.01)


def test_extra_arrows(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    root = parse_svg(svg.render(state, arrows=[["a1", "a3", "c3"], ("d2",)]))
    arrows = list(by_id(root, "arrows"))
    assert [a.get("data-squares") for a in arrows] == ["a1 a3 c3", "d2"]
    assert all("extra" in classes(a) for a in arrows)
    (line,) = with_class(arrows[0], "arrow-line")
    assert len(polyline_points(line)) == 3  # a bend at a3
    assert len(with_class(arrows[1], "arrow-ring")) == 1


@pytest.mark.parametrize("interactive", [False, True])
def test_dice_stand_on_their_square_centres(custodian: Game, interactive: bool) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    for flipped in (False, True):
        for size in (480, 333.3):
            root = parse_svg(svg.render(state, size=size, flipped=flipped, interactive=interactive))
            centres = svg.square_centres(custodian, size=size, flipped=flipped)
            for die in with_class(root, "die"):
                assert translation(die) == pytest.approx(centres[die.get("data-square", "")])


def test_flipped_turns_the_board(custodian: Game) -> None:
    plain = svg.square_centres(custodian)
    flipped = svg.square_centres(custodian, flipped=True)
    # White's home rank is at the bottom, or at the top when flipped; files run e..a then
    assert plain["a1"][1] > plain["a5"][1] and flipped["a1"][1] < flipped["a5"][1]
    assert plain["a1"][0] < plain["e1"][0] and flipped["a1"][0] > flipped["e1"][0]
    root = parse_svg(svg.render(custodian.parse(CUSTODIAN_EXAMPLE), flipped=True))
    assert "flipped" in classes(root)
    labels = [e.text for e in with_class(root, "column")]
    assert labels == list("edcba")


def test_square_centres_known_values(custodian: Game) -> None:
    centres = svg.square_centres(custodian, size=575)  # 100 px per square with coordinates
    assert centres["a1"] == (105.0, 470.0)
    assert centres["e5"] == (505.0, 70.0)
    bare = svg.square_centres("custodian", size=540, coordinates=False)
    assert bare["a5"] == (70.0, 70.0)
    assert svg.split_hex_centres(custodian) == {}


def test_deterministic(custodian: Game) -> None:
    state = custodian.start(seed=11)
    again = custodian.start(seed=11)
    assert svg.render(state) == svg.render(state) == svg.render(again)
    assert svg.render(state) != svg.render(custodian.start(seed=12))


def test_standalone_and_self_contained(custodian: Game) -> None:
    text = svg.render(custodian.parse(CUSTODIAN_EXAMPLE).play("b1-b2=2"), highlight=["c3"])
    root = parse_svg(text)
    assert root.get("width") == "480"
    assert root.get("viewBox", "").startswith("0 0 480 ")
    # no external resources: no links, no images, no stylesheets, no fonts to fetch
    for bad in ("href", "url(", "<image", "<style", "@import", "<script"):
        assert bad not in text
    title = root.find(SVG + "title")
    assert title is not None and CUSTODIAN_EXAMPLE[:10] in (title.text or "")


def test_interactive_scales_and_has_no_text_around_the_board(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    root = parse_svg(svg.render(state, interactive=True))
    assert root.get("width") is None and root.get("height") is None
    assert root.get("viewBox") is not None
    assert root.get("data-to-move") == "W"
    assert root.find(SVG + "title") is None
    assert not [e for e in root.iter() if e.get("id") == "legend"]
    assert len(with_class(root, "die")) == 10
    standalone = parse_svg(svg.render(state))
    legend = legend_text(standalone)
    assert "Custodian Dice: White to move" in legend
    assert "clock 0, ply 10" in legend
    assert "White: 5 dice" in legend and "Black: 5 dice" in legend


def test_coordinates_can_be_left_out(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    root = parse_svg(svg.render(state))
    assert [e.text for e in with_class(root, "row")] == list("54321")
    assert [e.text for e in with_class(root, "column")] == list("abcde")
    bare = parse_svg(svg.render(state, coordinates=False))
    assert not [e for e in bare.iter() if e.get("id") == "coordinates"]


def test_setup_shows_the_hands(custodian: Game) -> None:
    state = custodian.parse("...../...../...../...../..... W 0 0 W12346,B22566")
    root = parse_svg(svg.render(state))
    hands = by_id(root, "hands")
    dice = with_class(hands, "hand-die")
    assert [(d.get("data-owner"), d.get("data-face")) for d in dice] == [
        ("B", "2"), ("B", "2"), ("B", "5"), ("B", "6"), ("B", "6"),
        ("W", "1"), ("W", "2"), ("W", "3"), ("W", "4"), ("W", "6"),
    ]  # fmt: skip
    assert with_class(root, "die") == []
    assert "White to place a die" in legend_text(root)
    # the hands lie beside the board: the picture is wider than the board block
    assert float(root.get("width", "0")) > 480


def test_unrolled_hand_dice_are_question_marks(custodian: Game) -> None:
    state = custodian.initial_state().play("=3")
    root = parse_svg(svg.render(state, flipped=True))
    dice = with_class(by_id(root, "hands"), "hand-die")
    assert [d.get("data-face") for d in dice] == ["3"] + ["?"] * 9
    assert len(with_class(by_id(root, "hands"), "pending")) == 9
    legend = legend_text(root)
    assert "rolling White's dice (4 to roll)" in legend
    # flipped: White sits at the top, so its hand is listed first
    assert [g.get("data-owner") for g in with_class(root, "hand")] == ["W", "B"]


def test_the_result_of_a_finished_game(custodian: Game) -> None:
    state = custodian.parse("...../.B3.../...../.B2.B1./....W3 W 0 180")
    assert state.is_terminal()
    legend = legend_text(parse_svg(svg.render(state)))
    assert "Custodian Dice: 0-1, Black wins by elimination" in legend
    assert "White: 1 die" in legend


def test_registered_for_jupyter(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    assert diceboard.State.svg_renderer is svg.render
    assert state._repr_svg_() == svg.render(state)


@pytest.mark.parametrize("size", [0, -10, math.nan, math.inf, "480", True, None])
def test_bad_size(custodian: Game, size: object) -> None:
    with pytest.raises(OptionError, match="size must be a positive number of pixels"):
        svg.render(custodian.parse(CUSTODIAN_EXAMPLE), size=size)  # type: ignore[arg-type]


def test_bad_squares_and_arrows(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    with pytest.raises(NotationError, match=r"highlight: 'f6' is not a square"):
        svg.render(state, highlight=["a1", "f6"])
    with pytest.raises(NotationError, match="highlight must be square names"):
        svg.render(state, highlight=3)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"arrows: 'z9' is not a square"):
        svg.render(state, arrows=[["a1", "z9"]])
    with pytest.raises(NotationError, match="arrows must be a list of polylines"):
        svg.render(state, arrows="a1a3")
    with pytest.raises(NotationError, match="each arrow must be a non-empty list"):
        svg.render(state, arrows=[[]])
    with pytest.raises(NotationError, match="each arrow must be a non-empty list"):
        svg.render(state, arrows=["a1"])
    with pytest.raises(NotationError, match="arrows must be a list of polylines"):
        svg.render(state, arrows=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="draws a diceboard State, not str"):
        svg.render(CUSTODIAN_EXAMPLE)  # type: ignore[arg-type]
