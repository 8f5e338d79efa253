"""The faster ``values()`` of numba's compiler flags (:mod:`diceboard.kernel.compiler_speedup`)
gives exactly what numba's own does, so flags hash and compare as before; it is in use once
the kernel package is imported, and refused where it would not agree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba.core import compiler, targetconfig

import diceboard.kernel  # noqa: F401 - installs the speed-up
from diceboard.kernel import compiler_speedup

#: numba's compiler flags (numba is untyped)
Flags: Any = compiler.Flags

#: options of numba's flags that take a bool, which a test may set either way
BOOL_OPTIONS = sorted(
    name for name, option in Flags.options.items() if isinstance(option.default, bool)
)


def _flags(settings: dict[str, bool]) -> Flags:
    flags = Flags()
    for name, value in settings.items():
        setattr(flags, name, value)
    return flags


settings = st.dictionaries(st.sampled_from(BOOL_OPTIONS), st.booleans())


@pytest.fixture
def restored() -> Iterator[None]:
    yield
    compiler_speedup.install()


def test_it_is_in_use_once_the_kernel_package_is_imported() -> None:
    assert len(BOOL_OPTIONS) >= 5
    assert targetconfig.TargetConfig.values is compiler_speedup.fast_values


@given(settings)
def test_the_values_are_numbas_own_in_numbas_order(chosen: dict[str, bool]) -> None:
    flags = _flags(chosen)
    mine = compiler_speedup.fast_values(flags)
    theirs = compiler_speedup._ORIGINAL(flags)
    assert mine == theirs
    assert list(mine) == list(theirs)
    for name, value in chosen.items():
        assert mine[name] is value


@given(settings, settings)
def test_flags_hash_and_compare_as_numbas_own_would(
    first: dict[str, bool], second: dict[str, bool]
) -> None:
    a, b = _flags(first), _flags(second)
    same = compiler_speedup._ORIGINAL(a) == compiler_speedup._ORIGINAL(b)
    assert (a == b) is same
    assert (a == _flags(first)) and hash(a) == hash(_flags(first))


def test_a_value_set_after_a_call_shows_in_the_next() -> None:
    flags = Flags()
    before = flags.values()
    flags.nrt = not before["nrt"]
    assert flags.values()["nrt"] is (not before["nrt"])
    assert before["nrt"] is Flags().values()["nrt"]  # the first call's dict was a copy


def test_install_is_refused_where_the_result_would_differ(
    monkeypatch: pytest.MonkeyPatch, restored: None
) -> None:
    compiler_speedup.uninstall()
    original = compiler_speedup._ORIGINAL

    def numba_of_another_kind(self: Any) -> dict[str, Any]:
        return {**original(self), "an_option_this_module_does_not_know": 1}

    monkeypatch.setattr(compiler_speedup, "_ORIGINAL", numba_of_another_kind)
    assert compiler_speedup.install() is False
    assert targetconfig.TargetConfig.values is original
    monkeypatch.undo()
    assert compiler_speedup.install() is True
    assert compiler_speedup.install() is True  # again: nothing changes
    assert targetconfig.TargetConfig.values is compiler_speedup.fast_values


def test_options_of_another_flags_class_are_left_out_as_numba_leaves_them() -> None:
    class MoreFlags(Flags):  # type: ignore[misc, valid-type]
        an_option_of_its_own = targetconfig.Option(type=bool, default=False, doc="")

    more = MoreFlags()
    more.an_option_of_its_own = True
    more.nrt = True
    copied = Flags(more)  # numba's flags copy every set value, known to them or not
    assert compiler_speedup.fast_values(copied) == compiler_speedup._ORIGINAL(copied)
    assert "an_option_of_its_own" not in copied.values()
    assert copied.values()["nrt"] is True
    assert compiler_speedup.fast_values(more) == compiler_speedup._ORIGINAL(more)
