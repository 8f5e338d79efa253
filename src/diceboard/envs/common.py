"""What every environment adapter shares: rolling chance events, checking actions, handling
illegal ones and rendering. No optional library is imported here."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.core.game import Game, State
from diceboard.encoding import encoding_module

#: what an environment does with an illegal action: raise IllegalMoveError, end the game
#: with the offender losing, or play a uniformly random legal action instead
ILLEGAL_ACTIONS = ("raise", "lose", "random")
RENDER_MODES = ("ansi", "rgb_array", "human")
#: the dtype of every legal-action mask the environments hand out (in the observation and from
#: ``action_masks()``): Gymnasium's ``Discrete.sample(mask)`` takes only int8, and sb3-contrib's
#: maskable algorithms turn any 0/1 array into booleans
MASK_DTYPE = np.int8

#: where the environments report an illegal action (once per environment instance; every
#: occurrence is in the step's ``info``). A log record, not a ``warnings`` warning, so that
#: checkers that play unmasked random actions (Gymnasium's and sb3's ``check_env``, PettingZoo's
#: tests) stay silent under ``-W error``.
logger = logging.getLogger("diceboard.envs")


#: the most actions (decisions and chance outcomes) a game lasts in OpenSpiel (and a
#: Gymnasium episode, in steps) when the rules give no smaller bound: Chase with any options
#: (captures and dividing splits can alternate for ever, each restarting the no-capture
#: clock) and Custodian Dice without a no-capture limit. In OpenSpiel a game that reaches it
#: ends there as a draw (returns 0, 0), so that ``max_game_length()`` is always a true bound,
#: as OpenSpiel's algorithms assume.
LENGTH_CAP = 10_000


def game_length_bound(game: Game) -> int:
    """The most actions a game of ``game`` can last in the adapters: the bound the game's rules give
    for its options (``max_game_length(options)`` of its encoding module), or
    :data:`LENGTH_CAP` where they give none or a larger one.

    >>> import diceboard
    >>> game_length_bound(diceboard.game("custodian")), game_length_bound(diceboard.game("chase"))
    (818, 10000)
    """
    length = encoding_module(game).max_game_length(game.options)
    return LENGTH_CAP if length is None else min(int(length), LENGTH_CAP)


class IllegalActionReport:
    """Reports illegal actions of one environment: the first one as a log warning, the rest
    only counted (:attr:`count`)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        if self.count == 1:
            logger.warning(
                "%s (further illegal actions of this environment are not reported; "
                "each one is in the step's info)",
                message,
            )


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else an OptionError naming them."""
    if value not in choices:
        raise OptionError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def check_render_mode(mode: Any) -> str | None:
    """A render mode the environments support (or ``None``)."""
    if mode is None:
        return None
    return check_choice(mode, "render_mode", RENDER_MODES)


def roll_chance(state: State, rng: np.random.Generator) -> State:
    """Resolve the chance events due in ``state`` (setup rolls, Chaos rolls) with ``rng``;
    every outcome is equally likely, as the rules say."""
    while state.is_chance():
        outcomes = state.legal_action_ids()
        state = state.play(outcomes[int(rng.integers(len(outcomes)))])
    return state


def action_id(action: Any, num_actions: int) -> int:
    """``action`` as a Python int in ``range(num_actions)``; IllegalMoveError otherwise."""
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
        action = action.reshape(()).item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise IllegalMoveError(f"an action is an integer action id, not {action!r}")
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalMoveError(f"action {a} is outside the action space 0..{num_actions - 1}")
    return a


def illegal_message(state: State, action: Any) -> str:
    """Why ``action`` cannot be played in ``state``, with its notation."""
    game = state.game
    if not isinstance(action, int) or not 0 <= action < game.num_actions:
        return f"{action!r} is not an action id 0..{game.num_actions - 1}"
    text = game.action_notation(action, state)
    legal = state.legal_action_ids()
    colour = game.player_names[game.players.index(state.to_move)]
    return (
        f"action {action} ({text}) is not legal for {colour} "
        f"in {state}; {len(legal)} legal action(s), e.g. "
        + ", ".join(f"{a} ({game.action_notation(a, state)})" for a in legal[:3])
    )


def render_state(state: State, mode: str | None, width: int = 480) -> str | np.ndarray | None:
    """The picture of ``state`` in render ``mode``: ANSI text or an RGB array; ``"human"``
    prints the ANSI board and gives None."""
    if mode == "human":
        from diceboard.rendering import terminal

        print(terminal.render(state, color=True))
        return None
    if mode == "ansi":
        from diceboard.rendering import terminal

        return terminal.render(state, color=True)
    if mode == "rgb_array":
        from diceboard.envs.raster import rasterize

        return rasterize(state, width)
    return None
