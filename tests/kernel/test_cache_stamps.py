"""Every kernel function's numba cache entry is stamped with the digest of all compiled sources,
so an edit to a function it compiles in (in another file) cannot leave a stale entry."""

from __future__ import annotations

from typing import Any

import pytest

from diceboard.kernel.cache import STAMP_ATTR
from diceboard.kernel.cachedir import compiled_sources_digest
from diceboard.kernel.jit import jit_disabled, njit

pytestmark = pytest.mark.skipif(jit_disabled(), reason="numba's cache exists only compiled")


def _locator(dispatcher: Any) -> Any:
    return dispatcher._cache._impl.locator


def test_a_rules_kernel_function_is_stamped_with_every_compiled_source() -> None:
    from diceboard.games.chase.kernel import play

    stamp = compiled_sources_digest().encode()
    dispatchers = [value for value in vars(play).values() if hasattr(value, "_cache")]
    assert dispatchers
    for dispatcher in dispatchers:
        locator = _locator(dispatcher)
        assert type(locator).__name__.startswith("Stamped")
        assert locator.get_source_stamp() == stamp


def test_a_function_given_its_own_stamp_keeps_it() -> None:
    def twice(x: int) -> int:
        return 2 * x

    setattr(twice, STAMP_ATTR, b"narrower")
    compiled = njit(twice)
    assert _locator(compiled).get_source_stamp() == b"narrower"
    assert compiled(21) == 42
