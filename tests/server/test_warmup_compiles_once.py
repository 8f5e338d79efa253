"""The server's warm-up of the first game compiles each kernel function once: for its compiled
callers (its copy without a Python entry point) or for Python's calls, not both. A warm-up
that called a rules kernel from Python to have it ready for compiled callers would compile it
twice (see :func:`diceboard.kernel.for_callers`)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from diceboard import games
from diceboard.kernel.jit import jit_disabled
from tests.scripts import script_output

pytestmark = pytest.mark.skipif(jit_disabled(), reason="only compiled code has copies")

SCRIPT = """
import gc
from diceboard.kernel.jit import CallersCopy, KernelDispatcher
from diceboard.server.computer_players import warm_up_kernels, warm_up_rules
from diceboard.server.views import warm_up_views

game = {game!r}
warm_up_rules(game)
warm_up_kernels(game)
warm_up_views(game)
both = sorted(
    f"{{d.py_func.__module__}}.{{d.py_func.__qualname__}}"
    for d in gc.get_objects()
    if isinstance(d, KernelDispatcher) and not isinstance(d, CallersCopy)
    and d._for_callers is not None and d.signatures and d._for_callers.signatures
)
copies = sum(
    1 for d in gc.get_objects() if isinstance(d, CallersCopy) and d.signatures
)
print(copies, *both)
"""


def test_the_first_games_warm_up_compiles_no_function_both_ways(tmp_path: Path) -> None:
    """On an empty numba cache (loaded functions bring their callees compiled in)."""
    game = games.names()[0]
    output = script_output(SCRIPT.format(game=game), tmp_path)
    copies, *both = output.split()
    assert int(copies) > 10  # the rules kernels' functions, compiled for their callers
    assert both == []
