"""What a human may type for a move: the engine's notation, or a shorthand that leaves out
parts the engine needs (a turn's absorption prefix, a move's direction, a step's new face).
A shorthand is matched against the legal moves; where it fits moves that lead to different
positions, the player is asked to pick one.

The shortened forms of a move are built from its structure (``Move.absorbed``,
``Move.direction``, ``Move.face``, ``Move.capture`` and its squares), never by parsing
notation: the squares locate the parts of the move's own text, and a part that a field names
may be left out. Legality is the engine's (``State.parse_move`` and ``State.legal_moves``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from diceboard.core.game import State
from diceboard.core.move import Move


@dataclass(frozen=True)
class Resolution:
    """What typed text comes to: one ``move``, or ``choices`` to pick from (moves that lead
    to different positions), or an ``error`` message."""

    move: Move | None = None
    choices: tuple[Move, ...] = field(default=())
    error: str | None = None
    #: true when ``move`` was completed from a shorthand (show the player the full notation)
    completed: bool = False


@dataclass(frozen=True)
class Parts:
    """A move's notation (lower case) cut where its squares are: ``prefix`` (the text before
    the first square the move acts on, when the move absorbs first), ``start`` (up to and
    with that square), ``separator`` (between the moving die's square and where it lands),
    ``middle`` (the rest up to and with the landing square) and ``tail`` (what follows).
    ``prefix + start + separator + middle + tail`` is the notation."""

    prefix: str
    start: str
    separator: str
    middle: str
    tail: str


def _find_after(text: str, square: str, offset: int) -> int:
    at = text.find(square, offset)
    return at if at >= 0 else len(text)


def parts(move: Move) -> Parts:
    """``move``'s notation cut at its squares (see :class:`Parts`).

    >>> from diceboard.core.move import MoveKind
    >>> parts(Move("{a1}a6-e8NE", (), MoveKind.MOVE, "a6", "e8", direction="NE", absorbed=("a1",)))
    Parts(prefix='{a1}', start='a6', separator='-', middle='e8', tail='ne')
    >>> parts(Move("b1-b2=5", (), MoveKind.STEP, "b1", "b2", face=5))
    Parts(prefix='', start='b1', separator='-', middle='b2', tail='=5')
    """
    text = move.notation.lower()
    offset = 0
    for square in move.absorbed:  # the prefix names these, in order
        offset = _find_after(text, square, offset) + len(square)
    acted = move.squares[len(move.absorbed) :]
    if not acted:  # a pass, a roll, an absorption alone: nothing to leave out
        return Parts("", text, "", "", "")
    act = min(_find_after(text, sq, offset) for sq in acted)
    prefix = text[:act] if move.absorbed else ""
    body = text[len(prefix) :]
    frm, to = move.from_square, move.to_square
    if frm is None or to is None or not body.startswith(frm):
        # a placement or a move without a path: its landing square is where it is cut
        land = _find_after(body, to, 0) + len(to) if to is not None else len(body)
        return Parts(prefix, body[:land], "", "", body[land:])
    lands = _find_after(body, to, len(frm))
    end = min(lands + len(to), len(body))
    return Parts(prefix, frm, body[len(frm) : lands], body[lands:end], body[end:])


def _tails(move: Move, tail: str) -> set[str]:
    """``tail`` and its shortenings: without the direction, without the new face (and the
    sign before it), without both."""
    found = {tail}
    if move.direction is not None:
        direction = move.direction.lower()
        found |= {t[: -len(direction)] for t in found if t.endswith(direction)}
    if move.face is not None:
        face = str(move.face)
        for t in list(found):
            if t.endswith(face):
                short = t[: -len(face)]
                # the sign before the face goes with it (``=5``), never a letter or digit
                while short and not short[-1].isalnum():
                    short = short[:-1]
                found.add(short)
    return found


def forms(move: Move, separators: Iterable[str] = ()) -> set[str]:
    """Every way of writing ``move`` (lower case) with some of its optional parts left out:
    the absorption prefix, the direction, the new face; written with each of ``separators``
    in place of its own between its squares (a capture written as a plain move, or back).

    >>> from diceboard.core.move import MoveKind
    >>> sorted(forms(Move("b1-b2=5", (), MoveKind.STEP, "b1", "b2", face=5)))
    ['b1-b2', 'b1-b2=5']
    >>> m = Move("{a1}a6xe8NE", (), MoveKind.MOVE, "a6", "e8", capture=True, direction="NE",
    ...          absorbed=("a1",))
    >>> sorted(forms(m, ["-"]))  # doctest: +NORMALIZE_WHITESPACE
    ['a6-e8', 'a6-e8ne', 'a6xe8', 'a6xe8ne', '{a1}a6-e8', '{a1}a6-e8ne', '{a1}a6xe8',
     '{a1}a6xe8ne']
    """
    cut = parts(move)
    prefixes = {cut.prefix, ""}
    seps = {cut.separator, *separators} if cut.separator else {""}
    return {
        p + cut.start + s + cut.middle + t
        for p in prefixes
        for s in seps
        for t in _tails(move, cut.tail)
    }


def _other_separators(legal: list[Move]) -> dict[Move, set[str]]:
    """For each move, the separators that legal moves of its kind write with the other
    capture flag (``x`` for a plain move, ``-`` for a capture): the loose ways to write it."""
    written: dict[tuple[object, bool], set[str]] = {}
    for move in legal:
        sep = parts(move).separator
        if sep:
            written.setdefault((move.kind, move.capture), set()).add(sep)
    return {m: written.get((m.kind, not m.capture), set()) for m in legal}


def matching_moves(state: State, text: str) -> list[Move]:
    """The legal moves that ``text`` can stand for, written in full or shortened; where none
    is written with the same separator, moves that are written with the separator of a
    capture for a plain move's or the other way round."""
    typed = "".join(text.split()).lower()
    legal = state.legal_moves()
    exact = [m for m in legal if typed in forms(m)]
    if exact:
        return exact
    loose = _other_separators(legal)
    return [m for m in legal if loose[m] and typed in forms(m, loose[m])]


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
