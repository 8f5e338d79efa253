"""Chase: the game object and its states."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from diceboard.core.game import Game, State
from diceboard.core.move import Move
from diceboard.games.chase import kernel, notation, options, position
from diceboard.games.chase.kernel.geometry import CHAMBER, HEX_NAMES, NHEX
from diceboard.games.chase.kernel.layout import ABSORB, BOARD, COUNT, PHASE_ABSORB, TRANSFER
from diceboard.games.chase.kernel.trace import MAX_TRACE
from diceboard.games.chase.kernel.transfer import transfer_hexes
from diceboard.kernel import PHASE


class ChaseState(State):
    """A Chase state. See :class:`diceboard.core.game.State`.

    While the player to move has pips to absorb, :meth:`legal_moves` lists whole turns, each
    with its absorption prefix (``{a1}d6-d3SW``), whereas :meth:`legal_action_ids` lists the
    kernel's single decisions (the absorb steps first).
    """

    __slots__ = ()

    def must_absorb(self) -> bool:
        """Whether the player to move has yet to absorb pips before acting."""
        return self._buf.item(PHASE) == PHASE_ABSORB and not self.is_terminal()

    def _fresh_moves(self) -> list[Move]:
        """The legal turns: whole turns with their absorption prefix while the player must
        absorb, else the shared Move of each legal action's notation key (the kernel lists
        the keys with the actions, in the state's buffer)."""
        buf = self._buf
        # (_lists_whole_turns, written out: the hot path of every Chase playout through the API)
        if buf.item(PHASE) == PHASE_ABSORB and not self._flags:
            return notation.turns_with_prefix(self._arr, self._game.opts)
        lo, n = self._lo, self._n
        return notation.moves_of_keys(buf[lo + n : lo + 2 * n])

    def _lists_whole_turns(self) -> bool:
        """Whether the legal moves are whole turns with their absorption prefix (the player
        to move must absorb, at a decision)."""
        return self._buf.item(PHASE) == PHASE_ABSORB and not self._flags

    def _legal_moves(self) -> list[Move]:
        """The legal turns, kept with the state except the whole turns of a position that
        must absorb: they are many Moves (80 on average in random games, hundreds in some
        positions), which a game's chain of states would keep alive for the garbage
        collector to go over again and again (in random playouts it took twice the time it
        takes for the turns to be built again when asked twice)."""
        moves = self._moves
        if moves is None:
            moves = self._fresh_moves()
            if not self._lists_whole_turns():
                self._moves = moves
        return moves


class ChaseGame(Game):
    """Chase with its options (``no_capture_limit``, default 100; 0 turns the limit off).

    >>> import diceboard
    >>> game = diceboard.game("chase")
    >>> state = game.start()
    >>> state.to_move, len(state.legal_moves())
    ('B', 46)
    >>> after = state.play("a4-e6NE")
    >>> str(after).split("/")[4], str(after).split()[1:]
    ('.....B4...', ['R', '1', '1'])
    """

    name = "chase"
    title = "Chase"
    players = ("B", "R")
    player_names = ("Blue", "Red")
    squares = HEX_NAMES
    #: the chamber hex
    chamber = HEX_NAMES[CHAMBER]
    kernel: ClassVar[ModuleType] = kernel
    state_class = ChaseState

    def __init__(self, variant: str | None = None, **opts: Any) -> None:
        if variant is not None:
            opts = {"variant": variant, **opts}
        resolved = options.resolve(opts)
        super().__init__(resolved, options.kernel_options(resolved), "standard")

    def non_default_options(self) -> dict[str, Any]:
        return options.non_default(self._options)

    def initial_state(self) -> State:
        """The standard start: Blue 1 2 3 4 5 4 3 2 1 on row a, Red on row i, Blue to move.

        >>> import diceboard
        >>> str(diceboard.game("chase").initial_state()).split()[1:]
        ['B', '0', '0']
        """
        arr = np.zeros(kernel.STATE_LEN, dtype=np.int64)
        kernel.new_game(arr)
        return self._root(arr)

    def action_notation(self, action_id: int, state: State | None = None) -> str:
        """The notation of one kernel decision. With ``state`` it is exact (``d6-d3SW``,
        ``a1=2,a2=1``, ``{a1}``); without, a move reads ``d6SW`` (hex and direction), a
        transfer ``a1=3,a2=?`` (the first die of its pair takes face 3) and an absorb step
        ``{a1}``."""
        self.check_action_id(action_id)
        if state is None:
            return notation.STATELESS_TEXT[action_id]
        return notation.action_text(state.kernel_state(), action_id)

    def _parse_position(self, text: str) -> np.ndarray:
        return position.parse_position(text)

    def _format_position(self, arr: np.ndarray) -> str:
        return position.format_position(arr)

    def _board(self, arr: np.ndarray) -> dict[str, tuple[str, int | None]]:
        # the cells as Python ints in one conversion (numpy's scalars one by one are slow)
        cells: dict[str, tuple[str, int | None]] = {}
        for name, v in zip(HEX_NAMES, arr[BOARD : BOARD + NHEX].tolist(), strict=True):
            if v:
                cells[name] = ("B" if v > 0 else "R", abs(v))
        return cells

    def _dice_counts(self, arr: np.ndarray) -> tuple[int, int]:
        # the kernel keeps each player's count in the state
        return int(arr[COUNT]), int(arr[COUNT + 1])

    def _move_segments(self, state: State, move: Move) -> list[list[str]]:
        """The act of the turn (absorbing moves no die): for a move, the moving die's path
        from its hex through every hex it passes to its landing hex (or the chamber), then
        ``[from, to]`` for each bumped die and ``[e5, exit]`` for each die leaving the
        chamber, in the order they move; for a transfer, ``[from, to]`` pointing from the
        die that gives pips to the die that receives them."""
        arr = state.kernel_state()
        for action in move.actions:
            if action >= ABSORB:
                kernel.step(arr, self._opts, action, np.zeros(1, dtype=np.int64), 1)
            elif action >= TRANSFER:
                anchor, partner, face = (int(x) for x in transfer_hexes(action))
                gives = abs(int(arr[BOARD + anchor])) > face
                pair = [HEX_NAMES[anchor], HEX_NAMES[partner]]
                return [pair if gives else pair[::-1]]
            else:
                trace = np.empty(2 * MAX_TRACE, dtype=np.int64)
                n = int(kernel.move_trace(arr, action, trace))
                segments: list[list[str]] = []
                for segment, hex_index in trace[: 2 * n].reshape(n, 2).tolist():
                    if segment == len(segments):
                        segments.append([])
                    segments[segment].append(HEX_NAMES[hex_index])
                return segments
        return []

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_turn(state, text)

    def _moves_of(self, state: State, action_ids: Sequence[int] | np.ndarray) -> list[Move]:
        # a writable copy, as every other caller gives the kernel (a read-only array would
        # be another type for numba to compile it for)
        return notation.moves_of(state.kernel_state(), np.asarray(action_ids, dtype=np.int64))
