"""Concurrency, persistence, clocks and migrations."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import event, inspect

from diceboard.server import ServerSettings, create_app
from diceboard.server.clocks import charge, flagged, reading
from diceboard.server.errors import Conflict
from diceboard.server.schemas import NewGame, TimeControl
from diceboard.server.storage import Database, MoveData, Repository
from diceboard.server.storage.database import alembic_config, make_engine, migrate
from tests.server.conftest import PLAY_POSITION, auth, create, make_settings, state, wait_for


def test_conflicting_submissions_exactly_one_applies(database_url: str) -> None:
    app = create_app(make_settings(database_url))
    service = app.state.service

    async def scenario() -> list[object]:
        await service.start()
        try:
            grant = await service.create(
                NewGame(game="custodian", mode="local", position=PLAY_POSITION)
            )
            gid, token = grant.live.id, grant.token
            # legal moves all, so that whichever is taken first (the order in which requests
            # reach the game's lock is not the order they were sent in) the others conflict
            moves = [m.notation for m in grant.live.state.legal_moves()[:4]] * 3
            return await asyncio.gather(  # type: ignore[no-any-return]
                *(service.move(gid, token, m, 1) for m in moves), return_exceptions=True
            )
        finally:
            await service.stop()
            app.state.database.close()

    results = asyncio.run(scenario())
    applied = [r for r in results if not isinstance(r, BaseException)]
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(applied) == 1 and len(conflicts) == len(results) - 1
    with TestClient(create_app(make_settings(database_url))) as client:
        gid = applied[0].id  # type: ignore[attr-defined]
        game = client.get(f"/api/games/{gid}").json()["game"]
        assert len(game["moves"]) == 1 and game["version"] == 2


def test_a_second_process_cannot_overwrite_a_newer_game(database_url: str) -> None:
    """Two servers on one database: the guarded write refuses the one that read earlier."""
    database = Database.open(database_url)
    with TestClient(create_app(make_settings(database_url))) as first:
        created = create(first, mode="local", position=PLAY_POSITION)
        repo = Repository(database)
        stale = repo.load(created["id"])
        assert stale is not None
        ok = first.post(
            f"/api/games/{created['id']}/moves",
            json={"move": "b1-b2=2"},
            headers=auth(created["token"]),
        )
        assert ok.status_code == 200
        before = stale[0]
        after = dataclasses.replace(before, revision=before.revision + 1, result="1-0")
        assert repo.commit(before, after) is False
    database.close()


def test_racing_writers_of_one_revision_commit_exactly_once(database_url: str) -> None:
    """Writers on their own connections replace the same revision at the same moment: the
    database's row lock and the revision guard let exactly one of them through."""
    from tests.server.test_units import sample_game

    writers = 8
    database = Database.open(database_url)
    repo = Repository(database)
    before = sample_game()
    repo.insert(before, [], [])
    start = threading.Barrier(writers)

    def write(i: int) -> bool:
        after = dataclasses.replace(before, revision=2, version=2, move_count=1)
        start.wait()
        return repo.commit(before, after, new_moves=(MoveData(f"move {i}", "W", 1.0 + i),))

    with ThreadPoolExecutor(writers) as pool:
        won = list(pool.map(write, range(writers)))
    loaded = repo.load(before.id)
    database.close()
    assert won.count(True) == 1
    assert loaded is not None
    game, _seats, moves = loaded
    assert game.revision == 2 and game.move_count == 1
    assert moves == [MoveData(f"move {won.index(True)}", "W", 1.0 + won.index(True))]


def test_games_survive_a_restart(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        created = create(client, mode="computer", level="random", seed=3)
        gid, token = created["id"], created["token"]
        for _ in range(3):
            game = state(client, gid, token)["game"]
            client.post(
                f"/api/games/{gid}/moves",
                json={"move": game["legal"][0]["notation"]},
                headers=auth(token),
            )
        before = state(client, gid, token)["game"]
    with TestClient(create_app(make_settings(database_url))) as client:
        after = state(client, gid, token)
        assert after["you"] == ["W"]
        for key in ("position", "moves", "version", "legal"):
            assert after["game"][key] == before[key]


def test_a_computer_turn_resumes_after_a_restart(database_url: str) -> None:
    settings = make_settings(database_url, computer_delay=30.0)
    with TestClient(create_app(settings)) as client:
        created = create(client, mode="computer", level="random", position=PLAY_POSITION)
        gid, token = created["id"], created["token"]
        client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token))
        assert state(client, gid)["game"]["to_move"] == "B"  # the computer is still "thinking"
    with TestClient(create_app(make_settings(database_url))) as client:
        wait_for(lambda: state(client, gid)["game"]["to_move"] == "W")


