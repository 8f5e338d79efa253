"""Snapshots (:mod:`diceboard.server.views`) built once and kept: what the caches give is what
building from scratch gives, and a player connecting rebuilds only the seats."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import diceboard
from diceboard.core.game import State
from diceboard.server import views
from diceboard.server.live import LiveGame
from diceboard.server.move_json import dice_lost, legal_moves_json
from diceboard.server.storage.rows import MoveData, SeatData
from diceboard.server.views import CapturedCounts, ViewCache, captured_json, public_view
from tests.server.conftest import variants
from tests.server.test_units import sample_game


def _random_path(name: str, variant: str, seed: int, plies: int) -> list[State]:
    rng = random.Random(seed)
    state = diceboard.game(name, variant).start(seed=seed)
    path = [state]
    while len(path) < plies and not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.play(outcomes[rng.randrange(len(outcomes))][0])
        else:
            moves = state.legal_moves()
            # captures are what is tested: take one where there is one, half of the time
            takes = [
                m
                for m in moves
                if dice_lost(state.dice_counts(), state.play(m).dice_counts(), None)
            ]
            state = state.play(rng.choice(takes if takes and rng.random() < 0.5 else moves))
        path.append(state)
    return path


@pytest.mark.parametrize(("name", "variant"), variants())
def test_the_captures_of_legal_moves_are_the_dice_they_take(name: str, variant: str) -> None:
    # legal_moves_json counts the dice only after a move that restarts the no-capture
    # clock: the same counts as playing and counting every move
    checked = 0
    for seed in range(2):
        for state in _random_path(name, variant, seed, 40):
            if state.is_chance() or state.is_terminal():
                continue
            moves = state.legal_moves()
            if any(m.capture for m in moves):
                continue  # the moves mark their captures: nothing is counted
            mover = state.to_move
            counted = [
                dice_lost(state.dice_counts(), state.play(m).dice_counts(), mover) for m in moves
            ]
            described = [m.get("captures", 0) for m in legal_moves_json(state)]
            assert described == counted, str(state)
            checked += sum(1 for n in counted if n)
    if (name, variant) == ("custodian", "standard"):
        assert checked > 0  # positions with captures came up


def _live(state: State, seats: dict[str, SeatData] | None = None) -> LiveGame:
    moves = tuple(MoveData(m.notation, None, 0.0) for m in state.move_stack())
    data = dataclasses.replace(
        sample_game(),
        game=state.game.name,
        revision=len(moves) + 1,
        move_count=len(moves),
        status="active",
    )
    if seats is None:
        seats = {p: SeatData(p, "human", f"player {p}", "hash") for p in state.game.players}
    return LiveGame(data, seats, moves, state.game, state)


@pytest.mark.parametrize(("name", "variant"), variants())
def test_captured_counts_kept_per_state_match_a_count_from_the_start(
    name: str, variant: str
) -> None:
    counts = CapturedCounts(size=8)
    path = _random_path(name, variant, 5, 50)
    for state in path:
        assert counts.of(_live(state)) == captured_json(_live(state))
    # a takeback: a position met before (held), then one whose parent has been forgotten
    assert counts.of(_live(path[len(path) // 2])) == captured_json(_live(path[len(path) // 2]))
    assert counts.of(_live(path[-1])) == captured_json(_live(path[-1]))
    # a position read again from its moves: another object, counted from the start
    again = diceboard.game(name, variant).parse(str(path[-1].root()))
    for move in path[-1].move_stack():
        again = again.play(move)
    assert counts.of(_live(again)) == captured_json(_live(path[-1]))


def _without_time(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "server_time"}


def _last_games(seed: int, plies: int) -> list[LiveGame]:
    """The last three positions of a random Custodian game of ``plies`` plies, as games."""
    return [_live(state) for state in _random_path("custodian", "standard", seed, plies)[-3:]]


@pytest.mark.parametrize("pictures", [True, False])
def test_a_cached_snapshot_is_the_snapshot(pictures: bool) -> None:
    cache = ViewCache()
    for live in _last_games(2, 30):
        for connected in (set(), {"W"}, {"W", "B"}):
            # both orientations of a revision (they share all but what the board's side changes)
            for flipped in (False, True):
                cached = json.loads(cache.public_json(live, flipped, connected, pictures))
                built = json.loads(json.dumps(public_view(live, flipped, connected, pictures)))
                assert _without_time(cached) == _without_time(built)
                assert list(cached) == list(built)  # the members in the same order too


def test_a_player_connecting_rebuilds_only_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    oriented: list[bool] = []
    real, real_oriented = views._shared_view, views._oriented_view

    def counting(*args: Any) -> dict[str, Any]:
        built.append(1)
        return real(*args)

    def counting_oriented(live: Any, flipped: bool, *args: Any) -> dict[str, Any]:
        oriented.append(flipped)
        return real_oriented(live, flipped, *args)

    monkeypatch.setattr(views, "_shared_view", counting)
    monkeypatch.setattr(views, "_oriented_view", counting_oriented)
    live = _live(_random_path("chase", "standard", 1, 12)[-1])
    cache = ViewCache()
    alone = json.loads(cache.public_json(live, False, {"W"}))
    both = json.loads(cache.public_json(live, False, {"W", "B"}))
    again = json.loads(cache.message(live, False, {"W"}, ["B"], None))
    assert len(built) == 1
    assert alone["seats"]["B"]["connected"] is False and both["seats"]["B"]["connected"] is True
    assert again["you"] == ["B"] and again["game"] == alone
    assert oriented == [False]
    # a new revision is built anew: once, and what the board's side changes once per side
    moved = dataclasses.replace(live, data=dataclasses.replace(live.data, revision=99))
    cache.public_json(moved, False, {"W"})
    cache.public_json(moved, True, {"W"})
    cache.public_json(moved, True, set())
    assert len(built) == 2
    assert oriented == [False, False, True]


def test_moves_in_common_follow_moves_takebacks_and_a_game_read_again() -> None:
    made = tuple(MoveData(f"m{i}", "W", float(i)) for i in range(6))
    assert views.moves_in_common((), made) == 0
    assert views.moves_in_common(made[:4], made) == 4  # two moves made since
    assert views.moves_in_common(made, made[:3]) == 3  # a takeback
    other = MoveData("x", "B", 9.0)
    assert views.moves_in_common(made, (*made[:2], other)) == 2  # taken back, then played on
    # the same moves read again from the database are other objects, equal as far as they go
    again = tuple(dataclasses.replace(m) for m in made)
    assert views.moves_in_common(made, again) == 6
    assert views.moves_in_common(made, (*again[:3], other, *again[4:])) == 3


@pytest.mark.parametrize("pictures", [True, False])
def test_changes_are_the_snapshot_less_the_moves_the_viewer_has(pictures: bool) -> None:
    cache = ViewCache()
    games = _last_games(3, 20)
    for live in games:
        whole = _without_time(json.loads(cache.public_json(live, False, {"W"}, pictures)))
        for moves_from in (0, len(live.moves) // 2, len(live.moves)):
            for legal in (True, False):
                text = cache.changes_json(live, False, {"W"}, pictures, moves_from, legal)
                changes = _without_time(json.loads(text))
                assert changes.pop("moves_from") == moves_from
                assert changes.pop("moves") == whole["moves"][moves_from:]
                assert changes.pop("legal") == (whole["legal"] if legal else [])
                rest = {k: v for k, v in whole.items() if k not in ("moves", "legal")}
                assert changes == rest
    # a message gives the legal moves to the viewer holding the seat to move only
    live = games[-1]
    mover = live.side_to_move()
    assert mover is not None
    waiting = live.opponent(mover)
    mine = json.loads(cache.message(live, False, set(), [mover], None, pictures, 0))
    theirs = json.loads(cache.message(live, False, set(), [waiting], None, pictures, 0))
    assert mine["game"]["legal"] and theirs["game"]["legal"] == []
