"""Properties over random games: every picture parses, shows exactly the board's dice with
the right pips, stands on the published centres, and the coloured text strips to the plain."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.core.game import State
from diceboard.rendering import svg, terminal
from tests.rendering.conftest import own_pips, parse_svg, strip_ansi, translation, with_class


def random_state(game_name: str, variant: str | None, seed: int, plies: int) -> State:
    """The state after ``plies`` random actions (rolls included) from the very start."""
    game = diceboard.game(game_name, variant=variant) if variant else diceboard.game(game_name)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
    return state


def check_pictures(state: State, flipped: bool) -> None:
    board = state.board()
    text = svg.render(state, flipped=flipped, highlight=list(board)[:3])
    root = parse_svg(text)
    dice = with_class(root, "die")
    assert {d.get("data-square"): d.get("data-owner") for d in dice} == {
        sq: owner for sq, (owner, _) in board.items()
    }
    centres = svg.square_centres(state.game, flipped=flipped)
    for die in dice:
        square = die.get("data-square", "")
        face = board[square][1]
        assert die.get("data-face") == ("?" if face is None else str(face))
        assert len(own_pips(die)) == (face or 0)
        assert translation(die) == pytest.approx(centres[square])
    assert svg.render(state, flipped=flipped, highlight=list(board)[:3]) == text
    plain = terminal.render(state, color=False, flipped=flipped)
    assert strip_ansi(terminal.render(state, color=True, flipped=flipped)) == plain
    assert strip_ansi(terminal.render(state, color="basic", flipped=flipped)) == plain
    tokens = sum(
        1
        for line in plain.splitlines()
        for word in line.split()
        if len(word) == 2 and word[0] in state.game.players and word[1] in "123456?"
    )
    # a die on a split hex is shown at both ends of its row
    split = {"b1", "d1", "f1", "h1"} if state.game.name == "chase" else set()
    assert tokens == len(board) + len(split & set(board))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from([None, "chaos", "no-jumping"]),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 80),
    flipped=st.booleans(),
)
def test_custodian_random_positions(
    variant: str | None, seed: int, plies: int, flipped: bool
) -> None:
    check_pictures(random_state("custodian", variant, seed, plies), flipped)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60), flipped=st.booleans())
def test_chase_random_positions(seed: int, plies: int, flipped: bool) -> None:
    check_pictures(random_state("chase", None, seed, plies), flipped)
