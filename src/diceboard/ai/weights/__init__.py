"""The evaluations' parameters, JSON files per game: ``<game>.json`` (the linear model,
written by ``diceboard fit-eval``) and ``<game>-net.json`` (the network, written by
``diceboard train-eval``).

``<game>.json`` records the command that made it, the feature names, the ``full`` weights
and the ``material`` weights (a model with the material feature alone), and the fit's
figures. ``<game>-net.json`` records its command, the layer sizes, the flat parameter vector
(layout in :mod:`diceboard.ai.engine.evaluation`) and each training round's figures.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import numpy as np

from diceboard.ai.bindings import binding
from diceboard.ai.engine.evaluation import net_length
from diceboard.core.errors import OptionError

#: the evaluations an agent can use (``eval=`` in a spec); ``fitted`` is the older name of
#: ``linear``
EVALUATIONS = ("linear", "net", "material", "endgame", "fitted")
#: the endgame term's scale in ``eval=endgame`` (the binding's term is in logit units already)
ENDGAME_SCALE = 1.0
#: the evaluation of an agent whose spec names none
DEFAULT_EVALUATION = "linear"


def weights_path(game_name: str, evaluation: str = "linear") -> str:
    """File name of a game's weights inside this package."""
    return f"{game_name}-net.json" if evaluation == "net" else f"{game_name}.json"


def _read(name: str) -> dict[str, Any] | None:
    ref = resources.files(__package__).joinpath(name)
    try:
        text = ref.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    record: dict[str, Any] = json.loads(text)
    return record


@functools.cache
def weights_record(game_name: str) -> dict[str, Any]:
    """The whole linear weights file of ``game_name``."""
    record = _read(weights_path(game_name))
    if record is None:
        raise OptionError(
            f"no fitted evaluation for {game_name}: run 'diceboard fit-eval {game_name}'"
        )
    return record


@functools.cache
def net_record(game_name: str) -> dict[str, Any]:
    """The whole network file of ``game_name``."""
    record = _read(weights_path(game_name, "net"))
    if record is None:
        raise OptionError(
            f"no trained network for {game_name}: run 'diceboard train-eval {game_name}'"
        )
    return record


def net_size(game_name: str) -> int:
    """How many parameters the network of ``game_name`` has (its binding's features and
    inputs, the layer sizes of :mod:`diceboard.ai.engine.evaluation`)."""
    module = binding(game_name)
    return net_length(int(module.NUM_FEATURES), int(module.NET_INPUTS))


def weights_for(game_name: str, evaluation: str = DEFAULT_EVALUATION) -> np.ndarray:
    """The parameter vector of ``evaluation`` (``linear``, ``net``, ``material`` or
    ``endgame``: the linear weights and the endgame term's scale) for ``game_name``,
    without the draw's value that the search appends."""
    if evaluation not in EVALUATIONS:
        raise OptionError(
            f"unknown evaluation {evaluation!r}; evaluations: {', '.join(EVALUATIONS[:4])}"
        )
    if evaluation == "net":
        vector = np.asarray(net_record(game_name)["weights"], dtype=np.float64)
        if vector.shape != (net_size(game_name),):
            raise OptionError(
                f"the network file of {game_name} holds {vector.size} parameters, the network "
                f"has {net_size(game_name)}: train it again with 'diceboard train-eval'"
            )
        return vector
    record = weights_record(game_name)
    key = "material" if evaluation == "material" else "full"
    vector = np.asarray(record[key], dtype=np.float64)
    if evaluation == "endgame":
        vector = np.append(vector, ENDGAME_SCALE)
    return vector
