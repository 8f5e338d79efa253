"""Round robins: pairings, the table, ratings from a synthetic table, output."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from diceboard.arena import run_tournament, write_tournament
from diceboard.arena.play import GameResult, GameSetup
from diceboard.arena.tournament import TournamentResult, tournament_pairings
from diceboard.core.errors import OptionError
from diceboard.core.game import Game
from diceboard.records import read_pgn

AGENTS = ("weak", "middle", "strong")


def _game(index: int, first: str, second: str, winner: int | None) -> GameResult:
    result = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]
    return GameResult(
        index=index,
        players=(first, second),
        chance_seed=0,
        agent_seeds=(0, 0),
        result=result,
        winner=winner,
        reason="elimination" if winner is not None else "blocked",
        plies=50,
        moves=(),
    )


def _synthetic() -> TournamentResult:
    """20 games a pairing, colours alternating: the weaker side wins the first four games
    (none against strong for weak), the last game is drawn, the stronger side wins the rest."""
    games = []
    wins = {("weak", "middle"): 4, ("weak", "strong"): 0, ("middle", "strong"): 4}
    for pairing, (i, j) in enumerate([(0, 1), (0, 2), (1, 2)]):
        low, high = AGENTS[i], AGENTS[j]
        low_wins = wins[(low, high)]
        for g in range(20):
            first, second = (high, low) if g % 2 else (low, high)
            if g < low_wins:
                winner_name: str | None = low
            elif g == 19:
                winner_name = None
            else:
                winner_name = high
            winner = None if winner_name is None else (first, second).index(winner_name)
            games.append(_game(pairing * 20 + g, first, second, winner))
    return TournamentResult(GameSetup("custodian"), AGENTS, 1, 20, tuple(games), anchor=None)


def test_pairings_alternate_colours() -> None:
    assert tournament_pairings(3, 2) == [
        (0, 0, 1),
        (0, 1, 0),
        (1, 0, 2),
        (1, 2, 0),
        (2, 1, 2),
        (2, 2, 1),
    ]
    assert len(tournament_pairings(4, 3)) == 6 * 3


def test_ratings_recover_the_known_order() -> None:
    result = _synthetic()
    standings = result.standings()
    assert [s.agent for s in standings] == ["strong", "middle", "weak"]
    assert sum(s.rating for s in standings) == pytest.approx(0.0, abs=1e-9)
    points, games = result.points_table()
    assert games.sum() == 2 * 60
    assert points[2, 0] == 19.5 and points[0, 2] == 0.5  # strong–weak: 19 wins and a draw
    strong = standings[0]
    # 19 wins and a draw against weak; 15 wins, a draw and 4 losses against middle
    assert (strong.wins, strong.draws, strong.losses) == (34, 2, 4)
    assert strong.points == 35.0
    for s in standings:
        assert s.low < s.rating < s.high


def test_anchor_fixes_one_agent_at_zero() -> None:
    base = _synthetic()
    anchored = TournamentResult(base.setup, base.agents, 1, 20, base.games, anchor="weak")
    by_name = {s.agent: s for s in anchored.standings()}
    assert by_name["weak"].rating == 0.0 and by_name["weak"].stderr == 0.0
    mean = {s.agent: s.rating for s in base.standings()}
    assert by_name["strong"].rating == pytest.approx(mean["strong"] - mean["weak"])


def test_formats() -> None:
    result = _synthetic()
    text = result.format("text")
    assert "Bradley-Terry Elo (mean = 0)" in text
    assert text.splitlines()[3].split()[1] == "strong"
    rows = list(csv.DictReader(io.StringIO(result.format("csv"))))
    assert [r["agent"] for r in rows] == ["strong", "middle", "weak"]
    assert [int(r["rank"]) for r in rows] == [1, 2, 3]
    data = json.loads(result.format("json"))
    assert data["crosstable"]["strong"]["weak"] == {"points": 19.5, "games": 20}
    assert data["rating_model"]["anchor"] == "mean"
    with pytest.raises(OptionError, match="unknown format"):
        result.format("xml")


def test_plot_writes_a_png(tmp_path: Path) -> None:
    path = _synthetic().plot(tmp_path / "ratings.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(OptionError, match="plot format"):
        _synthetic().plot(tmp_path / "ratings.nope")


def test_a_small_real_tournament(custodian: Game, tmp_path: Path) -> None:
    agents = ["random", "random:"]
    result = run_tournament(custodian, agents, 4, seed=3, anchor="random")
    assert len(result.games) == 4
    assert sum(s.games for s in result.standings()) == 8
    paths = write_tournament(result, tmp_path)
    assert sorted(p.name for p in paths) == [
        "games.csv",
        "standings.csv",
        "tournament.json",
        "tournament.pgn",
    ]
    assert len(read_pgn((tmp_path / "tournament.pgn").read_text())) == 4
    again = run_tournament(custodian, agents, 4, seed=3, anchor="random")
    assert again == result


def test_bad_tournaments(custodian: Game) -> None:
    with pytest.raises(OptionError, match="at least two agents"):
        run_tournament(custodian, ["random"], 2)
    with pytest.raises(OptionError, match="listed twice"):
        run_tournament(custodian, ["random", "random"], 2)
    with pytest.raises(OptionError, match="unknown agent"):
        run_tournament(custodian, ["random", "wizard"], 2)
    with pytest.raises(OptionError, match="anchor"):
        run_tournament(custodian, ["random", "random:"], 2, anchor="wizard")
    with pytest.raises(OptionError, match="at least 1"):
        run_tournament(custodian, ["random", "random:"], 0)
