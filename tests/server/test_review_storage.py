"""Finished reviews are stored with their game: a restarted server shows one without
reviewing the game again (by the game, and by the job id a page was polling), and a stored
review that cannot be read back, or belongs to another revision, is made again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

import diceboard
from diceboard.analysis.review import DEFAULT_AGENT
from diceboard.server import create_app
from diceboard.server.service import analysis as review_service
from diceboard.server.storage import Database
from diceboard.server.storage.reviews import ReviewStore
from tests.server.conftest import make_settings
from tests.server.test_analysis_api import HANGING, finished_game, wait_for_review


def _reviewed(database_url: str) -> tuple[str, dict[str, Any]]:
    """A finished game reviewed on a server that then stops: its id and the finished job."""
    state = diceboard.game("chase").parse(HANGING).play("i8-f7SW")
    take = next(m for m in state.legal_moves() if m.capture)
    reply = state.play(take).legal_moves()[0]
    with TestClient(create_app(make_settings(database_url))) as client:
        game_id = finished_game(client, HANGING, ["i8-f7SW", take.notation, reply.notation])
        job = client.post(f"/api/games/{game_id}/review").json()
        done = wait_for_review(client, job["job"])
    assert done["status"] == "done"
    return game_id, done


@pytest.fixture
def no_reviewing(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Count the review work sent to the computer pool (a stored review needs none)."""
    sent: list[object] = []
    real = review_service.run_job

    def counting(job: Any) -> dict[str, Any]:
        sent.append(job)
        return real(job)

    monkeypatch.setattr(review_service, "run_job", counting)
    yield sent


def test_a_restarted_server_shows_the_stored_review_without_reviewing(
    database_url: str, no_reviewing: list[object]
) -> None:
    game_id, done = _reviewed(database_url)
    reviewed_before = len(no_reviewing)
    assert reviewed_before > 0
    with TestClient(create_app(make_settings(database_url))) as client:
        # the page that was polling before the restart still gets its review
        polled = client.get(f"/api/reviews/{done['job']}")
        assert polled.status_code == 200 and polled.json()["status"] == "done"
        assert polled.json()["review"] == done["review"]
        again = client.post(f"/api/games/{game_id}/review")
        assert again.status_code == 200, again.text
        shown = again.json()
        assert shown["job"] == done["job"] and shown["status"] == "done"
        assert shown["review"] == done["review"] and shown["done"] == shown["total"] == 3
    assert len(no_reviewing) == reviewed_before  # nothing was reviewed again


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE reviews SET result = 'not json {'",
        "UPDATE reviews SET result = '[1, 2]'",
        'UPDATE reviews SET result = \'{"agent": "x"}\'',
        "UPDATE reviews SET revision = revision + 7",
    ],
    ids=["broken-json", "not-an-object", "missing-keys", "other-revision"],
)
def test_a_broken_or_stale_stored_review_is_made_again(
    database_url: str, damage: str, no_reviewing: list[object]
) -> None:
    game_id, done = _reviewed(database_url)
    database = Database.open(database_url)
    with database.engine.begin() as connection:
        connection.execute(text(damage))
    database.close()
    reviewed_before = len(no_reviewing)
    with TestClient(create_app(make_settings(database_url))) as client:
        # the damaged row is not shown: the old job id is unknown now
        assert client.get(f"/api/reviews/{done['job']}").status_code in (200, 404)
        started = client.post(f"/api/games/{game_id}/review")
        assert started.status_code in (200, 202), started.text
        redone = wait_for_review(client, started.json()["job"])
        assert redone["status"] == "done" and redone["review"]["marks"] == done["review"]["marks"]
    assert len(no_reviewing) > reviewed_before
    # and the review made again is stored in place of the damaged one
    database = Database.open(database_url)
    stored = ReviewStore(database).by_job(redone["job"])
    database.close()
    assert stored is not None and stored.result == redone["review"]


def test_the_store_keeps_one_review_a_game_and_agent(database_url: str) -> None:
    game_id, done = _reviewed(database_url)
    database = Database.open(database_url)
    store = ReviewStore(database)
    stored = store.by_job(done["job"])
    assert stored is not None and stored.result == done["review"]
    assert stored.game_id == game_id and stored.agent == DEFAULT_AGENT
    assert store.find(game_id, DEFAULT_AGENT, stored.revision) == stored
    assert store.find(game_id, "alphabeta:depth=9", stored.revision) is None
    # a second agent's review is kept beside it; a new one by the same agent replaces it
    assert store.save(game_id, "other", "job-b", stored.revision, 1.0, stored.result, 0.0)
    assert store.save(game_id, DEFAULT_AGENT, "job-c", stored.revision, 2.0, stored.result, 0.0)
    assert store.by_job(done["job"]) is None
    assert store.find(game_id, DEFAULT_AGENT, stored.revision).job_id == "job-c"  # type: ignore[union-attr]
    assert store.find(game_id, "other", stored.revision).job_id == "job-b"  # type: ignore[union-attr]
    # no game, no review: the row would point nowhere
    assert not store.save("nosuchgame", DEFAULT_AGENT, "job-d", 1, 1.0, stored.result, 0.0)
    store.drop(game_id, "other")
    assert store.find(game_id, "other", stored.revision) is None
    # asked for another revision of the game: stale, so dropped
    assert store.find(game_id, DEFAULT_AGENT, stored.revision + 1) is None
    assert store.by_job("job-c") is None
    database.close()


def test_the_store_on_postgresql(postgres_url: str) -> None:
    test_the_store_keeps_one_review_a_game_and_agent(postgres_url)
