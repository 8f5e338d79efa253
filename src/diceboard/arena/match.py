"""Matches between two agents: paired games, Elo with a confidence interval, optional SPRT.

Games come in pairs. In game ``2k`` agent A plays first, in game ``2k + 1`` agent B does, and
both games of pair ``k`` draw their chance events (setup rolls, Chaos rolls) from the same
stream, in order: the same dice fall to whoever sits in the same seat, which takes most of the
luck out of the comparison. Agents are seeded per game from the match seed.

Because the two games of a pair are correlated, the Elo interval is computed on pairs (the
*pentanomial* model: a pair scores 0, ½, 1, 1½ or 2 points) whenever the match consists of
whole pairs; a match with an odd number of games falls back to the *trinomial* model (each game
a unit). The SPRT is likewise run on pairs and checked after each one.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import diceboard
from diceboard.arena import seeding
from diceboard.arena.backends import Backend, run_tasks
from diceboard.arena.output import csv_text, finite, json_text, prepare_out_dir, write_text
from diceboard.arena.play import GameResult, GameSetup, GameTask, task_tags
from diceboard.arena.stats import (
    EloEstimate,
    SprtResult,
    elo_pentanomial,
    elo_trinomial,
    pentanomial_counts,
    sprt,
    sprt_bounds,
)
from diceboard.core.errors import OptionError
from diceboard.core.game import Game

#: the files that :func:`write_match` writes
MATCH_FILES = ("match.pgn", "match.json", "match.csv")


@dataclass(frozen=True)
class SprtConfig:
    """A GSPRT of H0 "A is at most ``elo0`` stronger" against H1 "A is at least ``elo1``
    stronger", with error rates ``alpha`` (false H1) and ``beta`` (false H0)."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise OptionError(f"SPRT needs elo0 < elo1, got elo0={self.elo0} elo1={self.elo1}")
        sprt_bounds(self.alpha, self.beta)

    def test(self, counts: Sequence[int]) -> SprtResult:
        """The test's state after the pairs ``counts`` (pentanomial)."""
        return sprt(counts, self.elo0, self.elo1, self.alpha, self.beta)


def check_agent(spec: str) -> str:
    """``spec`` if it names an agent (raises :class:`OptionError` saying why not)."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"an agent spec is a non-empty string, not {spec!r}")
    diceboard.agent(spec)
    return spec


def check_games(games: int, what: str = "games") -> int:
    """``games`` if it is a whole number of at least 1."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"{what} must be a whole number of at least 1, not {games!r}")
    return games


def match_tasks(
    setup: GameSetup, a: str, b: str, games: int, seed: int, record: bool = True
) -> list[GameTask]:
    """The games of a match: A first in even games, the pair ``k`` sharing one chance seed."""
    tasks = []
    for index in range(games):
        pair, swapped = divmod(index, 2)
        players = (b, a) if swapped else (a, b)
        tags = {"Event": "diceboard match", "Round": f"{pair + 1}.{swapped + 1}"}
        tasks.append(
            GameTask(
                index=index,
                setup=setup,
                players=players,
                chance_seed=seeding.chance_seed(seed, pair),
                agent_seeds=(
                    seeding.agent_seed(seed, index, 0),
                    seeding.agent_seed(seed, index, 1),
                ),
                record=record,
                tags=task_tags(tags),
            )
        )
    return tasks


