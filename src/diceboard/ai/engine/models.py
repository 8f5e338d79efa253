"""Which evaluation model a search is compiled for: the linear model alone, or every model.

:func:`~diceboard.ai.engine.evaluation.static_value` picks its model by the length of the
evaluation vector at run time, so a search compiled once serves every model, and compiles the
network (and the binding's endgame term) in even where only the linear model plays, as the
computer's levels do. Measured on a cold cache, the network's code was a tenth of the
search's compile time. :func:`model_of` says which model a vector is;
:func:`linear_substitutes` makes the search's linear variant, in which the network is
replaced by a function that returns NaN (never reached: the engine sends a vector only to the
variant of its model, see :mod:`diceboard.ai.engine`). The binding's endgame term stays in
(it is small, and replacing it would need a copy of the binding).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from diceboard.kernel import njit

__all__ = ["FULL", "LINEAR", "linear_substitutes", "model_of"]

#: the variant compiled for the linear model (``eval=linear``, ``eval=material``)
LINEAR = "linear"
#: the variant compiled for every model (the network, the endgame term)
FULL = "full"


def model_of(num_features: int, weights: np.ndarray) -> str:
    """The variant that evaluates with ``weights``: the linear model's vector is one entry
    longer than the features (the draw's value; see :mod:`.evaluation`)."""
    return LINEAR if weights.shape[0] == num_features + 1 else FULL


@njit
def no_net_logit(
    state: np.ndarray, opts: np.ndarray, weights: np.ndarray, fbuf: np.ndarray
) -> float:
    """Stands in for the network in the linear variant (NaN: it is never called there)."""
    return math.nan


def linear_substitutes() -> dict[str, Any]:
    """The templates the linear variant replaces."""
    return {"net_logit": no_net_logit}
