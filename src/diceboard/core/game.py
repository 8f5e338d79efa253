"""Games and states: the idiomatic API around a rules kernel.

A :class:`Game` is a rule set (a game with its options); a :class:`State` is an immutable
position of that game together with the history that the repetition rule needs. Every rule is
decided by the game's kernel; this module only moves arrays in and out of it and turns action
ids into :class:`~diceboard.core.move.Move` objects.

Subclasses (one per game) supply the kernel and the game's notation: position strings and move
text. Everything else is shared.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

import numpy as np

from diceboard.core.errors import GameOverError, IllegalMoveError
from diceboard.core.move import Move
from diceboard.core.outcome import Outcome
from diceboard.kernel import (
    CLOCK,
    HASH,
    PLY,
    REASON,
    REASONS,
    RESULT,
    RESULT_DRAW,
    RESULT_FIRST,
    TO_MOVE,
)
from diceboard.kernel.stepping import FLAG_CHANCE, Made, direct

_RESULT_STRINGS = ("*", "1-0", "0-1", "1/2-1/2")
#: action ids at or above this do not fit the kernels' int64
_INT64_LIMIT = 1 << 63


@dataclass(frozen=True, slots=True)
class PendingRoll:
    """The chance event a state waits for: the roll of ``player``'s die on ``square``, or
    (``square`` ``None``) of a die into ``player``'s hand during setup."""

    player: str
    square: str | None


