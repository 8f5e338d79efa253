"""The functional API of the batched simulator: ``init``, ``step``, ``reset``,
``random_actions``."""

from __future__ import annotations

from typing import Any

import numpy as np

from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.core.game import Game, State
from diceboard.encoding import encoded_games, encoding_for, encoding_module
from diceboard.games import game as make_game
from diceboard.vector import kernels
from diceboard.vector.rng import seed_streams
from diceboard.vector.state import BatchConfig, VectorState
from diceboard.vector.threads import BatchCall, run_batch_loop

#: history rows when the game has no no-capture limit (the kernels then drop the oldest hash)
UNLIMITED_HISTORY = 1024


def _history_capacity(game: Game, start_len: int) -> int:
    # the repetition history never outgrows the clock: at most limit + 1 positions
    limit = int(game.options.get("no_capture_limit", 0))
    capacity = limit + 8 if limit > 0 else UNLIMITED_HISTORY
    return max(capacity, start_len + 8)


def games() -> tuple[str, ...]:
    """The registered games the simulator plays: those with an observation encoding (whose
    module gives the simulator the game's ``legal_actions``, ``step`` and ``encode``).

    >>> games()
    ('custodian', 'chase')
    """
    return encoded_games()


def _resolve_game(game: Game | str) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return make_game(game)
    raise OptionError(f"game must be a diceboard Game or a game name, not {game!r}")


