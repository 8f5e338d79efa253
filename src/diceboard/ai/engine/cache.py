"""The cache stamps of the specialised searches: :mod:`diceboard.kernel.cache`, with the
search templates' folder (this one) among the stamped dependencies."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from diceboard.kernel import cache as _cache
from diceboard.kernel.cache import STAMP_ATTR, install_locators, sources_digest

__all__ = ["STAMP_ATTR", "dependency_files", "install_locators", "sources_digest"]


def dependency_files(binding: ModuleType) -> list[Path]:
    """The source files a game's compiled search depends on."""
    return _cache.dependency_files(binding, [Path(__file__).parent])
