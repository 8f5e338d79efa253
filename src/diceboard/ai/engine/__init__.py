"""The compiled search engine, one instance per game.

:func:`engine_for` specialises the search templates (evaluation, alpha-beta, MCTS,
self-play) for a game's binding and returns the compiled entry points. Everything here works
on kernel arrays and action ids; the agents in :mod:`diceboard.ai` turn states and moves into
arrays and back.

Each game's templates are specialised twice (:mod:`.models`): for the linear evaluation alone
and for every evaluation. An entry point that takes an evaluation vector sends the call to the
variant of the vector's model, so a search with the linear model, as every level plays, never
compiles the network; compilation stays lazy, per entry point and variant.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from diceboard.ai.bindings import binding
from diceboard.ai.engine import alphabeta, evaluation, mcts, selfplay
from diceboard.ai.engine.models import FULL, LINEAR, linear_substitutes, model_of
from diceboard.ai.engine.specialise import specialise
from diceboard.kernel import compile_for_callers

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

    def compiled(self, entry: str, weights: np.ndarray) -> Callable[..., Any]:
        """The compiled function that the entry point ``entry`` runs when called with the
        evaluation vector ``weights`` (its model's variant)."""
        routed = getattr(self, entry)
        return routed.for_weights(weights) if isinstance(routed, _Routed) else routed

    @property
    def num_features(self) -> int:
        """Length of the game's feature vector."""
        return int(self.binding.NUM_FEATURES)

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The game's feature names, in order."""
        return tuple(self.binding.FEATURE_NAMES)


#: held while an engine is made: a worker warms a game up in a thread beside its searches
#: (:mod:`diceboard.server.computer_players`), and two engines of one game would compile it twice
_MAKING = threading.Lock()


def engine_for(game_name: str) -> Engine:
    """The engine of ``game_name`` (a registered game), made once per process (also when
    threads ask at once)."""
    with _MAKING:
        return _engine_for(game_name)


@functools.cache
def _engine_for(game_name: str) -> Engine:
    module = binding(game_name)
    variants = _Variants(game_name, module)
    entries = {name: variants.entry(name) for name in _ENTRIES}
    return Engine(game_name=game_name, binding=module, **entries)


#: the entry points an :class:`Engine` holds
_ENTRIES = (
    "static_value",
    "leaf_value",
    "move_values",
    "alphabeta",
    "principal_variation",
    "mcts_run",
    "selfplay_samples",
)


class _Variants:
    """A game's two specialisations of the templates, each made on first use."""

    def __init__(self, game_name: str, module: ModuleType) -> None:
        self.game_name = game_name
        self.module = module
        self.num_features = int(module.NUM_FEATURES)
        self._made: dict[str, dict[str, Callable[..., Any]]] = {}
        self._lock = threading.Lock()

    def compiled(self, model: str) -> dict[str, Callable[..., Any]]:
        made = self._made.get(model)
        if made is None:
            with self._lock:
                made = self._made.get(model)
                if made is None:
                    made = self._made[model] = self._make(model)
        return made

    def _make(self, model: str) -> dict[str, Callable[..., Any]]:
        if model == LINEAR:
            return specialise(
                self.game_name, self.module, TEMPLATE_MODULES, substitutes=linear_substitutes()
            )
        return specialise(self.game_name, self.module, TEMPLATE_MODULES, variant=FULL)

    def entry(self, name: str) -> Callable[..., Any]:
        """The entry point ``name``: a call with an evaluation vector goes to its model's
        variant; one without (``principal_variation``) to the linear variant's."""
        template = _template(name)
        parameters = list(inspect.signature(template).parameters)
        if "weights" not in parameters:
            return self.compiled(LINEAR)[name]
        return _Routed(name, parameters.index("weights"), self)


class _Routed:
    """An entry point that takes an evaluation vector: a call goes to the variant of the
    vector's model; anything else asked of it (numba's ``py_func``, ``stats``,
    ``signatures``) is the linear variant's, which every level plays."""

    def __init__(self, name: str, index: int, variants: _Variants) -> None:
        self._name = name
        self._index = index
        self._variants = variants
        self.__doc__ = _template(name).__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        weights = args[self._index] if self._index < len(args) else kwargs["weights"]
        return self.for_weights(weights)(*args, **kwargs)

    def for_weights(self, weights: np.ndarray) -> Callable[..., Any]:
        """The compiled function a call with the evaluation vector ``weights`` runs."""
        model = model_of(self._variants.num_features, weights)
        return self._variants.compiled(model)[self._name]

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_") and not attr.endswith("__"):  # its own, not yet set
            raise AttributeError(attr)
        return getattr(self._variants.compiled(LINEAR)[self._name], attr)

    def __repr__(self) -> str:
        return f"<{self._variants.game_name} search entry point {self._name}>"


def compile_rules(game_name: str, opts: np.ndarray) -> None:
    """Compile (or load from numba's cache) the rules kernels the search calls, the binding's
    ``legal_actions`` and ``step``, for the argument types that the search and the game API
    pass (writable ``int64`` arrays, the game's kernel options ``opts``, integers), before
    any state exists: the game's first kernels a server compiles, so that a computer worker
    can compile its search on them (see :mod:`diceboard.server.computer_players`) while the server
    compiles the rest."""
    module = binding(game_name)
    state = np.zeros(module.STATE_LEN, dtype=np.int64)
    # as the search and the game API call them: from compiled code
    compile_for_callers(
        module.legal_actions, (state, opts, np.zeros(module.MAX_LEGAL, dtype=np.int64))
    )
    compile_for_callers(module.step, (state, opts, 0, np.zeros(1, dtype=np.int64), 0))


def _template(name: str) -> Callable[..., Any]:
    for module in TEMPLATE_MODULES:
        func = getattr(module, name, None)
        if func is not None:
            return func  # type: ignore[no-any-return]
    raise LookupError(f"no search template {name!r}")
