"""A server whose engine warms up beside serving plays a game as soon as that game's kernels
are ready: its stored games are resumed and its requests answered while the next game's
kernels still compile; a request for the next game waits for them, then is answered."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diceboard.server import create_app
from tests.server.conftest import hold_back_warm_up, make_settings


def _local_game(client: TestClient, game: str) -> str:
    created = client.post("/api/games", json={"game": game, "mode": "local"})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def test_the_first_game_plays_while_the_next_games_kernels_compile(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        stored = {game: _local_game(client, game) for game in ("custodian", "chase")}
    release = hold_back_warm_up(monkeypatch, "chase")
    app = create_app(make_settings(database_url), warm_up_beside=True)
    try:
        with TestClient(app) as client:
            deadline = time.monotonic() + 60
            while client.get("/api/health").json()["games_ready"] != ["custodian"]:
                assert time.monotonic() < deadline, "custodian never became ready"
                time.sleep(0.05)
            health = client.get("/api/health").json()
            assert health["ready"] is False and health["games_ready"] == ["custodian"]
            core = app.state.service.core
            assert core.cached(stored["custodian"]) is not None, "its stored game is resumed"
            assert core.cached(stored["chase"]) is None, "the other game's is not yet"
            assert client.get(f"/api/games/{stored['custodian']}").status_code == 200
            _local_game(client, "custodian")

            answers: list[Any] = []
            waiting = threading.Thread(
                target=lambda: answers.append(client.post("/api/games", json={"game": "chase"}))
            )
            waiting.start()
            waiting.join(0.5)
            assert waiting.is_alive() and not answers, "a chase request waits for its kernels"
            release.set()
            waiting.join(30)
            assert answers and answers[0].status_code == 201, answers
            assert client.get("/api/health").json()["ready"] is True
            assert core.cached(stored["chase"]) is not None
    finally:
        release.set()
