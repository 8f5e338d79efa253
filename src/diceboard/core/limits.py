"""Bounds on the numbers that input may carry, shared by every game, the records and the server.

A position's clock and ply fields are counters that the kernels keep as 64-bit integers. Input
may set them to at most :data:`MAX_COUNTER` (10**9, far beyond any real game): a game started
there would need more than 9 * 10**18 further moves before a counter could wrap, so no move can
make one overflow. Text that is not plain ASCII digits (``"²"``, ``"٣"``) is not a number here.
"""

from __future__ import annotations

from diceboard.core.errors import DiceboardError

#: the largest clock or ply a position string (or any other counter in input) may hold
MAX_COUNTER = 10**9

#: the largest seed accepted anywhere (a seed is stored and replayed as a 63-bit integer)
MAX_SEED = 2**63 - 1

#: digits a counter may have before it is refused without converting it
_MAX_DIGITS = len(str(MAX_SEED))


def parse_counter(
    text: str,
    what: str,
    error: type[DiceboardError],
    maximum: int = MAX_COUNTER,
) -> int:
    """``text`` as a whole number from 0 to ``maximum``, or ``error`` naming ``what``.

    >>> parse_counter("12", "ply", ValueError)
    12
    """
    if not (text.isascii() and text.isdigit()):
        raise error(f"the {what} must be a whole number of 0 or more, not {text!r}")
    if len(text) > _MAX_DIGITS or int(text) > maximum:
        raise error(f"the {what} must be at most {maximum:,}, not {text[:30]}")
    return int(text)


def check_seed(value: object, error: type[DiceboardError]) -> int:
    """``value`` as a seed: an ``int`` (not a bool) from 0 to :data:`MAX_SEED`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"a seed must be a whole number, not {value!r}")
    if not 0 <= value <= MAX_SEED:
        raise error(f"a seed must be from 0 to {MAX_SEED:,}, not {str(value)[:30]}")
    return value
