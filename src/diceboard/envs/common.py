"""What every environment adapter shares: rolling chance events, checking actions, handling
illegal ones and rendering. No optional library is imported here."""

from __future__ import annotations

from typing import Any

import numpy as np

from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.core.game import State

#: what an environment does with an illegal action: raise IllegalMoveError, end the game
#: with the offender losing, or play a uniformly random legal action instead
ILLEGAL_ACTIONS = ("raise", "lose", "random")
RENDER_MODES = ("ansi", "rgb_array")


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
    """The picture of ``state`` in render ``mode``: ANSI text or an RGB array."""
    if mode == "ansi":
        from diceboard.rendering import terminal

        return terminal.render(state, color=True)
    if mode == "rgb_array":
        from diceboard.envs.raster import rasterize

        return rasterize(state, width)
    return None
