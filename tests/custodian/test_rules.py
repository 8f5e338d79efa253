"""Every rule and option of Custodian Dice on hand-built positions with known answers."""

from __future__ import annotations

import pytest

import diceboard
from diceboard import IllegalMoveError

from .oracle import legal_moves as oracle_moves

STANDARD = diceboard.game("custodian")
START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def moves(state: diceboard.State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# --- steps --------------------------------------------------------------------------------
def test_start_position_moves_match_the_spec_reading() -> None:
    state = STANDARD.parse(START)
    assert moves(state) == oracle_moves(START)
    assert len(state.legal_moves()) == 84


def test_step_turns_to_the_four_adjacent_faces_only() -> None:
    state = STANDARD.parse(START)
    faces = sorted(int(str(m)[-1]) for m in state.legal_moves() if str(m).startswith("b1-b2"))
    assert faces == [2, 3, 4, 5]  # from 1: never 1 or 6


def test_walk_may_loop_back_to_its_start_under_no_reversal() -> None:
    pos = "..W1../..B2../..W4../...../B1...B1 W 5 20"
    state = STANDARD.parse(pos)
    assert "c3-c3=2" in moves(state)
    after = state.play("c3-c3=2")
    # the walk c3-d3-d2-c2-c3 ends where it began; the die turns and its lines capture c4
    assert str(after) == "..W1../...../..W2../...../B1...B1 B 0 21"


def test_self_avoiding_walks_never_revisit_the_start() -> None:
    game = diceboard.game("custodian", path="self-avoiding")
    pos = "..W1../..B2../..W4../...../B1...B1 W 5 20"
    state = game.parse(pos)
    assert not any(str(m).startswith("c3-c3") for m in state.legal_moves())
    assert moves(state) == oracle_moves(pos, self_avoiding=True)


def test_walk_may_cross_itself_under_no_reversal_only() -> None:
    # a 6 in an empty corner region: a walk around a 2x2 block and on crosses itself
    pos = "B1B1.../...../...../...../W6...W1 W 0 0"
    loose = moves(STANDARD.parse(pos))
    strict = moves(diceboard.game("custodian", path="self-avoiding").parse(pos))
    assert strict < loose
    assert loose == oracle_moves(pos)
    assert strict == oracle_moves(pos, self_avoiding=True)
    assert "a1-a1=2" in loose and "a1-a1=2" not in strict


def test_a_step_never_passes_over_a_die() -> None:
    pos = "B1B1.../...../W2..../W1..../W1...W1 W 0 0"
    state = STANDARD.parse(pos)
    with pytest.raises(IllegalMoveError, match="no walk of exactly 1 step"):
        state.play("a1-a3=2")


def test_the_edge_is_not_a_square() -> None:
    # a 1 in the corner with both neighbours occupied cannot step
    pos = "B1B1.../...../...../W1..../W1W1... W 0 0"
    assert not any(str(m).startswith("a1-") for m in STANDARD.parse(pos).legal_moves())


# --- jumps --------------------------------------------------------------------------------
def test_jumps_over_both_colours_flip_the_die() -> None:
    pos = "B1...B1/...../.W3.../.W2B4../..... W 0 0"
    state = STANDARD.parse(pos)
    assert {"b2^b4", "b2^d2"} <= moves(state)
    assert str(state.play("b2^b4")) == "B1...B1/.W5.../.W3.../..B4../..... B 1 1"
    assert str(state.play("b2^d2")) == "B1...B1/...../.W3.../..B4W5./..... B 1 1"


def test_no_jumping_variant_has_no_jumps() -> None:
    pos = "B1...B1/...../.W3.../.W2B4../..... W 0 0"
    state = diceboard.game("custodian", variant="no-jumping").parse(pos)
    assert not any("^" in str(m) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="jumping is off"):
        state.play("b2^b4")


def test_a_jump_needs_an_empty_landing_square_on_the_board() -> None:
    pos = "B1...B1/.W1.../.W3.../.W2.../..... W 0 0"
    state = STANDARD.parse(pos)
    assert "b2^b4" not in moves(state)
    with pytest.raises(IllegalMoveError, match="b4 is occupied"):
        state.play("b2^b4")


# --- captures -----------------------------------------------------------------------------
def test_line_capture_takes_the_whole_row_single_takes_none() -> None:
    pos = "B1B1.../...../...../...W1./W3B2B2.. W 0 7"
    line = STANDARD.parse(pos).play("d2-d1=2")
    assert str(line) == "B1B1.../...../...../...../W3..W2. B 0 8"
    single = diceboard.game("custodian", capture="single").parse(pos).play("d2-d1=2")
    assert str(single) == "B1B1.../...../...../...../W3B2B2W2. B 1 8"


def test_single_capture_takes_exactly_one() -> None:
    pos = "B1B1.../...../...../..W1../W3B2... W 3 7"
    after = diceboard.game("custodian", capture="single").parse(pos).play("c2-c1=3")
    assert str(after) == "B1B1.../...../...../...../W3.W3.. B 0 8"


def test_moving_between_two_enemies_is_safe() -> None:
    pos = "...../...../...../B2.B2../W1W1.W1. W 0 0"
    after = STANDARD.parse(pos).play("b1-b2=2")
    assert str(after) == "...../...../...../B2W2B2../W1..W1. B 1 1"


def test_sandwiches_the_move_did_not_make_do_nothing() -> None:
    # W a1 B b1 W c1 stands already; a move elsewhere captures nothing
    pos = "B1B1.../...../...../...../W2B1W2.W1 W 0 0"
    after = STANDARD.parse(pos).play("e1-e2=2")
    assert "B1" in str(after).split("/")[4]


def test_the_board_edge_never_captures() -> None:
    pos = "B1B1.../...../....W1/.W1.../B3.... W 0 0"
    after = STANDARD.parse(pos).play("b2-b1=2")
    assert str(after) == "B1B1.../...../....W1/...../B3W2... B 1 1"


def test_captures_in_several_lines_at_once() -> None:
    pos = "..W1../..B1../...B1W1/...../B1B1W2.. W 0 0"
    after = STANDARD.parse(pos).play("c1-c3=3")
    assert str(after) == "..W1../...../..W3.W1/...../B1B1... B 0 1"


# --- pass, blocked, elimination, repetition, no-capture limit -------------------------------
WALLS = "...../W6B6W6B6W6/...../B6W6B6W6B6/..... W 0 0"


def test_pass_is_forced_and_two_passes_block_the_game() -> None:
    state = STANDARD.parse(WALLS)
    assert moves(state) == {"pass"} == oracle_moves(WALLS)
    after = state.play("pass")
    assert after.outcome() is None
    assert str(after) == "...../W6B6W6B6W6/...../B6W6B6W6B6/..... B 1 1"
    final = after.play("pass")
    outcome = final.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason, outcome.result) == (None, "blocked", "1/2-1/2")


