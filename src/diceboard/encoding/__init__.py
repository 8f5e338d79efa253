"""Observation encodings shared by every research interface.

Each game has one encoding module, ``diceboard.games.<game>.encoding`` (the registry's
``encoding`` component, :func:`diceboard.games.component`), with an ``njit`` function
``encode(state, opts, history, nhist, perspective, out)`` that writes a fixed-shape
``float32`` tensor from a kernel state array, and the constants ``VERSION``, ``PLANES``,
``BOARD_SHAPE`` and ``BOARD_WRAPS`` that describe it. The batched simulator calls ``encode``
inside its compiled loops, and the adapters (PettingZoo, Gymnasium, OpenSpiel) call it
through :func:`observe`. The legal-action mask is the kernel's ``legal_actions`` scattered
over the game's fixed action space (:func:`action_mask`).

>>> import diceboard
>>> from diceboard.encoding import encoding_for, observe, action_mask
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> enc = encoding_for(state.game)
>>> observe(state).shape == enc.shape, int(action_mask(state).sum())
(True, 84)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State
from diceboard.games import canonical_name, component, info, names

__all__ = ["Encoding", "action_mask", "encoded_games", "encoding_for", "encoding_module", "observe"]


@dataclass(frozen=True)
class Encoding:
    """A game's observation layout.

    ``shape`` is ``(planes, *board_shape)``; ``planes`` names every plane in order;
    ``version`` changes whenever the layout does. ``encode`` is the compiled function
    ``encode(state, opts, history, nhist, perspective, out)`` (``perspective`` -1 = the
    player to move; ``out`` a flat ``float32`` array of ``size`` values).
    """

    game: str
    version: int
    planes: tuple[str, ...]
    board_shape: tuple[int, int]
    encode: Callable[..., Any]
    #: for each board axis, whether it wraps round (a convolution pads it circularly)
    wraps: tuple[bool, bool] = (False, False)

    @property
    def shape(self) -> tuple[int, int, int]:
        """The observation's shape: ``(planes, *board_shape)``."""
        return (len(self.planes), *self.board_shape)

    @property
    def size(self) -> int:
        """Number of ``float32`` values in one observation."""
        return int(np.prod(self.shape))

    def plane(self, name: str) -> int:
        """The index of the plane called ``name`` (``ValueError`` names the planes)."""
        try:
            return self.planes.index(name)
        except ValueError:
            raise OptionError(
                f"the {self.game} encoding has no plane {name!r}; planes: {', '.join(self.planes)}"
            ) from None


def _encoded_name(game: Game | str) -> str:
    """The registered name of ``game``, which must have an encoding (OptionError if not)."""
    if isinstance(game, Game):
        name = game.name
    else:
        try:
            name = canonical_name(str(game))
        except OptionError:
            name = ""
    if not name or "encoding" not in info(name).modules:
        raise OptionError(
            f"no observation encoding for game {str(game)!r}; games: {', '.join(encoded_games())}"
        )
    return name


def encoded_games() -> tuple[str, ...]:
    """The registered games that have an observation encoding.

    >>> encoded_games()
    ('custodian', 'chase')
    """
    return tuple(name for name in names() if "encoding" in info(name).modules)


def encoding_module(game: Game | str) -> ModuleType:
    """The encoding module of ``game`` (a :class:`~diceboard.core.game.Game`, or a registered
    name or alias): the registry's ``encoding`` component of the game
    (:func:`diceboard.games.component`)."""
    module: ModuleType = component(_encoded_name(game), "encoding")
    return module


@functools.cache
def _encoding(name: str) -> Encoding:
    mod = encoding_module(name)
    wraps = tuple(bool(w) for w in getattr(mod, "BOARD_WRAPS", (False, False)))
    return Encoding(name, mod.VERSION, mod.PLANES, mod.BOARD_SHAPE, mod.encode, wraps)  # type: ignore[arg-type]


def encoding_for(game: Game | str) -> Encoding:
    """The encoding of ``game`` (a :class:`~diceboard.core.game.Game`, or a registered name
    or alias).

    >>> encoding_for("chase").shape
    (24, 9, 9)
    """
    return _encoding(_encoded_name(game))


def observe(state: State, perspective: int | str | None = None) -> np.ndarray:
    """The observation tensor of ``state`` seen by ``perspective`` (a player index 0/1, a
    player letter, or ``None`` for the player to move)."""
    game = state.game
    enc = encoding_for(game)
    if perspective is None:
        who = -1
    elif isinstance(perspective, str):
        if perspective not in game.players:
            raise OptionError(
                f"unknown player {perspective!r}; {game.title} players: {', '.join(game.players)}"
            )
        who = game.players.index(perspective)
    else:
        who = int(perspective)
        if who not in (0, 1):
            raise OptionError(f"a player index is 0 or 1, not {perspective!r}")
    out = np.empty(enc.size, dtype=np.float32)
    hist = state.kernel_history()
    enc.encode(state.kernel_state(), game.opts, hist, len(hist), who, out)
    return out.reshape(enc.shape)


def action_mask(state: State, dtype: type[np.generic] = np.int8) -> np.ndarray:
    """The legal-action mask of ``state`` over ``range(game.num_actions)``: 1 where the action
    id is legal (a decision, or a chance outcome at a chance node), else 0."""
    mask = np.zeros(state.game.num_actions, dtype=dtype)
    mask[state.legal_action_ids()] = 1
    return mask
