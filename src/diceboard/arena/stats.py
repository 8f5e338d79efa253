"""Statistics for comparing players: Elo from a score, confidence intervals, the GSPRT,
Bradley–Terry ratings and Wilson intervals.

Conventions:

* A *score* is the mean result per game in ``[0, 1]`` (win 1, draw ½, loss 0).
* Elo differences use the logistic model ``score = 1 / (1 + 10 ** (-elo / 400))``.
* Intervals are two-sided; ``confidence=0.95`` gives the usual 95 % interval.

>>> round(elo_from_score(0.75), 1)
190.8
>>> low, high = wilson_interval(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from diceboard.core.errors import OptionError

#: natural-log units per Elo point: ``elo = ELO_PER_NAT * ln(odds)``
ELO_PER_NAT = 400.0 / math.log(10.0)

#: scores of the five pentanomial outcomes of a pair of games, per game (0, ¼, ½, ¾, 1)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: scores of the three trinomial outcomes of a game (loss, draw, win)
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)

#: pseudo-count given to an empty outcome category in the GSPRT, as fishtest does, so that the
#: constrained maximum-likelihood distributions exist before every outcome has been seen
_EMPTY_CATEGORY = 1e-3


def normal_quantile(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence`` (1.96 for 0.95)."""
    if not 0.0 < confidence < 1.0:
        raise OptionError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