@dataclass(frozen=True)
class MatchResult:
    """A finished (or SPRT-stopped) match between agents ``a`` and ``b``.

    Scores are A's: ``a_score(i)`` is what A scored in game ``i``.
    """

    setup: GameSetup
    a: str
    b: str
    seed: int
    planned: int
    games: tuple[GameResult, ...]
    sprt_config: SprtConfig | None = None
    sprt_result: SprtResult | None = None

    # --- counts ------------------------------------------------------------------------------
    @staticmethod
    def a_seat(index: int) -> int:
        """A's seat in game ``index``: 0 (first player) in even games, 1 in odd ones."""
        return index % 2

    def a_score(self, index: int) -> float:
        """A's points in game ``index``."""
        return self.games[index].score_of(self.a_seat(index))

    def a_scores(self) -> list[float]:
        """A's points game by game."""
        return [self.a_score(i) for i in range(len(self.games))]

    def wdl(self, seat: int | None = None) -> tuple[int, int, int]:
        """A's wins, draws and losses (only the games A played in ``seat``, if given)."""
        scores = [
            self.a_score(i)
            for i in range(len(self.games))
            if seat is None or self.a_seat(i) == seat
        ]
        return scores.count(1.0), scores.count(0.5), scores.count(0.0)

    @property
    def score(self) -> float:
        """A's mean points per game."""
        return sum(self.a_scores()) / len(self.games)

    def pentanomial(self) -> list[int]:
        """How many pairs A scored 0, ½, 1, 1½ and 2 points in."""
        return pentanomial_counts(self.a_scores())

    def endings(self) -> Counter[str]:
        """How the games ended: ``"<result> <reason>"`` from A's side (win/draw/loss)."""
        words = {1.0: "win", 0.5: "draw", 0.0: "loss"}
        return Counter(f"{words[self.a_score(i)]} by {g.reason}" for i, g in enumerate(self.games))

    # --- estimates ---------------------------------------------------------------------------
    def elo(self, confidence: float = 0.95) -> EloEstimate:
        """A's Elo advantage: pentanomial on pairs for whole pairs, else trinomial."""
        if len(self.games) % 2 == 0:
            return elo_pentanomial(self.pentanomial(), confidence)
        return elo_trinomial(*self.wdl(), confidence)

    @property
    def stopped_early(self) -> bool:
        """Whether the SPRT ended the match before the planned number of games."""
        return len(self.games) < self.planned

    # --- reports -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The summary and per-game results as JSON-ready data."""
        wins, draws, losses = self.wdl()
        est = self.elo()
        game = self.setup.make()
        data: dict[str, Any] = {
            "game": self.setup.name,
            "options": dict(self.setup.options),
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "planned_games": self.planned,
            "games_played": len(self.games),
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "score": self.score,
            "by_seat": {
                name: dict(zip(("wins", "draws", "losses"), self.wdl(seat), strict=True))
                for seat, name in enumerate(game.player_names)
            },
            "pentanomial": self.pentanomial(),
            "elo": {
                "model": est.model,
                "units": est.units,
                "confidence": est.confidence,
                "elo": finite(est.elo),
                "low": finite(est.elo_low),
                "high": finite(est.elo_high),
                "score_low": est.score_low,
                "score_high": est.score_high,
            },
            "endings": dict(sorted(self.endings().items())),
        }
        if self.sprt_config is not None and self.sprt_result is not None:
            res = self.sprt_result
            data["sprt"] = {
                "elo0": res.elo0,
                "elo1": res.elo1,
                "alpha": res.alpha,
                "beta": res.beta,
                "llr": res.llr,
                "lower": res.lower,
                "upper": res.upper,
                "decision": res.decision,
            }
        data["games"] = [dict(zip(CSV_HEADER, row, strict=True)) for row in self.rows()]
        return data

    def rows(self) -> list[list[Any]]:
        """One CSV row per game (see :data:`CSV_HEADER`)."""
        rows = []
        for i, g in enumerate(self.games):
            rows.append(
                [
                    i,
                    i // 2 + 1,
                    g.players[0],
                    g.players[1],
                    g.result,
                    g.reason,
                    g.plies,
                    self.a_score(i),
                    g.chance_seed,
                    g.agent_seeds[0],
                    g.agent_seeds[1],
                ]
            )
        return rows

    def summary(self) -> str:
        """A few lines for people: the score, by colour, Elo with its interval, endings."""
        game = self.setup.make()
        wins, draws, losses = self.wdl()
        est = self.elo()
        lines = [
            f"{game.title} ({self.setup.label}): {self.a} vs {self.b}, "
            f"{len(self.games)} games, seed {self.seed}",
            f"  {self.a}: {wins} wins, {draws} draws, {losses} losses; "
            f"score {100 * self.score:.1f} %",
        ]
        seats = []
        for seat, name in enumerate(game.player_names):
            w, d, lost = self.wdl(seat)
            if w + d + lost:
                seats.append(
                    f"as {name} +{w} ={d} -{lost} ({100 * (w + d / 2) / (w + d + lost):.1f} %)"
                )
        lines.append("  " + "; ".join(seats))
        unit = "pairs" if est.model == "pentanomial" else "games"
        lines.append(
            f"  Elo difference: {format_elo(est.elo)} "
            f"[{format_elo(est.elo_low)}, {format_elo(est.elo_high)}] "
            f"({100 * est.confidence:.0f} % interval, {est.model} on {est.units} {unit})"
        )
        endings = ", ".join(f"{k} {v}" for k, v in sorted(self.endings().items()))
        lines.append(f"  endings: {endings}")
        if self.sprt_config is not None and self.sprt_result is not None:
            res = self.sprt_result
            verdict = {
                "H1": f"H1 accepted ({self.a} is at least {res.elo1:g} Elo stronger)",
                "H0": f"H0 accepted ({self.a} is at most {res.elo0:g} Elo stronger)",
                None: "no decision yet",
            }[res.decision]
            lines.append(
                f"  SPRT elo0={res.elo0:g} elo1={res.elo1:g} alpha={res.alpha:g} "
                f"beta={res.beta:g}: LLR {res.llr:.2f} [{res.lower:.2f}, {res.upper:.2f}], "
                f"{verdict} after {len(self.games)} games"
            )
        return "\n".join(lines)


