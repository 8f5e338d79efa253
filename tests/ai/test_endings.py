"""Won endings: the Custodian endgame term (``eval=endgame``), the committed endings and the
conversion benchmark ``diceboard bench endings``."""

from __future__ import annotations

import numpy as np
import pytest

import diceboard
from diceboard.ai.endings import convert, load_endings, play_out
from diceboard.ai.engine import engine_for
from diceboard.ai.specs import agent
from diceboard.ai.weights import weights_for
from diceboard.cli.main import main
from diceboard.games.custodian.ai import ENDGAME_DISTANCE, ENDGAME_MOBILITY, ENDGAME_SHELTER
from diceboard.games.custodian.ai import endgame as custodian_endgame

#: White (five dice) to move; Black's two dice shelter in the corners a5 and e5
CORNERS = "B3...B5/...../.W2W4W6./...../W1...W3 W 0 60"
#: the same dice, Black's two in the open (b4, d2)
OPEN = "...../.B4.../..W2../...B3./W1W5.W6W2 W 0 40"


def _term(position: str) -> float:
    game = diceboard.game("custodian")
    return float(custodian_endgame(game.parse(position).kernel_state(), game.opts))


def test_the_endgame_term_by_hand() -> None:
    """5 v 2, Black in a5 and e5: each corner die has shelter 2, and the nearest White die
    stands 3 squares away from each (b3 from a5, d3 from e5); their moves are the distinct
    (die, destination) pairs of Black's legal moves."""
    game = diceboard.game("custodian")
    state = game.parse(CORNERS)
    term = _term(CORNERS)
    black = game.parse(CORNERS.replace(" W ", " B "))
    moves = len({(m.from_square, m.to_square) for m in black.legal_moves()})
    expected = -(2 * 2 * ENDGAME_SHELTER + 2 * 2 * ENDGAME_DISTANCE + moves * ENDGAME_MOBILITY)
    assert term == pytest.approx(expected)
    assert state.to_move == "W" and term < 0


def test_the_endgame_term_prefers_exposed_defenders_and_is_antisymmetric() -> None:
    assert _term(OPEN) > _term(CORNERS)
    # the side to move changes the sign: the defender wants the shelter
    assert _term(CORNERS.replace(" W ", " B ")) == pytest.approx(-_term(CORNERS))


@pytest.mark.parametrize(
    "position",
    [
        "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10",  # equal dice
        "B5B2B6B2./...../...../...../W3W1W6W4W2 W 0 10",  # five against four: too many
        "...../...../...../...../..... W 0 0 W12346,B22566",  # setup
    ],
)
def test_the_endgame_term_is_zero_outside_endings(position: str) -> None:
    assert _term(position) == 0.0


def test_eval_endgame_is_the_linear_model_plus_the_term() -> None:
    game = diceboard.game("custodian")
    engine = engine_for("custodian")
    row = game.parse(CORNERS).kernel_state()
    linear = np.append(weights_for("custodian", "linear"), 0.0)
    with_term = np.append(weights_for("custodian", "endgame"), 0.0)
    assert with_term.size == linear.size + 1
    a = engine.static_value(row, game.opts, linear, np.zeros(256))
    b = engine.static_value(row, game.opts, with_term, np.zeros(256))
    assert b < a  # the term says the sheltered defender is worth more than the features do


def test_chase_endgame_plays_as_linear() -> None:
    state = diceboard.game("chase").initial_state()
    a = agent("alphabeta:depth=2,eval=endgame", seed=1).analyse(state)
    b = agent("alphabeta:depth=2,eval=linear", seed=1).analyse(state)
    assert a.best == b.best and a.value == pytest.approx(b.value)


def test_committed_endings_are_won_endings() -> None:
    game = diceboard.game("custodian")
    endings = load_endings(game)
    assert len(endings) >= 8
    for ending in endings:
        counts = game.parse(ending.position).dice_counts()
        other = next(p for p in game.players if p != ending.attacker)
        assert counts[ending.attacker] > counts[other] >= 2, ending.name


def test_a_won_ending_is_converted_and_play_is_deterministic() -> None:
    game = diceboard.game("custodian")
    # White to move sandwiches b3 (c4-b4) and leaves Black one die
    state = game.parse("....B1/..W1../.B1.../.W3.../..... W 0 10")
    attacker, defender = agent("alphabeta:depth=1"), agent("alphabeta:depth=1,eval=endgame")
    result = play_out(state, attacker, defender, "W", 1)
    assert (result.score, result.moves, result.reason) == (1.0, 1, "elimination")
    endings = load_endings(game)[:1]
    first = convert(game, endings, "alphabeta:depth=1", "alphabeta:depth=1,eval=endgame", 3)
    again = convert(game, endings, "alphabeta:depth=1", "alphabeta:depth=1,eval=endgame", 3)
    assert first == again


def test_bench_endings_runs_on_one_position(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "endings", "custodian", "--limit", "1", "--defender", "alphabeta:depth=1"]
    args += ["--attacker", "alphabeta:depth=1", "--attacker", "alphabeta:depth=1,eval=endgame"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "1 endings" in out and "conversion rate:" in out and "load average" in out
    assert out.count("(0 of 1)") + out.count("(1 of 1)") == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "endings", "chase"], "no endings for chase"),
        (["bench", "endings", "custodian", "--attacker", "nobody"], "unknown agent"),
        (["bench", "endings", "custodian", "--limit", "0"], "--limit"),
    ],
)
def test_bench_endings_bad_input(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
