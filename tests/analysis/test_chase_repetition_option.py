"""Chase's repetition option: the kernel flag that turns the third-occurrence draw off."""

from __future__ import annotations

import numpy as np

import diceboard
from diceboard.games.chase.kernel.endings import check_end
from diceboard.games.chase.kernel.layout import OPT_NO_REPETITION
from diceboard.kernel import HASH, REASON, REASON_REPETITION, RESULT, RESULT_DRAW


def _ended_by_threefold(repetition: str) -> tuple[int, int]:
    game = diceboard.game("chase", repetition=repetition)
    state = game.initial_state().kernel_state().copy()
    opts = np.array(game.opts)
    assert opts[OPT_NO_REPETITION] == int(repetition == "off")
    history = np.full(3, state[HASH], dtype=np.int64)
    check_end(state, opts, history, 3)
    return int(state[RESULT]), int(state[REASON])


def test_the_third_occurrence_draws_only_with_repetition_on() -> None:
    assert _ended_by_threefold("on") == (RESULT_DRAW, REASON_REPETITION)
    result, _ = _ended_by_threefold("off")
    assert result != RESULT_DRAW


def test_the_option_is_resolved_recorded_and_refused_when_bad() -> None:
    game = diceboard.game("chase", repetition="off")
    assert game.non_default_options() == {"repetition": "off"}
    assert diceboard.game("chase").non_default_options() == {}
    assert diceboard.game("chase", repetition=True).non_default_options() == {}
    try:
        diceboard.game("chase", repetition="sometimes")
    except ValueError as exc:
        assert "repetition must be on or off" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a bad value was accepted")
