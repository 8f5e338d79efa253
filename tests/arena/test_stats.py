"""The statistics against hand-computed values, and their properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from diceboard.arena.stats import (
    PENTANOMIAL_SCORES,
    bradley_terry,
    elo_from_score,
    elo_pentanomial,
    elo_trinomial,
    gsprt_llr,
    pentanomial_counts,
    score_from_elo,
    sprt,
    sprt_bounds,
    wilson_interval,
)
from diceboard.core.errors import OptionError
from tests.arena.conftest import scores_stream

Z = 1.959963984540054


# --- Elo and score -----------------------------------------------------------------------------
def test_elo_of_known_scores() -> None:
    # 75 % is odds of 3: 400 * log10(3)
    assert elo_from_score(0.75) == pytest.approx(190.848501887865)
    assert elo_from_score(0.25) == pytest.approx(-190.848501887865)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert score_from_elo(400.0) == pytest.approx(10 / 11)


def test_score_outside_zero_one_is_rejected() -> None:
    with pytest.raises(OptionError, match="between 0 and 1"):
        elo_from_score(1.5)


@given(st.floats(min_value=-1500, max_value=1500))
def test_elo_and_score_are_inverse(elo: float) -> None:
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


# --- trinomial and pentanomial intervals ----------------------------------------------------------
def test_trinomial_by_hand() -> None:
    # 6 wins, 2 draws, 2 losses: score 0.7; per-game variance
    # (6 * 0.3² + 2 * 0.2² + 2 * 0.7²) / 10 = 0.16; standard error sqrt(0.16 / 10)
    est = elo_trinomial(6, 2, 2)
    half = Z * math.sqrt(0.016)
    assert est.score == pytest.approx(0.7)
    assert (est.score_low, est.score_high) == pytest.approx((0.7 - half, 0.7 + half))
    assert est.score_low == pytest.approx(0.452082, abs=1e-6)
    assert est.elo == pytest.approx(400 * math.log10(0.7 / 0.3))
    assert est.elo_low == pytest.approx(elo_from_score(0.7 - half))
    assert (est.model, est.units) == ("trinomial", 10)


def test_pentanomial_by_hand() -> None:
    # pairs scoring 0, ½, 1, 1½, 2 points: 1, 2, 3, 2, 2 times; per pair (per game) scores
    # 0, .25, .5, .75, 1 -> mean 5.5 / 10 = 0.55, variance 0.975 / 10 = 0.0975
    est = elo_pentanomial([1, 2, 3, 2, 2])
    half = Z * math.sqrt(0.0975 / 10)
    assert est.score == pytest.approx(0.55)
    assert (est.score_low, est.score_high) == pytest.approx((0.55 - half, 0.55 + half))
    assert est.elo == pytest.approx(34.860, abs=1e-3)
    assert (est.model, est.units) == ("pentanomial", 10)


def test_perfect_scores_have_infinite_elo_and_a_wilson_interval() -> None:
    # no variance: the interval is Wilson's for 10 of 10, whose lower end is n / (n + z²)
    est = elo_trinomial(10, 0, 0)
    assert est.elo == math.inf
    assert est.score_low == pytest.approx(10 / (10 + Z * Z))
    assert est.score_high == 1.0
    assert est.elo_low == pytest.approx(elo_from_score(10 / (10 + Z * Z)))
    even = elo_pentanomial([0, 0, 8, 0, 0])  # every pair split: 0 Elo, Wilson around ½
    assert even.elo == 0.0
    assert (even.score_low, even.score_high) == pytest.approx(wilson_interval(4, 8))


def test_pentanomial_counts_of_game_pairs() -> None:
    # pairs (1, 0), (1, 1), (½, ½), (0, 0); the unpaired last game is left out
    assert pentanomial_counts([1, 0, 1, 1, 0.5, 0.5, 0, 0, 1]) == [1, 0, 2, 0, 1]


def test_estimates_need_outcomes() -> None:
    with pytest.raises(OptionError, match="no trinomial outcomes"):
        elo_trinomial(0, 0, 0)
    with pytest.raises(OptionError, match="5 entries"):
        elo_pentanomial([1, 2, 3])


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_trinomial_interval_contains_the_score(w: int, d: int, lost: int) -> None:
    if w + d + lost == 0:
        return
    est = elo_trinomial(w, d, lost)
    assert 0.0 <= est.score_low <= est.score <= est.score_high <= 1.0
    assert est.elo_low <= est.elo <= est.elo_high


# --- Wilson --------------------------------------------------------------------------------------
def test_wilson_known_values() -> None:
    assert wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    # no successes: the upper end is z² / (n + z²)
    assert wilson_interval(0, 10) == pytest.approx((0.0, Z * Z / (10 + Z * Z)))
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(OptionError, match="successes"):
        wilson_interval(11, 10)


@given(st.integers(1, 500), st.data())
def test_wilson_contains_the_proportion(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


# --- SPRT ----------------------------------------------------------------------------------------
def test_sprt_bounds_are_walds() -> None:
    assert sprt_bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))
    assert sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_gsprt_without_draws_is_the_bernoulli_sprt() -> None:
    s0, s1 = score_from_elo(-20.0), score_from_elo(40.0)
    expected = 13 * math.log(s1 / s0) + 9 * math.log((1 - s1) / (1 - s0))
    assert gsprt_llr([9, 13], [0.0, 1.0], -20.0, 40.0) == pytest.approx(expected)


def test_gsprt_agrees_with_the_normal_approximation_on_large_samples() -> None:
    # for many pairs the GSPRT is close to N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²)
    counts = [300, 1500, 3000, 1700, 500]
    n = sum(counts)
    mean = sum(c * s for c, s in zip(counts, PENTANOMIAL_SCORES, strict=True)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, PENTANOMIAL_SCORES, strict=True)) / n
    s0, s1 = score_from_elo(0.0), score_from_elo(10.0)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt(counts, 0.0, 10.0).llr == pytest.approx(approx, rel=0.02)


def _pairs_until_decision(
    pattern: list[int], limit: int, elo0: float, elo1: float
) -> tuple[str | None, int]:
    counts = [0] * 5
    for k in range(limit):
        counts[pattern[k % len(pattern)]] += 1
        decision = sprt(counts, elo0, elo1).decision
        if decision is not None:
            return decision, k + 1
    return None, limit


def test_sprt_stops_early_on_a_lopsided_stream() -> None:
    # A wins most pairs outright: far beyond +50 Elo
    decision, pairs = _pairs_until_decision([4, 4, 3, 4, 2, 4], 500, 0.0, 50.0)
    assert decision == "H1"
    assert pairs < 60
    # the mirrored stream against the mirrored hypotheses accepts H0 exactly as quickly
    decision, pairs_b = _pairs_until_decision([0, 0, 1, 0, 2, 0], 500, -50.0, 0.0)
    assert (decision, pairs_b) == ("H0", pairs)


def test_sprt_accepts_h0_for_equal_players() -> None:
    decision, pairs = _pairs_until_decision([2, 1, 3, 2, 2, 0, 4, 2], 5000, 0.0, 50.0)
    assert decision == "H0"
    assert pairs < 2000


def test_sprt_rejects_bad_settings() -> None:
    with pytest.raises(OptionError, match="elo0 < elo1"):
        sprt([1, 1, 1, 1, 1], 10.0, 5.0)
    with pytest.raises(OptionError, match="alpha"):
        sprt([1, 1, 1, 1, 1], alpha=0.7)


def test_scores_stream_helper() -> None:
    assert pentanomial_counts(scores_stream([4, 3, 0, 1])) == [1, 1, 0, 1, 1]


# --- Bradley–Terry ------------------------------------------------------------------------------
def test_two_players_by_hand() -> None:
    # a scored 7.5 of 10: the difference is Elo(0.75); its standard error is
    # (400 / ln 10) / sqrt(n p (1 − p))
    points = np.array([[0.0, 7.5], [2.5, 0.0]])
    games = np.array([[0, 10], [10, 0]])
    r = bradley_terry(["a", "b"], points, games, anchor="b", prior_draws=0)
    se = 400 / math.log(10) / math.sqrt(10 * 0.75 * 0.25)
    assert r.ratings == pytest.approx((190.848501887865, 0.0))
    assert r.stderr == pytest.approx((se, 0.0))
    mean = bradley_terry(["a", "b"], points, games, anchor=None, prior_draws=0)
    assert mean.ratings == pytest.approx((95.4242509, -95.4242509))
    assert mean.stderr == pytest.approx((se / 2, se / 2))


def _expected_table(true: list[float], n: int) -> tuple[np.ndarray, np.ndarray]:
    k = len(true)
    games = np.full((k, k), n) - np.diag([n] * k)
    points = np.array(
        [[games[i, j] * score_from_elo(true[i] - true[j]) for j in range(k)] for i in range(k)]
    )
    return points, games


def test_ratings_recover_an_exact_table() -> None:
    points, games = _expected_table([0.0, 100.0, 250.0, -120.0], 100)
    r = bradley_terry(["a", "b", "c", "d"], points, games, anchor="a", prior_draws=0)
    assert r.ratings == pytest.approx((0.0, 100.0, 250.0, -120.0), abs=1e-6)


def test_ratings_recover_the_order_of_a_sampled_table() -> None:
    true = [0.0, 150.0, 300.0, 450.0]
    k = len(true)
    rng = np.random.default_rng(5)
    points = np.zeros((k, k))
    games = np.zeros((k, k), dtype=int)
    for i in range(k):
        for j in range(i + 1, k):
            p = score_from_elo(true[i] - true[j])
            draw = 0.4 * min(p, 1 - p)  # draws, keeping the expected score at p
            outcomes = rng.choice(
                [1.0, 0.5, 0.0], size=200, p=[p - draw / 2, draw, 1 - p - draw / 2]
            )
            points[i, j], points[j, i] = outcomes.sum(), 200 - outcomes.sum()
            games[i, j] = games[j, i] = 200
    r = bradley_terry(["w", "x", "y", "z"], points, games, anchor="w", prior_draws=0)
    assert list(np.argsort(r.ratings)) == [0, 1, 2, 3]
    for i, rating in enumerate(true):
        low, high = r.interval(i)
        assert low <= rating <= high


def test_a_perfect_score_needs_a_prior() -> None:
    points = np.array([[0.0, 4.0], [0.0, 0.0]])
    games = np.array([[0, 4], [4, 0]])
    with pytest.raises(OptionError, match="no finite maximum-likelihood"):
        bradley_terry(["a", "b"], points, games, prior_draws=0)
    r = bradley_terry(["a", "b"], points, games, anchor="b", prior_draws=1)
    # with one virtual draw: 4.5 of 5 points
    assert r.ratings[0] == pytest.approx(elo_from_score(0.9))


def test_ratings_reject_bad_tables() -> None:
    games = np.array([[0, 2], [2, 0]])
    with pytest.raises(OptionError, match="must equal games"):
        bradley_terry(["a", "b"], np.array([[0.0, 2.0], [1.0, 0.0]]), games)
    with pytest.raises(OptionError, match="anchor"):
        bradley_terry(["a", "b"], np.array([[0.0, 1.0], [1.0, 0.0]]), games, anchor="c")
    with pytest.raises(OptionError, match="at least two"):
        bradley_terry(["a"], np.zeros((1, 1)), np.zeros((1, 1)))


@given(
    st.lists(st.integers(0, 6), min_size=3, max_size=3),
    st.sampled_from(["a", "b", "c", None]),
)
def test_anchors_only_shift_the_ratings(wins: list[int], anchor: str | None) -> None:
    # a 3-player table with 6 games per pairing: wins[p] of the first player of pairing p
    pairs = [(0, 1), (0, 2), (1, 2)]
    points = np.zeros((3, 3))
    games = np.zeros((3, 3))
    for (i, j), w in zip(pairs, wins, strict=True):
        points[i, j], points[j, i] = w, 6 - w
        games[i, j] = games[j, i] = 6
    names = ["a", "b", "c"]
    base = np.array(bradley_terry(names, points, games, anchor=None).ratings)
    other = np.array(bradley_terry(names, points, games, anchor=anchor).ratings)
    shift = other - base
    assert np.allclose(shift, shift[0], atol=1e-6)
    if anchor is not None:
        assert other[names.index(anchor)] == pytest.approx(0.0, abs=1e-9)
