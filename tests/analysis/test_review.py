"""Game review: losses, glyphs and comments, the summary, and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import diceboard
from diceboard.analysis.review import Decision, glyph_of, review, summary_text
from diceboard.cli.main import main
from diceboard.records import GameRecord

#: cheap and still far stronger than random (keeps the tests fast)
STRONG = "alphabeta:depth=2"
REVIEWER = "alphabeta:depth=2,contempt=0"
DATA = Path(__file__).parent / "data"

#: Red to move; every move but i8-f7SW keeps all of Red's dice, that one can be taken at once
HANGING = (
    ".R1R2R3R4R5R4R3R1/........R2/........./........./...B2...../.....B2.../........./"
    "........./B2B3.B3B3B2B6B1B1 R 6 23"
)


def _strong_against_random(seed: int = 2) -> GameRecord:
    game = diceboard.game("chase")
    players = {"B": diceboard.agent(STRONG, seed=seed), "R": diceboard.agent("random", seed=seed)}
    state = game.initial_state()
    while state.outcome() is None and len(state.move_stack()) < 300:
        state = state.play(players[state.to_move].choose(state))
    return GameRecord.from_state(state, players=(STRONG, "random"))


def test_randoms_moves_lose_more_and_some_are_blunders() -> None:
    # a strong player wins these games fast, and a lost position has nothing left to lose:
    # the blunders are counted over a few games
    blunders = 0
    for seed in range(1, 7):
        result = review(_strong_against_random(seed), REVIEWER)
        strong, weak = result.side("B"), result.side("R")
        assert weak.decisions > 5 and strong.decisions > 5
        assert weak.mean_loss > strong.mean_loss
        assert weak.accuracy < strong.accuracy
        blunders += weak.blunders
        if weak.blunders:
            annotated = result.annotated()
            assert "??" in annotated.glyphs.values()
            # the comments name the better move and the win probabilities, and read back
            marked = next(d for d in result.decisions if d.glyph == "??")
            comment = annotated.comments[marked.index + 1][-1]
            assert str(marked.best) in comment and "win probability" in comment
            assert GameRecord.from_pgn(annotated.to_pgn()) == annotated
            text = summary_text(result)
            assert "Blue (alphabeta:depth=2): accuracy" in text and "blunders" in text
    assert blunders >= 1


def test_a_move_that_hangs_a_die_is_marked() -> None:
    start = diceboard.game("chase").parse(HANGING)
    bad = GameRecord(start, ["i8-f7SW"])
    (decision,) = review(bad, REVIEWER).decisions
    assert decision.glyph in ("?", "??")
    assert decision.loss >= 0.10
    assert decision.after < decision.before
    good = review(GameRecord(start, [decision.best]), REVIEWER).decisions[0]
    assert good.glyph == "" and good.loss == 0.0


def test_glyph_thresholds() -> None:
    assert [glyph_of(x) for x in (0.0, 0.049, 0.05, 0.1, 0.2, 0.9)] == [
        "",
        "",
        "?!",
        "?",
        "??",
        "??",
    ]
    move = diceboard.game("chase").initial_state().legal_moves()[0]
    same = Decision(0, "B", move, move, 0.0, 0.3, 0.6, 0.5)
    assert same.played_best and same.glyph == ""


def test_review_reads_an_abstractplay_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reviewed.pgn"
    status = main(
        ["review", str(DATA / "abstractplay-chase.json"), "--agent", REVIEWER, "--out", str(out)]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "Blue (Alice): accuracy" in printed and "Red (AiAi): accuracy" in printed
    rec = GameRecord.from_pgn(out.read_text(encoding="utf-8"))
    assert rec.tags["Site"] == "Abstract Play" and rec.tags["Repetition"] == "off"
    assert rec.glyphs  # random-looking moves: some are marked
    json_out = tmp_path / "reviewed.json"
    assert main(["review", str(out), "--agent", REVIEWER, "--out", str(json_out)]) == 0
    assert GameRecord.from_json(json_out.read_text(encoding="utf-8")).glyphs == rec.glyphs
    assert json.loads(json_out.read_text(encoding="utf-8"))["format"] == "diceboard-record"


def test_review_is_deterministic_for_a_depth_limited_agent() -> None:
    rng = random.Random(1)
    state = diceboard.game("chase").initial_state()
    for _ in range(8):
        state = state.play(rng.choice(state.legal_moves()))
    rec = GameRecord.from_state(state)
    first, second = review(rec, REVIEWER), review(rec, REVIEWER)
    assert [d.after for d in first.decisions] == [d.after for d in second.decisions]
