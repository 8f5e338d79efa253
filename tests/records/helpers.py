"""Helpers for the record tests: random games, round-trip checks, the Chase game."""

from __future__ import annotations

import random

import diceboard
from diceboard.core.game import Game, State
from diceboard.records import GameRecord


def play_random(
    state: State, seed: int, max_moves: int | None = None, whole_moves: bool = False
) -> State:
    """``state`` after random play until the game ends or ``max_moves`` were played: kernel
    actions one by one (decisions and chance outcomes alike), or with ``whole_moves`` the
    moves that ``legal_moves()`` lists (so that play never stops in the middle of a turn)."""
    rng = random.Random(seed)
    played = 0
    while not state.is_terminal() and (max_moves is None or played < max_moves):
        if whole_moves and not state.is_chance():
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        else:
            ids = state.legal_action_ids()
            state = state.play(ids[rng.randrange(len(ids))])
        played += 1
    return state


def assert_round_trips(record: GameRecord) -> None:
    """Text and JSON both give back an equal record with the same moves, tags, comments and
    final state, and the writer's text is a fixed point."""
    text = record.to_pgn()
    back = GameRecord.from_pgn(text)
    assert back == record
    assert back.moves == record.moves
    assert back.tags == record.tags
    assert back.comments == record.comments
    assert back.final_state() == record.final_state()
    assert str(back.final_state()) == str(record.final_state())
    assert back.to_pgn() == text
    for js in (record.to_json(), record.to_json(indent=None)):
        again = GameRecord.from_json(js)
        assert again == record
        assert again.final_state() == record.final_state()
    assert GameRecord.from_dict(record.to_dict()) == record


def chase_game() -> Game:
    """The Chase game."""
    return diceboard.game("chase")
