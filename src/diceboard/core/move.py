"""Moves: decisions and chance outcomes in canonical notation, with their action ids."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Move:
    """One move as the notation writes it, and the action ids that make it.

    Most moves are a single action. Some are several in a row: a Chaos move joined with its
    roll (``b1-d2=4``), or a Chase turn that absorbs before it acts (``{a1}d6-d3SW``).
    Moves compare equal when their notation and actions are equal; they sort by notation.

    >>> m = Move("b1-d2=5", (123,))
    >>> str(m), m.action
    ('b1-d2=5', 123)
    """

    notation: str
    actions: tuple[int, ...]

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"

    def __lt__(self, other: Move) -> bool:
        return (self.notation, self.actions) < (other.notation, other.actions)

    @property
    def action(self) -> int:
        """The action id of a single-action move (``ValueError`` for a sequence)."""
        if len(self.actions) != 1:
            raise ValueError(
                f"{self.notation} is a sequence of {len(self.actions)} actions "
                f"{list(self.actions)}; use .actions"
            )
        return self.actions[0]
