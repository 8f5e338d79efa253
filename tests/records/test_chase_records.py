"""Chase records (skipped until the Chase engine lands): the same format, Blue and Red,
absorption prefixes in braces."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard import RecordError
from diceboard.core.game import Game, State
from diceboard.records import GameRecord, read_pgn
from tests.records.helpers import assert_round_trips, chase_game, play_random

STANDARD = (
    "R1R2R3R4R5R4R3R2R1/........./........./........./........./........./........./"
    "........./B1B2B3B4B5B4B3B2B1 B 0 0"
)
# hand-checked with the spec's neighbour table: a5 NE passes b6 c6 d7 e7 and lands on f8;
# i5 SW passes h5 g4 f4 e3 and lands on d3
AFTER_BLUE = (
    "R1R2R3R4R5R4R3R2R1/........./........./.......B5./........./........./........./"
    "........./B1B2B3B4.B4B3B2B1 R 1 1"
)
AFTER_RED = (
    "R1R2R3R4.R4R3R2R1/........./........./.......B5./........./..R5....../........./"
    "........./B1B2B3B4.B4B3B2B1 B 2 2"
)


def test_hand_checked_opening(chase: Game) -> None:
    assert str(chase.initial_state()) == STANDARD
    text = '[Game "Chase"]\n[Blue "Alice"]\n[Red "Bob"]\n\n1. a5-f8NE i5-d3SW *\n'
    rec = GameRecord.from_pgn(text)
    assert str(rec.final_state()) == AFTER_RED
    assert rec.players == ("Alice", "Bob")
    assert rec.game == chase
    assert list(rec.tags) == ["Game", "Blue", "Red", "Date", "Result", "Termination"]
    assert rec.to_pgn() == (
        '[Game "Chase"]\n[Blue "Alice"]\n[Red "Bob"]\n[Date "????.??.??"]\n'
        '[Result "*"]\n[Termination "unterminated"]\n\n1. a5-f8NE i5-d3SW *\n'
    )
    assert_round_trips(rec)


def test_from_a_position_with_red_to_move(chase: Game) -> None:
    state = chase.parse(AFTER_BLUE).play("i5-d3SW")
    rec = GameRecord.from_state(state)
    assert rec.tags["Position"] == AFTER_BLUE
    assert rec.to_pgn().endswith("\n\n1... i5-d3SW *\n")
    assert str(rec.final_state()) == AFTER_RED
    assert_round_trips(rec)


def absorbing_states(game: Game) -> Iterator[State]:
    """States of seeded random games whose player must absorb pips before acting."""
    for seed in range(100):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_terminal() and state.ply < 400:
            if any(m.notation.startswith("{") for m in state.legal_moves()):
                yield state
            ids = state.legal_action_ids()
            state = state.play(ids[rng.randrange(len(ids))])


def test_turn_with_an_absorption_prefix(chase: Game) -> None:
    start = next(absorbing_states(chase))
    turn = start.legal_moves()[0]
    assert turn.notation.startswith("{") and len(turn.actions) >= 2
    state = start.play(turn)
    index = len(state.move_stack()) - 1
    # a comment that looks like a hex list, right before the turn: still a comment
    rec = GameRecord.from_state(state, comments={index: "a1,b6", index + 1: "absorbed"})
    assert rec.moves[index] == turn
    movetext = " ".join(rec.to_pgn().split("\n\n")[1].split())
    assert re.search(rf"\{{a1,b6\}} (\d+\.+ )?{re.escape(turn.notation)} \{{absorbed\}}", movetext)
    back = GameRecord.from_pgn(rec.to_pgn())
    assert back.moves[index] == turn
    assert back.comments[index] == ("a1,b6",)
    assert_round_trips(rec)


def test_turn_played_decision_by_decision_is_recorded_whole(chase: Game) -> None:
    start = next(absorbing_states(chase))
    turn = start.legal_moves()[-1]
    state = start
    for action in turn.actions:
        state = state.play(action)
    pieces = state.move_stack()[-len(turn.actions) :]
    assert [m.actions for m in pieces] == [(a,) for a in turn.actions]
    rec = GameRecord.from_state(state)
    assert rec.moves[-1] == turn
    assert len(rec.moves) == len(state.move_stack()) - len(turn.actions) + 1
    assert rec.final_state() == state
    assert_round_trips(rec)
    # the same pieces as text (a JSON record written by hand) are put together too
    doc = rec.to_dict()
    doc["moves"] = doc["moves"][:-1] + [m.notation for m in pieces]
    assert GameRecord.from_dict(doc) == rec


def test_a_record_cannot_stop_in_the_middle_of_a_turn(chase: Game) -> None:
    start = next(absorbing_states(chase))
    absorb = start.legal_moves()[0].actions[0]
    with pytest.raises(RecordError, match=r"the record stops in the middle of a turn"):
        GameRecord.from_state(start.play(absorb))


def test_absorb_steps_in_another_order_give_the_canonical_turn(chase: Game) -> None:
    for start in itertools.islice(absorbing_states(chase), 400):
        for turn in start.legal_moves():
            if len(turn.actions) < 3:
                continue
            *absorbs, act = turn.actions
            reordered = [*reversed(absorbs), act]
            state = start
            for action in reordered:
                if action not in state.legal_action_ids():
                    break
                state = state.play(action)
            else:
                if state == start.play(turn):
                    rec = GameRecord.from_state(state)
                    assert rec.moves[-1] == turn
                    assert rec.final_state() == state
                    assert_round_trips(rec)
                    return
    pytest.fail("no absorbing turn whose absorb steps can be taken in another order")


def test_random_games_round_trip(chase: Game) -> None:
    for seed in range(4):
        # kernel actions one by one, to the end: absorb steps are put together into turns
        state = play_random(chase.initial_state(), seed)
        rec = GameRecord.from_state(state, players=("random", "random"), seed=seed)
        assert rec.final_state() == state
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None and rec.termination == outcome.reason
        assert_round_trips(rec)


def test_option_tag_and_several_games(chase: Game) -> None:
    limited = diceboard.game("chase", no_capture_limit=30)
    records = [
        GameRecord.from_state(play_random(g.initial_state(), 5, 120, whole_moves=True))
        for g in (chase, limited)
    ]
    assert records[1].tags["NoCaptureLimit"] == "30"
    standard = GameRecord.from_pgn('[Game "Chase"]\n[Variant "standard"]\n\n1. a5-f8NE *')
    assert standard.game == chase and "Variant" not in standard.tags
    assert "NoCaptureLimit" not in records[0].tags
    assert read_pgn("\n".join(r.to_pgn() for r in records)) == records


def test_illegal_chase_move(chase: Game) -> None:
    with pytest.raises(RecordError, match=r"^game 1, line 3, move 2 'i5-d3NE': "):
        read_pgn('[Game "Chase"]\n\n1. a5-f8NE i5-d3NE *')
    with pytest.raises(RecordError, match=r"the Game tag says 'Chase', but the record is a game"):
        GameRecord.from_state(diceboard.game("custodian").initial_state(), tags={"Game": "Chase"})


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 300))
def test_hypothesis_chase_games_round_trip(seed: int, length: int) -> None:
    game = chase_game()
    state = play_random(game.initial_state(), seed, length, whole_moves=True)
    assert_round_trips(GameRecord.from_state(state, seed=seed))
