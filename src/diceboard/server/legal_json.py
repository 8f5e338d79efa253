"""The legal moves of a position as JSON text, built once per position and shared by every
game that reaches it, and only in the form that its viewers ask for.

What :func:`~diceboard.server.move_json.legal_moves_json` says about a position's moves is a
pure function of the position: its kernel array and its legal actions (the history changes
neither the moves' descriptions, nor the dice they take, nor whether a roll follows them).
So the text is kept in a bounded cache keyed by the game and those two arrays, and a position
that several games reach (every game's first moves, a common opening) is described once.

There are two forms. The plain one is each move's own description (its notation, kind,
squares, faces: :func:`~diceboard.server.move_json.move_json` without segments), which does
not depend on the position at all, so each move's text is made once and reused wherever the
move is legal: a position costs a few string joins. The full one adds what the engine finds
by playing each move and searching its path (``rolled_after``, ``captures``, ``segments``,
an engine step and a path search per move): what a board's move chooser shows. Programs,
which ask for snapshots without pictures, get the plain form and never pay for the rest.
"""

from __future__ import annotations

from collections import OrderedDict

from diceboard.core.game import Game, State
from diceboard.core.move import Move
from diceboard.server import jsontext
from diceboard.server.move_json import move_json, move_outcomes, move_segments

#: what identifies a position's legal moves: the game, its kernel array, its legal actions
PositionKey = tuple[Game, bytes, tuple[int, ...]]


class _Position:
    """The cached texts of one position's legal moves, each made when first asked for."""

    __slots__ = ("full", "plain")

    def __init__(self) -> None:
        self.plain: str | None = None
        self.full: str | None = None


class LegalMovesText:
    """Legal moves as JSON text (a list), cached per position: at most ``size`` positions (the
    least recently used go) and about ``move_size`` moves' own texts (all forgotten at once
    when there are more: a game has a few thousand distinct moves, so that is rare)."""

    def __init__(self, size: int = 4096, move_size: int = 65536) -> None:
        self._size = size
        self._move_size = move_size
        self._positions: OrderedDict[PositionKey, _Position] = OrderedDict()
        #: game -> notation -> the move's own JSON members, as text without the closing brace
        #: (a move's structure follows from its notation; a string keeps its hash)
        self._moves: dict[Game, dict[str, str]] = {}
        self._move_count = 0
        #: how many texts were asked for and how many of them were already made (benchmarks)
        self.asked = 0
        self.reused = 0

    def text(self, state: State, *, full: bool = True) -> str:
        """The legal moves of ``state`` (``[]`` at a chance node or the end) as JSON text: as
        :func:`~diceboard.server.move_json.legal_moves_json` describes them, or
        (``full=False``) each move's own description alone."""
        self.asked += 1
        if state.is_chance() or state.is_terminal():
            return "[]"
        key = position_key(state)
        entry = self._positions.get(key)
        if entry is None:
            entry = self._positions[key] = _Position()
            while len(self._positions) > self._size:
                self._positions.popitem(last=False)
        else:
            self._positions.move_to_end(key)
        text = entry.full if full else entry.plain
        if text is not None:
            self.reused += 1
            return text
        moves = state.legal_moves()
        own = self._own(state, moves)
        if full:
            outcomes = move_outcomes(state, moves)
            paths = move_segments(state, moves)
            parts = [
                part
                + ("," + jsontext.dumps(extra)[1:-1] if extra else "")
                + ',"segments":'
                + jsontext.dumps(path)
                + "}"
                for part, extra, path in zip(own, outcomes, paths, strict=True)
            ]
            text = entry.full = "[" + ",".join(parts) + "]"
        else:
            text = entry.plain = "[" + "},".join(own) + ("}]" if own else "]")
        return text

    def _own(self, state: State, moves: list[Move]) -> list[str]:
        """Each of ``moves``' own members (its structure alone, the same in every position),
        as text without the closing brace."""
        known = self._moves.get(state.game)
        if known is None or self._move_count > self._move_size:
            if self._move_count > self._move_size:  # full: start again (rare: moves recur)
                self._moves.clear()
                self._move_count = 0
            known = self._moves.setdefault(state.game, {})
        parts = []
        for move in moves:
            own = known.get(move.notation)
            if own is None:
                own = jsontext.dumps(move_json(state, move, segments=False))[:-1]
                known[move.notation] = own
                self._move_count += 1
            parts.append(own)
        return parts


def position_key(state: State) -> PositionKey:
    """What the description of ``state``'s legal moves depends on (and nothing else)."""
    return (
        state.game,
        state.kernel_state().tobytes(),
        tuple(state.legal_action_ids()),
    )