def test_pass_is_refused_when_a_move_exists() -> None:
    with pytest.raises(IllegalMoveError, match="pass is legal only when"):
        STANDARD.parse(START).play("pass")


def test_elimination_below_two_dice() -> None:
    pos = "B1..../...../...../...W1./W3B2B2.. W 0 0"
    final = STANDARD.parse(pos).play("d2-d1=2")
    outcome = final.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason, outcome.result) == ("W", "elimination", "1-0")
    assert final.legal_moves() == []
    with pytest.raises(diceboard.GameOverError):
        final.play("a1-a2=2")


SHUFFLE = ["a1-a2=3", "e5-e4=3", "a2-a1=1", "e4-e5=1"]
SHUFFLE_POS = "B1...B1/...../...../...../W1...W1 W 0 0"


def test_third_repetition_is_a_draw() -> None:
    state = STANDARD.parse(SHUFFLE_POS)
    for i, move in enumerate(SHUFFLE * 2):
        assert state.outcome() is None, i
        state = state.play(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "repetition"
    assert str(state) == "B1...B1/...../...../...../W1...W1 W 8 8"


def test_repetition_history_starts_at_the_parsed_position() -> None:
    state = STANDARD.parse(SHUFFLE_POS)
    for move in SHUFFLE:
        state = state.play(move)
    # the same position string parsed again has no history: no draw 4 plies later
    again = STANDARD.parse(str(state))
    for move in SHUFFLE:
        again = again.play(move)
    assert again.outcome() is None
    assert state != STANDARD.parse(str(state))  # equal positions, different histories


def test_no_capture_limit() -> None:
    game = diceboard.game("custodian", no_capture_limit=4)
    state = game.parse(SHUFFLE_POS)
    for move in SHUFFLE:
        state = state.play(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "no-capture-limit"
    off = diceboard.game("custodian", no_capture_limit=0).parse(
        "B1...B1/...../...../...../W1...W1 W 500 900"
    )
    assert off.play("a1-a2=3").outcome() is None
    edge = STANDARD.parse("B1...B1/...../...../...../W1...W1 W 99 900").play("a1-a2=3")
    assert edge.outcome() is not None and edge.outcome().reason == "no-capture-limit"


def test_a_capture_resets_the_clock() -> None:
    pos = "B1B1.../...../...../...W1./W3B2B2.. W 42 77"
    assert STANDARD.parse(pos).play("d2-d1=2").clock == 0


# --- setup: rolls, placement and the hand field -----------------------------------------------
def test_setup_rolls_fill_the_hand_white_first() -> None:
    state = STANDARD.initial_state()
    assert str(state) == "...../...../...../...../..... W 0 0 W?????,B?????"
    assert state.is_chance() and state.legal_moves() == []
    outcomes = state.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == ["=1", "=2", "=3", "=4", "=5", "=6"]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    state = state.play("=3")
    assert str(state) == "...../...../...../...../..... W 0 0 W3????,B?????"
    for roll in ["=1", "=6", "=3", "=2", "=5", "=5", "=1", "=4", "=6"]:
        state = state.play(roll)
    assert str(state) == "...../...../...../...../..... W 0 0 W12336,B14556"
    assert not state.is_chance()


def test_chosen_placement() -> None:
    state = STANDARD.parse("...../...../...../...../..... W 0 0 W12346,B22566")
    assert len(state.legal_moves()) == 25  # five distinct faces on five squares
    assert str(state.legal_moves()[0]) == "1@a1"
    state = state.play("6@c1")
    assert str(state) == "...../...../...../...../..W6.. W 0 1 W1234,B22566"
    for move in ["1@a1", "2@b1", "3@d1", "4@e1"]:
        state = state.play(move)
    assert str(state) == "...../...../...../...../W1W2W6W3W4 B 0 5 B22566"
    assert {str(m) for m in state.legal_moves()} == {
        f"{face}@{f}5" for face in (2, 5, 6) for f in "abcde"
    }
    for move in ["2@a5", "2@b5", "5@c5", "6@d5", "6@e5"]:
        state = state.play(move)
    assert str(state) == "B2B2B5B6B6/...../...../...../W1W2W6W3W4 W 0 10"
    assert state.legal_moves()[0].notation.startswith("a1-")


def test_placement_errors_name_the_problem() -> None:
    state = STANDARD.parse("...../...../...../...../..... W 0 0 W12346,B22566")
    with pytest.raises(IllegalMoveError, match="no rolled 5 in hand"):
        state.play("5@a1")
    with pytest.raises(IllegalMoveError, match="places on rank 1; c3"):
        state.play("6@c3")
    with pytest.raises(IllegalMoveError, match="placing rolled dice"):
        state.play("a1-a2=3")


def test_rolled_placement_puts_each_roll_on_the_next_square() -> None:
    game = diceboard.game("custodian", placement="rolled")
    state = game.initial_state().play("=3")
    assert str(state) == "...../...../...../...../W3.... W 0 0 W????,B?????"
    for roll in ["=1", "=6", "=3", "=2", "=5", "=5", "=1", "=4", "=6"]:
        state = state.play(roll)
    assert str(state) == "B5B5B1B4B6/...../...../...../W3W1W6W3W2 W 0 0"


def test_start_is_reproducible_from_its_seed() -> None:
    assert str(STANDARD.start(seed=7)) == str(STANDARD.start(seed=7))
    chaos = diceboard.game("custodian", variant="chaos", placement="rolled")
    first = chaos.start(seed=7)
    assert first.ply == 0 and not first.is_chance() and first.to_move == "W"
    assert [str(m) for m in first.move_stack()] == [
        str(m) for m in chaos.start(seed=7).move_stack()
    ]
    assert len(first.move_stack()) == 10


# --- Chaos ------------------------------------------------------------------------------------
CHAOS = diceboard.game("custodian", variant="chaos")


def test_chaos_moves_have_no_face_and_leave_a_pending_roll() -> None:
    state = CHAOS.parse(START)
    assert moves(state) == oracle_moves(START, roll=True)
    pending = state.play("b1-b2")
    assert str(pending) == "B5B2B6B2B6/...../...../.W?.../W3.W6W4W2 W 1 11"
    assert pending.is_chance() and pending.to_move == "W"
    after = pending.play("=4")
    assert str(after) == "B5B2B6B2B6/...../...../.W4.../W3.W6W4W2 B 1 11"
    joined = state.play("b1-b2=4")
    assert joined == after
    assert joined.last_move is not None and str(joined.last_move) == "b1-b2=4"
    assert joined.last_move.actions == (*pending.last_move.actions, *after.last_move.actions)


def test_chaos_capture_happens_after_the_roll() -> None:
    pos = "B1B1.../...../...../...W1./W3B2B2.. W 5 7"
    pending = CHAOS.parse(pos).play("d2-d1")
    # the dice about to be captured are still on the board; ply and clock count the move
    assert str(pending) == "B1B1.../...../...../...../W3B2B2W?. W 6 8"
    assert str(pending.play("=6")) == "B1B1.../...../...../...../W3..W6. B 0 8"


def test_chaos_jump_is_rolled_not_flipped() -> None:
    pos = "B1...B1/...../.W3.../.W2B4../..... W 0 0"
    assert str(CHAOS.parse(pos).play("b2^b4=2")) == "B1...B1/.W2.../.W3.../..B4../..... B 1 1"


def test_pending_roll_positions_parse() -> None:
    state = CHAOS.parse("B1B1.../...../...../...../W3B2B2W?. W 6 8")
    assert state.is_chance()
    assert str(state.play("=1")) == "B1B1.../...../...../...../W3..W1. B 0 8"
    with pytest.raises(diceboard.PositionError, match="Chaos"):
        STANDARD.parse("B1B1.../...../...../...../W3B2B2W?. W 6 8")
    with pytest.raises(diceboard.PositionError, match="owner W must be the to-move"):
        CHAOS.parse("B1B1.../...../...../...../W3B2B2W?. B 6 8")


def test_chaos_pass_rolls_nothing() -> None:
    after = CHAOS.parse(WALLS).play("pass")
    assert not after.is_chance() and after.to_move == "B"
