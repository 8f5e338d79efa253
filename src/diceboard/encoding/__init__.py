"""Observation encodings shared by every research interface.

Each game has one encoding module (:mod:`.custodian`, :mod:`.chase`) with an ``njit``
function ``encode(state, opts, history, nhist, perspective, out)`` that writes a fixed-shape
``float32`` tensor from a kernel state array; the batched simulator calls it inside its
compiled loops, and the adapters (PettingZoo, Gymnasium, OpenSpiel) call it through
:func:`observe`. The legal-action mask is the kernel's ``legal_actions`` scattered over the
game's fixed action space (:func:`action_mask`).

>>> import diceboard
>>> from diceboard.envs.encoding import encoding_for, observe, action_mask
>>> state = diceboard.game("custodian").parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
>>> enc = encoding_for(state.game)
>>> observe(state).shape == enc.shape, int(action_mask(state).sum())
(True, 84)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State

__all__ = ["Encoding", "action_mask", "encoding_for", "observe"]


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


def _module(name: str) -> ModuleType:
    if name == "custodian":
        from diceboard.envs.encoding import custodian

        return custodian
    if name == "chase":
        from diceboard.envs.encoding import chase

        return chase
    raise OptionError(f"no observation encoding for game {name!r}; games: custodian, chase")


def encoding_for(game: Game | str) -> Encoding:
    """The encoding of ``game`` (a :class:`~diceboard.core.game.Game` or its name)."""
    name = game.name if isinstance(game, Game) else str(game)
    mod = _module(name)
    return Encoding(name, mod.VERSION, mod.PLANES, mod.BOARD_SHAPE, mod.encode)


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
