"""The command line's own pieces, in process: move matching, die destinations, options,
probabilities, atomic files, the console."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.ai import Agent, Analysis
from diceboard.cli.arguments import parse_options, parse_squares
from diceboard.cli.commands.moves import probability_text
from diceboard.cli.console import Console
from diceboard.cli.errors import UsageError
from diceboard.cli.files import write_text_atomic
from diceboard.cli.play import destinations, matching
from diceboard.cli.play.seats import Seat
from diceboard.cli.play.session import Session, Settings
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.records import read_pgn
from tests.cli.helpers import EXAMPLE

CUSTODIAN = diceboard.game("custodian")


def _random_position(seed: int, plies: int) -> State:
    """A decision state reached by random play from a random start."""
    rng = random.Random(seed)
    state = CUSTODIAN.start(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
    while state.is_chance():
        state = state.play(state.legal_action_ids()[0])
    return state


# --- matching -----------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30))
def test_every_legal_move_resolves_to_itself(seed: int, plies: int) -> None:
    state = _random_position(seed, plies)
    if state.is_terminal():
        return
    for move in state.legal_moves():
        found = matching.resolve(state, move.notation)
        assert found.move == move and not found.completed
        assert matching.resolve(state, move.notation.upper()).move == move


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30))
def test_a_step_without_its_face_offers_exactly_its_faces(seed: int, plies: int) -> None:
    state = _random_position(seed, plies)
    if state.is_terminal():
        return
    steps = [m for m in state.legal_moves() if "-" in m.notation]
    for step in steps[:5]:
        short = step.notation.split("=")[0]
        found = matching.resolve(state, short)
        expected = sorted(m for m in steps if m.notation.split("=")[0] == short)
        assert sorted(found.choices) == expected
        assert len(expected) >= 2  # a turn always has at least two new faces to choose from


def test_resolution_of_bad_text_is_the_engines_message() -> None:
    state = CUSTODIAN.parse(EXAMPLE)
    with pytest.raises(ValueError) as caught:
        state.parse_move("c1-c4=2")
    assert matching.resolve(state, "c1-c4=2").error == str(caught.value)
    # a shorthand that fits no legal move gets the engine's reason too
    shorthand = matching.resolve(state, "c1-c4")
    assert shorthand.move is None and not shorthand.choices
    assert shorthand.error is not None and "ends on c4" in shorthand.error


def test_a_chaos_move_with_a_roll_is_refused() -> None:
    state = diceboard.game("custodian", variant="chaos").parse(EXAMPLE)
    found = matching.resolve(state, "b1-b2=4")
    assert found.error == "the dice are rolled for you: enter b1-b2 and the roll follows"
    assert matching.resolve(state, "b1-b2").move is not None


def test_moves_to_the_same_position_need_no_choice() -> None:
    state = CUSTODIAN.parse(EXAMPLE)
    moves = state.legal_moves()
    assert matching.distinct_outcomes(state, [moves[0], moves[0]]) == [moves[0]]
    assert matching.distinct_outcomes(state, moves[:3]) == moves[:3]


# --- destinations -------------------------------------------------------------------------------
def test_destinations_of_a_die() -> None:
    state = CUSTODIAN.parse(EXAMPLE)
    found = destinations.destinations(state, "c1")  # the 6 on c1
    by_landing = {to: [m.notation for m in ms] for to, ms in found.landings.items()}
    every = {m.notation for m in state.legal_moves() if m.notation.startswith("c1-")}
    assert {n for ns in by_landing.values() for n in ns} == every
    for to, notations in by_landing.items():
        assert all(n[3:5] == to for n in notations)
    assert destinations.describe(state, found)[0].startswith("moves of the die on c1")


def test_destinations_explain_an_empty_result() -> None:
    state = CUSTODIAN.parse(EXAMPLE)
    assert destinations.describe(state, destinations.destinations(state, "c3")) == [
        "c3 is empty and no move starts there"
    ]
    assert destinations.describe(state, destinations.destinations(state, "a5")) == [
        "the die on a5 is Black's; White is to move"
    ]
    blocked = CUSTODIAN.parse("B5B2B6B2./...../B1..../W2..../W1W3W6.. W 0 10")
    assert destinations.describe(blocked, destinations.destinations(blocked, "a1")) == [
        "the die on a1 has no legal move"
    ]


def test_placement_destinations_are_the_square_itself() -> None:
    state = CUSTODIAN.parse("...../...../...../...../..... W 0 0 W12346,B22566")
    found = destinations.destinations(state, "c1")
    assert list(found.landings) == ["c1"]
    assert [m.notation for m in found.landings["c1"]] == ["1@c1", "2@c1", "3@c1", "4@c1", "6@c1"]
    assert destinations.describe(state, found)[0] == "moves onto c1:"


# --- arguments ----------------------------------------------------------------------------------
@given(
    st.dictionaries(
        st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
        st.from_regex(r"[a-z0-9-]{1,8}", fullmatch=True),
        max_size=5,
    )
)
def test_options_round_trip(options: dict[str, str]) -> None:
    assert parse_options([f"{k}={v}" for k, v in options.items()]) == options


def test_bad_options_and_squares() -> None:
    for item in ("jumping", "=on", "jumping="):
        with pytest.raises(UsageError, match="NAME=VALUE"):
            parse_options([item])
    with pytest.raises(UsageError, match="'f1' is not a square of Custodian Dice"):
        parse_squares(CUSTODIAN, "a1,f1")
    assert parse_squares(CUSTODIAN, " A1 , b2,") == ("a1", "b2")


@given(st.integers(1, 720))
def test_uniform_probabilities_print_as_fractions(n: int) -> None:
    assert probability_text(1 / n) == f"1/{n}" if n > 1 else probability_text(1.0) == "1"


# --- files --------------------------------------------------------------------------------------
def test_atomic_write_keeps_the_old_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "record.pgn"
    target.write_text("the old game\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device", str(dst))

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomic(str(target), "the new game\n")
    assert target.read_text() == "the old game\n"
    assert [p.name for p in tmp_path.iterdir()] == ["record.pgn"]


def test_atomic_write_makes_an_ordinary_file(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    write_text_atomic(str(target), "<svg/>\n")
    assert target.read_text() == "<svg/>\n"
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


# --- console ------------------------------------------------------------------------------------
def test_a_piped_console_echoes_what_it_reads() -> None:
    out = io.StringIO()
    console = Console(io.StringIO("b1-b2=2\r\n"), out, color=True)
    assert not console.interactive and not console.color
    assert console.ask("White> ") == "b1-b2=2"
    assert console.ask("White> ") is None
    assert out.getvalue() == "White> b1-b2=2\nWhite> \n"


# --- the session ----------------------------------------------------------------------------------
class _FailingAgent(Agent):
    """A computer player whose every call fails."""

    spec = "failing"

    def choose(self, state: State) -> Move:
        raise RuntimeError("the search blew up")

    def analyse(self, state: State) -> Analysis:
        raise RuntimeError("the search blew up\nsecond line")


def _session(
    lines: str, seats: dict[str, Seat], save: Path | None = None
) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    settings = Settings(seed=1, hint_spec=None, save_path=None if save is None else str(save))
    session = Session(CUSTODIAN.parse(EXAMPLE), seats, Console(io.StringIO(lines), out), settings)
    return session, out


def test_a_failing_hint_does_not_end_the_game() -> None:
    seats = {"W": Seat("W", "White", "human", None), "B": Seat("B", "Black", "random", None)}
    session, out = _session("hint\nquit\n", seats)
    session._hint_agent = _FailingAgent()
    assert session.run() == 0
    assert "no hint: failing failed (RuntimeError: the search blew up)" in out.getvalue()
    assert out.getvalue().rstrip().endswith("The game is left unfinished.")


def test_a_failing_computer_player_still_saves_the_game(tmp_path: Path) -> None:
    target = tmp_path / "saved.pgn"
    seats = {
        "W": Seat("W", "White", "human", None),
        "B": Seat("B", "Black", "failing", _FailingAgent()),
    }
    session, out = _session("b1-b2=2\n", seats, target)
    with pytest.raises(RuntimeError, match="blew up"):
        session.run()
    assert f"saved 1 move to {target}" in out.getvalue()
    (record,) = read_pgn(target.read_text())
    assert [m.notation for m in record.moves] == ["b1-b2=2"]
