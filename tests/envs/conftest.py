"""Shared helpers of the environment tests."""

from __future__ import annotations

import pytest

import diceboard


def chase_available() -> bool:
    """Whether the Chase engine has landed (its tests are skipped until then)."""
    try:
        diceboard.game("chase").initial_state().legal_action_ids()
    except Exception:
        return False
    return True


needs_chase = pytest.mark.skipif(not chase_available(), reason="the Chase engine has not landed")
