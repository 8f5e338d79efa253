"""The fitted evaluation weights, one JSON file per game, written by ``diceboard fit-eval``.

Each file records the command that made it, the feature names, the ``full`` weights and the
``material`` weights (a model with the material feature alone), and the fit's figures.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import numpy as np

from diceboard.core.errors import OptionError

#: the evaluations an agent can use (``eval=`` in a spec)
EVALUATIONS = ("fitted", "material")


def weights_path(game_name: str) -> str:
    """File name of a game's weights inside this package."""
    return f"{game_name}.json"


@functools.cache
def weights_record(game_name: str) -> dict[str, Any]:
    """The whole weights file of ``game_name``."""
    ref = resources.files(__package__).joinpath(weights_path(game_name))
    try:
        text = ref.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OptionError(
            f"no fitted evaluation for {game_name}: run 'diceboard fit-eval {game_name}'"
        ) from None
    record: dict[str, Any] = json.loads(text)
    return record


def weights_for(game_name: str, evaluation: str = "fitted") -> np.ndarray:
    """The weight vector of ``evaluation`` (``fitted`` or ``material``) for ``game_name``."""
    if evaluation not in EVALUATIONS:
        raise OptionError(f"unknown evaluation {evaluation!r}; evaluations: fitted, material")
    record = weights_record(game_name)
    key = "full" if evaluation == "fitted" else "material"
    return np.asarray(record[key], dtype=np.float64)
