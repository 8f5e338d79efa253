"""Matches through the Python API: records, summary numbers, workers, SPRT."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

import diceboard
from diceboard.arena import Backend, SprtConfig, run_match, write_match
from diceboard.arena.match import MatchResult
from diceboard.core.errors import OptionError
from diceboard.core.game import Game
from diceboard.records import read_pgn


@pytest.fixture(scope="module")
def four_games() -> MatchResult:
    return run_match(diceboard.game("custodian"), "random", "random", 4, seed=5)


def test_a_four_game_match_writes_readable_records(four_games: MatchResult, tmp_path: Path) -> None:
    paths = write_match(four_games, tmp_path)
    assert [p.name for p in paths] == ["match.pgn", "match.json", "match.csv"]
    records = read_pgn((tmp_path / "match.pgn").read_text())
    assert len(records) == 4
    for record, game in zip(records, four_games.games, strict=True):
        assert record.result == game.result
        assert [str(m) for m in record.moves] != []
        final = record.final_state()
        assert str(final.outcome()) == f"{game.result} ({game.reason})"
        assert record.tags["Seed"] == str(game.chance_seed)
        assert (record.tags["White"], record.tags["Black"]) == game.players
    assert [r.tags["Round"] for r in records] == ["1.1", "1.2", "2.1", "2.2"]


def test_summary_numbers_are_consistent(four_games: MatchResult, tmp_path: Path) -> None:
    write_match(four_games, tmp_path)
    data = json.loads((tmp_path / "match.json").read_text())
    wins, draws, losses = four_games.wdl()
    assert (data["wins"], data["draws"], data["losses"]) == (wins, draws, losses)
    assert wins + draws + losses == data["games_played"] == 4
    assert data["score"] == pytest.approx((wins + draws / 2) / 4)
    assert sum(data["pentanomial"]) == 2
    assert data["elo"]["model"] == "pentanomial"
    by_seat = data["by_seat"]
    assert sum(v for seat in by_seat.values() for v in seat.values()) == 4
    assert sum(data["endings"].values()) == 4
    with open(tmp_path / "match.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4
    assert sum(float(r["a_score"]) for r in rows) == pytest.approx(data["score"] * 4)
    # A plays first in the first game of each pair
    assert [r["result"] for r in rows] == [g.result for g in four_games.games]
    a_points = [float(r["a_score"]) for r in rows]
    first_points = [{"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[r["result"]] for r in rows]
    assert a_points == [p if i % 2 == 0 else 1 - p for i, p in enumerate(first_points)]


def test_results_do_not_depend_on_workers(custodian: Game) -> None:
    one = run_match(custodian, "random", "random", 6, seed=17)
    two = run_match(custodian, "random", "random", 6, seed=17, backend=Backend(workers=2))
    assert one == two
    assert [g.pgn for g in one.games] == [g.pgn for g in two.games]
    other = run_match(custodian, "random", "random", 6, seed=18, record=False)
    assert [g.moves for g in other.games] != [g.moves for g in one.games]


def test_batch_size_does_not_change_results(custodian: Game) -> None:
    base = run_match(custodian, "random", "random", 5, seed=4, record=False)
    batched = run_match(
        custodian,
        "random",
        "random",
        5,
        seed=4,
        record=False,
        backend=Backend(workers=2, batch_size=3),
    )
    assert base == batched
    assert base.elo().model == "trinomial"  # an odd number of games is not whole pairs


def test_sprt_stops_a_clear_match_early(custodian: Game) -> None:
    # random against itself is about 0 Elo: far above -400, so H1 of a test of
    # "at most -500" against "at least -400" is accepted after a few pairs
    sprt = SprtConfig(elo0=-500, elo1=-400)
    result = run_match(custodian, "random", "random", 200, seed=2, sprt=sprt, record=False)
    assert result.sprt_result is not None
    assert result.sprt_result.decision == "H1"
    assert result.stopped_early
    assert len(result.games) % 2 == 0 and len(result.games) < 60
    assert "H1 accepted" in result.summary()
    # the same with two workers stops at the same game
    again = run_match(
        custodian,
        "random",
        "random",
        200,
        seed=2,
        sprt=sprt,
        record=False,
        backend=Backend(workers=2),
    )
    assert again == result


def test_progress_callback_sees_every_game_in_order(custodian: Game) -> None:
    seen: list[int] = []
    run_match(
        custodian,
        "random",
        "random",
        4,
        seed=1,
        record=False,
        on_game=lambda g: seen.append(g.index),
    )
    assert seen == [0, 1, 2, 3]


def test_summary_text(four_games: MatchResult) -> None:
    text = four_games.summary()
    assert text.splitlines()[0] == "Custodian Dice (standard): random vs random, 4 games, seed 5"
    assert "Elo difference:" in text and "pentanomial on 2 pairs" in text


def test_bad_arguments(custodian: Game, tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="unknown agent 'nobody'"):
        run_match(custodian, "random", "nobody", 2)
    with pytest.raises(OptionError, match="at least 1"):
        run_match(custodian, "random", "random", 0)
    with pytest.raises(OptionError, match="unknown backend"):
        Backend("threads")
    with pytest.raises(OptionError, match="workers"):
        Backend(workers=0)
    with pytest.raises(OptionError, match="elo0 < elo1"):
        SprtConfig(elo0=10, elo1=0)
    result = run_match(custodian, "random", "random", 2, seed=1, record=False)
    with pytest.raises(OptionError, match="without records"):
        write_match(result, tmp_path)


def test_results_are_never_overwritten_silently(four_games: MatchResult, tmp_path: Path) -> None:
    write_match(four_games, tmp_path)
    before = (tmp_path / "match.pgn").read_text()
    with pytest.raises(OptionError, match="already exists"):
        write_match(four_games, tmp_path)
    assert (tmp_path / "match.pgn").read_text() == before
    write_match(four_games, tmp_path, overwrite=True)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_chase_match(chase: Game) -> None:
    result = run_match(chase, "random", "random", 2, seed=1)
    assert sum(result.wdl()) == 2


def test_ray_backend_without_ray_says_how_to_install(
    custodian: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" fail
    with pytest.raises(OptionError, match=r"pip install 'diceboard\[ray\]'"):
        run_match(custodian, "random", "random", 2, backend=Backend("ray"))