class Game(ABC):
    """A game with its options: makes, parses and names states, moves and action ids.

    Games are immutable values: two games with the same name and options are equal.
    """

    #: short name used by :func:`diceboard.game` and the command line
    name: ClassVar[str]
    #: the game's full name, as written in records
    title: ClassVar[str]
    #: the players' letters, first player first
    players: ClassVar[tuple[str, str]]
    #: the players' colour names, first player first
    player_names: ClassVar[tuple[str, str]]
    #: every square (hex) name, in board order
    squares: ClassVar[tuple[str, ...]]
    #: the rules kernel: a module with ``legal_actions``, ``step``, ``MAX_LEGAL``, ``STATE_LEN``
    #: and ``NUM_ACTIONS``
    kernel: ClassVar[ModuleType]

    def __init__(self, options: Mapping[str, Any], opts: np.ndarray, variant: str | None) -> None:
        self._options = dict(options)
        # a game is a dict key wherever states are cached (the server's legal moves, the
        # searches' tables): its hash is worked out once, not from its sorted options each time
        self._hash = self._identity_hash()
        self._opts = np.ascontiguousarray(opts, dtype=np.int64)
        self._opts.flags.writeable = False
        self._variant = variant
        self._max_legal = int(self.kernel.MAX_LEGAL)
        self._state_len = int(self.kernel.STATE_LEN)
        self._legal_width = int(self.kernel.LEGAL_WIDTH)
        self._pack = self.kernel.pack
        # play's kernel call: numba's dispatcher until its first call finds the compiled
        # function it runs (stepping.direct), which later calls run with no dispatcher
        self._advance: Callable[[np.ndarray, np.ndarray, int], Made] = self._advance_first

    def _advance_first(self, buf: np.ndarray, opts: np.ndarray, action: int) -> Made:
        # every later call passes arguments of these types: a state's read-only buffer,
        # this game's options array (C-contiguous int64, made read-only above) and an int
        call: Callable[[np.ndarray, np.ndarray, int], Made] = direct(
            self.kernel.advance, (buf, opts, action)
        )
        self._advance = call
        return call(buf, opts, action)

    def __getstate__(self) -> dict[str, Any]:
        # the kernel's functions are left out (a compiled function found by direct() is no
        # picklable object, nor is a template's plain copy under NUMBA_DISABLE_JIT): the
        # copy takes them from its kernel again
        state = dict(vars(self))
        # (and the hash: a string's hash differs from one process to the next)
        del state["_pack"], state["_advance"], state["_hash"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._hash = self._identity_hash()
        self._pack = self.kernel.pack
        self._advance = self._advance_first

    # --- identity ---------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        """Every option with its value (defaults included)."""
        return dict(self._options)

    @property
    def variant(self) -> str | None:
        """The variant preset the game was made from, if any."""
        return self._variant

    @property
    def opts(self) -> np.ndarray:
        """The kernel's options array (read-only)."""
        return self._opts

    @property
    def num_actions(self) -> int:
        """Size of the fixed action space: every action id is in ``range(num_actions)``."""
        return int(self.kernel.NUM_ACTIONS)

    @abstractmethod
    def non_default_options(self) -> dict[str, Any]:
        """The options that differ from the game's defaults (as a record writes them)."""

    def __eq__(self, other: object) -> bool:
        return other is self or (
            isinstance(other, Game) and other.name == self.name and other._options == self._options
        )

    def __hash__(self) -> int:
        return self._hash

    def _identity_hash(self) -> int:
        return hash((self.name, tuple(sorted(self._options.items()))))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.non_default_options().items())
        return f"diceboard.game({self.name!r}{args})"

    # --- states -----------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> State:
        """The very first state of a game (a chance state where the game begins with rolls)."""

    def start(self, seed: int | None = None) -> State:
        """The first decision state: the leading chance events resolved by a seeded RNG."""
        rng = random.Random(seed)
        state = self.initial_state()
        while state.is_chance():
            outcomes = state.legal_action_ids()
            state = state.play(outcomes[rng.randrange(len(outcomes))])
        return state

    def parse(self, text: str) -> State:
        """The state that a position string describes (raises :class:`PositionError`)."""
        arr = self._parse_position(text)
        return self._root(arr)

    def _root(self, arr: np.ndarray) -> State:
        """A state without history; runs the kernel's static end checks if it has them."""
        static_end = getattr(self.kernel, "check_static_end", None)
        if static_end is not None:
            static_end(arr, self._opts)
        hist = np.array([arr[HASH]], dtype=np.int64)
        return self.state_class(self, arr, hist, None, None)

    #: the State subclass this game makes
    state_class: ClassVar[type[State]]

    # --- actions ----------------------------------------------------------------------------
    def action_id(self, move: Move | str, state: State | None = None) -> int:
        """The action id of a single-action move (a notation string needs the ``state``)."""
        if isinstance(move, str):
            if state is None:
                raise ValueError("a move given as text needs the state it is played in")
            move = state.parse_move(move)
        return move.action

    def action_ids(self, move: Move) -> tuple[int, ...]:
        """The action ids that make up ``move``, in order."""
        return move.actions

    @abstractmethod
    def action_notation(self, action_id: int, state: State | None = None) -> str:
        """The notation of one action id (``state`` makes it exact where context matters)."""

    def check_action_id(self, action_id: int) -> None:
        """Raise ``IllegalMoveError`` unless ``action_id`` lies in the action space."""
        if not 0 <= action_id < self.num_actions:
            raise IllegalMoveError(
                f"action id {action_id} is outside the action space 0..{self.num_actions - 1}"
            )

    # --- notation hooks ----------------------------------------------------------------------
    @abstractmethod
    def _parse_position(self, text: str) -> np.ndarray:
        """Kernel array of a position string (raises PositionError)."""

    @abstractmethod
    def _format_position(self, arr: np.ndarray) -> str:
        """Position string of a kernel array."""

    @abstractmethod
    def _board(self, arr: np.ndarray) -> dict[str, tuple[str, int | None]]:
        """Occupied squares of a kernel array: name -> (owner letter, face or None for ?)."""

    def _hand(self, arr: np.ndarray) -> dict[str, tuple[int | None, ...]]:
        """The hands of a kernel array (games without a hand keep this default)."""
        return {p: () for p in self.players}

    def _pending_square(self, arr: np.ndarray) -> str | None:
        """At a chance node, the square of the die to be rolled (``None``: into the hand)."""
        return None

    def _dice_counts(self, arr: np.ndarray) -> tuple[int, int]:
        """How many dice each player has on the board of a kernel array, first player first.
        Games whose board can be counted without naming every square override this (a
        snapshot counts it for the position after each legal move)."""
        counts = dict.fromkeys(self.players, 0)
        for owner, _ in self._board(arr).values():
            counts[owner] += 1
        first, second = self.players
        return counts[first], counts[second]

    def _move_segments(self, state: State, move: Move) -> list[list[str]]:
        """Squares that ``move`` visits in ``state``, as polylines for drawing arrows."""
        return []

    @abstractmethod
    def _parse_move(self, state: State, text: str) -> Move:
        """The legal move that ``text`` names in ``state`` (raises NotationError or
        IllegalMoveError with the reason)."""

    @abstractmethod
    def _moves_of(self, state: State, action_ids: Sequence[int] | np.ndarray) -> list[Move]:
        """The moves of ``state`` given its legal action ids."""


