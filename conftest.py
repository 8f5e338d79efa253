"""Shared pytest setup.

One numba cache serves every test process: the CLI and no-JIT tests start subprocesses, which
inherit NUMBA_CACHE_DIR and so reuse the compiled kernels. The directory is named after a digest
of the compiled sources only (:mod:`diceboard.kernel.cachedir`), because numba does not notice
when a function that a cached kernel calls has changed in another module: a stale entry could
otherwise survive an edit. Editing anything else (the server, the CLI, docs) keeps the cache.

The package's doctests are collected from ``src/diceboard`` too; the parts that need an optional
extra are left out of that collection when the extra is not installed (their tests skip with
``pytest.importorskip``), so collection never fails for want of an extra.
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent
_PACKAGE = _ROOT / "src" / "diceboard"


def _cache_dir() -> str:
    # loaded by path: importing diceboard would import numba before NUMBA_CACHE_DIR is set
    spec = importlib.util.spec_from_file_location(
        "_diceboard_cachedir", _PACKAGE / "kernel" / "cachedir.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.cache_dir(_ROOT / ".numba_cache", _PACKAGE))


os.environ.setdefault("NUMBA_CACHE_DIR", _cache_dir())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow-sample",
        type=int,
        default=None,
        metavar="N",
        help="run only N of the tests marked slow (a fixed sample; default: all of them)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    sample = config.getoption("--slow-sample")
    if sample is None:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    keep = set(random.Random(20261130).sample(range(len(slow)), min(sample, len(slow))))
    deselected = [item for i, item in enumerate(slow) if i not in keep]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        dropped = set(map(id, deselected))
        items[:] = [item for item in items if id(item) not in dropped]


#: parts of the package (relative to src/diceboard) that import an optional extra at module
#: level, with the modules they need
_OPTIONAL_PARTS = {
    "server": ("fastapi", "sqlalchemy", "alembic"),
    "envs/gymnasium.py": ("gymnasium",),
    "envs/openspiel.py": ("pyspiel",),
    "envs/pettingzoo": ("pettingzoo", "gymnasium"),
}


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return True


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave the doctests of a module that needs an absent optional extra uncollected."""
    try:
        relative = collection_path.resolve().relative_to(_PACKAGE).as_posix()
    except ValueError:
        return None
    for part, modules in _OPTIONAL_PARTS.items():
        if (relative == part or relative.startswith(part + "/")) and any(map(_missing, modules)):
            return True
    return None
