"""One template source, one compiled copy per game.

Code that is the same for every game (the perft and playout drivers of :mod:`.drivers`, the
searches of :mod:`diceboard.ai.engine`) is written once, as plain Python functions marked with
:func:`template`. They call the game only through a module-level name ``game``: a binding
module that provides the game's kernel entry points (``legal_actions``, ``step``, sizes, ...).
:func:`specialise` makes, for one game, a copy of every template function whose globals bind
``game`` to that game's binding and every other template name to the copy made for the same
game, then compiles the copies with :func:`diceboard.kernel.njit`.

Why copies rather than the alternatives numba offers: a jitted function that takes another
jitted function as an argument, or a closure made by a factory, gets a cache key that holds
the address of that function object, so ``cache=True`` misses in every new process (measured
with numba 0.68: 100 % misses). A copy with its own ``__qualname__`` (``custodian.perft``)
gets its own cache index file next to the template's source, and the game's kernel functions
are ordinary globals that numba compiles in and caches like any other call.

Numba stamps a cache entry with its own source file only; :mod:`.cache` stamps the copies with
every file they compile in, so an edit to a binding or a rules kernel recompiles them. With
``NUMBA_DISABLE_JIT=1`` the copies are plain Python functions that call the binding's plain
functions.
"""

from __future__ import annotations

import builtins
import sys
import types
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from diceboard.kernel.cache import STAMP_ATTR, dependency_files, install_locators, sources_digest
from diceboard.kernel.jit import njit

__all__ = ["is_template", "specialise", "template"]

F = TypeVar("F", bound=Callable[..., Any])

_TEMPLATE_MARK = "__diceboard_template__"


def template(func: F) -> F:
    """Mark ``func`` as a template: it is compiled once per game by :func:`specialise`,
    never called as it is."""
    setattr(func, _TEMPLATE_MARK, True)
    return func


def is_template(obj: object) -> bool:
    """Whether ``obj`` is a function marked with :func:`template`."""
    return isinstance(obj, types.FunctionType) and bool(getattr(obj, _TEMPLATE_MARK, False))


def specialise(
    game_name: str,
    binding: types.ModuleType,
    modules: Iterable[types.ModuleType],
    module_name: str,
    substitutes: Mapping[str, Any] | None = None,
) -> dict[str, Callable[..., Any]]:
    """Compile every template function of ``modules`` for one game.

    The copies' globals become the module ``module_name`` (registered in ``sys.modules``; it
    must be unique per game and set of templates). Returns the name -> jitted function map of
    the copies (compilation itself is lazy: each copy compiles, or loads from numba's cache, on
    its first call). ``substitutes`` replaces templates by name with other (compiled)
    functions in the copies' globals, so that what they would have compiled in is left out
    (the search compiled without the network evaluation it does not use); they are not among
    the copies returned. ``game_name`` names the copies (``custodian.perft``): it must be
    unique per ``module_name`` too, since numba's cache files go by it.
    """
    modules = tuple(modules)
    namespace: dict[str, Any] = {}
    templates: dict[str, types.FunctionType] = {}
    for module in modules:
        for name, value in vars(module).items():
            if is_template(value):
                if name in templates and templates[name] is not value:
                    raise ValueError(f"two templates are called {name!r}")
                templates[name] = value
            elif name not in namespace:
                namespace[name] = value
            elif namespace[name] is not value and not name.startswith("__"):
                raise ValueError(f"template modules disagree on the global {name!r}")
    for name, value in (substitutes or {}).items():
        if name not in templates:
            raise ValueError(f"no template {name!r} to substitute")
        del templates[name]
        namespace[name] = value
    # The copies' globals are a real, importable module: numba pickles a compiled function's
    # environment by module name and imports it again when it loads the function from cache.
    module = types.ModuleType(module_name, f"Templates compiled for {game_name}.")
    for key, value in namespace.items():
        if not key.startswith("__"):
            setattr(module, key, value)
    module.game = binding  # type: ignore[attr-defined]
    module.__builtins__ = builtins  # type: ignore[attr-defined]
    globals_ = vars(module)
    sys.modules[module_name] = module
    install_locators()
    template_dirs = {Path(str(m.__file__)).parent for m in modules if getattr(m, "__file__", None)}
    digest = sources_digest(dependency_files(binding, template_dirs))
    compiled: dict[str, Callable[..., Any]] = {}
    for name, func in templates.items():
        copy = types.FunctionType(
            func.__code__, globals_, name, func.__defaults__, func.__closure__
        )
        copy.__module__ = module_name
        copy.__qualname__ = f"{game_name}.{name}"
        copy.__doc__ = func.__doc__
        copy.__kwdefaults__ = func.__kwdefaults__
        setattr(copy, STAMP_ATTR, digest)
        compiled[name] = njit(copy)
    globals_.update(compiled)
    return compiled
