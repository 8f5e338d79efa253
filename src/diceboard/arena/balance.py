"""Balance analysis for game designers: many self-play games per variant, and what they show.

One agent plays both sides. Game ``g`` of every variant draws its chance events from the same
stream and seeds its agents alike (common random numbers), so differences between variants are
not blurred by different dice; comparisons between variants are therefore made game by game
(paired).

What is measured per variant: wins by seat and draws with Wilson intervals, how games ended,
game length, the dice on the board ply by ply (captures over time) and, where the game starts
with rolls (Custodian Dice), how the setup rolls relate to the result.
"""

from __future__ import annotations

import contextlib
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from diceboard.arena import seeding
from diceboard.arena.backends import Backend, run_tasks
from diceboard.arena.match import check_agent, check_games
from diceboard.arena.play import GameResult, GameSetup, GameTask
from diceboard.arena.stats import normal_quantile, wilson_interval
from diceboard.core.errors import OptionError
from diceboard.core.game import Game

#: the columns of the per-game CSV file
CSV_HEADER = (
    "variant",
    "game",
    "chance_seed",
    "winner",
    "result",
    "reason",
    "plies",
    "first_dice_lost",
    "second_dice_lost",
    "first_loss_plies",
    "second_loss_plies",
    "first_setup",
    "second_setup",
    "setup_sum_difference",
)

#: bins of the setup face-sum difference (first player's sum minus the second's)
SUM_DIFFERENCE_BINS: tuple[tuple[int, int], ...] = (
    (-30, -8),
    (-7, -4),
    (-3, -1),
    (0, 0),
    (1, 3),
    (4, 7),
    (8, 30),
)


