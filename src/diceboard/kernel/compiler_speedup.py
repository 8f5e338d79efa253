"""One of numba's compiler's own costs, removed without changing what it computes.

Numba's type inference looks every call of a compiled function up among the function's
overloads, and each overload template keeps what it built in a cache keyed, among others,
by the compiler flags in effect (``numba.core.targetconfig.TargetConfig``). Hashing and
comparing those flags calls their ``values()``, which builds a dict of all twenty-odd options
through a Python property each, every time: on an empty cache about one call in ten of the
whole compile's Python time (measured: 21,000 calls for the first game's rules and API
kernels, 33,000 for the computer's search alone).

:func:`install` gives ``values()`` the same result from the options' defaults, gathered once
per flags class, updated with the options set: the same keys, in the same order, with the
same values. Measured on an empty cache, A and B interleaved: with ``diceboard bench startup
--compiles`` (two rounds) the server's warm-up of every game 13.35 → 12.4 CPU s and the
computer worker's 8.05 → 7.2; the search's compile alone (ten rounds, on a busier machine)
5.98 → 5.84 CPU s. It is installed only where the flags class is as this module
expects (checked on a sample of flags against numba's own method), so another numba version
at worst compiles as slowly as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.core import targetconfig

#: numba's own ``values()``, kept to check against and for :func:`uninstall`
_ORIGINAL: Callable[[Any], dict[str, Any]] = targetconfig.TargetConfig.values

_DEFAULTS_ATTR = "_diceboard_option_defaults"


def _defaults(cls: type) -> dict[str, Any]:
    """The default of every option of the flags class ``cls``, in numba's order of options
    (kept on the class itself: a subclass has options of its own)."""
    found = cls.__dict__.get(_DEFAULTS_ATTR)
    if found is None:
        options = cls.options  # type: ignore[attr-defined]
        found = {name: option.default for name, option in options.items()}
        setattr(cls, _DEFAULTS_ATTR, found)
    return found  # type: ignore[no-any-return]


def fast_values(self: Any) -> dict[str, Any]:
    """What ``TargetConfig.values()`` returns: every option's value, set or default."""
    values = _defaults(type(self)).copy()
    for name, value in self._values.items():
        # (flags copied from flags of a subclass may hold options this class has not)
        if name in values:
            values[name] = value
    return values


def _agrees() -> bool:
    """Whether :func:`fast_values` gives what numba's own method does, on numba's compiler
    flags with nothing set and with options of several types set."""
    from numba.core import compiler

    flags_class: Any = compiler.Flags  # (numba is untyped)
    try:
        samples = [flags_class(), flags_class()]
        for name, value in (("nrt", True), ("no_cpython_wrapper", True), ("error_model", "numpy")):
            setattr(samples[1], name, value)
        for flags in samples:
            mine, theirs = fast_values(flags), _ORIGINAL(flags)
            if mine != theirs or list(mine) != list(theirs):
                return False
    except Exception:  # a numba whose flags are made differently: leave it as it is
        return False
    return True


def install() -> bool:
    """Use :func:`fast_values` for numba's compiler flags; whether it is in use."""
    if targetconfig.TargetConfig.values is fast_values:
        return True
    if not _agrees():
        return False
    targetconfig.TargetConfig.values = fast_values  # type: ignore[method-assign]
    return True


def uninstall() -> None:
    """Give numba its own ``values()`` back."""
    targetconfig.TargetConfig.values = _ORIGINAL  # type: ignore[method-assign]