#: the columns of the per-game CSV file
CSV_HEADER = (
    "game",
    "pair",
    "first",
    "second",
    "result",
    "reason",
    "plies",
    "a_score",
    "chance_seed",
    "first_seed",
    "second_seed",
)


def format_elo(value: float) -> str:
    """``+12.3``, ``-4.0``, ``+inf``."""
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    return f"{value:+.1f}"


def run_match(
    game: Game,
    a: str,
    b: str,
    games: int,
    seed: int | None = None,
    *,
    backend: Backend | None = None,
    sprt: SprtConfig | None = None,
    record: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
) -> MatchResult:
    """Play a match of ``games`` games between agent specs ``a`` and ``b``.

    With ``sprt`` the match stops after the first pair at which the test decides (``games``
    is then the most it plays). ``on_game`` is called with each game's result, in game order
    (e.g. to draw a progress bar). Results are the same for a seed whatever the
    backend and number of workers.

    >>> import diceboard
    >>> m = run_match(diceboard.game("custodian"), "random", "random", 4, seed=1, record=False)
    >>> len(m.games), sum(m.wdl())
    (4, 4)
    """
    check_agent(a)
    check_agent(b)
    check_games(games)
    root = seeding.root_seed(seed)
    backend = backend or Backend()
    setup = GameSetup.of(game)
    tasks = match_tasks(setup, a, b, games, root, record)
    played: list[GameResult] = []
    pairs = [0] * 5
    test = sprt.test(pairs) if sprt is not None else None
    with contextlib.closing(run_tasks(tasks, backend)) as results:
        for game_result in results:
            played.append(game_result)
            if on_game is not None:
                on_game(game_result)
            if sprt is not None and len(played) % 2 == 0:
                points = played[-2].score_of(0) + played[-1].score_of(1)
                pairs[round(2 * points)] += 1
                test = sprt.test(pairs)
                if test.decision is not None:
                    break
    return MatchResult(setup, a, b, root, games, tuple(played), sprt, test)


def write_match(result: MatchResult, out_dir: str | Path, overwrite: bool = False) -> list[Path]:
    """Write ``match.pgn`` (every game's record), ``match.json`` (summary and games) and
    ``match.csv`` (one row per game) into ``out_dir``; refuses to replace files unless
    ``overwrite``."""
    folder = prepare_out_dir(out_dir, MATCH_FILES, overwrite)
    records = [g.pgn for g in result.games]
    if any(pgn is None for pgn in records):
        raise OptionError("the match was played without records (record=False); none to write")
    pgn = "\n".join(text.rstrip("\n") + "\n" for text in records if text is not None)
    return [
        write_text(folder / "match.pgn", pgn),
        write_text(folder / "match.json", json_text(result.to_dict())),
        write_text(folder / "match.csv", csv_text(CSV_HEADER, result.rows())),
    ]
