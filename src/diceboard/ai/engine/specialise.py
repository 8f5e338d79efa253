"""The search templates' use of :mod:`diceboard.kernel.specialise`: one search source, one
compiled copy per game.

The search functions (alpha-beta, MCTS, evaluation, self-play) are written once, as plain
Python functions marked with :func:`template`. They call the game only through a module-level
name ``game`` (typed by :mod:`diceboard.ai.engine.contract`), bound to the game's binding
module (:mod:`diceboard.ai.bindings`). The mechanism, and why copies, is described in
:mod:`diceboard.kernel.specialise`.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from diceboard.kernel import specialise as _kernel
from diceboard.kernel.specialise import is_template, template

__all__ = ["is_template", "specialise", "template"]


def specialise(
    game_name: str,
    binding: types.ModuleType,
    modules: Iterable[types.ModuleType],
    variant: str = "",
    substitutes: Mapping[str, Any] | None = None,
) -> dict[str, Callable[..., Any]]:
    """Compile every search template of ``modules`` for one game (name -> jitted copy);
    ``variant`` names a second set of copies for the same game, made with ``substitutes``
    (see :func:`diceboard.kernel.specialise.specialise`)."""
    name = f"{game_name}_{variant}" if variant else game_name
    return _kernel.specialise(
        name,
        binding,
        modules,
        module_name=f"diceboard.ai.engine._{name}_search",
        substitutes=substitutes,
    )
