"""Every game as an OpenSpiel Python game (needs the ``diceboard[openspiel]`` extra).

Importing this module registers every registered game with pyspiel under its
``info.environments["openspiel"]`` name (``python_custodian_dice``, ``python_chase``), with a
class of this module named after the game (``CustodianSpielGame``, ``ChaseSpielGame``:
:func:`spiel_game_class`):

>>> import pyspiel
>>> import diceboard.envs.openspiel  # noqa: F401  (the one line: registers every game)
>>> game = pyspiel.load_game("python_custodian_dice", {"variant": "chaos"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0], state.action_to_string(0)
(True, (0, 0.16666666666666666), '=1')

:func:`load_game` does both in one call (``load_game("chase")``). ``max_game_length()`` is a
true bound: the one the rules give for the options where they give one, else
:data:`LENGTH_CAP`, where the game ends as a draw.

Decisions use the game's action ids (``game.num_actions`` of them) and are written in the
game's notation; chance outcomes (Custodian's setup and Chaos rolls) are OpenSpiel chance
actions ``0 … 5`` for the faces 1 … 6 (the kernel ids from the encoding module's
``CHANCE_BASE``). Observation tensors are the encodings of :mod:`diceboard.encoding`, from
the observing player's side. States serialise with
``state.serialize()`` / ``game.deserialize_state()`` and ``pyspiel.serialize_game_and_state``.
Game parameters are the game's options (Custodian: ``variant``, ``jumping``, ``faces``,
``path``, ``capture``, ``placement``, ``no_capture_limit``; Chase: ``no_capture_limit``):
``variant`` where the game has more than one, and every option at its default, except that
an empty value of an option a variant sets (``jumping``, ``faces``) means "as the variant
says".
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pyspiel

import diceboard
from diceboard import games
from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State
from diceboard.core.info import GameInfo
from diceboard.encoding import encoding_for, encoding_module, observe
from diceboard.envs.common import LENGTH_CAP, game_length_bound


class DiceboardSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A diceboard game with OpenSpiel's Python-game interface."""

    game_name: str
    game_type: pyspiel.GameType
    #: kernel action id of the first chance outcome (None: the game has no chance)
    chance_base: int | None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.dgame: Game = self.make_game(params)
        super().__init__(self.game_type, self.info_for(self.dgame), params)

    @classmethod
    def make_game(cls, params: dict[str, Any]) -> Game:
        """The diceboard game that the OpenSpiel parameters describe."""
        options = {k: v for k, v in params.items() if v != ""}
        return diceboard.game(cls.game_name, **options)

    @classmethod
    def info_for(cls, game: Game) -> pyspiel.GameInfo:
        """OpenSpiel's GameInfo for ``game``."""
        facts = encoding_module(game)
        return pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=int(facts.CHANCE_OUTCOMES),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=game_length_bound(game),
        )

    def max_length(self) -> int:
        """:meth:`max_game_length`, kept in Python (the states end there)."""
        return int(self.max_game_length())

    def new_initial_state(self) -> DiceboardSpielState:
        """The state before anything happens (Custodian: before the setup rolls)."""
        return DiceboardSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """The observer of observation tensors and strings."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return DiceboardObserver(self.dgame, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class DiceboardSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a diceboard position.

    Only the kernel's state array and repetition history live in the object (OpenSpiel
    clones and serialises Python states through their ``__dict__``); the diceboard
    :class:`~diceboard.core.game.State` is rebuilt from them on demand.
    """

    def __init__(self, game: DiceboardSpielGame) -> None:
        super().__init__(game)
        start = game.dgame.initial_state()
        self._arr = start.kernel_state()
        self._hist = start.kernel_history()

    @property
    def _spiel_game(self) -> DiceboardSpielGame:
        return self.get_game()  # type: ignore[no-any-return]

    @property
    def _dgame(self) -> Game:
        return self._spiel_game.dgame

    @property
    def _chance_base(self) -> int | None:
        return self._spiel_game.chance_base

    @property
    def _state(self) -> State:
        game = self._dgame
        return game.state_class(game, self._arr, self._hist, None, None)

    @property
    def diceboard_state(self) -> State:
        """The position as a diceboard :class:`~diceboard.core.game.State`."""
        return self._state

    def _capped(self) -> bool:
        """Whether the game has reached :data:`LENGTH_CAP` (a draw there)."""
        return len(self.history()) >= self._spiel_game.max_length()

    def current_player(self) -> int:
        """The player to move, or OpenSpiel's CHANCE / TERMINAL ids."""
        state = self._state
        if state.is_terminal() or self._capped():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        return self._dgame.players.index(state.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal decisions, ascending."""
        return sorted(self._state.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each roll as (chance action, probability)."""
        assert self._chance_base is not None
        ids = self._state.legal_action_ids()
        p = 1.0 / len(ids)
        return [(a - self._chance_base, p) for a in ids]

    def _kernel_action(self, action: int) -> int:
        if self._state.is_chance():  # chance actions 0..5 are the faces 1..6
            assert self._chance_base is not None
            return self._chance_base + int(action)
        return int(action)

    def _apply_action(self, action: int) -> None:
        """Play a decision or a chance outcome (IllegalMoveError says why it is not legal)."""
        new = self._state.play(self._kernel_action(action))
        self._arr = new.kernel_state()
        self._hist = new.kernel_history()

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's notation (``=3`` for a roll of 3)."""
        game = self._dgame
        if player == pyspiel.PlayerId.CHANCE:
            assert self._chance_base is not None
            return game.action_notation(self._chance_base + int(action))
        state = self._state
        if state.is_terminal() or state.is_chance():
            return game.action_notation(int(action))
        return game.action_notation(int(action), state)

    def is_terminal(self) -> bool:
        """Whether the game is over (by the rules, or at :func:`game_length_bound`)."""
        return self._state.is_terminal() or self._capped()

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        outcome = self._state.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        first_won = outcome.winner == self._dgame.players[0]
        return [1.0, -1.0] if first_won else [-1.0, 1.0]

    def __str__(self) -> str:
        return str(self._state)


class DiceboardObserver:
    """Observation tensors (the encoding of :mod:`diceboard.encoding`) and strings."""

    def __init__(self, game: Game, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, got {params}")
        self._encoding = encoding_for(game)
        self.tensor = np.zeros(self._encoding.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(self._encoding.shape)}

    def set_from(self, state: DiceboardSpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` seen by ``player``."""
        self.tensor[:] = observe(state.diceboard_state, player).reshape(-1)

    def string_from(self, state: DiceboardSpielState, player: int) -> str:
        """The position string (a perfect-information game looks the same to both)."""
        return str(state.diceboard_state)


def _game_type(short_name: str, long_name: str, chance: bool, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def parameters(info: GameInfo) -> dict[str, Any]:
    """The OpenSpiel parameters of a game and their defaults: ``variant`` (where the game has
    several), then every option at its default ("" for an option a variant sets).

    >>> parameters(games.info("chase"))["no_capture_limit"]
    100
    """
    params: dict[str, Any] = {}
    if len(info.variants) > 1:
        params["variant"] = info.default_variant
    for option in info.options:
        params[option.name] = "" if option.variant else option.default
    return params


def class_name(name: str) -> str:
    """The class name of the OpenSpiel game of the registered game ``name``
    (``"custodian"`` -> ``CustodianSpielGame``)."""
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_")) + "SpielGame"


@functools.cache
def spiel_game_class(name: str) -> type[DiceboardSpielGame]:
    """The OpenSpiel game class of the registered game ``name`` (or an alias), a subclass of
    :class:`DiceboardSpielGame` that this module exports under :func:`class_name`."""
    info = games.info(name)
    short_name = info.environments["openspiel"]
    chance = " with explicit chance nodes for every roll" if info.has_chance else " (deterministic)"
    cls = type(
        class_name(info.name),
        (DiceboardSpielGame,),
        {
            "__module__": __name__,
            "__doc__": f"``{short_name}``: {info.title}{chance}.",
            "game_name": info.name,
            "chance_base": encoding_module(info.name).CHANCE_BASE,
            "game_type": _game_type(
                short_name, f"Python {info.title}", info.has_chance, parameters(info)
            ),
        },
    )
    return cls


def load_game(name: str, params: dict[str, Any] | None = None, **options: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a registered game, by its diceboard name or alias
    (``"chase"``) or its OpenSpiel name (``"python_chase"``), with OpenSpiel parameters as a
    dict or keywords: the one line that needs no import of its own.

    >>> from diceboard.envs.openspiel import load_game
    >>> load_game("chase", no_capture_limit=40).max_game_length()
    10000
    """
    try:
        short = games.info(games.canonical_name(name)).environments["openspiel"]
    except OptionError:
        short = name  # an OpenSpiel name
    return pyspiel.load_game(short, {**(params or {}), **options})


def _register() -> list[str]:
    """Make and register every game's OpenSpiel class; returns the class names."""
    made = []
    for name in games.names():
        if "openspiel" not in games.info(name).environments:
            continue
        cls = spiel_game_class(name)
        globals()[cls.__name__] = cls  # importable by name, as pickle needs
        made.append(cls.__name__)
        pyspiel.register_game(cls.game_type, cls)
    return made


__all__ = [
    "DiceboardSpielGame",
    "DiceboardSpielState",
    "LENGTH_CAP",
    "class_name",
    "game_length_bound",
    "load_game",
    "parameters",
    "spiel_game_class",
    *_register(),
]