def split_setup(rolls: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The setup rolls of the first and the second player. Custodian Dice rolls the first
    player's (White's) five dice, then the second's (spec: Setup, 1); a game without setup
    rolls gives two empty tuples.

    >>> split_setup([3, 1, 6, 4, 2, 5, 5, 2, 6, 6])
    ((3, 1, 6, 4, 2), (5, 5, 2, 6, 6))
    """
    half = len(rolls) // 2
    if len(rolls) % 2:
        return (), ()
    return tuple(rolls[:half]), tuple(rolls[half:])


def bin_label(low: int, high: int) -> str:
    """``≤ −8``, ``−7 … −4``, ``0``, ``≥ 8``."""
    if low == SUM_DIFFERENCE_BINS[0][0]:
        return f"≤ {high}"
    if high == SUM_DIFFERENCE_BINS[-1][1]:
        return f"≥ {low}"
    return str(low) if low == high else f"{low} … {high}"


@dataclass(frozen=True)
class Rate:
    """A count out of ``n`` with its Wilson interval."""

    count: float
    n: int
    low: float
    high: float

    @classmethod
    def of(cls, count: float, n: int) -> Rate:
        """``count`` of ``n`` with the 95 % Wilson interval."""
        low, high = wilson_interval(count, n)
        return cls(count, n, low, high)

    @property
    def value(self) -> float:
        """The proportion (0 when ``n`` is 0)."""
        return self.count / self.n if self.n else 0.0


@dataclass(frozen=True)
class Estimate:
    """A mean with a normal-approximation 95 % interval."""

    value: float
    low: float
    high: float
    n: int

    @classmethod
    def mean_of(
        cls, values: Sequence[float], lowest: float = -math.inf, highest: float = math.inf
    ) -> Estimate:
        """The mean of ``values`` with ``±1.96`` standard errors, the interval clipped to
        ``[lowest, highest]`` (the range the quantity can take)."""
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = statistics.fmean(values)
        half = (
            normal_quantile(0.95) * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
        )
        return cls(mean, max(lowest, mean - half), min(highest, mean + half), n)


@dataclass(frozen=True)
class SetupGroup:
    """Games whose setup falls in one group (a face-sum difference bin, or a face's count)."""

    label: str
    n: int
    first_wins: Rate
    draws: int
    first_score: float


class VariantAnalysis:
    """What the games of one variant show."""

    def __init__(self, setup: GameSetup, games: Sequence[GameResult]) -> None:
        self.setup = setup
        self.games = tuple(games)
        self.game = setup.make()

    @property
    def label(self) -> str:
        """The variant and its non-default options."""
        return self.setup.label

    @property
    def n(self) -> int:
        """Number of games."""
        return len(self.games)

    # --- results by seat -----------------------------------------------------------------------
    def wins(self, seat: int) -> Rate:
        """Games won by the player in ``seat`` (0 first, 1 second)."""
        return Rate.of(sum(1 for g in self.games if g.winner == seat), self.n)

    def draws(self) -> Rate:
        """Drawn games."""
        return Rate.of(sum(1 for g in self.games if g.winner is None), self.n)

    def first_score(self) -> Estimate:
        """The first player's mean points per game."""
        return Estimate.mean_of([g.first_score for g in self.games], 0.0, 1.0)

    def endings(self) -> Counter[tuple[str, str]]:
        """``(who, reason)`` counts: who is a player's colour name or ``"draw"``."""
        names = self.game.player_names
        return Counter(
            ("draw" if g.winner is None else names[g.winner], g.reason) for g in self.games
        )

    # --- length and captures -------------------------------------------------------------------
    def lengths(self) -> list[int]:
        """Each game's length in plies."""
        return [g.plies for g in self.games]

    def length_summary(self) -> dict[str, float]:
        """Mean, median, 10th and 90th percentiles, shortest and longest game."""
        lengths = np.array(self.lengths(), dtype=np.float64)
        return {
            "mean": float(lengths.mean()),
            "median": float(np.median(lengths)),
            "p10": float(np.percentile(lengths, 10)),
            "p90": float(np.percentile(lengths, 90)),
            "min": float(lengths.min()),
            "max": float(lengths.max()),
        }

    def dice_lost(self, seat: int) -> Estimate:
        """Mean number of dice the player in ``seat`` lost per game."""
        return Estimate.mean_of([len(g.dice_lost(seat)) for g in self.games], 0.0)

    @cached_property
    def dice_by_ply(self) -> np.ndarray:
        """``[ply, seat]``: mean dice on the board over all games; a finished game keeps its
        final counts (so late plies show where games ended, not only the long ones)."""
        horizon = max(g.plies for g in self.games) + 1
        total = np.zeros((horizon, 2))
        for g in self.games:
            counts = np.zeros((horizon, 2))
            for k, (ply, first, second) in enumerate(g.dice):
                end = g.dice[k + 1][0] if k + 1 < len(g.dice) else horizon
                counts[ply:end] = (first, second)
            total += counts
        return np.asarray(total / self.n)

    # --- setup rolls ---------------------------------------------------------------------------
    @property
    def has_setup_rolls(self) -> bool:
        """Whether the games begin with rolls that decide the players' dice."""
        return any(split_setup(g.setup_rolls)[0] for g in self.games)

    def sum_difference(self, game: GameResult) -> int:
        """First player's rolled face sum minus the second's."""
        first, second = split_setup(game.setup_rolls)
        return sum(first) - sum(second)

    def by_sum_difference(self) -> list[SetupGroup]:
        """First player's results grouped by the setup face-sum difference."""
        groups = []
        for low, high in SUM_DIFFERENCE_BINS:
            chosen = [g for g in self.games if low <= self.sum_difference(g) <= high]
            groups.append(self._group(bin_label(low, high), chosen))
        return groups

    def by_face(self, face: int) -> list[SetupGroup]:
        """First player's results by who rolled more dice showing ``face``."""

        def more(g: GameResult) -> int:
            first, second = split_setup(g.setup_rolls)
            return first.count(face) - second.count(face)

        names = self.game.player_names
        return [
            self._group(f"{names[1]} more", [g for g in self.games if more(g) < 0]),
            self._group("equal", [g for g in self.games if more(g) == 0]),
            self._group(f"{names[0]} more", [g for g in self.games if more(g) > 0]),
        ]

    def sum_difference_slope(self) -> Estimate:
        """Least-squares change of the first player's score per point of face-sum
        difference, with a 95 % interval (``nan`` when every game had the same difference)."""
        x = np.array([self.sum_difference(g) for g in self.games], dtype=np.float64)
        y = np.array([g.first_score for g in self.games])
        sxx = float(np.sum((x - x.mean()) ** 2))
        if self.n < 3 or sxx == 0.0:
            return Estimate(math.nan, math.nan, math.nan, self.n)
        slope = float(np.sum((x - x.mean()) * (y - y.mean())) / sxx)
        residual = y - y.mean() - slope * (x - x.mean())
        se = math.sqrt(float(np.sum(residual**2)) / (self.n - 2) / sxx)
        half = normal_quantile(0.95) * se
        return Estimate(slope, slope - half, slope + half, self.n)

    @staticmethod
    def _group(label: str, games: Sequence[GameResult]) -> SetupGroup:
        n = len(games)
        wins = sum(1 for g in games if g.winner == 0)
        draws = sum(1 for g in games if g.winner is None)
        score = sum(g.first_score for g in games) / n if n else math.nan
        return SetupGroup(label, n, Rate.of(wins, n), draws, score)

    # --- raw data ------------------------------------------------------------------------------
    def rows(self) -> list[list[Any]]:
        """One CSV row per game (see :data:`CSV_HEADER`)."""
        names = self.game.players
        rows = []
        for i, g in enumerate(self.games):
            first, second = split_setup(g.setup_rolls)
            rows.append(
                [
                    self.label,
                    i,
                    g.chance_seed,
                    "draw" if g.winner is None else names[g.winner],
                    g.result,
                    g.reason,
                    g.plies,
                    len(g.dice_lost(0)),
                    len(g.dice_lost(1)),
                    " ".join(map(str, g.dice_lost(0))),
                    " ".join(map(str, g.dice_lost(1))),
                    "".join(map(str, first)),
                    "".join(map(str, second)),
                    self.sum_difference(g) if first else "",
                ]
            )
        return rows


@dataclass(frozen=True)
class BalanceResult:
    """Self-play games of one agent in one or more variants of a game."""

    agent: str
    seed: int
    games_per_variant: int
    setups: tuple[GameSetup, ...]
    games: tuple[tuple[GameResult, ...], ...]

    @cached_property
    def variants(self) -> list[VariantAnalysis]:
        """The analysis of each variant, in the order given."""
        return [VariantAnalysis(s, g) for s, g in zip(self.setups, self.games, strict=True)]

    def rows(self) -> list[list[Any]]:
        """Every game of every variant as CSV rows."""
        return [row for variant in self.variants for row in variant.rows()]

    def score_difference(self, index: int) -> Estimate:
        """The first player's mean score in variant ``index`` minus in the first variant,
        paired game by game (the same seeds), with a 95 % interval."""
        base, other = self.variants[0].games, self.variants[index].games
        return Estimate.mean_of(
            [o.first_score - b.first_score for b, o in zip(base, other, strict=True)], -1.0, 1.0
        )


def balance_tasks(setups: Sequence[GameSetup], agent: str, games: int, seed: int) -> list[GameTask]:
    """Game ``g`` of every variant shares its chance and agent seeds."""
    tasks = []
    for v, setup in enumerate(setups):
        for g in range(games):
            tasks.append(
                GameTask(
                    index=v * games + g,
                    setup=setup,
                    players=(agent, agent),
                    chance_seed=seeding.chance_seed(seed, g),
                    agent_seeds=(seeding.agent_seed(seed, g, 0), seeding.agent_seed(seed, g, 1)),
                )
            )
    return tasks


def analyse(
    games: Sequence[Game],
    agent: str,
    num_games: int,
    seed: int | None = None,
    *,
    backend: Backend | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> BalanceResult:
    """Play ``num_games`` self-play games of ``agent`` in each of ``games`` (variants of one
    game) and gather what a balance report shows.

    >>> import diceboard
    >>> r = analyse([diceboard.game("custodian")], "random", 4, seed=1)
    >>> v = r.variants[0]
    >>> v.n, v.wins(0).count + v.wins(1).count + v.draws().count
    (4, 4)
    """
    if not games:
        raise OptionError("analyse needs at least one game variant")
    check_agent(agent)
    check_games(num_games)
    setups = tuple(GameSetup.of(g) for g in games)
    if len({s.name for s in setups}) > 1:
        raise OptionError("the variants to compare must all be of the same game")
    labels = [s.label for s in setups]
    for label in labels:
        if labels.count(label) > 1:
            raise OptionError(f"variant {label!r} is given twice")
    root = seeding.root_seed(seed)
    tasks = balance_tasks(setups, agent, num_games, root)
    played: list[GameResult] = []
    with contextlib.closing(run_tasks(tasks, backend or Backend())) as results:
        for result in results:
            played.append(result)
            if on_game is not None:
                on_game(result)
    per_variant = tuple(
        tuple(played[v * num_games : (v + 1) * num_games]) for v in range(len(setups))
    )
    return BalanceResult(agent, root, num_games, setups, per_variant)
