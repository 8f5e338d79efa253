"""Shared pytest setup.

One numba cache serves every test process: the CLI and no-JIT tests start subprocesses, which
inherit NUMBA_CACHE_DIR and so reuse the compiled kernels. The directory is named after a hash
of the package's source, because numba does not notice when a function that a cached kernel
calls has changed in another module: a stale entry could otherwise survive an edit.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _source_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((Path(__file__).parent / "src" / "diceboard").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


os.environ.setdefault(
    "NUMBA_CACHE_DIR", str(Path(__file__).parent / ".numba_cache" / _source_digest())
)

import random

import pytest


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
