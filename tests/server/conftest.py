"""Fixtures of the server tests: an app on a fresh database, a test client, helpers.

Every test that needs a database takes its URL from the ``database_url`` fixture: a fresh
SQLite file by default. ``test_postgres.py`` overrides that one fixture with a fresh
PostgreSQL database (``postgres_url``) and so runs the same tests on PostgreSQL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# every server test needs the web extra: without it they are skipped, not failed at collection
pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from diceboard.server import ServerSettings, create_app
from tests.server.pg_cluster import Cluster, PostgresMissing

#: the spec's first position of play (Custodian Dice)
PLAY_POSITION = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"


def variants() -> list[tuple[str, str]]:
    """Every (game, variant) pair of the registry."""
    from diceboard import games

    return [(name, v) for name in games.names() for v in games.info(name).variant_names]


def make_settings(database_url: str, **overrides: Any) -> ServerSettings:
    """Settings for a test server on ``database_url``: threads instead of processes, no
    computer delay."""
    values: dict[str, Any] = {
        "computer_pool": "thread",
        "computer_workers": 1,
        "computer_delay": 0.0,
        "heartbeat_interval": 0.2,
    }
    values.update(overrides)
    return ServerSettings(database_url, **values)


def hold_back_warm_up(monkeypatch: pytest.MonkeyPatch, game: str) -> threading.Event:
    """Make the warm-up of apps created from now on stop after ``game``'s kernels (before
    what only the server's requests use, so ``game`` is not ready) until the event returned
    is set."""
    from diceboard.server import app as app_module

    release = threading.Event()
    warm_up = app_module.warm_up_views

    def held(name: str) -> None:
        warm_up(name)
        if name == game:
            release.wait(120)

    monkeypatch.setattr(app_module, "warm_up_views", held)
    return release


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file of a test (tests about SQLite itself use it directly)."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def database_url(db_path: Path) -> str:
    """The SQLAlchemy URL of a fresh, empty database for one test (override to change the
    database every server test runs on)."""
    return f"sqlite:///{db_path}"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for this test process (each xdist worker has its own);
    skips the tests that need it where PostgreSQL or psycopg is not installed."""
    try:
        cluster = Cluster.start()
    except PostgresMissing as exc:
        pytest.skip(f"no PostgreSQL for the tests: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database, dropped after the test."""
    name = postgres_cluster.create_database()
    try:
        yield postgres_cluster.url(name)
    finally:
        postgres_cluster.drop_database(name)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(database_url))) as test_client:
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


def online(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """An online game with both seats taken: its id and the two players' tokens (the
    creator's, then the joiner's; ``name`` and ``joiner`` name them)."""
    joiner = body.pop("joiner", None)
    created = create(client, mode="online", **body)
    code = created["links"]["invite"].split("#code=")[1]
    answer = client.post(
        f"/api/games/{created['id']}/join",
        json={"code": code, **({"name": joiner} if joiner else {})},
    )
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return created["id"], created["token"], answer.json()["token"]


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
