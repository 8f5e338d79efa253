"""How a game ended."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    ``winner`` is the winning player's letter (``"W"``/``"B"`` in Custodian Dice, ``"B"``/``"R"``
    in Chase) or ``None`` for a draw; ``reason`` is one of ``elimination``, ``blocked``,
    ``repetition``, ``no-capture-limit``, ``immobilized`` (and, for games played on a clock or
    given up, ``timeout`` or ``resignation``); ``result`` is ``"1-0"``, ``"0-1"`` or
    ``"1/2-1/2"`` from the first player's point of view.

    >>> Outcome("W", "elimination", "1-0").winner
    'W'
    """

    winner: str | None
    reason: str
    result: str

    def __str__(self) -> str:
        return f"{self.result} ({self.reason})"
