"""Numba's first compile in a process, without its probe for BLAS where nothing needs BLAS.

The first time a process compiles, numba loads its implementations of NumPy's functions,
and the module that holds ``np.dot``, ``@`` and ``np.linalg`` first checks whether a BLAS is
there by importing ``scipy.linalg`` (numba calls SciPy's BLAS). Where SciPy is installed that
import takes about 0.3 s of CPU, half of numba's first compile, in every process that
compiles: a server and each of its computer workers on a cold start. No rules kernel, search
or evaluation calls those functions (the NumPy code that does, such as fitting an evaluation,
is not compiled). So the server's processes skip the probe: numba then does not offer
``np.dot``, ``@`` or ``np.linalg`` to compiled code in that process (a function that used them
would fail to compile, saying numba has no BLAS), and everything else is as before. A
process that has already imported ``scipy.linalg`` or loaded numba's implementations keeps
them as they are.
"""

from __future__ import annotations

import importlib
import sys

#: numba's module of NumPy's array functions, whose import probes for BLAS
ARRAY_FUNCTIONS = "numba.np.arraymath"
#: what numba's probe imports (its parent first, the costly part)
PROBED = "scipy.linalg"


def skip_blas_probe() -> bool:
    """Load numba's NumPy implementations now, without the probe for BLAS; ``False`` (and
    nothing done) if they are already loaded or ``scipy.linalg`` already imported, when
    skipping would save nothing. Call it before the process compiles anything."""
    if ARRAY_FUNCTIONS in sys.modules or PROBED in sys.modules:
        return False
    # a None in sys.modules makes an import of that module (and of its submodules) fail at
    # once with ImportError, which numba takes as "no BLAS"
    sys.modules[PROBED] = None  # type: ignore[assignment]
    try:
        importlib.import_module(ARRAY_FUNCTIONS)
    finally:
        if PROBED in sys.modules and sys.modules[PROBED] is None:
            del sys.modules[PROBED]
    return True
