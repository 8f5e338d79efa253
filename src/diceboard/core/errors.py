"""Errors raised for bad input. All are ``ValueError`` subclasses whose message says exactly
what is wrong, so callers can catch ``ValueError`` (or :class:`DiceboardError`) and show it."""

from __future__ import annotations


class DiceboardError(ValueError):
    """Base class of every diceboard input error."""


class OptionError(DiceboardError):
    """An unknown game, option or option value."""


class PositionError(DiceboardError):
    """A malformed or impossible position string."""


class NotationError(DiceboardError):
    """Move text that is not valid notation at all."""


class IllegalMoveError(DiceboardError):
    """Well-formed move text (or a move or action id) that the rules do not allow here."""


class GameOverError(IllegalMoveError):
    """A move was played in a finished game."""


class RecordError(DiceboardError):
    """A malformed game record (PGN-style text or JSON)."""
