"""What the browser needs to know about a legal move, read from the move's own structure
(:class:`~diceboard.core.move.Move`: its kind, squares, faces, roll, capture, direction,
absorption prefix and exchange) and from the engine (``State.move_segments``: the path to
draw). No rule is decided and no notation is parsed here: only legal moves, produced by the
engine, are described.

The JSON of a move has ``notation`` and ``kind`` (a :class:`~diceboard.core.move.MoveKind`
value: ``step``, ``jump``, ``placement``, ``move``, ``transfer``, ``absorb``, ``roll``,
``pass``), and, where the move has them: ``from`` and ``to`` (not for a transfer, whose two
dice are its ``transfer``: ``[[square, new face], [square, new face]]``), ``face`` (the face
the die shows afterwards), ``roll`` (the rolled face of a chance outcome, alone or joined to
a move), ``capture`` (true), ``dir`` (the starting direction), ``absorb`` (the hexes of an
absorption prefix), ``rolled_after`` (true: a roll follows the move, which therefore cannot
name the new face), and ``segments`` (polylines of squares to draw).
"""

from __future__ import annotations

from typing import Any

from diceboard import games
from diceboard.core.game import State
from diceboard.core.move import Move


def move_json(state: State, move: Move, *, segments: bool = True) -> dict[str, Any]:
    """A JSON-ready description of ``move`` (legal in ``state``, or just played from it).

    >>> import diceboard
    >>> state = diceboard.game("custodian").parse("B5B2.../...../...../..B3../W3.W2.. W 0 10")
    >>> move_json(state, state.parse_move("c1^c3"))
    {'notation': 'c1^c3', 'kind': 'jump', 'from': 'c1', 'to': 'c3', 'segments': [['c1', 'c3']]}
    """
    info: dict[str, Any] = {"notation": move.notation, "kind": move.kind.value}
    if move.exchange:
        info["transfer"] = [[square, face] for square, face in move.exchange]
    else:
        if move.from_square is not None:
            info["from"] = move.from_square
        if move.to_square is not None:
            info["to"] = move.to_square
    if move.face is not None:
        info["face"] = move.face
    if move.roll is not None:
        info["roll"] = move.roll
    if move.capture:
        info["capture"] = True
    if move.direction is not None:
        info["dir"] = move.direction
    if move.absorbed:
        info["absorb"] = list(move.absorbed)
    if segments:
        try:
            info["segments"] = state.move_segments(move) if not state.is_chance() else []
        except ValueError:  # a move the engine cannot draw is still a move
            info["segments"] = []
    return info


def legal_moves_json(state: State, *, full: bool = True) -> list[dict[str, Any]]:
    """The legal moves of ``state`` (a decision) as JSON: each one's :func:`move_json`, and
    what the engine finds by playing it (:func:`move_outcomes`: ``rolled_after``,
    ``captures``) and searching its path (``segments``); ``full=False``: each move's own
    description alone (:func:`move_json` without segments), which programs need."""
    moves = state.legal_moves()
    described = [move_json(state, move, segments=False) for move in moves]
    if full:
        outcomes = move_outcomes(state, moves)
        paths = move_segments(state, moves)
        for info, extra, path in zip(described, outcomes, paths, strict=True):
            info.update(extra)
            info["segments"] = path
    return described


def move_outcomes(state: State, moves: list[Move]) -> list[dict[str, Any]]:
    """For each of ``moves`` (legal in ``state``, a decision), what the engine finds when it
    plays it: ``rolled_after`` (true) where a roll follows it (a Chaos step: the chooser
    then says the die is rolled), and ``captures``, the number of the opponents' dice it takes
    off the board, where it takes any and the moves do not mark their captures themselves.
    No rule is decided here: each move is played and the dice are counted."""
    rolls = games.info(state.game.name).has_chance
    # where the moves mark their captures themselves, playing each one to count is not needed
    count = not any(move.capture for move in moves)
    if not (rolls or count):
        return [{} for _ in moves]
    before: dict[str, int] | None = None
    mover = state.to_move
    outcomes = []
    for move in moves:
        extra: dict[str, Any] = {}
        after = state.play(move)
        if rolls and after.is_chance():
            extra["rolled_after"] = True
        if count:
            if before is None:
                before = state.dice_counts()
            taken = dice_lost(before, after.dice_counts(), mover)
            if taken:
                extra["captures"] = taken
        outcomes.append(extra)
    return outcomes


def move_segments(state: State, moves: list[Move]) -> list[list[list[str]]]:
    """The ``segments`` of each of ``moves`` (legal in ``state``): the polylines to draw, from
    ``State.move_segments`` (none at a chance node, or for a move the engine cannot draw)."""
    if state.is_chance():
        return [[] for _ in moves]
    paths = []
    for move in moves:
        try:
            paths.append(state.move_segments(move))
        except ValueError:  # a move the engine cannot draw is still a move
            paths.append([])
    return paths


def dice_lost(before: dict[str, int], after: dict[str, int], mover: str | None) -> int:
    """How many dice the players other than ``mover`` have fewer on the board ``after``."""
    return sum(max(0, n - after.get(p, 0)) for p, n in before.items() if p != mover)


def rolled_face(move: Move) -> int | None:
    """The face the server rolled in ``move``: a roll alone (``=4``) or one joined to a
    decision (a Chaos ``b1-d2=4``); ``None`` for a move without a roll."""
    return move.roll
