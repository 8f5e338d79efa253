"""``replaced``: the server's fast ``dataclasses.replace`` makes the same records, and
refuses what ``dataclasses.replace`` refuses or could not copy the same way."""

from __future__ import annotations

import dataclasses

import pytest

from diceboard.server.storage.rows import GameData, MoveData, replaced
from tests.server.test_units import sample_game


def _game() -> GameData:
    # (fields that differ from their defaults, a dict among them: copied, not rebuilt)
    return dataclasses.replace(
        sample_game(), options={"board": 5}, draw_offer="A", tags={"event": "x"}, revision=3
    )


def test_the_copy_equals_what_dataclasses_replace_makes() -> None:
    game = _game()
    fast = replaced(game, revision=4, updated_at=5.0, draw_offer=None)
    assert fast == dataclasses.replace(game, revision=4, updated_at=5.0, draw_offer=None)
    assert type(fast) is GameData and fast is not game
    assert (game.revision, game.draw_offer) == (3, "A")  # the original is unchanged
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.revision = 9  # type: ignore[misc]
    assert replaced(game) == game


def test_an_unknown_field_is_refused_as_dataclasses_replace_refuses_it() -> None:
    with pytest.raises(TypeError, match="GameData has no field revisoin"):
        replaced(_game(), revisoin=4)
    with pytest.raises(TypeError, match="MoveData has no field x, y"):
        replaced(MoveData("a1-a2", "A", 0.0), y=1, x=2)


def test_a_record_that_init_would_change_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        value: int

    for record in (Checked(1), Slotted(1)):
        with pytest.raises(TypeError, match="not a record that replaced"):
            replaced(record, value=2)
    with pytest.raises(TypeError):
        replaced(object())