class State:
    """An immutable game state: a position plus the history the repetition rule needs.

    States are hashable and compare equal when their position and repetition history are
    equal. Each state also remembers the state and move it came from (:attr:`parent`,
    :attr:`last_move`), which records use; that link plays no part in equality.

    A state is one read-only ``int64`` buffer that the kernel fills in one call
    (:mod:`diceboard.kernel.stepping`): the kernel's state array, the history and the legal
    actions; ``_arr``, ``_hist`` and ``_legal`` are views of it, made when first read.
    """

    __slots__ = (
        "_arr",
        "_buf",
        "_flags",
        "_game",
        "_hist",
        "_ids",
        "_last",
        "_legal",
        "_lo",
        "_moves",
        "_n",
        "_parent",
        "_str",
    )

    _game: Game
    _buf: np.ndarray
    #: where the legal actions begin in the buffer, and how many there are
    _lo: int
    _n: int
    #: the flag bits of the kernel's code (FLAG_TERMINAL, FLAG_CHANCE)
    _flags: int
    _parent: State | None
    _last: Move | int | None
    _moves: list[Move] | None
    # views of the buffer and caches, set when first read (see __getattr__)
    _arr: np.ndarray
    _hist: np.ndarray
    _legal: np.ndarray
    _ids: list[int] | None
    _str: str | None

    def __init__(
        self,
        game: Game,
        arr: np.ndarray,
        hist: np.ndarray,
        parent: State | None,
        last: Move | int | None,
    ) -> None:
        """The state of ``game`` whose kernel array is ``arr`` and whose repetition history
        is ``hist`` (both copied), played from ``parent`` by ``last`` (or ``None``)."""
        lo, n, flags, buf = game._pack(arr, hist, game._opts)
        self._game = game
        self._buf = buf
        self._lo = lo
        self._n = n
        self._flags = flags
        self._parent = parent
        # the move that led here, or its action id until someone asks (building a Move for
        # a state played by action id is work most callers never need)
        self._last = last
        self._moves = None

    if not TYPE_CHECKING:  # mypy keeps checking attribute names

        def __getattr__(self, name: str) -> Any:
            # reached only for a slot that is not set: a view not made yet, or a cache not
            # filled yet (left unset: a new state sets only what every state needs)
            if name in _CACHES:
                return None
            buf = object.__getattribute__(self, "_buf")
            if name == "_arr":
                view = buf[: self._game._state_len]
            elif name == "_hist":
                view = buf[self._game._state_len + 1 : self._lo]
            elif name == "_legal":
                view = buf[self._lo : self._lo + self._n]
            else:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            setattr(self, name, view)
            return view

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through __init__, so that the arrays come back read-only
        return (
            self._game.state_class,
            (self._game, self.kernel_state(), self.kernel_history(), self._parent, self._last),
        )

    # --- position ----------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game (rules and options) of this state."""
        return self._game

    @property
    def to_move(self) -> str:
        """Letter of the player who decides next (the mover, while a roll is pending)."""
        return self._game.players[int(self._arr[TO_MOVE])]

    @property
    def ply(self) -> int:
        """The ply counter of the position string."""
        return int(self._arr[PLY])

    @property
    def clock(self) -> int:
        """The no-capture clock of the position string."""
        return int(self._arr[CLOCK])

    @property
    def zobrist(self) -> int:
        """64-bit Zobrist hash of the position (without history), as a signed int."""
        return int(self._arr[HASH])

    def board(self) -> dict[str, tuple[str, int | None]]:
        """The dice on the board: square name -> (owner letter, face), in board order.
        The face is ``None`` for a die whose roll is pending (``?``)."""
        return self._game._board(self._arr)

    def hand(self) -> dict[str, tuple[int | None, ...]]:
        """The dice each player holds off the board, first player first: the rolled faces
        (ascending), then ``None`` for each die not yet rolled. Only Custodian Dice's setup
        has a hand; otherwise every tuple is empty."""
        return self._game._hand(self._arr)

    def dice_counts(self) -> dict[str, int]:
        """How many dice each player has on the board, first player first."""
        return dict(zip(self._game.players, self._game._dice_counts(self._arr), strict=True))

    def pending_roll(self) -> PendingRoll | None:
        """At a chance node, whose die is about to be rolled and where it stands (``square``
        is ``None`` for a die rolled into the hand during setup); otherwise ``None``."""
        if not self.is_chance():
            return None
        return PendingRoll(self.to_move, self._game._pending_square(self._arr))

    def move_segments(self, move: Move | str) -> list[list[str]]:
        """Where ``move`` (legal here) takes dice, as polylines of square names for drawing:
        the moving die's path first (with every square it passes, wraps and ricochets
        included), then one polyline per die it displaces. Empty for passes and rolls."""
        if isinstance(move, str):
            move = self.parse_move(move)
        return self._game._move_segments(self, move)

    def kernel_state(self) -> np.ndarray:
        """A writable copy of the kernel's state array."""
        return self._arr.copy()

    def kernel_history(self) -> np.ndarray:
        """A copy of the repetition history (hashes since the last capture)."""
        return self._hist.copy()

    def __str__(self) -> str:
        if self._str is None:
            self._str = self._game._format_position(self._arr)
        return self._str

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    def __eq__(self, other: object) -> bool:
        # the buffer is the position, the history and what follows from the position alone
        # (its legal actions), so equal buffers are equal positions and histories; unequal
        # Zobrist keys tell most unequal states apart at once
        if self is other:
            return True
        if not isinstance(other, State):
            return NotImplemented
        mine, theirs = self._buf, other._buf
        return (
            mine.item(HASH) == theirs.item(HASH)
            and (self._game is other._game or self._game == other._game)
            and mine.shape == theirs.shape
            and mine.tobytes() == theirs.tobytes()
        )

    def __hash__(self) -> int:
        # the position's Zobrist key (kept by the kernel) and the history's length: equal
        # states have equal buffers, so equal hashes
        buf = self._buf
        return hash((buf.item(HASH), buf.item(self._game._state_len)))

    # --- status ------------------------------------------------------------------------------
    def is_chance(self) -> bool:
        """Whether the next event is a chance outcome (a roll) rather than a decision."""
        return self._flags == FLAG_CHANCE

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return _TERMINAL[self._flags]

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else how it ended."""
        code = int(self._arr[RESULT])
        if code == 0:
            return None
        winner = None if code == RESULT_DRAW else self._game.players[code - RESULT_FIRST]
        return Outcome(winner, REASONS[int(self._arr[REASON])], _RESULT_STRINGS[code])

    # --- actions and moves -------------------------------------------------------------------
    def _legal_array(self) -> np.ndarray:
        """The legal action ids (a read-only view of the state's buffer)."""
        return self._legal

    def _legal_ids(self) -> list[int]:
        """The legal action ids as Python ints (cached)."""
        if self._ids is None:
            self._ids = self._legal.tolist()
        return self._ids

    def legal_action_ids(self) -> list[int]:
        """Ids of the legal decisions, or of the chance outcomes at a chance node."""
        return list(self._legal_ids())

    def _fresh_moves(self) -> list[Move]:
        """The legal moves (or chance outcomes) of this position, in a new list."""
        lo = self._lo
        return self._game._moves_of(self, self._buf[lo : lo + self._n])

    def _legal_moves(self) -> list[Move]:
        """The legal moves (or chance outcomes) of this position, built once and kept (never
        handed out: callers get a copy)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._fresh_moves()
        return moves

    def legal_moves(self) -> list[Move]:
        """The legal moves in canonical notation, sorted (empty at chance nodes and at the
        end of the game)."""
        if self._flags:
            return []
        moves = self._moves
        # the list is new either way: a copy of the kept one, or, where none is kept (the
        # state's first call, most often its only one), the one built, which is not kept
        return self._fresh_moves() if moves is None else moves.copy()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node, each outcome with its probability; otherwise empty."""
        if self._flags != FLAG_CHANCE:
            return []
        moves = self._legal_moves()
        p = 1.0 / len(moves)
        return [(move, p) for move in moves]

    def parse_move(self, text: str) -> Move:
        """The legal move (or chance outcome) that ``text`` names here.

        Raises :class:`NotationError` for text that is not notation and
        :class:`IllegalMoveError`, saying why, for a move the rules do not allow.
        """
        if self.is_terminal():
            raise GameOverError(f"the game is over ({self.outcome()}); no move can be played")
        return self._game._parse_move(self, text.strip())

    def play(self, move: Move | str | int) -> State:
        """The state after ``move``: a :class:`Move`, its notation, or one action id.
        ``self`` is unchanged."""
        if isinstance(move, Move):
            actions = move.actions
            if len(actions) != 1:
                return self._apply(actions, move)
            a = actions[0]
            last: Move | int = move
        elif isinstance(move, str):
            parsed = self.parse_move(move)
            return self._apply(parsed.actions, parsed)
        elif isinstance(move, int | np.integer):
            # the move that led here is kept as its action id until someone asks (building
            # a Move for a state played by action id is work most callers never need)
            a = last = int(move)
        else:
            raise TypeError(f"play() takes a Move, its notation or an action id, not {move!r}")
        if type(a) is not int or not 0 <= a < _INT64_LIMIT:
            a = self._checked(a)
        game = self._game
        # one compiled call checks legality, copies the state and history, steps, lists the
        # new state's legal actions and hands back the new state's read-only buffer
        lo, n, flags, buf = game._advance(self._buf, game._opts, a)
        if flags < 0:
            self._refuse(a)
        # as State.__init__ does, inline: this is the hot path of every playout
        child = _new_state(type(self))
        child._game = game
        child._buf = buf
        child._lo = lo
        child._n = n
        child._flags = flags
        child._parent = self
        child._last = last
        child._moves = None
        return child

    def _apply(self, actions: tuple[int, ...], move: Move) -> State:
        """The state after the actions of a multi-action ``move``, each checked in turn."""
        if not actions:  # no action at all: the same position, reached by ``move``
            return self._game.state_class(self._game, self._arr, self._hist, self, move)
        where = self
        for a in actions:
            where = where.play(a)
        # the one state handed out comes from here, by ``move`` (the others are dropped)
        where._parent = self
        where._last = move
        return where

    def _checked(self, a: object) -> int:
        """``a``, an action id of a Move made outside the game, as an int, if it is one in
        the range of the kernel's ints (a Move's actions are not checked when it is made)."""
        if not isinstance(a, int | np.integer):
            raise TypeError(f"an action id is an int, not {a!r}")
        a = int(a)
        if not 0 <= a < _INT64_LIMIT:
            self._refuse(a)
        return a

    def _refuse(self, a: int) -> NoReturn:
        """Raise the error that says why the action ``a`` cannot be played here."""
        game = self._game
        if self._arr[RESULT]:
            raise GameOverError(f"the game is over ({self.outcome()}); no move can be played")
        game.check_action_id(a)
        raise IllegalMoveError(
            f"action {a} ({game.action_notation(a, self)}) is not legal in {self}"
        )

    # --- history -----------------------------------------------------------------------------
    @property
    def parent(self) -> State | None:
        """The state this one was played from, if it was made by :meth:`play`."""
        return self._parent

    @property
    def last_move(self) -> Move | None:
        """The move that led from :attr:`parent` to this state."""
        last = self._last
        if isinstance(last, int):
            parent = self._parent
            assert parent is not None  # an action id is kept only by play()
            last = self._last = self._game._moves_of(parent, [last])[0]
        return last

    def move_stack(self) -> list[Move]:
        """The moves from :meth:`root` to this state, in order."""
        moves: list[Move] = []
        node: State | None = self
        while node is not None:
            last = node.last_move
            if last is None:
                break
            moves.append(last)
            node = node._parent
        moves.reverse()
        return moves

    def root(self) -> State:
        """The earliest state reachable through :attr:`parent` links."""
        node = self
        while node._parent is not None:
            node = node._parent
        return node

    def path(self) -> Iterator[State]:
        """The states from :meth:`root` to this one, in order."""
        nodes: list[State] = []
        node: State | None = self
        while node is not None:
            nodes.append(node)
            node = node._parent
        return reversed(nodes)

    # --- display -----------------------------------------------------------------------------
    #: set by the rendering layer when it is imported (the core never imports it)
    svg_renderer: ClassVar[Callable[[State], str] | None] = None

    def _repr_svg_(self) -> str | None:
        """SVG picture of the position, for Jupyter."""
        renderer = State.svg_renderer
        return None if renderer is None else renderer(self)


#: the slots a new state leaves unset until they are first filled (read as ``None``)
_CACHES = frozenset(["_ids", "_str"])
#: ``is_terminal`` by the flags of a state's code
_TERMINAL = (False, True, False, True)
_new_state = object.__new__
