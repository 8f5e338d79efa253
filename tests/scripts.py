"""Python scripts run in fresh interpreters, for tests of what one process finds in the numba
cache that another has filled, or of what a fresh process imports and compiles."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def script_output(script: str, cache: Path | None = None, folder: Path | None = None) -> str:
    """What ``script`` prints, run in a fresh interpreter (on the numba cache ``cache``; in
    ``folder``, whose modules it may import). A script that fails fails the test with its
    error."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    if folder is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def outputs_of_runs(folder: Path, module: str, scripts: tuple[str, ...]) -> list[list[str]]:
    """Write ``module`` as ``kernels.py`` in ``folder`` and run each of ``scripts`` there in
    turn, each in a fresh interpreter, all on one numba cache (``folder / "cache"``): the
    words each printed."""
    (folder / "kernels.py").write_text(textwrap.dedent(module))
    return [script_output(s, folder / "cache", folder).split() for s in scripts]
