"""Fitting the evaluation: logistic regression of game results on position features.

``diceboard fit-eval GAME`` runs :func:`fit_evaluation`: self-play games (compiled, see
:mod:`diceboard.ai.engine.selfplay`) give sampled positions with the final result for the
player to move; a logistic model ``P(win) = σ(w·x)`` is fitted to them by Newton's method
(draws count as half a win); and the next round of games is played by the model just fitted.
The first round's players know material alone. Everything is seeded: the same command gives
the same weights.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from diceboard.ai.engine import engine_for
from diceboard.ai.engine.rng import new_rng
from diceboard.core.game import Game

#: share of the games (the last ones) kept out of the fit to measure it
VALIDATION_SHARE = 0.2
#: L2 penalty on the standardised weights (keeps the Newton steps well posed)
L2 = 1e-3


@dataclass(frozen=True)
class Samples:
    """Feature rows and results (1, 0.5, 0 for the player to move) from self-play."""

    features: np.ndarray
    results: np.ndarray
    games: int
    finished: int
    seconds: float


def self_play(
    game: Game,
    games: int,
    seed: int,
    weights: np.ndarray,
    epsilon: float = 0.15,
    sample_rate: float = 0.3,
    max_actions: int = 3000,
) -> Samples:
    """Play ``games`` self-play games of ``game`` with one-ply players using ``weights``."""
    engine = engine_for(game.name)
    start = game.initial_state().kernel_state()
    capacity = max(1024, games * 200)
    features = np.empty((capacity, engine.num_features), dtype=np.float64)
    results = np.empty(capacity, dtype=np.float64)
    stats = np.zeros(3, dtype=np.int64)
    began = time.perf_counter()
    # the evaluation vector ends with the value of a draw: 0 in self-play
    n = engine.selfplay_samples(
        start,
        game.opts,
        games,
        np.append(weights, 0.0),
        epsilon,
        sample_rate,
        max_actions,
        new_rng(seed),
        features,
        results,
        stats,
    )
    return Samples(
        features[:n].copy(),
        results[:n].copy(),
        int(stats[0]),
        int(stats[1]),
        time.perf_counter() - began,
    )


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Mean cross-entropy of the model ``σ(x·w)`` against the results ``y``."""
    z = x @ w
    # log(1 + e^z) - y z, written to stay finite for large |z|
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> np.ndarray:
    """Weights ``w`` minimising the mean cross-entropy of ``σ(x·w)`` against ``y`` (values in
    [0, 1]) plus ``l2/2·|w|²`` on standardised columns, by Newton's method."""
    scale = x.std(axis=0)
    scale[scale < 1e-12] = 1.0
    # a constant column (the side to move) is the intercept: keep it as it is
    constant = np.all(x == x[:1], axis=0)
    scale[constant] = np.abs(x[0, constant]) + (x[0, constant] == 0)
    xs = x / scale
    n, k = xs.shape
    w = np.zeros(k)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xs @ w)))
        grad = xs.T @ (p - y) / n + l2 * w
        hess = (xs.T * (p * (1.0 - p))) @ xs / n + l2 * np.eye(k)
        delta = np.linalg.solve(hess, grad)
        w -= delta
        if float(np.max(np.abs(delta))) < 1e-10:
            break
    result: np.ndarray = w / scale
    return result


def _split(samples: Samples) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    cut = int(len(samples.results) * (1.0 - VALIDATION_SHARE))
    x, y = samples.features, samples.results
    return x[:cut], y[:cut], x[cut:], y[cut:]


def fit_evaluation(
    game: Game, games: int, seed: int, rounds: int = 2, log: Any = None
) -> dict[str, Any]:
    """Fit a game's evaluation; return the weights record (see :mod:`diceboard.ai.weights`)."""
    engine = engine_for(game.name)
    names = engine.feature_names
    material = int(engine.binding.MATERIAL_FEATURE)
    policy = np.zeros(len(names))
    policy[material] = 1.0
    rounds_info = []
    full = policy
    material_w = policy
    samples = None
    for r in range(rounds):
        samples = self_play(game, games, seed + r, policy)
        if len(samples.results) < 10 * len(names):
            raise ValueError(
                f"self-play gave only {len(samples.results)} positions from {samples.finished} "
                f"finished games: play more games (--games)"
            )
        x_fit, y_fit, x_val, y_val = _split(samples)
        full = fit_logistic(x_fit, y_fit)
        material_w = np.zeros(len(names))
        material_w[material] = fit_logistic(x_fit[:, [material]], y_fit)[0]
        base = math.log(2.0)
        info = {
            "round": r + 1,
            "games": samples.games,
            "finished": samples.finished,
            "positions": len(samples.results),
            "validation_log_loss": {
                "fitted": round(log_loss(x_val, y_val, full), 4),
                "material": round(log_loss(x_val, y_val, material_w), 4),
                "coin": round(base, 4),
            },
        }
        rounds_info.append(info)
        if log is not None:
            # the time goes to the log only: the record stays the same from run to run
            log({**info, "seconds": round(samples.seconds, 1)})
        policy = full
    return {
        "game": game.name,
        "command": (
            f"diceboard fit-eval {game.name} --games {games} --seed {seed} --rounds {rounds}"
        ),
        "model": "P(win for the player to move) = 1 / (1 + exp(-w·x)); value = tanh(w·x / 2)",
        "features": list(names),
        "full": [round(float(v), 6) for v in full],
        "material": [round(float(v), 6) for v in material_w],
        "rounds": rounds_info,
    }


def record_text(record: dict[str, Any]) -> str:
    """A weights record as the JSON text of the weights files (two-space indent)."""
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"
