"""Which numba cache directory goes with this source tree.

Numba stamps a cached function with its own source file only: it does not notice that a
function it compiled in (another module's kernel function, a constant from a layout module)
has changed, so a stale entry could survive an edit. The test suite and scripts therefore name
``NUMBA_CACHE_DIR`` after :func:`compiled_sources_digest`, a digest of the *compiled* sources
only: editing a compiled file moves to a fresh directory (and a full recompile), while editing
the server, the CLI or a docstring of the game API leaves the cache warm.

The compiled sources are every ``.py`` file under ``src/diceboard`` whose text names ``njit``
or ``njit_borrowing`` (:mod:`diceboard.kernel.jit`) or the search ``@template`` marker,
together with every ``.py`` file of a ``kernel`` folder (the shared :mod:`diceboard.kernel`
and each game's rules kernel: their layouts and geometry hold the constants that numba
freezes into the compiled code).
Constants that compiled code uses belong in one of those files, or the digest misses them.

This module imports nothing but the standard library, so ``conftest.py`` can load it by path
before numba (or the rest of :mod:`diceboard`) is imported.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "PACKAGE_DIR",
    "cache_dir",
    "compiled_files",
    "compiled_sources_digest",
    "sources_digest",
]

#: the ``diceboard`` package folder
PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: text that marks a file as holding code numba compiles (an ``@intrinsic`` writes code that
#: is compiled into its callers: ``diceboard.vector.atomics``)
_COMPILED = re.compile(rb"\bnjit(?:_borrowing)?\b|@template\b|@intrinsic\b")


def sources_digest(files: Iterable[Path]) -> bytes:
    """One digest of the names and contents of ``files`` (in the order given)."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.digest()


def compiled_files(package: Path = PACKAGE_DIR) -> list[Path]:
    """The sources under ``package`` that numba compiles, or compiles in (see the module
    docstring), sorted."""
    return sorted(
        path
        for path in package.rglob("*.py")
        if path.parent.name == "kernel" or _COMPILED.search(path.read_bytes())
    )


def compiled_sources_digest(package: Path = PACKAGE_DIR) -> str:
    """A short hex digest of :func:`compiled_files` (names relative to ``package``, and
    contents): the name of the numba cache directory for this tree."""
    digest = hashlib.sha256()
    for path in compiled_files(package):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir(root: Path, package: Path = PACKAGE_DIR) -> Path:
    """``root/<digest>``: the numba cache directory for the compiled sources of ``package``."""
    return root / compiled_sources_digest(package)
