"""Fixtures of the server tests: an app on a fresh SQLite file, a test client, helpers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diceboard.server import ServerSettings, create_app

#: the spec's first position of play (Custodian Dice)
PLAY_POSITION = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def make_settings(path: Path, **overrides: Any) -> ServerSettings:
    """Settings for a test server: threads instead of processes, no computer delay."""
    values: dict[str, Any] = {
        "computer_pool": "thread",
        "computer_workers": 1,
        "computer_delay": 0.0,
        "heartbeat_interval": 0.2,
    }
    values.update(overrides)
    return ServerSettings(f"sqlite:///{path}", **values)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(db_path))) as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    """The header that acts for a seat."""
    return {"X-Seat-Token": token}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game (cookies are not kept: each test says which token acts)."""
    body.setdefault("game", "custodian")
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    client.cookies.clear()
    return dict(response.json())


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    """The ``state`` message of a game as ``token`` (or a spectator) sees it."""
    response = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    return dict(response.json())


def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll until ``predicate()`` holds (the computer and clocks act in the background)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