def _positive(value: Any, name: str, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        raise OptionError(
            f"{name} must be {'0 or more' if allow_zero else 'at least 1'}, not {value}"
        )
    return int(value)


def init(
    game: Game | str,
    seed: int = 0,
    batch: int = 1,
    *,
    auto_reset: bool = True,
    max_steps: int | None = None,
    start: State | None = None,
) -> VectorState:
    """``batch`` games of ``game`` at their first decision (leading chance events rolled).

    Every game rolls its dice from its own stream, derived from ``seed`` and its index, so
    the same seed gives the same games whatever the batch size. ``start`` (a state of
    ``game``) replaces the game's initial state. With ``auto_reset`` a game that ends is
    replaced by a new one within the same :func:`step`; ``max_steps`` truncates a game after
    that many decisions.

    >>> import diceboard.vector as dv
    >>> s = dv.init("custodian", seed=1, batch=8)
    >>> s.observation.shape, s.legal_action_mask.shape, bool(s.legal_action_mask.any(1).all())
    ((8, 42, 5, 5), (8, 4632), True)
    """
    g = _resolve_game(game)
    if g.name not in games():
        raise OptionError(f"the batched simulator does not support the game {g.name!r} yet")
    # room in the chance log for one step: the rolls that can follow one decision plus the
    # leading rolls of a new game
    log_room = int(encoding_module(g).CHANCE_LOG_ROOM)
    b = _positive(batch, "batch")
    seed = _positive(seed, "seed", allow_zero=True)
    steps_limit = 0 if max_steps is None else _positive(max_steps, "max_steps")
    if start is None:
        start = g.initial_state()
    elif not isinstance(start, State) or start.game != g:
        raise OptionError(f"start must be a state of {g!r}, not {start!r}")
    if start.is_terminal():
        raise OptionError(f"the start position is already over ({start.outcome()}): {start}")
    start_arr = start.kernel_state()
    start_hist = start.kernel_history()
    kernel = g.kernel
    config = BatchConfig(
        game=g,
        loops=kernels.loops_for(g.name),
        encoding=encoding_for(g),
        start=start_arr,
        start_history=start_hist,
        auto_reset=bool(auto_reset),
        max_steps=steps_limit,
        max_legal=int(kernel.MAX_LEGAL),
    )
    hist_cap = _history_capacity(g, len(start_hist))
    state = VectorState(
        config,
        states=np.empty((b, kernel.STATE_LEN), dtype=np.int64),
        history=np.empty((b, hist_cap), dtype=np.int64),
        history_len=np.zeros(b, dtype=np.int64),
        legal_ids=np.zeros((b, kernel.MAX_LEGAL), dtype=np.int16),
        num_legal=np.zeros(b, dtype=np.int32),
        current_player=np.zeros(b, dtype=np.int8),
        rewards=np.zeros((b, 2), dtype=np.float32),
        terminated=np.zeros(b, dtype=np.bool_),
        truncated=np.zeros(b, dtype=np.bool_),
        steps=np.zeros(b, dtype=np.int32),
        rng=seed_streams(seed, 0, b),
        chance_outcomes=np.zeros((b, log_room), dtype=np.int16),
        num_chance_outcomes=np.zeros(b, dtype=np.int32),
    )
    _reset_in_place(state, np.ones(b, dtype=np.bool_))
    return state


def _reset_in_place(state: VectorState, which: np.ndarray) -> None:
    cfg = state.config
    run_batch_loop(
        cfg.thread_choice("reset"),
        state.batch_size,
        cfg.loops.reset_range,
        cfg.game.opts,
        cfg.start,
        cfg.start_history,
        which,
        state.states,
        state.history,
        state.history_len,
        state.rng,
        state.steps,
        state.legal_ids,
        state.num_legal,
        state.current_player,
        state.rewards,
        state.terminated,
        state.truncated,
        state.chance_outcomes,
        state.num_chance_outcomes,
        cfg.max_legal,
    )


def _copy(state: VectorState) -> VectorState:
    new = _empty_like(state)
    for target, source in zip(new.arrays(), state.arrays(), strict=True):
        np.copyto(target, source)
    return new


def reset(state: VectorState, which: np.ndarray | None = None) -> VectorState:
    """A new state in which the games selected by the boolean array ``which`` (all when
    ``None``) start afresh; their random streams go on where they were."""
    b = state.batch_size
    if which is None:
        mask = np.ones(b, dtype=np.bool_)
    else:
        mask = np.asarray(which)
        if mask.shape != (b,) or mask.dtype != np.bool_:
            raise OptionError(
                f"which must be a boolean array of shape ({b},), not {mask.dtype} {mask.shape}"
            )
    new = _copy(state)
    new.rewards[:] = 0.0
    new.num_chance_outcomes[:] = 0
    _reset_in_place(new, mask)
    return new


def _as_actions(state: VectorState, actions: Any) -> np.ndarray:
    b = state.batch_size
    arr = np.asarray(actions)
    if arr.shape != (b,) or not np.issubdtype(arr.dtype, np.integer):
        raise IllegalMoveError(
            f"actions must be an integer array of shape ({b},), one action id per game, "
            f"not {arr.dtype} {arr.shape}"
        )
    return arr.astype(np.int64, copy=False)


def _illegal(state: VectorState, actions: np.ndarray, bad: np.ndarray) -> IllegalMoveError:
    i = int(np.flatnonzero(bad)[0])
    a = int(actions[i])
    game = state.game
    where = state.to_state(i)
    if not 0 <= a < game.num_actions:
        what = f"is outside the action space 0..{game.num_actions - 1}"
    else:
        what = f"({game.action_notation(a, where)}) is not legal in {where}"
    return IllegalMoveError(
        f"game {i} of the batch: action {a} {what} ({int(bad.sum())} illegal action(s) in all)"
    )


def step(state: VectorState, actions: Any, *, donate: bool = False) -> VectorState:
    """Play ``actions[i]`` (a legal action id) in every game ``i``; return the new state.

    The chance events that follow are rolled inside, the games that end get their
    ``rewards``, ``terminated``/``truncated`` flags and, with ``auto_reset``, a new game.
    Games that are over (without ``auto_reset``) ignore their action. An illegal action
    raises :class:`~diceboard.core.errors.IllegalMoveError` and changes nothing.

    ``state`` stays valid unless ``donate=True``, which lets the step reuse its arrays
    (faster; the old state must not be used afterwards).

    The legality check, the step, the chance events and the next legal actions of every game
    run in one loop over the batch (over one chunk of it per thread when the batch runs on
    several; an in-place step checks every action in a pass of its own before, so that an
    illegal one changes nothing).

    >>> import numpy as np, diceboard.vector as dv
    >>> s = dv.init("custodian", seed=3, batch=4)
    >>> s2 = dv.step(s, dv.random_actions(s, np.random.default_rng(0)))
    >>> s2.steps.tolist(), s.steps.tolist()
    ([1, 1, 1, 1], [0, 0, 0, 0])
    """
    return _step(state, _as_actions(state, actions), donate, None)


def random_step(
    state: VectorState,
    rng: np.random.Generator | int | None = None,
    *,
    donate: bool = False,
) -> tuple[VectorState, np.ndarray]:
    """Play a uniformly random legal action in every game; return the new state and the
    actions played (0 in a game that was over).

    The same as ``step(state, random_actions(state, rng))`` with the same generator (the
    same draws, the same actions), but each game picks its action inside the step, in the
    one pass over the batch that steps it, on the simulator's threads: the fastest way to
    play random games (no pass of its own to pick the actions, none to check them).

    >>> import numpy as np, diceboard.vector as dv
    >>> s = dv.init("custodian", seed=3, batch=4)
    >>> a = dv.step(s, dv.random_actions(s, np.random.default_rng(5)))
    >>> b, actions = dv.random_step(s, np.random.default_rng(5))
    >>> bool((a.states == b.states).all()), len(actions)
    (True, 4)
    """
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    fractions = gen.random(state.batch_size)
    actions = np.zeros(state.batch_size, dtype=np.int64)
    return _step(state, actions, donate, fractions), actions


#: the ``fractions`` of a step that does not pick its actions
_NO_FRACTIONS = np.zeros(0, dtype=np.float64)


def _step(
    state: VectorState, acts: np.ndarray, donate: bool, fractions: np.ndarray | None
) -> VectorState:
    """:func:`step`, or with ``fractions`` :func:`random_step` (``acts`` is then written)."""
    cfg = state.config
    b = state.batch_size
    pick = fractions is not None
    bad = np.zeros(b, dtype=np.bool_)
    new = state if donate else _empty_like(state)
    # the check and the step on the same threads, chosen and timed once: with a choice of
    # its own the light check probed the crew by itself (beside a busy core 30 of 3,000
    # calls, where the step then ran alone: cheap, but a second decision for one step)
    with BatchCall(cfg.thread_choice("step"), b) as call:
        if donate and not pick:
            # the rows are overwritten as they are stepped: every action is checked first
            call.run(
                kernels.check_range,
                acts,
                state.legal_ids,
                state.num_legal,
                state.terminated,
                state.truncated,
                cfg.auto_reset,
                bad,
            )
            if bad.any():
                raise _illegal(state, acts, bad)
        call.run(
            cfg.loops.step_range,
            cfg.game.opts,
            cfg.start,
            cfg.start_history,
            acts,
            cfg.auto_reset,
            cfg.max_steps,
            cfg.max_legal,
            state.states,
            state.history,
            state.history_len,
            state.rng,
            state.steps,
            state.terminated,
            state.truncated,
            new.states,
            new.history,
            new.history_len,
            new.rng,
            new.steps,
            new.legal_ids,
            new.num_legal,
            new.current_player,
            new.rewards,
            new.terminated,
            new.truncated,
            new.chance_outcomes,
            new.num_chance_outcomes,
            state.legal_ids,
            state.num_legal,
            not donate and not pick,
            bad,
            donate,
            pick,
            _NO_FRACTIONS if fractions is None else fractions,
        )
    if not donate and not pick and bad.any():
        raise _illegal(state, acts, bad)
    if donate:
        # the arrays changed under the same object: drop what was computed from them
        new = VectorState(cfg, *new.arrays())
    return new


def _empty_like(state: VectorState) -> VectorState:
    """A state of the same batch with arrays whose contents are undefined: a dropped state's
    (see :mod:`diceboard.vector.spares`) or new ones."""
    arrays = state.config.spares.take()
    if arrays is None:
        arrays = tuple(np.empty_like(a) for a in state.arrays())
    return VectorState(state.config, *arrays)


def random_actions(state: VectorState, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A uniformly random legal action for every game (0 for finished games), drawn from the
    numpy generator ``rng`` (or a new one seeded with it)."""
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    out = np.empty(state.batch_size, dtype=np.int64)
    # a few nanoseconds a game: one thread (handing it to others would cost more than it
    # saves; random_step picks inside the step instead)
    kernels.pick_rows(state.legal_ids, state.num_legal, gen.random(state.batch_size), out)
    return out
