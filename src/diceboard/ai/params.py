"""Typed reading of agent spec parameters, with errors that name the spec and the value."""

from __future__ import annotations

import math
from collections.abc import Sequence

from diceboard.core.errors import OptionError

_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")


class Params:
    """The ``key=value`` parameters of one agent spec, read one by one.

    Each getter removes its key; :meth:`finish` then rejects whatever is left, so a misspelt
    parameter is an error rather than silently ignored.

    >>> p = Params("mcts", {"time": "0.5"})
    >>> p.number("time", None, minimum=0.0)
    0.5
    >>> p.finish()
    """

    def __init__(self, agent: str, params: dict[str, str]) -> None:
        self.agent = agent
        self._params = dict(params)

    def _take(self, key: str) -> str | None:
        return self._params.pop(key, None)

    def _bad(self, key: str, value: str, expected: str) -> OptionError:
        return OptionError(f"agent {self.agent!r}: {key}={value!r} is not {expected}")

    def has(self, key: str) -> bool:
        """Whether ``key`` was given (and not read yet)."""
        return key in self._params

    def integer(
        self, key: str, default: int | None, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        """A whole number within the bounds, or ``default`` when absent."""
        text = self._take(key)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            raise self._bad(key, text, "a whole number") from None
        if minimum is not None and value < minimum:
            raise self._bad(key, text, f"{minimum} or more")
        if maximum is not None and value > maximum:
            raise self._bad(key, text, f"{maximum} or less")
        return value

    def number(
        self,
        key: str,
        default: float | None,
        minimum: float | None = None,
        maximum: float | None = None,
        strict: bool = True,
    ) -> float | None:
        """A finite number, greater than ``minimum`` (or equal, unless ``strict``)."""
        text = self._take(key)
        if text is None:
            return default
        try:
            value = float(text)
        except ValueError:
            raise self._bad(key, text, "a number") from None
        if not math.isfinite(value):
            raise self._bad(key, text, "a finite number")
        if minimum is not None and (value <= minimum if strict else value < minimum):
            raise self._bad(
                key, text, f"a number {'above' if strict else 'of at least'} {minimum:g}"
            )
        if maximum is not None and value > maximum:
            raise self._bad(key, text, f"a number of at most {maximum:g}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        """``on``/``off`` (also true/false, yes/no, 1/0)."""
        text = self._take(key)
        if text is None:
            return default
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise self._bad(key, text, "on or off")

    def choice(self, key: str, default: str, choices: Sequence[str]) -> str:
        """One of ``choices``."""
        text = self._take(key)
        if text is None:
            return default
        lowered = text.lower()
        if lowered not in choices:
            raise self._bad(key, text, "one of " + ", ".join(choices))
        return lowered

    def finish(self) -> None:
        """Reject any parameter that no getter read."""
        if self._params:
            names = ", ".join(k or "(a bare value)" for k in self._params)
            raise OptionError(f"agent {self.agent!r} has no parameter {names}")
