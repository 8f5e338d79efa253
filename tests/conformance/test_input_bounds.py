"""Input at the boundary of the game API: whatever text or number comes in, only the library's
own ValueError subclasses come out (issue 12, item 5), for every registered game."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.core.errors import DiceboardError, IllegalMoveError, OptionError, PositionError
from diceboard.core.limits import MAX_COUNTER

NAMES = diceboard.games.names()
HUGE = "92233720368547758085"
#: digits that str.isdigit() takes but int() does not, and digits int() takes that are not ASCII
ODD_DIGITS = ["²", "٣", "１", "߁", "𝟘"]

_FIELDS = st.one_of(
    st.text(max_size=25),
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.sampled_from([*ODD_DIGITS, HUGE, str(2**63 - 1), str(2**64), str(MAX_COUNTER + 1)]),
)
_SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _start_text(name: str) -> str:
    return str(diceboard.game(name).initial_state())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("field", [2, 3], ids=["clock", "ply"])
@pytest.mark.parametrize("value", [*ODD_DIGITS, HUGE, str(2**63 - 1), str(MAX_COUNTER + 1)])
def test_counter_fields_out_of_range_are_position_errors(name: str, field: int, value: str) -> None:
    parts = _start_text(name).split(" ")
    parts[field] = value
    with pytest.raises(PositionError, match="must be"):
        diceboard.game(name).parse(" ".join(parts))


@pytest.mark.parametrize("name", NAMES)
def test_a_ply_at_the_maximum_plays_on_without_wrapping(name: str) -> None:
    game = diceboard.game(name)
    state = game.start(seed=1)
    for _ in range(40):  # past any setup phase, where the ply is tied to the placements
        parts = str(state).split(" ")
        parts[3] = str(MAX_COUNTER)
        try:
            start = game.parse(" ".join(parts))
            break
        except PositionError:
            state = state.play(state.legal_moves()[0])
    after = start.play(start.legal_moves()[0])
    assert after.ply == MAX_COUNTER + 1


@pytest.mark.parametrize("name", NAMES)
@given(fields=st.lists(_FIELDS, min_size=0, max_size=6))
@_SETTINGS
def test_parse_raises_only_library_errors(name: str, fields: list[str]) -> None:
    board = _start_text(name).split(" ")[0]
    for text in (" ".join([board, *fields]), " ".join(fields)):
        with contextlib.suppress(DiceboardError):
            diceboard.game(name).parse(text)


_MOVE_TEXT = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"\A[a-i][0-9]{1,3}[-x=^@,][a-i0-9=,]{0,25}[A-Z]{0,2}\Z"),
    st.builds(lambda a, b: f"a1={a},a2={b}", _FIELDS, _FIELDS),
    st.builds(lambda a: f"={a}", _FIELDS),
)


@pytest.mark.parametrize("name", NAMES)
@given(text=_MOVE_TEXT)
@_SETTINGS
def test_parse_move_raises_only_library_errors(name: str, text: str) -> None:
    state = diceboard.game(name).initial_state()
    while True:
        with contextlib.suppress(DiceboardError):
            state.parse_move(text)
        if not state.is_chance():
            break
        state = state.play(state.chance_outcomes()[0][0])


def test_a_transfer_with_a_huge_face_is_an_illegal_move() -> None:
    state = diceboard.game("chase").initial_state()
    with pytest.raises(IllegalMoveError, match="faces are 1 to 6"):
        state.play(f"a1=2,a2={HUGE}")


@pytest.mark.parametrize("name", NAMES)
@given(value=st.one_of(_FIELDS, st.integers(min_value=-(2**80), max_value=2**80), st.booleans()))
@_SETTINGS
def test_integer_options_raise_only_option_errors(name: str, value: object) -> None:
    for option in diceboard.games.info(name).options:
        if option.minimum is None and option.maximum is None:
            continue
        with contextlib.suppress(OptionError):
            diceboard.game(name, **{option.name: value})
