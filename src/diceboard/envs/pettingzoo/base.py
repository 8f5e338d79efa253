"""A diceboard game as a PettingZoo AEC environment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import diceboard
from diceboard import games
from diceboard.core.errors import IllegalMoveError, OptionError
from diceboard.core.game import Game, State
from diceboard.core.info import GameInfo
from diceboard.encoding import action_mask, encoding_for, observe
from diceboard.envs.common import (
    ILLEGAL_ACTIONS,
    MASK_DTYPE,
    IllegalActionReport,
    action_id,
    check_choice,
    check_render_mode,
    illegal_message,
    render_state,
    roll_chance,
)

Observation = dict[str, np.ndarray]


class DiceboardAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A two-player diceboard game, one agent per player (``player_0`` moves first).

    Observations are ``{"observation": float32 tensor, "action_mask": int8 mask}`` (see
    :mod:`diceboard.encoding`), each from the observing agent's point of view; actions
    are the game's action ids. Chance events are rolled inside from the seed given to
    :meth:`reset`, so agents only ever see decisions. The winner gets +1 and the loser -1 at
    the end (0 each for a draw).

    Keyword arguments: ``render_mode`` (``"ansi"``, ``"rgb_array"`` or ``"human"``, which
    prints the board); ``max_cycles`` or ``max_decisions`` (below); ``illegal_action``
    (``"random"``, the default: a uniformly random legal action is played instead, so that
    PettingZoo's own tests, which sample some actions without the mask, see the game go on;
    ``"lose"``: the game ends, the offender gets -1 and the other agent 0, as PettingZoo's
    TerminateIllegalWrapper does; ``"raise"``: an
    :class:`~diceboard.core.errors.IllegalMoveError`; the offender's info holds
    ``illegal_action`` and, the first time, a log warning on the ``diceboard.envs`` logger
    says why); ``seed`` (used by a :meth:`reset` without a seed before any seeded one); every
    other keyword is a game option (``variant=``, ``no_capture_limit=`` …).

    **Who is selected.** By default (and with ``max_decisions=N``, which truncates the game
    after ``N`` decisions) the selected agent is always the one with a decision to make, so
    a turn of several decisions (a Chase turn that absorbs first, Custodian's chosen
    placement of five dice) selects the same agent several times in a row.
    ``max_cycles=N`` uses PettingZoo's cycles instead: the agents are selected in turn
    (``player_0``, ``player_1``, ``player_0`` …) and the game is truncated after each has
    been selected ``N`` times. An agent selected while the other is in the middle of a turn
    of several decisions *waits*: its ``info`` has ``waiting=True``, its action mask is all
    zeros and whatever it plays (``None`` or any action) is ignored, as the parallel view
    ignores the action of every agent that is not to move.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "diceboard",
        "is_parallelizable": False,
        "render_fps": 2,
    }
    #: the diceboard game name, set by each game's module
    game_name: ClassVar[str]

    def __init__(
        self,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal_action: str = "random",
        seed: int | None = None,
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = diceboard.game(self.game_name, **options)
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        for name, value in (("max_cycles", max_cycles), ("max_decisions", max_decisions)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise OptionError(f"{name} must be a whole number of at least 1, not {value!r}")
        if max_cycles is not None and max_decisions is not None:
            raise OptionError("give max_cycles or max_decisions, not both")
        self.max_cycles = max_cycles
        self.max_decisions = max_decisions
        self._default_seed = seed
        self.encoding = encoding_for(self.game)
        self.possible_agents = [f"player_{i}" for i in range(len(self.game.players))]
        board = spaces.Box(0.0, 1.0, self.encoding.shape, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.game.num_actions,), dtype=MASK_DTYPE)
        self.observation_spaces = {
            a: spaces.Dict({"observation": board, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.state_space = board
        self._rng: np.random.Generator | None = None
        self.game_state: State = self.game.initial_state()
        #: decisions played in this game, and live steps taken (decisions and waits)
        self.decisions = 0
        self.steps = 0
        self._report_illegal = IllegalActionReport()

    # --- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------
    def _agent_of(self, state: State) -> str:
        return self.possible_agents[self.game.players.index(state.to_move)]

    def _player_of(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise OptionError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; its chance events come from ``seed`` (or go on from the last)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng(self._default_seed)
        self.game_state = roll_chance(self.game.initial_state(), self._rng)
        self.decisions = 0
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of(self.game_state)

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: the board from its side and its legal actions (none
        unless it is to move)."""
        player = self._player_of(agent)
        state = self.game_state
        mask = np.zeros(self.game.num_actions, dtype=MASK_DTYPE)
        if not state.is_terminal() and self._agent_of(state) == agent:
            mask = action_mask(state, MASK_DTYPE)
        return {"observation": observe(state, player), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state: the board seen by the first player (a perfect-information game
        hides nothing)."""
        return observe(self.game_state, 0)

    def step(self, action: Any) -> None:
        """The selected agent plays ``action`` (``None`` once the game is over for it)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        waiting = self._agent_of(state) != agent  # only in cycles (max_cycles)
        if waiting:
            if self.illegal_action == "raise" and action is not None:
                try:  # ignored, but it must be None or an action
                    action_id(action, self.game.num_actions)
                except IllegalMoveError as e:
                    raise IllegalMoveError(f"{agent} waits (None or any action): {e}") from None
        elif action is None:
            raise IllegalMoveError(f"{agent} is to move: None is an action only after the end")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for info in self.infos.values():
            info.clear()
        if waiting:
            self._next(agent)
            return
        try:
            a = action_id(action, self.game.num_actions)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            a = -1
        legal = state.legal_action_ids()
        if a not in legal:
            why = illegal_message(state, a if a >= 0 else action)
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"{agent}: {why}")
            self.infos[agent]["illegal_action"] = action
            if self.illegal_action == "lose":
                self._report_illegal(f"{agent} loses: {why}")
                self._end(rewards={agent: -1.0}, truncated=False)
                return
            self._report_illegal(f"{agent} played a random legal action instead: {why}")
            assert self._rng is not None
            a = legal[int(self._rng.integers(len(legal)))]
            self.infos[agent]["played_action"] = a
        assert self._rng is not None
        self.game_state = roll_chance(state.play(a), self._rng)
        self.decisions += 1
        outcome = self.game_state.outcome()
        if outcome is not None:
            rewards = {}
            if outcome.winner is not None:
                for other in self.agents:
                    won = self.game.players[self._player_of(other)] == outcome.winner
                    rewards[other] = 1.0 if won else -1.0
            self._end(rewards, truncated=False)
        else:
            self._next(agent)

    def _next(self, agent: str) -> None:
        """After a live step by ``agent`` in a game that goes on: truncate it, or select the
        next agent (the one to decide, or in cycles the next in turn, which may wait)."""
        self.steps += 1
        if self.max_cycles is not None:
            over = self.steps >= self.max_cycles * len(self.possible_agents)
        else:
            over = self.max_decisions is not None and self.decisions >= self.max_decisions
        if over:
            self._end({}, truncated=True)
            return
        if self.max_cycles is None:
            self.agent_selection = self._agent_of(self.game_state)
        else:
            turn = self.possible_agents.index(agent) + 1
            self.agent_selection = self.possible_agents[turn % len(self.possible_agents)]
            if self.agent_selection != self._agent_of(self.game_state):
                self.infos[self.agent_selection]["waiting"] = True
        self._accumulate_rewards()

    def _end(self, rewards: dict[str, float], truncated: bool) -> None:
        for agent in self.agents:
            self.rewards[agent] = rewards.get(agent, 0.0)
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
        self._accumulate_rewards()
        self._deads_step_first()

    # --- display --------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The position as ANSI text or an RGB array, by ``render_mode`` (``"human"``
        prints it and returns None)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi' or 'rgb_array'"
            )
            return None
        return render_state(self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def wrap(env: DiceboardAECEnv) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's order checks (reset before step, and so on)."""
    return wrappers.OrderEnforcingWrapper(env)


def parallel(env_class: type[DiceboardAECEnv], **kwargs: Any) -> ParallelEnv[str, Observation, int]:
    """The parallel view of a turn-based game (PettingZoo's ``turn_based_aec_to_parallel``):
    every parallel step takes an action from each live agent and plays the one of the agent
    to move. A parallel step is therefore one cycle, and ``max_cycles`` counts them: the
    game is truncated after ``max_cycles`` decisions (there is nothing to wait for)."""
    max_cycles = kwargs.pop("max_cycles", None)
    if max_cycles is not None:
        if kwargs.get("max_decisions") is not None:
            raise OptionError("give max_cycles or max_decisions, not both")
        kwargs["max_decisions"] = max_cycles
    return turn_based_aec_to_parallel(wrap(env_class(**kwargs)))


def game_of_module(module_name: str) -> GameInfo:
    """The registered game whose PettingZoo name (``info.environments["pettingzoo"]``) is the
    last part of ``module_name``."""
    env_name = module_name.rpartition(".")[2]
    for info in games.infos():
        if info.environments.get("pettingzoo") == env_name:
            return info
    raise OptionError(f"no registered game is published to PettingZoo as {env_name!r}")


def environment(
    module_name: str,
) -> tuple[
    type[DiceboardAECEnv],
    Callable[..., AECEnv[str, Observation, int]],
    Callable[..., ParallelEnv[str, Observation, int]],
]:
    """What a PettingZoo environment module ``module_name`` exports, as PettingZoo's own
    environments do: ``raw_env`` (the class), ``env(**kwargs)`` (with PettingZoo's order
    checks) and ``parallel_env(**kwargs)``, for the game published under the module's name."""
    info = game_of_module(module_name)
    env_name = info.environments["pettingzoo"]
    players = ", ".join(f"``player_{i}`` is {colour}" for i, colour in enumerate(info.player_names))
    raw_env = type(
        "raw_env",
        (DiceboardAECEnv,),
        {
            "__module__": module_name,
            "__doc__": f"{info.title} without PettingZoo's wrappers (see "
            f":class:`DiceboardAECEnv`); {players}.",
            "metadata": {**DiceboardAECEnv.metadata, "name": env_name},
            "game_name": info.name,
        },
    )

    def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
        """The AEC environment (game options and environment settings as keywords)."""
        return wrap(raw_env(**kwargs))

    def parallel_env(**kwargs: Any) -> ParallelEnv[str, Observation, int]:
        """The parallel view of :func:`env`: one decision per parallel step (``max_cycles``
        counts parallel steps)."""
        return parallel(raw_env, **kwargs)

    for func in (env, parallel_env):
        func.__module__ = module_name
        func.__qualname__ = func.__name__
    return raw_env, env, parallel_env