def test_running_out_of_time_loses(client: TestClient) -> None:
    created = create(
        client,
        mode="local",
        position=PLAY_POSITION,
        time_control={"minutes": 0.005, "increment": 0},
    )  # 300 ms each
    gid = created["id"]
    game = state(client, gid)["game"]
    assert game["clock"]["running"] == "W" and game["clock"]["initial_ms"] == 300
    wait_for(lambda: state(client, gid)["game"]["status"] == "finished", timeout=5)
    game = state(client, gid)["game"]
    assert game["outcome"] == {"winner": "B", "reason": "timeout", "result": "0-1"}
    assert game["clock"]["remaining"]["W"] == 0 and game["clock"]["running"] is None
    pgn = client.get(f"/api/games/{gid}/record").text
    assert '[Termination "timeout"]' in pgn


def test_the_clock_charges_the_mover_and_adds_the_increment(client: TestClient) -> None:
    created = create(
        client, mode="local", position=PLAY_POSITION, time_control={"minutes": 1, "increment": 2}
    )
    gid, token = created["id"], created["token"]
    time.sleep(0.3)
    game = client.post(
        f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token)
    ).json()["game"]
    white = game["clock"]["remaining"]["W"]
    assert 60_000 + 2_000 - 1_500 < white < 60_000 + 2_000 - 250
    assert game["clock"]["running"] == "B" and game["moves"][-1]["clock_ms"] == white


def test_clock_arithmetic() -> None:
    from tests.server.test_units import sample_game

    game = dataclasses.replace(
        sample_game(),
        initial_ms=10_000,
        increment_ms=1_000,
        clock_first_ms=10_000,
        clock_second_ms=5_000,
        clock_running="W",
        clock_since=100.0,
    )
    view = reading(game, ("W", "B"), 104.0)
    assert view is not None and view.remaining == {"W": 6_000, "B": 5_000}
    assert flagged(game, ("W", "B"), 109.9) is None
    assert flagged(game, ("W", "B"), 110.0) == "W"
    after, mover = charge(game, ("W", "B"), "W", "B", 103.0)
    assert mover == 8_000 and after.clock_running == "B" and after.clock_since == 103.0
    assert after.clock_second_ms == 5_000


def test_downtime_is_given_back_to_running_clocks(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        created = create(
            client,
            mode="local",
            position=PLAY_POSITION,
            time_control={"minutes": 1, "increment": 0},
        )
        gid = created["id"]
    database = Database.open(database_url)
    Repository(database).heartbeat(time.time() - 40)  # as if the server died 40 s ago
    database.close()
    time.sleep(0.2)
    with TestClient(create_app(make_settings(database_url))) as client:
        remaining = state(client, gid)["game"]["clock"]["remaining"]["W"]
        assert remaining > 55_000  # not charged for the 40 s the server was down


def test_a_first_heartbeat_written_meanwhile_by_another_server_is_updated(
    database_url: str,
) -> None:
    """Two servers start on one new database: the other one inserts the first heartbeat
    between this one's read and insert. This one then updates it instead of failing."""
    database = Database.open(database_url)
    repo = Repository(database)

    def the_other_server_beats_first(*_args: object) -> None:
        Repository(database).heartbeat(5.0)

    # runs once, inside this server's transaction, before its INSERT goes out
    event.listen(database.sessions, "before_flush", the_other_server_beats_first, once=True)
    repo.heartbeat(7.0)
    assert repo.last_heartbeat() == 7.0
    database.close()


def test_migrations_create_and_drop_the_schema(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)  # running again at the next start changes nothing
    assert {"games", "seats", "moves", "server_meta", "alembic_version"} <= set(
        inspect(engine).get_table_names()
    )
    command.downgrade(alembic_config(engine), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()


def test_unusable_database_urls_are_explained(tmp_path: Path) -> None:
    from diceboard.core.errors import OptionError

    with pytest.raises(OptionError, match="SQLAlchemy database URL"):
        create_app(ServerSettings("not a url"))
    with pytest.raises(OptionError, match="cannot use the database"):
        create_app(ServerSettings("nosuchdialect://x/y"))
    with pytest.raises(OptionError, match=r"SQLAlchemy database URL.*'mistyped'"):
        create_app(ServerSettings("postgresql+psycopg://ann:s3cret@host:mistyped/games"))


def test_database_errors_never_show_the_password() -> None:
    from diceboard.core.errors import OptionError

    urls = (
        "postgresql+psycopg://ann:s3cret@/games?host=/nonexistent",  # nobody listens there
        "postgresql+psycopg://ann:s3cret@host:mistyped/games",  # SQLAlchemy cannot parse it
        "nosuchdialect://ann:s3cret@host/games",  # no such driver
    )
    for url in urls:
        with pytest.raises(OptionError) as refused:
            create_app(ServerSettings(url))
        assert "s3cret" not in str(refused.value) and "ann:***@" in str(refused.value), url


def test_time_control_bounds() -> None:
    with pytest.raises(ValueError):
        TimeControl(minutes=181)
    assert TimeControl(minutes=1).increment == 0
