"""What a human may type for a move: the engine's notation, or a shorthand that leaves out
parts the engine needs (Chase's direction suffix and absorption prefix, Custodian's new face).
A shorthand is matched against the legal moves' notation; where it fits moves that lead to
different positions, the player is asked to pick one.

Only notation is handled here; legality is the engine's (``State.parse_move`` and
``State.legal_moves``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations

from diceboard.core.game import State
from diceboard.core.move import Move

#: by game: the parts of a move's notation that a player may leave out
OPTIONAL_PARTS: dict[str, tuple[re.Pattern[str], ...]] = {
    "custodian": (re.compile(r"=[1-6]$"),),
    "chase": (re.compile(r"^\{[^}]*\}"), re.compile(r"(?:ne|nw|se|sw|e|w)$")),
}
#: by game: characters that a shorthand may confuse (a capture written like a plain move)
LOOSE_SEPARATORS: dict[str, tuple[str, str]] = {"chase": ("x", "-")}


@dataclass(frozen=True)
class Resolution:
    """What typed text comes to: one ``move``, or ``choices`` to pick from (moves that lead
    to different positions), or an ``error`` message."""

    move: Move | None = None
    choices: tuple[Move, ...] = field(default=())
    error: str | None = None
    #: true when ``move`` was completed from a shorthand (show the player the full notation)
    completed: bool = False


def _forms(notation: str, game: str) -> set[str]:
    """Every way of writing ``notation`` with some of its optional parts left out."""
    text = notation.lower()
    parts = OPTIONAL_PARTS.get(game, ())
    forms = {text}
    for size in range(1, len(parts) + 1):
        for subset in combinations(parts, size):
            short = text
            for pattern in subset:
                short = pattern.sub("", short, count=1)
            forms.add(short)
    return forms


def _loosen(text: str, game: str) -> str:
    swap = LOOSE_SEPARATORS.get(game)
    return text if swap is None else text.replace(*swap)


def matching_moves(state: State, text: str) -> list[Move]:
    """The legal moves that ``text`` can stand for, written in full or shortened; where none
    is written with the same separator, moves with the other one (Chase ``x`` for ``-``)."""
    game = state.game.name
    typed = "".join(text.split()).lower()
    legal = state.legal_moves()
    exact = [m for m in legal if typed in _forms(m.notation, game)]
    if exact:
        return exact
    loose = _loosen(typed, game)
    return [m for m in legal if loose in {_loosen(f, game) for f in _forms(m.notation, game)}]


def _decision_part(state: State, move: Move) -> Move | None:
    """The legal decision that ``move`` (a decision joined with chance outcomes) begins with."""
    for legal in state.legal_moves():
        if move.actions[: len(legal.actions)] == legal.actions:
            return legal
    return None


def distinct_outcomes(state: State, moves: list[Move]) -> list[Move]:
    """``moves`` with one move kept (the first) for each different resulting position."""
    seen: dict[str, Move] = {}
    for move in moves:
        seen.setdefault(str(state.play(move)), move)
    return list(seen.values())


def resolve(state: State, text: str) -> Resolution:
    """What the human's ``text`` means at the decision state ``state``."""
    try:
        move = state.parse_move(text)
    except ValueError as error:
        candidates = matching_moves(state, text)
        if not candidates:
            return Resolution(error=" ".join(str(error).split()))
        options = distinct_outcomes(state, candidates)
        if len(options) == 1:
            return Resolution(move=options[0], completed=True)
        return Resolution(choices=tuple(options))
    if move in state.legal_moves():
        return Resolution(move=move, completed=move.notation.lower() != text.strip().lower())
    decision = _decision_part(state, move)
    if decision is not None:
        return Resolution(
            error=f"the dice are rolled for you: enter {decision} and the roll follows"
        )
    return Resolution(error=f"{text.strip()} is not a move you can make here")
