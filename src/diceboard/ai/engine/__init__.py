"""The compiled search engine, one instance per game.

:func:`engine_for` specialises the search templates (evaluation, alpha-beta, MCTS,
self-play) for a game's binding and returns the compiled entry points. Everything here works
on kernel arrays and action ids; the agents in :mod:`diceboard.ai` turn states and moves into
arrays and back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from diceboard.ai.bindings import binding
from diceboard.ai.engine import alphabeta, evaluation, mcts, selfplay
from diceboard.ai.engine.specialise import specialise

#: the modules whose :func:`~diceboard.ai.engine.specialise.template` functions make an engine
TEMPLATE_MODULES = (evaluation, alphabeta, mcts, selfplay)


@dataclass(frozen=True)
class Engine:
    """The compiled search functions of one game (see the template modules for each)."""

    game_name: str
    binding: ModuleType
    static_value: Callable[..., Any]
    leaf_value: Callable[..., Any]
    move_values: Callable[..., Any]
    alphabeta: Callable[..., Any]
    principal_variation: Callable[..., Any]
    mcts_run: Callable[..., Any]
    selfplay_samples: Callable[..., Any]

    @property
    def num_features(self) -> int:
        """Length of the game's feature vector."""
        return int(self.binding.NUM_FEATURES)

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The game's feature names, in order."""
        return tuple(self.binding.FEATURE_NAMES)


@functools.cache
def engine_for(game_name: str) -> Engine:
    """The engine of ``game_name`` (a registered game), made once per process."""
    module = binding(game_name)
    compiled = specialise(game_name, module, TEMPLATE_MODULES)
    return Engine(
        game_name=game_name,
        binding=module,
        static_value=compiled["static_value"],
        leaf_value=compiled["leaf_value"],
        move_values=compiled["move_values"],
        alphabeta=compiled["alphabeta"],
        principal_variation=compiled["principal_variation"],
        mcts_run=compiled["mcts_run"],
        selfplay_samples=compiled["selfplay_samples"],
    )
