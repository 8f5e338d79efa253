"""Training data for the network evaluation: self-play positions labelled by search values
and final results, and their encoding as the network's inputs (no PyTorch here: playing and
generating data never need it; :mod:`diceboard.ai.training` trains on what this module makes).

Each decision of a self-play game between two copies of ``alphabeta:depth=D`` (with the
evaluation being trained, and a share of uniformly random moves so that the games cover
varied positions) is kept with the search's value of the position for the player to move.
When the game is over each position also gets its result for that player (1 won, ½ drawn, 0
lost). The network's target is a mix of the two (see :func:`targets`).

:func:`reference_logit` computes the network's logit in plain NumPy, the same function as the
compiled :func:`~diceboard.ai.engine.evaluation.net_logit` (tests hold them equal).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from diceboard.ai.alphabeta_agent import AlphaBetaAgent
from diceboard.ai.bindings import binding
from diceboard.ai.engine.evaluation import NET_HIDDEN, NET_HIDDEN2
from diceboard.ai.roots import root_of
from diceboard.core.game import Game, State

#: longest self-play game (moves); a longer one is dropped
MAX_MOVES = 1500


@dataclass(frozen=True)
class Positions:
    """Self-play decision positions: kernel state rows, the search value for the player to
    move, the result for that player (1, 0.5, 0) and the game each came from."""

    states: np.ndarray
    values: np.ndarray
    results: np.ndarray
    game_index: np.ndarray
    games: int
    finished: int
    seconds: float

    def __len__(self) -> int:
        return int(self.values.shape[0])


def _chance(state: State, rng: random.Random) -> State:
    outcomes = state.chance_outcomes()
    x = rng.random()
    for move, p in outcomes:
        x -= p
        if x < 0.0:
            return state.play(move)
    return state.play(outcomes[-1][0])


def self_play(
    game: Game,
    vector: np.ndarray,
    games: int,
    seed: int,
    depth: int = 2,
    epsilon: float = 0.1,
) -> Positions:
    """Play ``games`` games of ``game`` between copies of ``alphabeta:depth=depth`` that
    evaluate with ``vector`` (a linear or network parameter vector), choosing a uniformly
    random move instead with probability ``epsilon``; seeded by ``seed``."""
    agent = AlphaBetaAgent(depth=depth, seed=seed, contempt=0.0)
    agent.use_weights(game.name, vector)
    rng = random.Random(seed)
    rows: list[np.ndarray] = []
    values: list[float] = []
    results: list[float] = []
    index: list[int] = []
    finished = 0
    began = time.perf_counter()
    for g in range(games):
        agent.reset()
        state = game.initial_state()
        mine: list[tuple[np.ndarray, float, int]] = []
        moves = 0
        while not state.is_terminal() and moves < MAX_MOVES:
            if state.is_chance():
                state = _chance(state, rng)
                continue
            root = root_of(state)
            if len(root.moves) == 1:
                state = state.play(root.moves[0])
                continue
            found = agent.search(root)
            mine.append((root.arr, found.value, game.players.index(state.to_move)))
            if rng.random() < epsilon:
                move = root.moves[rng.randrange(len(root.moves))]
            else:
                move = found.best
            state = state.play(move)
            moves += 1
        outcome = state.outcome()
        if outcome is None:
            continue
        finished += 1
        winner = None if outcome.winner is None else game.players.index(outcome.winner)
        for arr, value, mover in mine:
            rows.append(arr)
            values.append(value)
            results.append(0.5 if winner is None else float(winner == mover))
            index.append(g)
    width = int(binding(game.name).STATE_LEN)
    return Positions(
        np.array(rows, dtype=np.int64).reshape(len(rows), width),
        np.array(values, dtype=np.float64),
        np.array(results, dtype=np.float64),
        np.array(index, dtype=np.int64),
        games,
        finished,
        time.perf_counter() - began,
    )


@dataclass(frozen=True)
class Encoded:
    """Positions as the network sees them: the features (one row each) and the indices of
    the active sparse inputs, padded with ``NET_INPUTS`` (an input that is never active)."""

    features: np.ndarray
    active: np.ndarray


def encode(game: Game, states: np.ndarray) -> Encoded:
    """The features and active inputs of kernel state rows of ``game``."""
    module = binding(game.name)
    nf, ni, most = int(module.NUM_FEATURES), int(module.NET_INPUTS), int(module.NET_MAX_ACTIVE)
    features = np.zeros((len(states), nf), dtype=np.float64)
    active = np.full((len(states), most), ni, dtype=np.int64)
    fbuf = np.zeros(nf, dtype=np.float64)
    ibuf = np.zeros(most, dtype=np.float64)
    opts = game.opts
    for i, row in enumerate(states):
        module.features(row, opts, fbuf)
        features[i] = fbuf
        n = module.net_inputs(row, opts, ibuf, 0)
        active[i, :n] = ibuf[:n]
    return Encoded(features, active)


def targets(positions: Positions, result_share: float) -> np.ndarray:
    """The training target, an expected score in [0, 1] for the player to move:
    ``result_share`` of the game's result plus the rest of the search value mapped from
    [-1, 1] to [0, 1] (the search value alone is what TD-leaf learns from; the result alone
    is a noisy label of weak games; the mix is the usual compromise)."""
    searched = 0.5 * (1.0 + np.clip(positions.values, -1.0, 1.0))
    mixed: np.ndarray = result_share * positions.results + (1.0 - result_share) * searched
    return mixed


def layout(game: Game) -> dict[str, slice]:
    """Where each part of a game's network lies in its parameter vector."""
    module = binding(game.name)
    nf, ni = int(module.NUM_FEATURES), int(module.NET_INPUTS)
    h, h2 = NET_HIDDEN, NET_HIDDEN2
    parts = (
        ("skip", nf),
        ("w1_inputs", ni * h),
        ("w1_features", nf * h),
        ("b1", h),
        ("w2", h * h2),
        ("b2", h2),
        ("w3", h2),
        ("b3", 1),
    )
    out: dict[str, slice] = {}
    at = 0
    for name, size in parts:
        out[name] = slice(at, at + size)
        at += size
    return out


def reference_logit(game: Game, vector: np.ndarray, encoded: Encoded) -> np.ndarray:
    """The network's logits for encoded positions, in NumPy (what the compiled search
    computes, for tests and for checking an exported network)."""
    module = binding(game.name)
    nf, ni = int(module.NUM_FEATURES), int(module.NET_INPUTS)
    h, h2 = NET_HIDDEN, NET_HIDDEN2
    at = layout(game)
    w1 = np.vstack([vector[at["w1_inputs"]].reshape(ni, h), np.zeros((1, h))])
    hidden = w1[encoded.active].sum(axis=1)
    hidden += encoded.features @ vector[at["w1_features"]].reshape(nf, h) + vector[at["b1"]]
    hidden = np.clip(hidden, 0.0, 1.0)
    second = np.clip(hidden @ vector[at["w2"]].reshape(h, h2) + vector[at["b2"]], 0.0, 1.0)
    logit: np.ndarray = (
        second @ vector[at["w3"]] + vector[at["b3"]][0] + encoded.features @ vector[at["skip"]]
    )
    return logit
