"""A calibrated evaluation: the engine's values mapped to win probabilities.

A search value ``v`` (in [-1, 1], for the player to move; ±1 a proven result) becomes the
expected score of the player to move (a win 1, a draw ½, a loss 0), called its *win
probability* in the review and the web app:

    p(v) = σ(a · 2·atanh(v))          for |v| < 1;  p = 1 or 0 for a proven win or loss

— one slope ``a`` per game, fitted by :func:`fit_calibration` (logistic regression, Newton's
method, no intercept so that ``p(-v) = 1 - p(v)`` and the two sides' probabilities add up to
one) on the final results of self-play games, labelled by the value that ``LABEL_AGENT``
finds at every decision. ``diceboard calibrate GAME`` fits it and writes the slope into
``diceboard/ai/weights/calibration.json`` (keyed by game name, with the command that made it
and its held-out figures); ``diceboard calibrate GAME --check`` plays fresh games and prints
the Brier score and the reliability table of the committed calibration.
"""

from __future__ import annotations

import functools
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from diceboard.core.game import Game, State

#: the agent whose values label the self-play positions (fast: a few milliseconds a move)
LABEL_AGENT = "alphabeta:depth=2"
#: chance that a self-play player makes a random move instead of the searched one (so that
#: games are decided, and positions of every kind are seen)
EPSILON = 0.15
#: share of the games (the last ones) kept out of the fit to score it
VALIDATION_SHARE = 0.2
#: most decisions a self-play game may last before it is dropped
MAX_DECISIONS = 600
#: the data file beside the evaluation weights
CALIBRATION_FILE = "calibration.json"
#: a value this close to ±1 is read as its clipped logit (a proven result is exactly ±1)
_CLIP = 0.999


@dataclass(frozen=True)
class Samples:
    """Labelled positions from self-play: values for the player to move, the player's final
    score (1, ½, 0), and which game each came from."""

    values: tuple[float, ...]
    scores: tuple[float, ...]
    games: tuple[int, ...]
    played: int
    finished: int
    seconds: float


def logit_of(value: float) -> float:
    """The model's logit of a search value: ``2·atanh(v)``, clipped short of ±∞."""
    v = max(-_CLIP, min(_CLIP, value))
    return 2.0 * math.atanh(v)


def probability(value: float, slope: float) -> float:
    """The expected score of a search value under slope ``slope``."""
    if value >= 1.0:
        return 1.0
    if value <= -1.0:
        return 0.0
    z = slope * logit_of(value)
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


