"""The state of a batch of games: plain numpy arrays, one row per game."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import numpy as np

from diceboard.core.game import Game, State
from diceboard.encoding import Encoding
from diceboard.vector import kernels
from diceboard.vector.spares import Spares
from diceboard.vector.threads import ThreadChoice, run_batch_loop


@dataclass(frozen=True, eq=False)
class BatchConfig:
    """What every state of one batch shares: the game, its start and the stepping rules."""

    game: Game
    #: the batch loops compiled for the game
    loops: kernels.Loops
    encoding: Encoding
    #: kernel state array and repetition history of the start position
    start: np.ndarray
    start_history: np.ndarray
    auto_reset: bool
    #: decisions after which a game is truncated (0: never)
    max_steps: int
    #: the kernel's legal-action buffer size
    max_legal: int
    #: per batch loop ("reset", "step", "observe"): serial or parallel, as measured
    thread_choices: dict[str, ThreadChoice] = field(default_factory=dict)
    #: the arrays of this batch's dropped states, for the next functional steps
    spares: Spares = field(default_factory=Spares)

    def thread_choice(self, loop: str) -> ThreadChoice:
        """The serial-or-parallel decision of the batch loop ``loop`` for this batch."""
        choice = self.thread_choices.get(loop)
        if choice is None:
            choice = self.thread_choices[loop] = ThreadChoice()
        return choice


#: a state's per-game arrays, in the order :class:`VectorState` takes them
ARRAY_FIELDS = (
    "states",
    "history",
    "history_len",
    "legal_ids",
    "num_legal",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
    "steps",
    "rng",
    "chance_outcomes",
    "num_chance_outcomes",
)


#: reads :data:`ARRAY_FIELDS` of a state at once (twice per step: a tenth of the Python a step
#: costs when it is a generator of getattr calls)
_get_arrays = operator.attrgetter(*ARRAY_FIELDS)


class VectorState:
    """``B`` games in arrays: the result of :func:`~diceboard.vector.init` and
    :func:`~diceboard.vector.step`. Treat it as immutable (``step`` returns a new one).

    Per-game arrays (first axis = game):

    ========================  ==========================================================
    ``states``                ``(B, STATE_LEN)`` int64 kernel state arrays
    ``history``               ``(B, H)`` int64 repetition histories, ``history_len`` used
    ``legal_ids``             ``(B, MAX_LEGAL)`` int16 legal action ids, ``num_legal`` used
    ``current_player``        ``(B,)`` int8: 0 or 1, -1 for a finished game
    ``rewards``               ``(B, 2)`` float32 rewards of the last step per player
                              (+1 win, -1 loss, 0 draw or game going on)
    ``terminated``            ``(B,)`` bool: the last step ended the game by the rules
    ``truncated``             ``(B,)`` bool: the last step reached ``max_steps``
    ``steps``                 ``(B,)`` int32 decisions played in the current game
    ``chance_outcomes``       ``(B, L)`` int16 the chance outcome ids the last step rolled
                              (the finished game's, then the new game's leading rolls),
                              ``num_chance_outcomes`` of them
    ``rng``                   ``(B,)`` uint64 each game's random stream
    ========================  ==========================================================

    :attr:`observation` and :attr:`legal_action_mask` are computed on first use and kept.
    """

    __slots__ = (
        "_mask",
        "_observation",
        "chance_outcomes",
        "config",
        "current_player",
        "history",
        "history_len",
        "legal_ids",
        "num_chance_outcomes",
        "num_legal",
        "rewards",
        "rng",
        "states",
        "steps",
        "terminated",
        "truncated",
    )

    def __init__(
        self,
        config: BatchConfig,
        states: np.ndarray,
        history: np.ndarray,
        history_len: np.ndarray,
        legal_ids: np.ndarray,
        num_legal: np.ndarray,
        current_player: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray,
        steps: np.ndarray,
        rng: np.ndarray,
        chance_outcomes: np.ndarray,
        num_chance_outcomes: np.ndarray,
    ) -> None:
        self.config = config
        self.states = states
        self.history = history
        self.history_len = history_len
        self.legal_ids = legal_ids
        self.num_legal = num_legal
        self.current_player = current_player
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.steps = steps
        self.rng = rng
        self.chance_outcomes = chance_outcomes
        self.num_chance_outcomes = num_chance_outcomes
        self._observation: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The per-game arrays, in the order of :data:`ARRAY_FIELDS` (the constructor's)."""
        arrays: tuple[np.ndarray, ...] = _get_arrays(self)
        return arrays

    def __del__(self) -> None:
        # the arrays go to the next functional step if nothing else holds them (see spares).
        # A plain try, not contextlib.suppress: at interpreter exit a module's globals may
        # already be None, and a state still held then would print a TypeError
        try:  # noqa: SIM105
            self.config.spares.keep(self.arrays())
        except Exception:  # half-built, or the interpreter is shutting down
            pass

    @property
    def game(self) -> Game:
        """The game every row plays."""
        return self.config.game

    @property
    def batch_size(self) -> int:
        """The number of games ``B``."""
        return int(self.states.shape[0])

    def __len__(self) -> int:
        return self.batch_size

    def __repr__(self) -> str:
        return (
            f"<VectorState {self.game!r} batch={self.batch_size} "
            f"finished={int((self.terminated | self.truncated).sum())}>"
        )

    @property
    def observation(self) -> np.ndarray:
        """``(B, *encoding.shape)`` float32 observations, each from the point of view of its
        game's player to move."""
        if self._observation is None:
            self._observation = self.observe()
        return self._observation

    def observe(self, perspective: int = -1) -> np.ndarray:
        """Observations from player ``perspective`` (0 or 1; -1 = each game's player to
        move), computed in parallel where that is faster."""
        if perspective not in (-1, 0, 1):
            raise ValueError(f"perspective must be 0, 1 or -1 (player to move), not {perspective}")
        enc = self.config.encoding
        out = np.empty((self.batch_size, enc.size), dtype=np.float32)
        loops = self.config.loops
        run_batch_loop(
            self.config.thread_choice("observe"),
            self.batch_size,
            loops.observe_range,
            self.game.opts,
            self.states,
            self.history,
            self.history_len,
            perspective,
            out,
        )
        return out.reshape((self.batch_size, *enc.shape))

    @property
    def legal_action_mask(self) -> np.ndarray:
        """``(B, game.num_actions)`` bool: the legal decisions of every game (all False in a
        finished game)."""
        if self._mask is None:
            mask = np.empty((self.batch_size, self.game.num_actions), dtype=np.bool_)
            run_batch_loop(
                self.config.thread_choice("mask"),
                self.batch_size,
                kernels.mask_range,
                self.legal_ids,
                self.num_legal,
                mask,
            )
            self._mask = mask
        return self._mask

    def legal_actions(self, i: int) -> list[int]:
        """The legal action ids of game ``i``."""
        return [int(a) for a in self.legal_ids[i, : self.num_legal[i]]]

    def to_state(self, i: int) -> State:
        """Game ``i`` as a :class:`~diceboard.core.game.State` of the Python API (without
        parent links), e.g. to render it or to hand it to an agent."""
        if not -self.batch_size <= i < self.batch_size:
            raise IndexError(f"game index {i} is outside the batch of {self.batch_size}")
        game = self.game
        arr = self.states[i].copy()
        hist = self.history[i, : self.history_len[i]].copy()
        return game.state_class(game, arr, hist, None, None)
