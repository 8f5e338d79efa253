"""Training the network evaluation (``diceboard train-eval GAME``): generate → train →
generate, with PyTorch (the optional extra ``diceboard[train]``; nothing that plays imports
this module).

Round 1 plays self-play games with the fitted linear evaluation
(:func:`diceboard.ai.netdata.self_play`); each round trains the network on the positions of
the last two rounds and the next round plays with it. The network starts as the linear
model (its skip weights are the linear weights, its output layer zero), so training only
adds what the linear model misses. The last 20 % of each round's games are kept out of the
training and score it (mean cross-entropy against the targets, next to the linear model's).

Everything is seeded and runs on one CPU thread by default (``torch.set_num_threads(1)``,
deterministic algorithms): the same command gives the same weights on the same machine and
library versions.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from diceboard.ai import netdata
from diceboard.ai.bindings import binding
from diceboard.ai.engine.evaluation import NET_HIDDEN, NET_HIDDEN2
from diceboard.ai.weights import weights_for
from diceboard.core.game import Game

#: share of each round's games (the last ones) kept out of training to score it
VALIDATION_SHARE = 0.2
#: rounds of data the network trains on (the newest ones)
WINDOW = 2
#: of every this many training games one is kept out to choose the epoch (early stopping)
STOP_EVERY = 10


@dataclass(frozen=True)
class Settings:
    """What a training run does (the command's options)."""

    rounds: int = 3
    games: int = 200
    depth: int = 2
    epsilon: float = 0.1
    epochs: int = 8
    batch: int = 256
    learning_rate: float = 2e-3
    weight_decay: float = 1e-5
    result_share: float = 0.5
    device: str = "cpu"
    threads: int = 1


class Net(nn.Module):  # type: ignore[misc]
    """The evaluation network of :mod:`diceboard.ai.engine.evaluation`, on standardised
    features (folded back into the weights on export)."""

    def __init__(self, num_inputs: int, num_features: int) -> None:
        super().__init__()
        self.inputs = nn.EmbeddingBag(
            num_inputs + 1, NET_HIDDEN, mode="sum", padding_idx=num_inputs
        )
        self.dense = nn.Linear(num_features, NET_HIDDEN)
        self.second = nn.Linear(NET_HIDDEN, NET_HIDDEN2)
        self.out = nn.Linear(NET_HIDDEN2, 1)
        self.skip = nn.Linear(num_features, 1, bias=False)
        nn.init.normal_(self.inputs.weight, std=0.05)
        with torch.no_grad():
            self.inputs.weight[num_inputs].zero_()
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, active: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        hidden = torch.clamp(self.inputs(active) + self.dense(x), 0.0, 1.0)
        second = torch.clamp(self.second(hidden), 0.0, 1.0)
        logit: torch.Tensor = (self.out(second) + self.skip(x)).squeeze(-1)
        return logit


@dataclass(frozen=True)
class Scale:
    """Feature standardisation: ``(x - mean) / std`` (a constant column is left as it is)."""

    mean: np.ndarray
    std: np.ndarray

    @staticmethod
    def of(features: np.ndarray) -> Scale:
        mean = features.mean(axis=0)
        std = features.std(axis=0)
        constant = std < 1e-9
        mean[constant] = 0.0
        std[constant] = 1.0
        return Scale(mean, std)

    def apply(self, features: np.ndarray) -> np.ndarray:
        scaled: np.ndarray = (features - self.mean) / self.std
        return scaled


def new_net(game: Game, linear: np.ndarray, scale: Scale) -> Net:
    """A network that computes the linear model ``linear`` exactly (on scaled features)."""
    module = binding(game.name)
    net = Net(int(module.NET_INPUTS), int(module.NUM_FEATURES))
    with torch.no_grad():
        # w·x = (w·std)·x_s + w·mean; the constant goes to the output bias
        net.skip.weight.copy_(torch.tensor(linear * scale.std, dtype=torch.float32)[None, :])
        net.out.bias.fill_(float(linear @ scale.mean))
    return net


def export(game: Game, net: Net, scale: Scale) -> np.ndarray:
    """The network as the search's flat parameter vector (features unscaled)."""
    at = netdata.layout(game)
    vector = np.zeros(at["b3"].stop, dtype=np.float64)
    ni = int(binding(game.name).NET_INPUTS)

    def arr(t: torch.Tensor) -> np.ndarray:
        out: np.ndarray = t.detach().cpu().double().numpy()
        return out

    dense = arr(net.dense.weight) / scale.std  # (H, F)
    skip = arr(net.skip.weight)[0] / scale.std
    vector[at["skip"]] = skip
    vector[at["w1_inputs"]] = arr(net.inputs.weight)[:ni].reshape(-1)
    vector[at["w1_features"]] = dense.T.reshape(-1)
    vector[at["b1"]] = arr(net.dense.bias) - dense @ scale.mean
    vector[at["w2"]] = arr(net.second.weight).T.reshape(-1)
    vector[at["b2"]] = arr(net.second.bias)
    vector[at["w3"]] = arr(net.out.weight)[0]
    vector[at["b3"]] = arr(net.out.bias)[0] - skip @ scale.mean
    return vector


def cross_entropy(logits: np.ndarray, target: np.ndarray) -> float:
    """Mean cross-entropy of ``σ(logits)`` against soft targets in [0, 1]."""
    return float(np.mean(np.logaddexp(0.0, logits) - target * logits))


def _split(positions: netdata.Positions) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the training and validation positions (by game)."""
    held = max(1, round(positions.games * VALIDATION_SHARE)) if positions.games > 1 else 0
    cut = positions.games - held
    train = np.flatnonzero(positions.game_index < cut)
    return train, np.flatnonzero(positions.game_index >= cut)


def fit(
    net: Net,
    encoded: netdata.Encoded,
    target: np.ndarray,
    scale: Scale,
    settings: Settings,
    seed: int,
    held: np.ndarray,
) -> int:
    """Train ``net`` on encoded positions (Adam on the cross-entropy, shuffled minibatches)
    with early stopping: the positions where ``held`` is true are kept out, and the weights
    after the epoch that scored best on them are kept (epoch 0: the network as it started,
    the linear model, which a small data set would otherwise be overfitted away from).
    Returns that epoch."""
    generator = torch.Generator().manual_seed(seed)
    device = torch.device(settings.device)
    net.to(device)
    active_all = torch.tensor(encoded.active, device=device)
    x_all = torch.tensor(scale.apply(encoded.features), dtype=torch.float32, device=device)
    y_all = torch.tensor(target, dtype=torch.float32, device=device)
    keep = torch.tensor(np.flatnonzero(~held), device=device)
    check = torch.tensor(np.flatnonzero(held), device=device)
    active, x, y = active_all[keep], x_all[keep], y_all[keep]
    optimiser = torch.optim.Adam(
        net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
    )
    loss_fn = nn.BCEWithLogitsLoss()

    def held_loss() -> float:
        if len(check) == 0:  # too few games to keep any out: train every epoch
            return -float(epoch_now[0])
        with torch.no_grad():
            return float(loss_fn(net(active_all[check], x_all[check]), y_all[check]))

    epoch_now = [0]
    best_loss, best_epoch = held_loss(), 0
    best_state = copy.deepcopy(net.state_dict())
    n = len(y)
    for epoch in range(1, settings.epochs + 1):
        epoch_now[0] = epoch
        order = torch.randperm(n, generator=generator).to(device)
        for start in range(0, n, settings.batch):
            batch = order[start : start + settings.batch]
            optimiser.zero_grad()
            loss = loss_fn(net(active[batch], x[batch]), y[batch])
            loss.backward()
            optimiser.step()
        score = held_loss()
        if score < best_loss:
            best_loss, best_epoch = score, epoch
            best_state = copy.deepcopy(net.state_dict())
    net.load_state_dict(best_state)
    net.to(torch.device("cpu"))
    return best_epoch


def train_evaluation(
    game: Game,
    seed: int,
    settings: Settings,
    log: Callable[[dict[str, Any]], None] | None = None,
    command: str | None = None,
) -> dict[str, Any]:
    """Run the whole training; return the network record (see :mod:`diceboard.ai.weights`)."""
    torch.manual_seed(seed)
    torch.set_num_threads(settings.threads)
    torch.use_deterministic_algorithms(True)
    linear = weights_for(game.name, "linear")
    vector = linear
    history: list[netdata.Positions] = []
    rounds_info: list[dict[str, Any]] = []
    net: Net | None = None
    began = time.perf_counter()
    for r in range(settings.rounds):
        positions = netdata.self_play(
            game, vector, settings.games, seed * 1000 + r, settings.depth, settings.epsilon
        )
        if len(positions) < 50:
            raise ValueError(
                f"self-play gave only {len(positions)} positions from {positions.finished} "
                "finished games: play more games (--games)"
            )
        history.append(positions)
        window = history[-WINDOW:]
        parts = [
            (p, netdata.encode(game, p.states), netdata.targets(p, settings.result_share))
            for p in window
        ]
        train_rows, val_rows = [], []
        for i, (p, _enc, _t) in enumerate(parts):
            tr, va = _split(p)
            train_rows.append(tr)
            if i == len(parts) - 1:
                val_rows.append(va)
        features = np.vstack(
            [e.features[tr] for (_p, e, _t), tr in zip(parts, train_rows, strict=True)]
        )
        active = np.vstack(
            [e.active[tr] for (_p, e, _t), tr in zip(parts, train_rows, strict=True)]
        )
        target = np.concatenate([t[tr] for (_p, _e, t), tr in zip(parts, train_rows, strict=True)])
        # every tenth game's positions choose the epoch (positions of one game are alike)
        stop_rows = np.concatenate(
            [
                p.game_index[tr] % STOP_EVERY == STOP_EVERY - 1
                for (p, _e, _t), tr in zip(parts, train_rows, strict=True)
            ]
        )
        scale = Scale.of(features)
        # each round starts again from the linear model: the data moves on, the start stays
        net = new_net(game, linear, scale)
        trained_at = time.perf_counter()
        epoch = fit(
            net,
            netdata.Encoded(features, active),
            target,
            scale,
            settings,
            seed * 1000 + r,
            stop_rows,
        )
        train_seconds = time.perf_counter() - trained_at
        vector = export(game, net, scale)
        last, enc, tgt = parts[-1]
        va = val_rows[-1]
        held = netdata.Encoded(enc.features[va], enc.active[va])
        scores = None
        if len(va):
            scores = {
                "net": round(
                    cross_entropy(netdata.reference_logit(game, vector, held), tgt[va]), 4
                ),
                "linear": round(cross_entropy(held.features @ linear, tgt[va]), 4),
                "floor": round(cross_entropy(_logit(tgt[va]), tgt[va]), 4),
            }
        info: dict[str, Any] = {
            "round": r + 1,
            "games": last.games,
            "finished": last.finished,
            "positions": len(last),
            "trained_on": len(target),
            "best_epoch": epoch,
            "validation_cross_entropy": scores,
        }
        rounds_info.append(info)
        if log is not None:
            log(
                {
                    **info,
                    "self_play_seconds": round(last.seconds, 1),
                    "train_seconds": round(train_seconds, 1),
                }
            )
    assert net is not None
    total = time.perf_counter() - began
    if log is not None:
        log({"total_seconds": round(total, 1)})
    return {
        "game": game.name,
        "command": command or f"diceboard train-eval {game.name} --seed {seed}",
        "model": (
            "logit z = skip·x + w3·crelu(W2·crelu(W1·[inputs, x] + b1) + b2) + b3; "
            "value = 0.95·tanh(z / 2); see diceboard.ai.engine.evaluation"
        ),
        "features": list(binding(game.name).FEATURE_NAMES),
        "inputs": int(binding(game.name).NET_INPUTS),
        "hidden": [NET_HIDDEN, NET_HIDDEN2],
        "settings": {k: v for k, v in vars(settings).items() if k not in ("device", "threads")},
        "rounds": rounds_info,
        "weights": [float(f"{v:.6g}") for v in vector],
    }


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, 1e-6, 1.0 - 1e-6)
    out: np.ndarray = np.log(q / (1.0 - q))
    return out


def record_text(record: dict[str, Any]) -> str:
    """A network record as the JSON text of the weights files (weights on one line)."""
    head = {k: v for k, v in record.items() if k != "weights"}
    text = json.dumps(head, indent=2, ensure_ascii=False)
    weights = json.dumps(record["weights"], separators=(",", ":"))
    return text[:-2] + ',\n  "weights": ' + weights + "\n}\n"
