"""The game API's kernel calls (``pack`` and ``advance``) against the kernel's own
``legal_actions`` and ``step``, called directly on copies, over random games of every game
and variant: the state buffer holds exactly the state, the history and the legal actions
(with Chase's notation keys), it is read-only, the input buffer is never changed, and an
illegal action or a finished game is refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

import diceboard
from diceboard.kernel import RESULT
from diceboard.kernel.jit import jit_disabled
from diceboard.kernel.stepping import FLAG_CHANCE, FLAG_TERMINAL, direct
from tests.conformance.conftest import CASES, IDS


def _expected(game: diceboard.Game, arr: np.ndarray, hist: np.ndarray) -> np.ndarray:
    """The buffer of a state, made from the kernel's plain entry points."""
    kernel = game.kernel
    legal = np.empty(kernel.MAX_LEGAL, dtype=np.int64)
    n = kernel.legal_actions(arr.copy(), game.opts, legal)
    parts = [arr, [hist.shape[0]], hist, legal[:n]]
    if kernel.LEGAL_WIDTH == 2:
        parts.append([kernel.notation_key(arr.copy(), a) for a in legal[:n]])
    return np.concatenate([np.asarray(p, dtype=np.int64) for p in parts])


def _check_made(game: diceboard.Game, made: tuple[int, int, int, np.ndarray]) -> None:
    """What pack and advance return agrees with the buffer, which is read-only."""
    kernel = game.kernel
    lo, n, flags, buf = made
    assert lo == kernel.STATE_LEN + 1 + buf[kernel.STATE_LEN]
    assert buf.shape[0] == lo + kernel.LEGAL_WIDTH * n
    assert bool(flags & FLAG_TERMINAL) == bool(buf[RESULT])
    assert bool(flags & FLAG_CHANCE) == bool(buf[6])
    assert not buf.flags.writeable and buf.flags.c_contiguous


def _refused(made: tuple[int, int, int, np.ndarray]) -> bool:
    _, _, flags, buf = made
    return flags == -1 and buf.shape[0] == 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pack_and_advance_agree_with_legal_actions_and_step(case: tuple[str, str]) -> None:
    name, variant = case
    game = diceboard.game(name, variant=variant)
    kernel = game.kernel
    rng = random.Random(7)
    for seed in range(3):
        arr = game.initial_state().kernel_state()
        hist = np.array([arr[5]], dtype=np.int64)
        made = kernel.pack(arr, hist, game.opts)
        for _ply in range(120 if seed else 400):
            lo, n, _, buf = made
            assert np.array_equal(buf, _expected(game, arr, hist))
            _check_made(game, made)
            legal = buf[lo : lo + n].tolist()
            before = buf.copy()
            if arr[RESULT] or not legal:
                assert _refused(kernel.advance(buf, game.opts, legal[0] if legal else 0))
                break
            illegal = next(a for a in range(game.num_actions) if a not in legal)
            assert _refused(kernel.advance(buf, game.opts, illegal))
            action = legal[rng.randrange(n)]
            made = kernel.advance(buf, game.opts, action)
            assert made[2] >= 0 and np.array_equal(buf, before)
            # the plain kernel's step on copies
            grown = np.empty(hist.shape[0] + 1, dtype=np.int64)
            grown[: hist.shape[0]] = hist
            arr = arr.copy()
            hist = grown[: kernel.step(arr, game.opts, action, grown, hist.shape[0])]


def test_the_direct_call_is_the_compiled_function_and_plays_like_the_dispatcher() -> None:
    game = diceboard.game("custodian")
    state = game.start(seed=4)
    a = state.legal_action_ids()[0]
    call = direct(game.kernel.advance, (state._buf, game.opts, a))
    through, straight = (
        game.kernel.advance(state._buf, game.opts, a),
        call(state._buf, game.opts, a),
    )
    assert through[:3] == straight[:3] and np.array_equal(through[3], straight[3])
    if jit_disabled():
        assert call is game.kernel.advance
    else:
        assert call is not game.kernel.advance and not hasattr(call, "compile")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pack_makes_the_buffer_advance_made_finished_games_too(case: tuple[str, str]) -> None:
    # pack goes through advance with the action PACK: every state of a random game, the last
    # (finished) one included, packed from its arrays is the buffer play made
    name, variant = case
    game = diceboard.game(name, variant=variant)
    rng = random.Random(11)
    state = game.initial_state()
    for _ply in range(400):
        arr, hist = state.kernel_state(), state._hist.copy()
        lo, n, flags, buf = game.kernel.pack(arr, hist, game.opts)
        assert np.array_equal(buf, state._buf) and (lo, n, flags) == (
            state._lo,
            state._n,
            state._flags,
        )
        assert np.array_equal(arr, state.kernel_state())  # the arrays given are not changed
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_action_ids()))
    assert state.is_terminal()


def test_pack_compiles_nothing_of_its_own() -> None:
    # a function compiled for pack alone cost a cold start half a second a game
    for name in diceboard.games.names():
        kernel = diceboard.game(name).kernel
        assert not hasattr(kernel.pack, "compile")
