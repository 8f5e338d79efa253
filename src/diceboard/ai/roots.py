"""The bridge between game states and the compiled search: a decision state as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diceboard.ai.engine import Engine, engine_for
from diceboard.core.errors import GameOverError, IllegalMoveError
from diceboard.core.game import State
from diceboard.core.move import Move


@dataclass(frozen=True)
class Root:
    """A decision state ready for search: its kernel arrays and its legal moves, each move
    a row of action ids in ``seqs`` (``seq_len`` long)."""

    state: State
    engine: Engine
    moves: tuple[Move, ...]
    arr: np.ndarray
    hist: np.ndarray
    seqs: np.ndarray
    seq_len: np.ndarray

    @property
    def opts(self) -> np.ndarray:
        """The game's kernel options."""
        return self.state.game.opts


def root_of(state: State) -> Root:
    """The search root of ``state``; a finished game or a pending roll has no move to
    choose and raises a ``ValueError`` that says so."""
    if state.is_terminal():
        raise GameOverError(f"the game is over ({state.outcome()}); there is no move to choose")
    if state.is_chance():
        raise IllegalMoveError(
            f"a roll is pending in {state}: the next event is chance, not a player's move"
        )
    moves = tuple(state.legal_moves())
    width = max(len(m.actions) for m in moves)
    seqs = np.zeros((len(moves), width), dtype=np.int64)
    seq_len = np.empty(len(moves), dtype=np.int64)
    for i, move in enumerate(moves):
        seqs[i, : len(move.actions)] = move.actions
        seq_len[i] = len(move.actions)
    arr = state.kernel_state()
    hist = state.kernel_history()
    return Root(state, engine_for(state.game.name), moves, arr, hist, seqs, seq_len)


def moves_of_actions(state: State, actions: list[int]) -> list[Move]:
    """Group a line of action ids from ``state`` into the moves that make it (stopping where
    the actions no longer spell a legal move, or at a roll)."""
    line: list[Move] = []
    pos = 0
    while pos < len(actions) and not state.is_terminal() and not state.is_chance():
        match = None
        for move in state.legal_moves():
            k = len(move.actions)
            if tuple(actions[pos : pos + k]) == move.actions:
                match = move
                break
        if match is None:
            break
        line.append(match)
        state = state.play(match)
        pos += len(match.actions)
    return line
