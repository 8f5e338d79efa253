"""Round-robin tournaments and their rating table.

Every pair of agents plays ``games_per_pair`` games, arranged like a match (colours alternate;
each two consecutive games of a pairing share their chance events). Ratings are fitted to all
results by Bradley–Terry maximum likelihood on the Elo scale (draws as half points, a weak prior
of virtual draws so that a perfect score still gets a finite rating), with confidence intervals
from the observed information; see :func:`diceboard.arena.stats.bradley_terry`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from diceboard.arena import seeding
from diceboard.arena.backends import Backend, run_tasks
from diceboard.arena.match import check_agent, check_games, format_elo
from diceboard.arena.output import csv_text, json_text, prepare_out_dir, write_text
from diceboard.arena.play import GameResult, GameSetup, GameTask, task_tags
from diceboard.arena.plotting import PALETTE, new_figure, save_figure
from diceboard.arena.stats import Ratings, bradley_terry
from diceboard.core.errors import OptionError
from diceboard.core.game import Game

#: the formats of the standings table
FORMATS = ("text", "csv", "json")
#: the files that :func:`write_tournament` writes
TOURNAMENT_FILES = ("tournament.pgn", "tournament.json", "standings.csv", "games.csv")
#: the columns of the standings table
STANDINGS_HEADER = (
    "rank",
    "agent",
    "rating",
    "low",
    "high",
    "stderr",
    "games",
    "points",
    "score",
    "wins",
    "draws",
    "losses",
)
#: the columns of the per-game CSV file
GAMES_HEADER = ("game", "pairing", "first", "second", "result", "reason", "plies", "chance_seed")


def tournament_pairings(agents: int, games_per_pair: int) -> list[tuple[int, int, int]]:
    """``(pairing, first agent, second agent)`` for each game, in game order.

    >>> tournament_pairings(3, 2)
    [(0, 0, 1), (0, 1, 0), (1, 0, 2), (1, 2, 0), (2, 1, 2), (2, 2, 1)]
    """
    order = []
    for pairing, (i, j) in enumerate(combinations(range(agents), 2)):
        for g in range(games_per_pair):
            order.append((pairing, j, i) if g % 2 else (pairing, i, j))
    return order


def check_agents(agents: Sequence[str]) -> tuple[str, ...]:
    """The agent specs, checked: at least two, each valid, none twice."""
    if len(agents) < 2:
        raise OptionError(f"a tournament needs at least two agents, got {len(agents)}")
    seen = set()
    for spec in agents:
        check_agent(spec)
        if spec in seen:
            raise OptionError(f"agent {spec!r} is listed twice")
        seen.add(spec)
    return tuple(agents)


def tournament_tasks(
    setup: GameSetup, agents: Sequence[str], games_per_pair: int, seed: int, record: bool = True
) -> list[GameTask]:
    """The games of a round robin, pairing by pairing."""
    tasks = []
    per_pairing: dict[int, int] = {}
    for index, (pairing, first, second) in enumerate(
        tournament_pairings(len(agents), games_per_pair)
    ):
        g = per_pairing.get(pairing, 0)
        per_pairing[pairing] = g + 1
        tags = {"Event": "diceboard tournament", "Round": f"{pairing + 1}.{g + 1}"}
        tasks.append(
            GameTask(
                index=index,
                setup=setup,
                players=(agents[first], agents[second]),
                chance_seed=seeding.chance_seed(seed, pairing, g // 2),
                agent_seeds=(
                    seeding.agent_seed(seed, pairing, g, 0),
                    seeding.agent_seed(seed, pairing, g, 1),
                ),
                record=record,
                tags=task_tags(tags),
            )
        )
    return tasks


@dataclass(frozen=True)
class Standing:
    """One agent's line in the table."""

    rank: int
    agent: str
    rating: float
    low: float
    high: float
    stderr: float
    games: int
    points: float
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Points per game."""
        return self.points / self.games if self.games else 0.0

    def row(self) -> list[Any]:
        """The values in :data:`STANDINGS_HEADER` order."""
        return [
            self.rank,
            self.agent,
            round(self.rating, 1),
            round(self.low, 1),
            round(self.high, 1),
            round(self.stderr, 1),
            self.games,
            self.points,
            round(self.score, 4),
            self.wins,
            self.draws,
            self.losses,
        ]


@dataclass(frozen=True)
class TournamentResult:
    """A played round robin. ``anchor`` is the agent rated 0 (``None``: ratings average 0);
    ``prior_draws`` the virtual draws added to each pairing when fitting ratings."""

    setup: GameSetup
    agents: tuple[str, ...]
    seed: int
    games_per_pair: int
    games: tuple[GameResult, ...]
    anchor: str | None = None
    prior_draws: float = 1.0
    confidence: float = 0.95

    def points_table(self) -> tuple[np.ndarray, np.ndarray]:
        """``(points, games)``: ``points[i, j]`` is what agent ``i`` scored against ``j``."""
        k = len(self.agents)
        points = np.zeros((k, k))
        games = np.zeros((k, k), dtype=np.int64)
        for g in self.games:
            i, j = self.agents.index(g.players[0]), self.agents.index(g.players[1])
            points[i, j] += g.score_of(0)
            points[j, i] += g.score_of(1)
            games[i, j] += 1
            games[j, i] += 1
        return points, games

    def ratings(self) -> Ratings:
        """The Bradley–Terry ratings with their confidence intervals."""
        points, games = self.points_table()
        return bradley_terry(
            self.agents, points, games, self.anchor, self.prior_draws, self.confidence
        )

    def standings(self) -> list[Standing]:
        """The agents by rating, best first."""
        ratings = self.ratings()
        wdl = {name: [0, 0, 0] for name in self.agents}
        for g in self.games:
            for seat in (0, 1):
                wdl[g.players[seat]][{1.0: 0, 0.5: 1, 0.0: 2}[g.score_of(seat)]] += 1
        points, games = self.points_table()
        order = sorted(range(len(self.agents)), key=lambda i: -ratings.ratings[i])
        rows = []
        for rank, i in enumerate(order, start=1):
            low, high = ratings.interval(i)
            name = self.agents[i]
            rows.append(
                Standing(
                    rank,
                    name,
                    ratings.ratings[i],
                    low,
                    high,
                    ratings.stderr[i],
                    int(games[i].sum()),
                    float(points[i].sum()),
                    *wdl[name],
                )
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Standings, the crosstable and the settings as JSON-ready data."""
        points, games = self.points_table()
        return {
            "game": self.setup.name,
            "options": dict(self.setup.options),
            "agents": list(self.agents),
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "rating_model": {
                "method": "Bradley-Terry maximum likelihood, Elo scale, draws as half points",
                "intervals": "observed information (normal approximation)",
                "confidence": self.confidence,
                "prior_draws": self.prior_draws,
                "anchor": self.anchor if self.anchor is not None else "mean",
            },
            "standings": [
                dict(zip(STANDINGS_HEADER, s.row(), strict=True)) for s in self.standings()
            ],
            "crosstable": {
                a: {
                    b: {"points": float(points[i, j]), "games": int(games[i, j])}
                    for j, b in enumerate(self.agents)
                    if i != j
                }
                for i, a in enumerate(self.agents)
            },
        }

    def format(self, fmt: str = "text") -> str:
        """The standings as ``text`` (aligned table), ``csv`` or ``json``."""
        if fmt == "csv":
            return csv_text(STANDINGS_HEADER, [s.row() for s in self.standings()])
        if fmt == "json":
            return json_text(self.to_dict())
        if fmt != "text":
            raise OptionError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
        return self._text()

    def _text(self) -> str:
        game = self.setup.make()
        anchor = f"{self.anchor} = 0" if self.anchor is not None else "mean = 0"
        head = (
            f"{game.title} ({self.setup.label}): round robin of {len(self.agents)} agents, "
            f"{self.games_per_pair} games per pair, {len(self.games)} games, seed {self.seed}\n"
            f"Bradley-Terry Elo ({anchor}), {100 * self.confidence:.0f} % intervals"
        )
        width = max(len("agent"), *(len(a) for a in self.agents))
        lines = [
            head,
            f"{'#':>3}  {'agent':<{width}}  {'Elo':>7}  {'interval':>17}  {'games':>5}  "
            f"{'score':>6}  {'+':>4} {'=':>4} {'-':>4}",
        ]
        for s in self.standings():
            interval = f"[{format_elo(s.low)}, {format_elo(s.high)}]"
            lines.append(
                f"{s.rank:>3}  {s.agent:<{width}}  {format_elo(s.rating):>7}  {interval:>17}  "
                f"{s.games:>5}  {100 * s.score:>5.1f}%  {s.wins:>4} {s.draws:>4} {s.losses:>4}"
            )
        return "\n".join(lines) + "\n"

    def game_rows(self) -> list[list[Any]]:
        """One CSV row per game (see :data:`GAMES_HEADER`)."""
        pairings = tournament_pairings(len(self.agents), self.games_per_pair)
        return [
            [
                g.index,
                pairings[g.index][0] + 1,
                g.players[0],
                g.players[1],
                g.result,
                g.reason,
                g.plies,
                g.chance_seed,
            ]
            for g in self.games
        ]

    def plot(self, path: str | Path) -> Path:
        """Draw the ratings with their intervals (format from the file suffix, e.g. PNG)."""
        standings = self.standings()
        fig = new_figure(7.0, 1.2 + 0.45 * len(standings))
        ax = fig.add_subplot()
        ys = list(range(len(standings)))[::-1]
        ratings = [s.rating for s in standings]
        errors = [
            [s.rating - s.low for s in standings],
            [s.high - s.rating for s in standings],
        ]
        ax.errorbar(ratings, ys, xerr=errors, fmt="o", color=PALETTE[0], capsize=4)
        ax.set_yticks(ys, [s.agent for s in standings])
        ax.axvline(0.0, color="#999999", linewidth=0.8, zorder=0)
        anchor = f"{self.anchor} = 0" if self.anchor is not None else "mean = 0"
        ax.set_xlabel(f"Elo ({anchor}), {100 * self.confidence:.0f} % intervals")
        ax.set_title(f"{self.setup.make().title} ({self.setup.label}): {len(self.games)} games")
        ax.grid(axis="x", alpha=0.3)
        return save_figure(fig, path)


