"""The game API's kernel calls (``pack`` and ``advance``) against the kernel's own
``legal_actions`` and ``step``, called directly on copies, over random games of every game
and variant: the state buffer holds exactly the state, the history and the legal actions
(with Chase's notation keys), and an illegal action or a finished game writes nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import diceboard
from diceboard.kernel import RESULT
from diceboard.kernel.stepping import FLAG_CHANCE, FLAG_TERMINAL, unpack
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


def _check_code(game: diceboard.Game, buf: np.ndarray, code: int) -> None:
    kernel = game.kernel
    nhist, n, flags = unpack(code)
    assert buf[kernel.STATE_LEN] == nhist
    assert buf.shape[0] == kernel.STATE_LEN + 1 + nhist + kernel.LEGAL_WIDTH * n
    assert bool(flags & FLAG_TERMINAL) == bool(buf[RESULT])
    assert bool(flags & FLAG_CHANCE) == bool(buf[6])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pack_and_advance_agree_with_legal_actions_and_step(case: tuple[str, str]) -> None:
    name, variant = case
    game = diceboard.game(name, variant=variant)
    kernel = game.kernel
    room = kernel.LEGAL_WIDTH * kernel.MAX_LEGAL
    rng = random.Random(7)
    for seed in range(3):
        arr = game.initial_state().kernel_state()
        hist = np.array([arr[5]], dtype=np.int64)
        buf = np.zeros(kernel.STATE_LEN + 1 + hist.shape[0] + room, dtype=np.int64)
        code = kernel.pack(arr, hist, game.opts, buf)
        buf = buf[: buf.shape[0] - room + unpack(code)[1] * kernel.LEGAL_WIDTH]
        for _ply in range(120 if seed else 400):
            expected = _expected(game, arr, hist)
            assert np.array_equal(buf, expected)
            _check_code(game, buf, code)
            nhist, n, _ = unpack(code)
            lo = kernel.STATE_LEN + 1 + nhist
            legal = buf[lo : lo + n].tolist()
            if arr[RESULT] or not legal:
                out = np.full(buf.shape[0] + 1 + room, 77, dtype=np.int64)
                assert kernel.advance(buf, game.opts, 0, out) == -1
                assert (out == 77).all()
                break
            illegal = next(a for a in range(game.num_actions) if a not in legal)
            out = np.full(lo + 1 + room, 77, dtype=np.int64)
            before = buf.copy()
            assert kernel.advance(buf, game.opts, illegal, out) == -1
            assert (out == 77).all() and np.array_equal(buf, before)
            action = legal[rng.randrange(n)]
            code = kernel.advance(buf, game.opts, action, out)
            assert code >= 0 and np.array_equal(buf, before)
            # the plain kernel's step on copies
            grown = np.empty(hist.shape[0] + 1, dtype=np.int64)
            grown[: hist.shape[0]] = hist
            arr = arr.copy()
            hist = grown[: kernel.step(arr, game.opts, action, grown, hist.shape[0])]
            buf = out[
                : kernel.STATE_LEN + 1 + unpack(code)[0] + unpack(code)[1] * kernel.LEGAL_WIDTH
            ]
