"""Shared pytest setup: one numba cache for every test process (the CLI and no-JIT tests start
subprocesses, which inherit NUMBA_CACHE_DIR and so reuse the compiled kernels)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).parent / ".numba_cache"))
