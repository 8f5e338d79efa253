"""The legal moves' text kept per position (:mod:`diceboard.server.legal_json`): what the
cache gives is what describing the moves from scratch gives, a position reached by another
game (or another history) is described once, and the engine plays the moves and searches
their paths only for the full form."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import diceboard
from diceboard.core.game import State
from diceboard.server import legal_json
from diceboard.server.legal_json import LegalMovesText, position_key
from diceboard.server.move_json import legal_moves_json, move_json
from tests.server.conftest import variants


def _positions(name: str, variant: str, seed: int, plies: int) -> list[State]:
    rng = random.Random(seed)
    state = diceboard.game(name, variant).start(seed=seed)
    path = [state]
    while len(path) < plies and not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.play(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state = state.play(rng.choice(state.legal_moves()))
        path.append(state)
    return path


@pytest.mark.parametrize(("name", "variant"), variants())
def test_the_cached_text_is_the_legal_moves(name: str, variant: str) -> None:
    cache = LegalMovesText(size=16, move_size=200)  # small: entries come and go
    for seed in range(2):
        for state in _positions(name, variant, seed, 40):
            for full in (False, True, False):
                text = cache.text(state, full=full)
                expected = [] if state.is_chance() or state.is_terminal() else None
                if expected is None:
                    expected = legal_moves_json(state, full=full)
                assert json.loads(text) == expected, (str(state), full)


def test_the_plain_form_is_each_moves_own_description() -> None:
    # a position with captures on offer: the full form counts them, the plain one does not
    state = next(
        s
        for seed in range(20)
        for s in _positions("custodian", "standard", seed, 80)
        if not s.is_chance() and any(m.get("captures") for m in legal_moves_json(s))
    )
    cache = LegalMovesText()
    plain: list[dict[str, Any]] = json.loads(cache.text(state, full=False))
    full: list[dict[str, Any]] = json.loads(cache.text(state, full=True))
    assert plain == [move_json(state, m, segments=False) for m in state.legal_moves()]
    assert all(not {"segments", "captures", "rolled_after"} & set(m) for m in plain)
    assert all(m["segments"] for m in full) and any(m.get("captures") for m in full)
    extras = {"segments", "captures", "rolled_after"}
    assert [{k: v for k, v in m.items() if k not in extras} for m in full] == plain


def test_a_position_is_described_once_whichever_game_reaches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[int] = []
    drawn: list[int] = []
    real_outcomes, real_segments = legal_json.move_outcomes, legal_json.move_segments

    def outcomes(*args: Any) -> Any:
        played.append(1)
        return real_outcomes(*args)

    def segments(*args: Any) -> Any:
        drawn.append(1)
        return real_segments(*args)

    monkeypatch.setattr(legal_json, "move_outcomes", outcomes)
    monkeypatch.setattr(legal_json, "move_segments", segments)
    rules = diceboard.game("custodian")
    position = "B5B2.../...../...../..B3../W3.W2.. W 0 10"
    cache = LegalMovesText()
    first = cache.text(rules.parse(position), full=True)
    # the same position as another object of another game object: the same text, not redone
    again = cache.text(diceboard.game("custodian").parse(position), full=True)
    assert again is first and len(played) == 1 and len(drawn) == 1
    # the plain form plays nothing
    cache.text(rules.parse(position), full=False)
    cache.text(rules.parse(position), full=False)
    assert len(played) == 1 and len(drawn) == 1
    assert cache.reused == 2 and cache.asked == 4
    # other options are another game: described on its own
    cache.text(diceboard.game("custodian", jumping=False).parse(position), full=True)
    assert len(played) == 2


def test_the_key_is_the_position_and_its_legal_moves_not_the_history() -> None:
    rules = diceboard.game("custodian")
    start = rules.parse("B5B2.../...../...../..B3../W3.W2.. W 0 10")
    moves = start.legal_moves()
    one = start.play(moves[0])
    assert position_key(one) != position_key(start.play(moves[1]))
    # the same position read from its string has a shorter history: the same key
    again = rules.parse(str(one))
    assert len(again.kernel_history()) < len(one.kernel_history())
    assert position_key(again) == position_key(one)


def test_the_cache_is_bounded() -> None:
    cache = LegalMovesText(size=3)
    for state in _positions("chase", "standard", 1, 12):
        cache.text(state, full=False)
    assert len(cache._positions) <= 3
