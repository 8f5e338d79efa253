"""Keeping numba's on-disk cache of specialised copies honest.

Numba stamps a cached function with the contents of its own source file only. A copy made by
:func:`diceboard.kernel.specialise.specialise` compiles in a game's binding and rules kernel,
which live in other files, so an edit there would leave a stale compiled copy in the cache.
Each copy therefore carries a digest of every source file it depends on (the template modules'
folders, the binding, the game's kernel package and the shared kernel package), and the
locators installed here use that digest as the cache stamp: any edit to any of those files
makes numba compile afresh.

The locators subclass numba's own (``numba.core.caching``); if a numba version lacks them, the
install is skipped and numba's default stamping applies.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from diceboard.kernel.cachedir import sources_digest

__all__ = ["STAMP_ATTR", "dependency_files", "install_locators", "sources_digest"]

#: attribute of a specialised copy that holds its dependency digest
STAMP_ATTR = "__diceboard_sources_digest__"

_installed = False


def _module_dir(obj: Any) -> Path | None:
    module = inspect.getmodule(getattr(obj, "py_func", obj))
    file = getattr(module, "__file__", None)
    return Path(file).parent if file else None


def dependency_files(binding: ModuleType, template_dirs: Iterable[Path] = ()) -> list[Path]:
    """The source files that a copy of templates (from ``template_dirs``) specialised for
    ``binding`` depends on: those folders, the shared kernel package, the folders of the
    binding's ``legal_actions`` and ``step``, and the binding's own file."""
    folders = {Path(__file__).parent, *template_dirs}
    for entry in ("legal_actions", "step"):
        folder = _module_dir(getattr(binding, entry))
        if folder is not None:
            folders.add(folder)
    files = {Path(str(binding.__file__))}
    for folder in folders:
        files.update(folder.glob("*.py"))
    return sorted(files)


def install_locators() -> None:
    """Put the stamping locators in front of numba's own (once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    try:
        from numba.core import caching

        bases = [
            caching.UserProvidedCacheLocator,
            caching.InTreeCacheLocator,
            caching.UserWideCacheLocator,
        ]
        impl = caching.CacheImpl
    except (ImportError, AttributeError):  # pragma: no cover - another numba layout
        return
    stamped: list[Any] = [_stamped(base) for base in bases]
    impl._locator_classes = stamped + list(impl._locator_classes)


def _stamped(base: type) -> type:
    """``base`` for specialised copies only, with the dependency digest as the source stamp."""

    class Stamped(base):  # type: ignore[valid-type,misc]
        _digest: bytes = b""

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            digest = getattr(py_func, STAMP_ATTR, None)
            if digest is None:
                return None
            locator = super().from_function(py_func, py_file)
            if locator is not None:
                locator._digest = digest
            return locator

        def get_source_stamp(self) -> Any:
            return self._digest

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{base.__name__}"
    return Stamped