# --- Elo and score ---------------------------------------------------------------------------
def elo_from_score(score: float) -> float:
    """The Elo difference that gives ``score`` (``±inf`` at 0 and 1).

    >>> elo_from_score(0.5), elo_from_score(1.0)
    (0.0, inf)
    """
    if not 0.0 <= score <= 1.0:
        raise OptionError(f"a score lies between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger.

    >>> round(score_from_elo(400.0), 4)
    0.9091
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """A score with its confidence interval, and the Elo difference they amount to.

    ``model`` is ``"trinomial"`` (games are the independent units) or ``"pentanomial"`` (pairs
    of colour-swapped games sharing their chance events are the units); ``units`` counts them.
    """

    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    model: str
    units: int
    confidence: float

    @property
    def elo_error(self) -> float:
        """Half the width of the Elo interval (``inf`` when an end is unbounded)."""
        return (self.elo_high - self.elo_low) / 2.0


def _estimate(
    scores: Sequence[float], counts: Sequence[int], model: str, confidence: float
) -> EloEstimate:
    """Mean score of units with per-unit ``scores`` seen ``counts`` times, with a normal
    interval from the observed variance of a unit's score."""
    if any(c < 0 for c in counts):
        raise OptionError(f"outcome counts cannot be negative: {list(counts)}")
    n = sum(counts)
    if n == 0:
        raise OptionError(f"no {model} outcomes to estimate from")
    z = normal_quantile(confidence)
    mean = sum(s * c for s, c in zip(scores, counts, strict=True)) / n
    variance = sum(c * (s - mean) ** 2 for s, c in zip(scores, counts, strict=True)) / n
    if variance > 0.0:
        half = z * math.sqrt(variance / n)
        low, high = max(0.0, mean - half), min(1.0, mean + half)
    else:
        # every unit scored the same (often all wins): the normal interval would be a single
        # point, so use Wilson's interval of a proportion ``mean`` of ``n`` units instead
        low, high = wilson_interval(mean * n, n, confidence)
    return EloEstimate(
        score=mean,
        score_low=low,
        score_high=high,
        elo=elo_from_score(mean),
        elo_low=elo_from_score(low),
        elo_high=elo_from_score(high),
        model=model,
        units=n,
        confidence=confidence,
    )


def elo_trinomial(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """Score and Elo difference from win/draw/loss counts, each game an independent unit.

    >>> e = elo_trinomial(6, 2, 2)
    >>> round(e.score, 2), round(e.elo, 1), round(e.score_low, 4), round(e.score_high, 4)
    (0.7, 147.2, 0.4521, 0.9479)
    """
    return _estimate(TRINOMIAL_SCORES, (losses, draws, wins), "trinomial", confidence)


def elo_pentanomial(counts: Sequence[int], confidence: float = 0.95) -> EloEstimate:
    """Score and Elo difference from pair outcomes: ``counts[k]`` pairs in which the player
    scored ``k / 2`` points over the two games (``k = 0 … 4``).

    Pairs of colour-swapped games that share their dice are correlated; treating the pair as
    the unit gives an honest (and usually narrower) interval than the trinomial model.
    """
    if len(counts) != 5:
        raise OptionError(f"pentanomial counts need 5 entries (pair scores 0…2), not {counts}")
    return _estimate(PENTANOMIAL_SCORES, counts, "pentanomial", confidence)


def pentanomial_counts(game_scores: Sequence[float]) -> list[int]:
    """The pentanomial counts of consecutive game pairs; a trailing unpaired game is ignored.

    >>> pentanomial_counts([1, 1, 0.5, 0, 1, 0.5])
    [0, 1, 0, 1, 1]
    """
    counts = [0] * 5
    for k in range(len(game_scores) // 2):
        points = game_scores[2 * k] + game_scores[2 * k + 1]
        counts[round(points * 2)] += 1
    return counts


# --- the sequential probability ratio test ---------------------------------------------------
@dataclass(frozen=True)
class SprtResult:
    """The state of a GSPRT: the log-likelihood ratio, its bounds and the decision so far
    (``"H1"``: the Elo difference is ``elo1`` or more, ``"H0"``: ``elo0`` or less, ``None``:
    keep playing)."""

    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def decision(self) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` while the test goes on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 below the first, H1 above the
    second.

    >>> [round(b, 4) for b in sprt_bounds(0.05, 0.05)]
    [-2.9444, 2.9444]
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 0.5:
            raise OptionError(f"SPRT {name} must lie strictly between 0 and 0.5, not {value}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _constrained_mle(freqs: np.ndarray, scores: np.ndarray, target: float) -> np.ndarray:
    """The distribution over outcome ``scores`` closest (maximum likelihood) to the observed
    ``freqs`` whose mean score is ``target``: ``p_i = f_i / (1 + λ (s_i − target))`` with the
    Lagrange multiplier λ found by bisection (the mean is monotone in λ)."""
    shifted = scores - target
    # λ must keep every denominator positive
    lam_low = -1.0 / shifted.max() if shifted.max() > 0 else -1e12
    lam_high = -1.0 / shifted.min() if shifted.min() < 0 else 1e12
    lo, hi = lam_low, lam_high
    for _ in range(200):
        lam = (lo + hi) / 2.0
        if float(np.sum(freqs * shifted / (1.0 + lam * shifted))) > 0.0:
            lo = lam
        else:
            hi = lam
    lam = (lo + hi) / 2.0
    p = freqs / (1.0 + lam * shifted)
    return np.asarray(p / p.sum(), dtype=np.float64)


def gsprt_llr(counts: Sequence[float], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``)
    for outcome ``counts`` with per-unit ``scores`` (trinomial or pentanomial).

    Each hypothesis is represented by the maximum-likelihood outcome distribution whose mean
    score matches it (the GSPRT used by fishtest and cutechess-style testers). With only wins
    and losses this is the classical Bernoulli SPRT:

    >>> llr = gsprt_llr([3, 7], [0.0, 1.0], 0.0, 100.0)
    >>> s1 = score_from_elo(100.0)
    >>> round(llr, 9) == round(7 * math.log(s1 / 0.5) + 3 * math.log((1 - s1) / 0.5), 9)
    True
    """
    if elo0 >= elo1:
        raise OptionError(f"SPRT needs elo0 < elo1, got elo0={elo0} and elo1={elo1}")
    n = float(sum(counts))
    if n == 0:
        return 0.0
    regular = np.array([c if c > 0 else _EMPTY_CATEGORY for c in counts], dtype=np.float64)
    freqs = regular / regular.sum()
    values = np.array(scores, dtype=np.float64)
    p0 = _constrained_mle(freqs, values, score_from_elo(elo0))
    p1 = _constrained_mle(freqs, values, score_from_elo(elo1))
    return float(n * np.sum(freqs * np.log(p1 / p0)))


def sprt(
    counts: Sequence[int],
    elo0: float = 0.0,
    elo1: float = 50.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """The GSPRT on pentanomial pair ``counts`` (see :func:`elo_pentanomial`).

    >>> sprt([0, 0, 0, 0, 30]).decision
    'H1'
    """
    if len(counts) != 5:
        raise OptionError(f"pentanomial counts need 5 entries (pair scores 0…2), not {counts}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = gsprt_llr(counts, PENTANOMIAL_SCORES, elo0, elo1)
    return SprtResult(llr, lower, upper, elo0, elo1, alpha, beta)


# --- Wilson interval ---------------------------------------------------------------------------
def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n < 0 or not 0 <= successes <= n:
        raise OptionError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    z = normal_quantile(confidence)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0 and n the interval ends exactly at 0 or 1 (the formula may miss by rounding)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


# --- Bradley–Terry ratings -----------------------------------------------------------------------
@dataclass(frozen=True)
class Ratings:
    """Elo ratings fitted by Bradley–Terry maximum likelihood.

    ``stderr`` comes from the observed information (the curvature of the log-likelihood at its
    maximum); the anchored player (``anchor``, or the mean when ``anchor`` is ``None``) is
    fixed, so its error is 0 under a player anchor.
    """

    names: tuple[str, ...]
    ratings: tuple[float, ...]
    stderr: tuple[float, ...]
    anchor: str | None
    confidence: float
    prior_draws: float

    def interval(self, index: int) -> tuple[float, float]:
        """The confidence interval of player ``index``'s rating."""
        half = normal_quantile(self.confidence) * self.stderr[index]
        return self.ratings[index] - half, self.ratings[index] + half


def _reaches_all(beats: np.ndarray) -> bool:
    """Whether the directed graph ``beats[i, j]`` (i scored against j) is strongly connected."""
    n = len(beats)
    for matrix in (beats, beats.T):
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in np.nonzero(matrix[i])[0]:
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        if len(seen) != n:
            return False
    return True


def _bt_loglik(theta: np.ndarray, pts: np.ndarray) -> float:
    """The Bradley–Terry log-likelihood: sum of ``points[i, j] * log σ(θ_i − θ_j)``."""
    diff = theta[:, None] - theta[None, :]
    return float(-np.sum(pts * np.logaddexp(0.0, -diff)))


def _bt_derivatives(
    theta: np.ndarray, pts: np.ndarray, n_games: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The gradient of :func:`_bt_loglik` and the observed information (minus its Hessian)."""
    diff = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    grad = np.sum(pts - n_games * p, axis=1)
    weight = n_games * p * (1.0 - p)
    info = np.diag(weight.sum(axis=1)) - weight
    return grad, info


def bradley_terry(
    names: Sequence[str],
    points: np.ndarray,
    games: np.ndarray,
    anchor: str | None = None,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
) -> Ratings:
    """Ratings that maximize the Bradley–Terry likelihood of a results table.

    ``points[i, j]`` is what player ``i`` scored against ``j`` (draws as half points) over
    ``games[i, j]`` games. ``prior_draws`` adds that many virtual draws to every pair that met,
    so that a player who won (or lost) every game still gets a finite rating (the approach of
    BayesElo); 0 gives the pure maximum-likelihood fit, which exists only when every player
    scored against every other through some chain of results.
    ``anchor`` names the player rated 0; ``None`` makes the ratings average 0.

    >>> pts = np.array([[0.0, 7.5], [2.5, 0.0]])
    >>> n = np.array([[0, 10], [10, 0]])
    >>> r = bradley_terry(["a", "b"], pts, n, anchor="b", prior_draws=0)
    >>> round(r.ratings[0], 1), r.ratings[1]
    (190.8, 0.0)
    """
    k = len(names)
    if k < 2:
        raise OptionError("ratings need at least two players")
    if len(set(names)) != k:
        raise OptionError(f"player names must be distinct: {list(names)}")
    pts = np.array(points, dtype=np.float64)
    n_games = np.array(games, dtype=np.float64)
    if pts.shape != (k, k) or n_games.shape != (k, k):
        raise OptionError(f"points and games must be {k}x{k} tables")
    if not np.allclose(n_games, n_games.T) or np.any(n_games < 0):
        raise OptionError("the games table must be symmetric and non-negative")
    if np.any(pts < 0) or not np.allclose(pts + pts.T, n_games):
        raise OptionError("points[i, j] + points[j, i] must equal games[i, j]")
    if prior_draws < 0:
        raise OptionError(f"prior_draws must be 0 or more, not {prior_draws}")
    if anchor is not None and anchor not in names:
        raise OptionError(f"anchor {anchor!r} is not one of the players: {', '.join(names)}")
    met = n_games > 0
    pts = pts + np.where(met, prior_draws / 2.0, 0.0)
    n_games = n_games + np.where(met, prior_draws, 0.0)
    if not _reaches_all(met):
        raise OptionError("the players do not all meet through some chain of games")
    if not _reaches_all(pts > 0):
        raise OptionError(
            "the ratings have no finite maximum-likelihood value (a player won or lost every "
            "game against a group); use a prior (virtual draws) greater than 0"
        )

    fixed = names.index(anchor) if anchor is not None else 0
    free = [i for i in range(k) if i != fixed]
    theta = np.zeros(k)
    for _ in range(200):
        grad, info = _bt_derivatives(theta, pts, n_games)
        step = np.zeros(k)
        step[free] = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        # Newton with step halving: the log-likelihood is concave, so some fraction of the
        # Newton step always climbs; halving keeps far-from-optimum starts from overshooting
        current = _bt_loglik(theta, pts)
        scale = 1.0
        while scale > 1e-6 and _bt_loglik(theta + scale * step, pts) < current - 1e-12:
            scale /= 2.0
        theta = theta + scale * step
        if np.max(np.abs(scale * step)) < 1e-10:
            break
    _, info = _bt_derivatives(theta, pts, n_games)
    if anchor is not None:
        cov = np.zeros((k, k))
        cov[np.ix_(free, free)] = np.linalg.inv(info[np.ix_(free, free)])
    else:
        # the information is singular along (1, …, 1); its pseudo-inverse is the covariance of
        # the centred ratings
        theta -= theta.mean()
        cov = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return Ratings(
        names=tuple(names),
        ratings=tuple(float(x) for x in theta * ELO_PER_NAT),
        stderr=tuple(float(x) for x in se * ELO_PER_NAT),
        anchor=anchor,
        confidence=confidence,
        prior_draws=prior_draws,
    )
