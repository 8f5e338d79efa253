"""Arrays returned by compiled code are boxed without a call into Python
(:mod:`diceboard.kernel.array_return`): the same arrays as numba's own boxer makes, no call of
numba's ``_numba_unpickle`` per array and no reference leaked per array, in functions compiled
now and in the game API's kernel calls (loaded from numba's cache)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import numba
import numpy as np
import pytest

import diceboard
from diceboard.kernel import array_return
from diceboard.kernel.jit import jit_disabled

pytestmark = pytest.mark.skipif(jit_disabled(), reason="boxing is what compiled code does")


@pytest.fixture
def numbas_own() -> Iterator[None]:
    array_return.uninstall()
    yield
    array_return.install()


def _fresh() -> Callable[[np.ndarray], tuple[Any, ...]]:
    """A function compiled on its first call (with the boxer installed at that time) that
    returns a new array, a read-only view, a 2-d slice of another and an int."""

    @numba.njit(cache=False)
    def made(a: np.ndarray) -> tuple[Any, ...]:
        b = a.copy()
        b[0] += 1
        grid = np.arange(12.0).reshape(3, 4)
        return b, grid[:, 1:3], a.shape[0]

    return made  # type: ignore[no-any-return]


def _unpickles(call: Callable[[], object]) -> int:
    """How many times ``call`` makes numba's runtime call ``_numba_unpickle`` (a Python
    function called from C, seen by a profile hook)."""
    count = 0

    def hook(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call" and frame.f_code.co_name == "_numba_unpickle":
            count += 1

    sys.setprofile(hook)
    try:
        call()
    finally:
        sys.setprofile(None)
    return count


def test_installed_once_the_kernel_package_is_imported() -> None:
    assert array_return.installed()


def test_the_arrays_are_what_numbas_boxer_makes(numbas_own: None) -> None:
    theirs = _fresh()
    a = np.arange(7, dtype=np.int64)
    expected = theirs(a)
    array_return.install()
    mine = _fresh()(a)
    assert len(mine) == len(expected) == 3
    for got, want in zip(mine[:2], expected[:2], strict=True):
        assert type(got) is type(want) is np.ndarray
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.strides == want.strides and got.flags.writeable == want.flags.writeable
        np.testing.assert_array_equal(got, want)
    assert mine[2] == 7
    assert mine[0][0] == 1 and a[0] == 0  # a copy, not the argument
    assert mine[1].base is not None  # a view keeps what it views alive


def test_no_call_into_python_per_array() -> None:
    made = _fresh()
    a = np.arange(5, dtype=np.int64)
    made(a)  # compiled
    assert _unpickles(lambda: [made(a) for _ in range(50)]) == 0


def test_numbas_boxer_calls_into_python_per_array(numbas_own: None) -> None:
    # the test above can fail: numba's own boxer unpickles the array type every time
    made = _fresh()
    a = np.arange(5, dtype=np.int64)
    made(a)
    assert _unpickles(lambda: [made(a) for _ in range(50)]) >= 100


def test_no_reference_to_the_array_type_is_leaked() -> None:
    made = _fresh()
    a = np.arange(5, dtype=np.int64)
    made(a)
    before = sys.getrefcount(np.ndarray)
    for _ in range(1000):
        made(a)
    assert sys.getrefcount(np.ndarray) - before < 10


@pytest.mark.parametrize("name", diceboard.games.names())
def test_the_game_apis_kernel_calls_do_not_call_into_python(name: str) -> None:
    # play() runs the game's compiled advance, loaded from numba's cache when the suite's
    # cache is warm: its environment kept the array type
    game = diceboard.game(name)
    state = game.initial_state()
    moves = state.legal_moves() or []
    if state.is_chance():
        moves = [move for move, _ in state.chance_outcomes()]
    state.play(moves[0])
    assert _unpickles(lambda: [state.play(move) for move in moves[:20]]) == 0


def test_a_function_compiled_while_uninstalled_keeps_numbas_boxer(numbas_own: None) -> None:
    made = _fresh()
    a = np.arange(3, dtype=np.int64)
    made(a)
    array_return.install()
    assert _unpickles(lambda: made(a)) == 2  # one per array it returns


def test_install_is_refused_where_numba_boxes_arrays_otherwise(
    monkeypatch: pytest.MonkeyPatch, numbas_own: None
) -> None:
    functions = array_return._registry()
    monkeypatch.setitem(functions, numba.core.types.Array, lambda typ, val, c: None)
    assert not array_return.install()
    assert not array_return.installed()


def test_install_is_refused_where_numba_makes_arrays_with_another_function(
    monkeypatch: pytest.MonkeyPatch, numbas_own: None
) -> None:
    # a numba whose own boxer calls another C function (or passes other arguments) keeps it
    def adapt(self: Any, aryty: Any, ary: Any, dtypeptr: Any) -> Any:
        return "NRT_adapt_ndarray_to_python_stolen"

    monkeypatch.setattr(numba.core.pythonapi.PythonAPI, "nrt_adapt_ndarray_to_python", adapt)
    assert not array_return.install()
    assert not array_return.installed()