def run_tournament(
    game: Game,
    agents: Sequence[str],
    games_per_pair: int,
    seed: int | None = None,
    *,
    backend: Backend | None = None,
    anchor: str | None = None,
    prior_draws: float = 1.0,
    record: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play a round robin between the agent specs ``agents``.

    ``anchor`` names the agent rated 0 (``None``: the ratings average 0). ``on_game`` is called
    with each game's result in game order.

    >>> import diceboard
    >>> game = diceboard.game("custodian")
    >>> t = run_tournament(game, ["random", "random:"], 2, seed=1, record=False)
    >>> [s.games for s in t.standings()], len(t.games)
    ([2, 2], 2)
    """
    agents = check_agents(agents)
    check_games(games_per_pair, "games per pair")
    if anchor is not None and anchor not in agents:
        raise OptionError(f"anchor {anchor!r} is not one of the agents: {', '.join(agents)}")
    if prior_draws < 0:
        raise OptionError(f"the prior must be 0 or more virtual draws, not {prior_draws}")
    root = seeding.root_seed(seed)
    setup = GameSetup.of(game)
    tasks = tournament_tasks(setup, agents, games_per_pair, root, record)
    played: list[GameResult] = []
    with contextlib.closing(run_tasks(tasks, backend or Backend())) as results:
        for result in results:
            played.append(result)
            if on_game is not None:
                on_game(result)
    return TournamentResult(setup, agents, root, games_per_pair, tuple(played), anchor, prior_draws)


def write_tournament(
    result: TournamentResult, out_dir: str | Path, overwrite: bool = False
) -> list[Path]:
    """Write ``tournament.pgn``, ``tournament.json``, ``standings.csv`` and ``games.csv``."""
    folder = prepare_out_dir(out_dir, TOURNAMENT_FILES, overwrite)
    records = [g.pgn for g in result.games]
    if any(pgn is None for pgn in records):
        raise OptionError("the tournament was played without records; none to write")
    pgn = "\n".join(text.rstrip("\n") + "\n" for text in records if text is not None)
    return [
        write_text(folder / "tournament.pgn", pgn),
        write_text(folder / "tournament.json", result.format("json")),
        write_text(folder / "standings.csv", result.format("csv")),
        write_text(folder / "games.csv", csv_text(GAMES_HEADER, result.game_rows())),
    ]
