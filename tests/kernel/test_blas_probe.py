"""A server's processes skip numba's probe for BLAS (an import of ``scipy.linalg``, 0.3 s of
CPU where SciPy is installed) before their first compile: the kernels and the search still
compile and run, SciPy is importable again after, and a process that has already loaded
numba's implementations or SciPy's linear algebra is left as it was."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.scripts import script_output

needs_scipy = pytest.mark.skipif(
    importlib.util.find_spec("scipy") is None, reason="without SciPy there is no probe to skip"
)


@needs_scipy
def test_the_probe_is_skipped_and_the_kernels_still_compile(tmp_path: Path) -> None:
    words = script_output(
        "import sys\n"
        "from diceboard.kernel.blas_probe import skip_blas_probe\n"
        "skipped = skip_blas_probe()\n"
        "import numba.np.arraymath as arraymath\n"
        "probed = 'scipy.linalg' in sys.modules\n"
        "from diceboard import ai, games\n"
        "state = games.game('custodian').start(seed=1)\n"
        "move = ai.agent('level:4', seed=0).choose(state)\n"
        "again = skip_blas_probe()\n"
        "import scipy.linalg\n"  # not left blocked
        "print(skipped, arraymath._HAVE_BLAS, probed, move in state.legal_moves(), again)\n",
        cache=tmp_path / "cache",
    ).split()
    assert words == ["True", "False", "False", "True", "False"]


@needs_scipy
def test_a_process_with_scipys_linear_algebra_keeps_numbas_blas() -> None:
    words = script_output(
        "import scipy.linalg\n"
        "from diceboard.kernel.blas_probe import skip_blas_probe\n"
        "skipped = skip_blas_probe()\n"
        "import numpy as np, numba\n"
        "@numba.njit\n"
        "def dot(a, b):\n"
        "    return np.dot(a, b)\n"
        "print(skipped, dot(np.ones(3), np.ones(3)))\n"
    ).split()
    assert words == ["False", "3.0"]


def test_a_process_that_has_compiled_is_left_as_it_was() -> None:
    words = script_output(
        "import numba\n"
        "numba.njit(lambda x: x + 1)(1)\n"  # numba's implementations are loaded
        "import numba.np.arraymath as arraymath\n"
        "have = arraymath._HAVE_BLAS\n"
        "from diceboard.kernel.blas_probe import skip_blas_probe\n"
        "print(skip_blas_probe(), arraymath._HAVE_BLAS == have)\n"
    ).split()
    assert words == ["False", "True"]
