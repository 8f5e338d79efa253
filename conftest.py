"""Shared pytest setup: one numba cache for every test process (the CLI and no-JIT tests start
subprocesses, which inherit NUMBA_CACHE_DIR and so reuse the compiled kernels)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).parent / ".numba_cache"))

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
