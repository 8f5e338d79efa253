"""Helpers for the batched-simulator tests: replaying a batch through the Python API."""

from __future__ import annotations

import numpy as np
import pytest

import diceboard.vector as dv
from diceboard.core.game import Game, State


class Mirror:
    """The games of a batch replayed through the Python API, one :class:`State` per row."""

    def __init__(self, batch: dv.VectorState, start: State | None = None) -> None:
        self.game: Game = batch.game
        self.start = start if start is not None else self.game.initial_state()
        self.states: list[State] = []
        self.finished = [False] * len(batch)
        for i in range(len(batch)):
            self.states.append(self._replay_chance(self.start, batch, i, 0)[0])

    def _replay_chance(
        self, state: State, batch: dv.VectorState, i: int, k: int
    ) -> tuple[State, int]:
        """Play the logged chance outcomes of row ``i`` from index ``k`` while ``state`` is a
        chance node; a finished game hands the rest of the log to a new game."""
        log = batch.chance_outcomes[i, : batch.num_chance_outcomes[i]]
        assert batch.num_chance_outcomes[i] <= batch.chance_outcomes.shape[1]
        while state.is_chance():
            state = state.play(int(log[k]))
            k += 1
        return state, k

    def step(self, batch: dv.VectorState, actions: np.ndarray) -> list[tuple[bool, State]]:
        """Apply ``actions`` and the logged rolls; returns per row (game ended, final state)."""
        ended = []
        for i, a in enumerate(actions):
            if self.finished[i]:
                ended.append((True, self.states[i]))
                continue
            state = self.states[i].play(int(a))
            state, k = self._replay_chance(state, batch, i, 0)
            final = state
            done = state.is_terminal() or batch.truncated[i]
            if done and batch.config.auto_reset:
                state, k = self._replay_chance(self.start, batch, i, k)
            assert k == batch.num_chance_outcomes[i], f"row {i}: chance log not used up"
            self.states[i] = state
            self.finished[i] = done and not batch.config.auto_reset
            ended.append((bool(done), final))
        return ended

    def check(self, batch: dv.VectorState) -> None:
        """Every row equals its mirror: state array, history, legal actions, player."""
        for i, state in enumerate(self.states):
            np.testing.assert_array_equal(batch.states[i], state.kernel_state(), err_msg=f"row {i}")
            np.testing.assert_array_equal(
                batch.history[i, : batch.history_len[i]], state.kernel_history(), err_msg=f"row {i}"
            )
            if self.finished[i]:
                assert batch.num_legal[i] == 0 and batch.current_player[i] == -1
            else:
                assert batch.legal_actions(i) == state.legal_action_ids()
                assert batch.current_player[i] == self.game.players.index(state.to_move)


@pytest.fixture
def mirror_cls() -> type[Mirror]:
    return Mirror
