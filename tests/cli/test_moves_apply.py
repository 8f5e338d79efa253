"""``diceboard moves`` and ``diceboard apply`` against the engine's known answers."""

from __future__ import annotations

import pytest

import diceboard
from tests.cli.helpers import EXAMPLE, ok, run

pytestmark = pytest.mark.e2e


def test_moves_of_the_first_position_of_play() -> None:
    lines = ok("moves", "custodian", EXAMPLE).splitlines()
    assert len(lines) == 84
    assert len(set(lines)) == 84
    assert lines == sorted(lines)
    # White's 1 on b1 can only step to b2 and turn to 2, 3, 4 or 5
    assert [m for m in lines if m.startswith("b1")] == ["b1-b2=2", "b1-b2=3", "b1-b2=4", "b1-b2=5"]
    assert ok("moves", "custodian", EXAMPLE, "--count") == "84\n"


def test_moves_at_a_chance_node_give_probabilities() -> None:
    assert ok("moves", "custodian", "initial").splitlines() == [
        f"={face} 1/6" for face in range(1, 7)
    ]


def test_moves_of_start_follow_the_seed() -> None:
    expected = [m.notation for m in diceboard.game("custodian").start(seed=11).legal_moves()]
    assert ok("moves", "custodian", "start", "--seed", "11").splitlines() == expected


def test_moves_with_variant_and_option() -> None:
    # Chaos: a move names no face, the roll follows
    chaos = ok("moves", "custodian", EXAMPLE, "--variant", "chaos").splitlines()
    assert "b1-b2" in chaos and not any("=" in m for m in chaos)
    # no jumping: no ^ moves, where the standard game has some
    standard = ok("moves", "custodian", "B5B2B6B2B6/...../...../W1..../W3.W6W4W2 W 0 10").split()
    plain = ok(
        "moves",
        "custodian",
        "B5B2B6B2B6/...../...../W1..../W3.W6W4W2 W 0 10",
        "--option",
        "jumping=off",
    ).split()
    assert any("^" in m for m in standard)
    assert plain == [m for m in standard if "^" not in m]


def test_moves_of_a_finished_game() -> None:
    done = run("moves", "custodian", "B5..../...../...../...../W3W1W6W4W2 W 0 10")
    assert done.returncode == 0
    assert done.stdout == ""
    assert "game is over: 1-0 (elimination)" in done.stderr


def test_apply_one_move() -> None:
    assert ok("apply", "custodian", EXAMPLE, "b1-b2=2") == (
        "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11\n"
    )


def test_apply_the_setup_rolls() -> None:
    rolls = ["=3", "=1", "=6", "=4", "=2", "=5", "=2", "=6", "=2", "=6"]
    out = ok("apply", "custodian", "initial", *rolls)
    assert out == "...../...../...../...../..... W 0 0 W12346,B22566\n"


def test_apply_a_chaos_move_and_its_roll() -> None:
    out = ok("apply", "custodian", EXAMPLE, "--variant", "chaos", "b1-b2", "=6")
    assert out == "B5B2B6B2B6/...../...../.W6.../W3.W6W4W2 B 1 11\n"
    pending = ok("apply", "custodian", EXAMPLE, "--variant", "chaos", "b1-b2")
    assert pending == "B5B2B6B2B6/...../...../.W?.../W3.W6W4W2 W 1 11\n"


def test_apply_reports_the_end_of_the_game() -> None:
    # White's 1 on d4 steps to c4 and turns to 2: Black's 1 on c3 is sandwiched against
    # White's c2 and captured, leaving Black one die (elimination)
    out = ok("apply", "custodian", "....B6/...W1./..B1../..W2../..... W 0 10", "d4-c4=2")
    assert out == "....B6/..W2../...../..W2../..... B 0 11\n1-0 (elimination)\n"
