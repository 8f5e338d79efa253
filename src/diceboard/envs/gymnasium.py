"""Single-agent Gymnasium environments: the learner against a diceboard agent
(needs the ``diceboard[rl]`` extra).

Every registered game is registered with Gymnasium under its ``info.environments["gymnasium"]``
id, with a class of this module named after its title (``CustodianDiceEnv``, ``ChaseEnv``:
:func:`env_class`).

Gymnasium 1.x has no plugin loader (0.26 to 0.29 read ``gymnasium.envs`` entry points), so an
id is known once this module is imported. In a fresh process Gymnasium imports it itself when
the id names it, ``gymnasium.make("diceboard.envs.gymnasium:diceboard/CustodianDice-v1")``
(``make_vec`` too); or import it, and ``gymnasium.register_envs(diceboard.envs.gymnasium)``
keeps linters from calling the import unused.

>>> import gymnasium
>>> import diceboard.envs.gymnasium  # registers the environments
>>> env = gymnasium.make("diceboard/CustodianDice-v1", opponent="random", seat="second")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].dtype, info["seat"], env.spec.max_episode_steps
((1050,), dtype('int8'), 'B', 818)
>>> env.unwrapped.observation_shape   # channels first: obs["observation"].reshape(42, 5, 5)
(42, 5, 5)

The observation is the encoding of :mod:`diceboard.encoding` flattened (``layout="flat"``, the
default: a 1-D ``float32`` Box in ``[0, 1]``, which standard checkers such as sb3's
``check_env`` take as a feature vector rather than a malformed image) or as planes
(``layout="planes"``: the ``(planes, *board)`` tensor, channels first).
``env.unwrapped.observation_shape`` is the channels-first shape either way.
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

import diceboard
from diceboard import games
from diceboard.ai import Agent
from diceboard.core.errors import IllegalMoveError
from diceboard.core.game import Game, State
from diceboard.encoding import action_mask, encoding_for, observe
from diceboard.envs.common import (
    ILLEGAL_ACTIONS,
    MASK_DTYPE,
    IllegalActionReport,
    action_id,
    check_choice,
    check_render_mode,
    game_length_bound,
    illegal_message,
    render_state,
    roll_chance,
)

Observation = dict[str, np.ndarray]
#: how the observation tensor is handed out: flat (a feature vector) or as planes
LAYOUTS = ("flat", "planes")


class DiceboardGymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a two-player diceboard game; the other seat is a diceboard agent.

    Observations are ``{"observation": float32 values in [0, 1], "action_mask": int8 mask}``
    from the learner's side (:mod:`diceboard.encoding`; flat by default, channels first:
    ``obs["observation"].reshape(env.observation_shape)``); actions are the game's action
    ids, and :meth:`action_masks` gives the same int8 mask (as sb3-contrib's maskable
    algorithms expect).
    The reward is +1 for a win, -1 for a loss and 0 otherwise, at the end of the game.
    Chance events and the opponent's moves happen inside :meth:`step`; ``info`` lists the
    opponent's moves since the learner's last decision (``opponent_moves``, in notation).

    Keyword arguments: ``opponent`` — any agent spec of :func:`diceboard.agent`
    (``"random"`` by default); ``seat`` — the learner's player letter, ``"first"``,
    ``"second"`` or ``"random"`` (the default: drawn at every reset, so that a learner
    learns both sides); ``layout`` — ``"flat"`` (the default) or ``"planes"``;
    ``illegal_action`` — ``"lose"`` (the default: the episode ends with reward -1; the first
    time, a log warning on the ``diceboard.envs`` logger says why), ``"raise"``
    (:class:`~diceboard.core.errors.IllegalMoveError`) or ``"random"`` (a random legal
    action is played instead); ``render_mode`` — ``"ansi"``, ``"rgb_array"`` or ``"human"``
    (printed); every other
    keyword is a game option.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}  # noqa: RUF012
    #: the diceboard game name, set by each subclass
    game_name: ClassVar[str]

    def __init__(
        self,
        opponent: str = "random",
        seat: str = "random",
        illegal_action: str = "lose",
        render_mode: str | None = None,
        layout: str = "flat",
        **options: Any,
    ) -> None:
        self.game: Game = diceboard.game(self.game_name, **options)
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        self.opponent_spec = str(opponent)
        diceboard.agent(self.opponent_spec)  # an unknown spec fails here, not at reset
        self.seat_choice = self._check_seat(seat)
        self.layout = check_choice(layout, "layout", LAYOUTS)
        enc = encoding_for(self.game)
        #: the observation tensor's shape, channels first: ``(planes, *board)``
        self.observation_shape: tuple[int, ...] = enc.shape
        board = enc.shape if self.layout == "planes" else (enc.size,)
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, 1.0, board, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=MASK_DTYPE),
            }
        )
        self._report_illegal = IllegalActionReport()
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: State = self.game.initial_state()
        self.seat = self.game.players[0]
        self._opponent: Agent | None = None

    def _check_seat(self, seat: str) -> str:
        choices = ("first", "second", "random", *self.game.players)
        return check_choice(seat, "seat", choices)

    def _pick_seat(self) -> str:
        if self.seat_choice == "first":
            return self.game.players[0]
        if self.seat_choice == "second":
            return self.game.players[1]
        if self.seat_choice == "random":
            return self.game.players[int(self.np_random.integers(2))]
        return self.seat_choice

    # --- the episode ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: its chance events and the opponent's choices come from ``seed``."""
        super().reset(seed=seed)
        self.seat = self._pick_seat()
        self._opponent = diceboard.agent(
            self.opponent_spec, seed=int(self.np_random.integers(2**31 - 1))
        )
        self._opponent.reset()
        self.game_state = roll_chance(self.game.initial_state(), self.np_random)
        replies = self._opponent_turns()
        return self._observation(), self._info(replies)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; then chance and the opponent until the learner is to
        move again or the game is over."""
        state = self.game_state
        if state.is_terminal():
            raise IllegalMoveError("the game is over: call reset() before step()")
        try:
            a = action_id(action, self.game.num_actions)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            a = -1
        legal = state.legal_action_ids()
        extra: dict[str, Any] = {}
        if a not in legal:
            why = illegal_message(state, a if a >= 0 else action)
            if self.illegal_action == "raise":
                raise IllegalMoveError(why)
            extra["illegal_action"] = action
            if self.illegal_action == "lose":
                self._report_illegal(f"the learner loses: {why}")
                return self._observation(), -1.0, True, False, {**self._info([]), **extra}
            a = legal[int(self.np_random.integers(len(legal)))]
            extra["played_action"] = a
        self.game_state = roll_chance(state.play(a), self.np_random)
        replies = self._opponent_turns()
        outcome = self.game_state.outcome()
        reward = 0.0
        if outcome is not None and outcome.winner is not None:
            reward = 1.0 if outcome.winner == self.seat else -1.0
        return (
            self._observation(),
            reward,
            outcome is not None,
            False,
            {**self._info(replies), **extra},
        )

    def _opponent_turns(self) -> list[str]:
        """Let the opponent move (rolling chance in between) until it is the learner's turn."""
        assert self._opponent is not None
        played = []
        state = self.game_state
        while not state.is_terminal() and state.to_move != self.seat:
            move = self._opponent.choose(state)
            played.append(move.notation)
            state = roll_chance(state.play(move), self.np_random)
        self.game_state = state
        return played

    def _observation(self) -> Observation:
        state = self.game_state
        mask = (
            np.zeros(self.game.num_actions, dtype=MASK_DTYPE)
            if state.is_terminal()
            else action_mask(state, MASK_DTYPE)
        )
        obs = observe(state, self.game.players.index(self.seat))
        return {
            "observation": obs if self.layout == "planes" else obs.reshape(-1),
            "action_mask": mask,
        }

    def _info(self, replies: list[str]) -> dict[str, Any]:
        return {"seat": self.seat, "opponent_moves": replies, "position": str(self.game_state)}

    def action_masks(self) -> np.ndarray:
        """The legal-action mask, the observation's ``action_mask`` (int8: 1 = legal), for
        sb3-contrib's maskable algorithms."""
        if self.game_state.is_terminal():
            return np.zeros(self.game.num_actions, dtype=MASK_DTYPE)
        return action_mask(self.game_state, MASK_DTYPE)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        """The position as ANSI text or an RGB array, by ``render_mode``."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi' or 'rgb_array'"
            )
            return None
        return render_state(self.game_state, self.render_mode)


def class_name(title: str) -> str:
    """The class name of the environment of the game titled ``title``: its words joined,
    then ``Env`` (``"Custodian Dice"`` -> ``CustodianDiceEnv``)."""
    return "".join(word[:1].upper() + word[1:] for word in re.findall(r"[A-Za-z0-9]+", title)) + (
        "Env"
    )


@functools.cache
def env_class(name: str) -> type[DiceboardGymEnv]:
    """The environment class of the registered game ``name`` (or an alias), a subclass of
    :class:`DiceboardGymEnv` that this module exports under :func:`class_name`."""
    info = games.info(name)
    cls = type(
        class_name(info.title),
        (DiceboardGymEnv,),
        {
            "__module__": __name__,
            "__doc__": f"{info.title} against a diceboard agent "
            f'(``gymnasium.make("{info.environments["gymnasium"]}")``).',
            "game_name": info.name,
        },
    )
    return cls


def max_episode_steps(name: str) -> int:
    """The ``max_episode_steps`` of the registered game's spec: the most actions a game with
    the default options can last (:func:`~diceboard.envs.common.game_length_bound`), which
    bounds the learner's steps. ``gymnasium.make(id, max_episode_steps=N)`` sets another
    limit; for options that allow longer games, give one."""
    return game_length_bound(diceboard.game(name))


def register_envs() -> list[str]:
    """Make and register every game's environment class (once); returns the class names.
    Importing this module calls it."""
    made = []
    for name in games.names():
        env_id = games.info(name).environments.get("gymnasium")
        if env_id is None:
            continue
        cls = env_class(name)
        globals()[cls.__name__] = cls  # importable by name, as the entry point and pickle need
        made.append(cls.__name__)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point=f"{__name__}:{cls.__name__}",
                max_episode_steps=max_episode_steps(name),
            )
    return made


__all__ = [
    "LAYOUTS",
    "DiceboardGymEnv",
    "class_name",
    "env_class",
    "max_episode_steps",
    "register_envs",
    *register_envs(),
]
