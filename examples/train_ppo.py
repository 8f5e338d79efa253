"""Masked PPO (sb3-contrib's MaskablePPO) on a diceboard game through its Gymnasium environment.

    pip install -e ".[train-rl]"          # diceboard[rl] + sb3-contrib + torch 2.13.0 (CPU)
    python examples/train_ppo.py --game custodian --seconds 300
    python examples/train_ppo.py --game chase --seconds 300

The learner plays a random seat against the random player (rolls and the opponent's moves
happen inside the environment's ``step``); every action it samples is legal, because the
policy's logits are masked with ``env.action_masks()``. The features extractor is a small CNN
over the observation planes (the flat observation reshaped channels first,
``env.observation_shape``), padded circularly along every axis that wraps (Chase's columns:
``encoding_for(game).wraps``) and with zeros along the others. After the time budget the
policy, playing its most likely legal action, meets ``random`` and ``level:1`` on fresh games
from both seats, and the script prints its score against each (wins, draws, losses).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn
from torch.nn import functional as F

import diceboard
from diceboard.encoding import encoding_for
from diceboard.envs.gymnasium import env_class


class BoardCNN(BaseFeaturesExtractor):  # type: ignore[misc]
    """Two 3×3 convolutions over the planes, then a linear layer; wrapping axes are padded
    circularly so that a filter sees across the seam."""

    def __init__(
        self,
        observation_space: spaces.Dict,
        shape: tuple[int, int, int],
        wraps: tuple[bool, bool],
        channels: int = 32,
        features_dim: int = 256,
    ) -> None:
        super().__init__(observation_space, features_dim)
        self.shape = shape
        self.wraps = wraps
        planes, rows, cols = shape
        self.conv1 = nn.Conv2d(planes, channels, 3)
        self.conv2 = nn.Conv2d(channels, channels, 3)
        self.head = nn.Sequential(nn.Linear(channels * rows * cols, features_dim), nn.ReLU())

    def _pad(self, x: torch.Tensor) -> torch.Tensor:
        # F.pad takes the last axis first: (left, right, top, bottom)
        rows_wrap, cols_wrap = self.wraps
        x = F.pad(x, (1, 1, 0, 0), mode="circular" if cols_wrap else "constant")
        return F.pad(x, (0, 0, 1, 1), mode="circular" if rows_wrap else "constant")

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        x = observations["observation"].reshape(-1, *self.shape)
        x = F.relu(self.conv1(self._pad(x)))
        x = F.relu(self.conv2(self._pad(x)))
        return self.head(x.flatten(1))  # type: ignore[no-any-return]


class TimeBudget(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of wall-clock time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def make_model(game: str, n_envs: int, seed: int, options: dict[str, Any]) -> MaskablePPO:
    """MaskablePPO with the board CNN on ``n_envs`` copies of the game's Gymnasium env."""
    cls = env_class(game)
    env = DummyVecEnv(
        [lambda: cls(opponent="random", seat="random", **options) for _ in range(n_envs)]
    )
    env.seed(seed)
    enc = encoding_for(game)
    return MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=128,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={
            "features_extractor_class": BoardCNN,
            "features_extractor_kwargs": {"shape": enc.shape, "wraps": enc.wraps},
            "net_arch": {"pi": [256], "vf": [256]},
        },
        seed=seed,
        verbose=0,
        device="cpu",
    )


def evaluate(
    model: MaskablePPO, game: str, opponent: str, games: int, seed: int, options: dict[str, Any]
) -> tuple[int, int, int]:
    """(wins, draws, losses) of the policy's most likely legal action against ``opponent``,
    half the games from each seat."""
    cls = env_class(game)
    wins = draws = losses = 0
    players = diceboard.game(game).players
    for i in range(games):
        env = cls(opponent=opponent, seat=players[i % 2], **options)
        obs, _ = env.reset(seed=seed + i)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, terminated, truncated, _ = env.step(int(action))
            reward, done = float(r), terminated or truncated
        if reward > 0:
            wins += 1
        elif reward < 0:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="custodian", choices=diceboard.games.names())
    parser.add_argument("--seconds", type=float, default=300.0, help="training budget")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent")
    parser.add_argument("--opponents", nargs="+", default=["random", "level:1"])
    parser.add_argument("--no-capture-limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    options = {} if args.no_capture_limit is None else {"no_capture_limit": args.no_capture_limit}

    model = make_model(args.game, args.envs, args.seed, options)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=TimeBudget(args.seconds))
    trained = time.monotonic() - start
    print(
        f"{diceboard.games.info(args.game).title}: trained {trained:.0f} s, "
        f"{model.num_timesteps} learner steps"
    )
    for opponent in args.opponents:
        w, d, l_ = evaluate(model, args.game, opponent, args.eval_games, 10_000, options)
        n = w + d + l_
        score = (w + d / 2) / n
        print(
            f"vs {opponent}: {w} wins, {d} draws, {l_} losses "
            f"of {n} = {100 * score:.1f} % score ({100 * w / n:.1f} % wins)"
        )


if __name__ == "__main__":
    main()