@functools.cache
def calibration_record() -> dict[str, Any]:
    """The committed calibration file: game name -> its fit."""
    ref = resources.files("diceboard.ai.weights").joinpath(CALIBRATION_FILE)
    try:
        record: dict[str, Any] = json.loads(ref.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return record


def slope_for(game_name: str) -> float:
    """The committed slope for ``game_name`` (1.0, the evaluation's own scale, if none)."""
    entry = calibration_record().get(game_name)
    return float(entry["slope"]) if entry else 1.0


def win_probability(game_name: str, value: float) -> float:
    """The calibrated win probability (expected score) of a search value for the player to
    move in ``game_name``."""
    return probability(value, slope_for(game_name))


def roll_chance(state: State, rng: random.Random) -> State:
    """The state after a chance outcome of ``state`` drawn by ``rng`` with its probability."""
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    return state.play(rng.choices(moves, [p for _, p in outcomes])[0])


def self_play(
    game: Game,
    games: int,
    seed: int,
    agent_spec: str = LABEL_AGENT,
    log: Callable[[int, int], None] | None = None,
) -> Samples:
    """Play ``games`` games of ``game`` by ``agent_spec`` against itself (``EPSILON`` of its
    moves random), labelling every decision with the searched value and the final score."""
    from diceboard.ai import agent

    values: list[float] = []
    scores: list[float] = []
    owners: list[int] = []
    finished = 0
    began = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        player = agent(agent_spec, seed=rng.randrange(2**31))
        state = game.start(seed=rng.randrange(2**31))
        seen: list[tuple[float, str]] = []
        decisions = 0
        while state.outcome() is None and decisions < MAX_DECISIONS:
            if state.is_chance():
                state = roll_chance(state, rng)
                continue
            analysis = player.analyse(state)
            seen.append((analysis.value, state.to_move))
            decisions += 1
            move = analysis.best
            if rng.random() < EPSILON:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
        outcome = state.outcome()
        if outcome is not None:
            finished += 1
            for value, mover in seen:
                values.append(value)
                scores.append(score_of(outcome.winner, mover))
                owners.append(g)
        if log is not None:
            log(g + 1, games)
    return Samples(
        tuple(values), tuple(scores), tuple(owners), games, finished, time.perf_counter() - began
    )


def score_of(winner: str | None, player: str) -> float:
    """The final score of ``player``: 1 won, 0 lost, ½ a draw (``winner`` None)."""
    if winner is None:
        return 0.5
    return 1.0 if winner == player else 0.0


def fit_slope(values: Sequence[float], scores: Sequence[float]) -> float:
    """The slope ``a`` that maximises the likelihood of ``scores`` under ``σ(a·logit(v))``
    (Newton's method; proven results carry no information about the slope and are left
    out)."""
    pairs = [(logit_of(v), s) for v, s in zip(values, scores, strict=True) if abs(v) < 1.0]
    if not pairs:
        return 1.0
    a = 1.0
    for _ in range(50):
        grad = hess = 0.0
        for x, s in pairs:
            p = 1.0 / (1.0 + math.exp(-a * x))
            grad += (s - p) * x
            hess += p * (1.0 - p) * x * x
        if hess <= 0.0:
            break
        step = grad / hess
        a += step
        if abs(step) < 1e-9:
            break
    return a


@dataclass(frozen=True)
class Reliability:
    """A calibration's figures on some positions: Brier score and the table by decile."""

    brier: float
    positions: int
    #: one row per decile of the predicted probability: (low, high, n, mean predicted,
    #: mean observed score); empty deciles are left out
    rows: tuple[tuple[float, float, int, float, float], ...]


def reliability(predicted: Sequence[float], scores: Sequence[float]) -> Reliability:
    """Brier score (mean squared error of the predicted expected score) and the reliability
    table in deciles of the prediction."""
    n = len(predicted)
    brier = sum((p - s) ** 2 for p, s in zip(predicted, scores, strict=True)) / max(1, n)
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for p, s in zip(predicted, scores, strict=True):
        bins[min(9, int(p * 10))].append((p, s))
    rows = tuple(
        (
            k / 10,
            (k + 1) / 10,
            len(b),
            sum(p for p, _ in b) / len(b),
            sum(s for _, s in b) / len(b),
        )
        for k, b in enumerate(bins)
        if b
    )
    return Reliability(brier, n, rows)


def fit_calibration(
    game: Game,
    games: int,
    seed: int,
    log: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play, fit on the first games and score on the held-out rest: the calibration entry
    of ``game`` (what ``calibration.json`` holds under the game's name)."""
    samples = self_play(game, games, seed, log=log)
    cut = int(games * (1.0 - VALIDATION_SHARE))
    train = [i for i, g in enumerate(samples.games) if g < cut]
    held = [i for i, g in enumerate(samples.games) if g >= cut]
    slope = fit_slope([samples.values[i] for i in train], [samples.scores[i] for i in train])
    held_values = [samples.values[i] for i in held]
    held_scores = [samples.scores[i] for i in held]
    fitted = reliability([probability(v, slope) for v in held_values], held_scores)
    raw = reliability([(1.0 + v) / 2.0 for v in held_values], held_scores)
    return {
        "slope": round(slope, 6),
        "agent": LABEL_AGENT,
        "games": games,
        "finished": samples.finished,
        "positions": len(samples.values),
        "seconds": round(samples.seconds, 1),
        "held_out": {
            "positions": fitted.positions,
            "brier": round(fitted.brier, 4),
            "brier_uncalibrated": round(raw.brier, 4),
        },
    }


def check_calibration(
    game: Game, games: int, seed: int, log: Callable[[int, int], None] | None = None
) -> tuple[Reliability, Reliability, Samples]:
    """The committed calibration (and, for comparison, the raw ``(1 + v) / 2``) scored on
    ``games`` fresh self-play games."""
    samples = self_play(game, games, seed, log=log)
    slope = slope_for(game.name)
    fitted = reliability([probability(v, slope) for v in samples.values], samples.scores)
    raw = reliability([(1.0 + v) / 2.0 for v in samples.values], samples.scores)
    return fitted, raw, samples


def reliability_table(title: str, rel: Reliability) -> str:
    """``rel`` as a markdown table, headed by ``title`` and its Brier score."""
    lines = [
        f"{title}: Brier score {rel.brier:.4f} on {rel.positions} positions",
        "",
        "| predicted | positions | mean predicted | observed score |",
        "| --- | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {lo:.1f}–{hi:.1f} | {n} | {mean:.3f} | {obs:.3f} |" for lo, hi, n, mean, obs in rel.rows
    ]
    return "\n".join(lines)
