"""The Ray backend gives exactly the local backend's results (on a local Ray)."""

from __future__ import annotations

import pytest

from diceboard.arena import Backend, run_match
from diceboard.core.game import Game

pytest.importorskip("ray")


@pytest.mark.ray
def test_ray_backend_equals_local(custodian: Game) -> None:
    local = run_match(custodian, "random", "random", 6, seed=12)
    on_ray = run_match(
        custodian, "random", "random", 6, seed=12, backend=Backend("ray", workers=2, batch_size=2)
    )
    assert on_ray == local
    assert [g.pgn for g in on_ray.games] == [g.pgn for g in local.games]
