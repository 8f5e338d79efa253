"""The calibration: the committed fit, its symmetry, the fit and the reliability table."""

from __future__ import annotations

import diceboard
from diceboard.analysis import calibration as cal
from diceboard.games import names


def test_every_game_has_a_committed_calibration() -> None:
    record = cal.calibration_record()
    for name in names():
        entry = record[name]
        assert entry["slope"] > 0
        assert entry["command"].startswith(f"diceboard calibrate {name}")
        assert entry["held_out"]["brier"] < 0.25  # better than a coin's expected-score guess


def test_probabilities_are_symmetric_monotone_and_exact_at_proofs() -> None:
    for name in names():
        ps = [cal.win_probability(name, v) for v in (-1.0, -0.9, -0.3, 0.0, 0.3, 0.9, 1.0)]
        assert ps[0] == 0.0 and ps[-1] == 1.0 and ps[3] == 0.5
        assert ps == sorted(ps)
        assert abs(ps[2] + ps[4] - 1.0) < 1e-12


def test_the_fit_recovers_a_known_slope() -> None:
    import math
    import random

    rng = random.Random(1)
    values, scores = [], []
    for _ in range(4000):
        v = rng.uniform(-0.95, 0.95)
        p = cal.probability(v, 0.7)
        values.append(v)
        scores.append(1.0 if rng.random() < p else 0.0)
    assert math.isclose(cal.fit_slope(values, scores), 0.7, abs_tol=0.08)


def test_reliability_table_by_decile() -> None:
    rel = cal.reliability([0.05, 0.05, 0.95, 0.55], [0.0, 0.5, 1.0, 1.0])
    assert rel.positions == 4
    assert [row[2] for row in rel.rows] == [2, 1, 1]
    assert abs(rel.brier - (0.05**2 + 0.45**2 + 0.05**2 + 0.45**2) / 4) < 1e-12
    assert "| 0.0–0.1 | 2 |" in cal.reliability_table("t", rel)


def test_self_play_labels_every_decision() -> None:
    samples = cal.self_play(diceboard.game("chase"), 2, seed=5)
    assert samples.played == 2
    assert len(samples.values) == len(samples.scores) == len(samples.games)
    assert set(samples.scores) <= {0.0, 0.5, 1.0}
