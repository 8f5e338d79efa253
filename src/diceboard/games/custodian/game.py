"""Custodian Dice: the game object and its states."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from diceboard.core.game import Game, State
from diceboard.core.move import Move, MoveKind
from diceboard.games.custodian import kernel, options, position
from diceboard.games.custodian.kernel.layout import (
    BOARD,
    HAND,
    PASS,
    PENDING,
    PENDING_SQ,
    PLACE,
    UNROLLED,
    square_name,
)
from diceboard.games.custodian.kernel.paths import walk_path
from diceboard.games.custodian.notation import ACTION_MOVES, ACTION_TEXT, parse_move

#: ACTION_MOVES as a numpy object array, to gather the moves of an array of action ids at once
_ACTION_MOVE_ARRAY = np.empty(len(ACTION_MOVES), dtype=object)
_ACTION_MOVE_ARRAY[:] = ACTION_MOVES

_SQUARE_INDEX = {square_name(sq): sq for sq in range(25)}

#: the first position of play in the spec's example
EXAMPLE_POSITION = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


class CustodianState(State):
    """A Custodian Dice state. See :class:`diceboard.core.game.State`."""

    __slots__ = ()

    def _fresh_moves(self) -> list[Move]:
        """The shared Move of each legal action id (the hot path of every playout through the
        API, so without the general hook's calls)."""
        lo = self._lo
        # numpy's gather over an object array: no Python int per id
        moves: list[Move] = _ACTION_MOVE_ARRAY[self._buf[lo : lo + self._n]].tolist()
        return moves


class CustodianGame(Game):
    """Custodian Dice with a set of options.

    >>> import diceboard
    >>> game = diceboard.game("custodian")
    >>> state = game.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    >>> state.to_move, len(state.legal_moves())
    ('W', 84)
    >>> str(state.play("b1-b2=2"))
    'B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11'
    """

    name = "custodian"
    title = "Custodian Dice"
    players: ClassVar[tuple[str, str]] = ("W", "B")
    player_names: ClassVar[tuple[str, str]] = ("White", "Black")
    squares: ClassVar[tuple[str, ...]] = tuple(square_name(sq) for sq in range(25))
    kernel: ClassVar[ModuleType] = kernel
    state_class: ClassVar[type[State]] = CustodianState

    def __init__(self, variant: str | None = None, **opts: Any) -> None:
        resolved = options.resolve(variant, opts)
        super().__init__(resolved, options.kernel_options(resolved), options.variant_of(resolved))

    def non_default_options(self) -> dict[str, Any]:
        return options.non_default(self._options)

    def initial_state(self) -> State:
        """The state before any roll: White's and Black's dice all unrolled.

        >>> import diceboard
        >>> str(diceboard.game("custodian").initial_state())
        '...../...../...../...../..... W 0 0 W?????,B?????'
        """
        arr = np.zeros(kernel.STATE_LEN, dtype=np.int64)
        kernel.new_game(arr)
        return self._root(arr)

    def action_notation(self, action_id: int, state: State | None = None) -> str:
        self.check_action_id(action_id)
        return ACTION_TEXT[action_id]

    def _parse_position(self, text: str) -> np.ndarray:
        return position.parse_position(
            text, self._options["faces"] == "roll", self._options["placement"] == "rolled"
        )

    def _format_position(self, arr: np.ndarray) -> str:
        return position.format_position(arr)

    def _board(self, arr: np.ndarray) -> dict[str, tuple[str, int | None]]:
        # the cells as Python ints in one conversion: reading numpy's scalars one by one
        # took three quarters of the time (8.7 against 2.4 us)
        cells = {}
        for name, v in zip(self.squares, arr[BOARD : BOARD + 25].tolist(), strict=True):
            if v:
                cells[name] = ("W" if v > 0 else "B", None if abs(v) == PENDING else abs(v))
        return cells

    def _hand(self, arr: np.ndarray) -> dict[str, tuple[int | None, ...]]:
        rolled = arr[HAND : HAND + 12].tolist()  # as in _board: one conversion
        unrolled = arr[UNROLLED : UNROLLED + 2].tolist()
        hands: dict[str, tuple[int | None, ...]] = {}
        for p, letter in enumerate(self.players):
            faces: list[int | None] = []
            for f in range(6):
                faces.extend([f + 1] * rolled[6 * p + f])
            faces.extend([None] * unrolled[p])
            hands[letter] = tuple(faces)
        return hands

    def _pending_square(self, arr: np.ndarray) -> str | None:
        sq = int(arr[PENDING_SQ])
        return square_name(sq) if sq >= 0 else None

    def _dice_counts(self, arr: np.ndarray) -> tuple[int, int]:
        # the kernel's own count (compiled: a third of numpy's cost on 25 cells)
        return kernel.dice_count(arr, 0), kernel.dice_count(arr, 1)

    def _move_segments(self, state: State, move: Move) -> list[list[str]]:
        action = move.actions[0]
        if action >= PASS:
            return []
        if action >= PLACE:
            return [[square_name((action - PLACE) % 25)]]
        frm, to = move.from_square, move.to_square
        if frm is None or to is None:
            return []
        if move.kind is MoveKind.JUMP:
            return [[frm, to]]
        start = _SQUARE_INDEX[frm]
        length = abs(int(state._arr[BOARD + start]))
        out = np.empty(length + 1, dtype=np.int64)
        n = walk_path(
            state.kernel_state(),
            start,
            _SQUARE_INDEX[to],
            length,
            self._options["path"] == "self-avoiding",
            out,
        )
        return [[square_name(int(sq)) for sq in out[:n]]] if n else [[frm, to]]

    def _parse_move(self, state: State, text: str) -> Move:
        return parse_move(state, text)

    def _moves_of(self, state: State, action_ids: Sequence[int] | np.ndarray) -> list[Move]:
        if isinstance(action_ids, np.ndarray):
            # numpy's gather over an object array: no Python int per id
            moves: list[Move] = _ACTION_MOVE_ARRAY[action_ids].tolist()
            return moves
        return list(map(ACTION_MOVES.__getitem__, action_ids))
