"""Several server processes on one database, in one test process: two apps on one PostgreSQL
database stand for two ``diceboard serve`` processes (the real processes behind nginx are in
``test_cluster.py``), plus the lease SQL on its own and the hub's broadcast."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, text

from diceboard.server import create_app
from diceboard.server.hub import Hub, Viewer
from diceboard.server.loadtest import free_port
from diceboard.server.storage import Database
from diceboard.server.storage.cluster import ClusterStore
from diceboard.server.storage.models import GameRow
from tests.server.conftest import auth, make_settings, wait_for


# --- the hub: one message per group of viewers ---------------------------------------------------
class CountingViews:
    def __init__(self) -> None:
        self.calls = 0

    def message(
        self, live: Any, flipped: bool, connected: set[str], you: list[str], *_: Any
    ) -> str:
        self.calls += 1
        return f"{flipped}:{','.join(you)}"


class FakeLive:
    id = "g"

    class data:  # stands for GameData
        status = "active"
        invite_code = None


def test_a_broadcast_builds_one_message_per_kind_of_viewer_not_per_socket() -> None:
    async def scenario() -> tuple[int, list[str]]:
        views = CountingViews()
        hub = Hub(views)  # type: ignore[arg-type]
        spectators = [Viewer("g", [], False) for _ in range(300)]
        flipped = [Viewer("g", [], True) for _ in range(100)]
        player = Viewer("g", ["W"], False)
        for viewer in [*spectators, *flipped, player]:
            hub.add(viewer)
        views.calls = 0
        hub.publish(FakeLive())  # type: ignore[arg-type]
        texts = [v.queue.get_nowait() or "" for v in (spectators[0], flipped[0], player)]
        return views.calls, texts

    calls, texts = asyncio.run(scenario())
    assert calls == 3
    assert texts == ["False:", "True:", "False:W"]


def test_a_slow_viewer_is_dropped_without_holding_up_the_others() -> None:
    async def scenario() -> tuple[bool, bool, int]:
        hub = Hub(CountingViews())  # type: ignore[arg-type]
        stalled, reading = Viewer("g", [], False), Viewer("g", [], False)
        hub.add(stalled)
        hub.add(reading)
        for _ in range(200):
            hub.publish(FakeLive())  # type: ignore[arg-type]
            while not reading.queue.empty():
                reading.queue.get_nowait()
        return stalled.overflowed, reading.overflowed, stalled.queue.qsize()

    stalled_dropped, reader_dropped, left = asyncio.run(scenario())
    assert stalled_dropped and not reader_dropped
    assert left == 1  # only the end-of-connection marker is kept


# --- the command ---------------------------------------------------------------------------------
def test_workers_on_sqlite_are_refused_with_one_line(tmp_path: Any) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "diceboard.cli", "serve", "--workers", "2"),
            *("--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs a PostgreSQL database" in lines[0], done.stderr


# --- on PostgreSQL -------------------------------------------------------------------------------
pg = pytest.mark.postgres


@pytest.fixture
def pair(postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one PostgreSQL database, as two server processes would be."""
    with ExitStack() as stack:
        clients = [
            stack.enter_context(
                TestClient(create_app(make_settings(postgres_url, lease_seconds=1.5)))
            )
            for _ in range(2)
        ]
        yield clients[0], clients[1]


def _game(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _move(client: TestClient, game_id: str, token: str, game: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": game["legal"][0]["notation"], "version": game["version"]},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text
    return dict(response.json()["game"])


def _online(a: TestClient, b: TestClient) -> tuple[str, str, str]:
    """An online Chase game created on ``a`` and joined on ``b``: id, host's and guest's token."""
    created = a.post("/api/games", json={"game": "chase", "mode": "online", "side": "first"})
    assert created.status_code == 201, created.text
    a.cookies.clear()
    body = created.json()
    code = body["links"]["invite"].split("#code=")[1]
    joined = b.post(f"/api/games/{body['id']}/join", json={"code": code})
    assert joined.status_code == 200, joined.text
    b.cookies.clear()
    return body["id"], body["token"], joined.json()["token"]


@pg
@pytest.mark.timeout(300)
def test_a_move_on_one_process_is_pushed_by_the_other_and_read_there_at_once(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game_id, host, guest = _online(a, b)
    with b.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
        spectator.send_json({"type": "hello", "pictures": False})
        first = spectator.receive_json()["game"]
        after = _move(a, game_id, host, first)
        # read through: B answers with the move at once, whatever its memory held
        assert _game(b, game_id)["game"]["version"] == after["version"]
        pushed = spectator.receive_json()
        assert pushed["type"] == "state" and pushed["game"]["version"] == after["version"]
        # and back: a move through B reaches a spectator on A
        with a.websocket_connect(f"/api/games/{game_id}/ws") as other:
            other.send_json({"type": "hello", "pictures": False})
            assert other.receive_json()["game"]["version"] == after["version"]
            reply = _move(b, game_id, guest, _game(b, game_id, guest)["game"])
            while (seen := other.receive_json())["type"] != "state" or seen["game"][
                "version"
            ] < reply["version"]:
                pass
            assert seen["game"]["moves"] == reply["moves"]


@pg
@pytest.mark.timeout(300)
def test_connected_seats_and_notices_travel_between_processes(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game_id, host, guest = _online(a, b)
    with b.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
        spectator.send_json({"type": "hello", "pictures": False})
        seats = spectator.receive_json()["game"]["seats"]
        assert not any(s["connected"] for s in seats.values())
        with a.websocket_connect(f"/api/games/{game_id}/ws") as player:
            player.send_json({"type": "hello", "token": host, "pictures": False})
            player.receive_json()
            # the host is connected to A: the spectator on B is told
            while not (m := spectator.receive_json())["game"]["seats"]["B"]["connected"]:
                pass
            # a notice made on A (a declined draw offer) reaches B's viewers
            offered = a.post(
                f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=auth(host)
            )
            assert offered.status_code == 200, offered.text
            declined = b.post(
                f"/api/games/{game_id}/draw", json={"action": "decline"}, headers=auth(guest)
            )
            assert declined.status_code == 200, declined.text
            while (m := player.receive_json())["type"] != "notice":
                pass
            assert m["event"] == "draw_declined"
        # the host left A
        while (m := spectator.receive_json())["type"] != "state" or m["game"]["seats"]["B"][
            "connected"
        ]:
            pass


@pg
@pytest.mark.timeout(300)
def test_the_computer_plays_on_one_process_and_moves_on_when_that_one_stops(
    postgres_url: str,
) -> None:
    settings = make_settings(postgres_url, lease_seconds=1.5)
    b = TestClient(create_app(settings))
    with b:
        with TestClient(create_app(settings)) as a:
            created = a.post(
                "/api/games", json={"game": "chase", "mode": "computer", "level": "random"}
            ).json()
            game_id, token = created["id"], created["token"]
            a_id = a.app.state.service.core.cluster.id  # type: ignore[attr-defined]
            wait_for(lambda: _holder(a, game_id) == a_id, 30)
            game = _game(b, game_id, token)["game"]
            if game["to_move"] != created["seats"][0]:
                wait_for(lambda: _game(b, game_id)["game"]["to_move"] == created["seats"][0], 30)
                game = _game(b, game_id, token)["game"]
            after = _move(b, game_id, token, game)  # a move made through B: A's computer answers
            wait_for(lambda: _game(b, game_id)["game"]["version"] > after["version"], 30)
        # A stopped: B takes the game over and its computer answers the next move
        b_id = b.app.state.service.core.cluster.id  # type: ignore[attr-defined]
        wait_for(lambda: _holder(b, game_id) == b_id, 30)
        game = _game(b, game_id, token)["game"]
        after = _move(b, game_id, token, game)
        wait_for(lambda: _game(b, game_id)["game"]["version"] > after["version"], 30)


def _holder(client: TestClient, game_id: str) -> str | None:
    engine = client.app.state.database.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return connection.execute(
            text("SELECT holder FROM leases WHERE game_id = :g"), {"g": game_id}
        ).scalar()


# --- the lease SQL -------------------------------------------------------------------------------
def _game_row(database: Database, game_id: str, **values: Any) -> None:
    row = {
        "id": game_id,
        "game": "chase",
        "options": {},
        "start_position": None,
        "seed": 1,
        "mode": "local",
        "listed": False,
        "status": "active",
        "revision": 1,
        "version": 1,
        "move_count": 0,
        "result": "*",
        "initial_ms": 60_000,
        "clock_first_ms": 60_000,
        "clock_second_ms": 60_000,
        "clock_running": "B",
        "clock_since": 1000.0,
        "tags": {},
        "created_at": 0.0,
        "updated_at": 0.0,
        **values,
    }
    with database.engine.begin() as connection:
        connection.execute(insert(GameRow.__table__).values(**row))


@pg
def test_a_lease_has_one_holder_until_it_expires(postgres_url: str) -> None:
    database = Database.open(postgres_url)
    try:
        store = ClusterStore(database)
        _game_row(database, "g1")
        now = time.time()
        assert store.claim("g1", "p1", now, 5.0) == "p1"
        assert store.claim("g1", "p2", now + 1, 5.0) == "p1"  # held: p2 does not get it
        assert store.take_over("p2", now + 1, 5.0) == []
        assert store.beat("p1", now + 2, 5.0) == {"g1"}  # renewed until now + 7
        assert store.take_over("p2", now + 6, 5.0) == []
        assert store.take_over("p2", now + 8, 5.0) == ["g1"]  # p1 stopped beating
        assert store.beat("p1", now + 8, 5.0) == set()  # and p1 learns it lost it
        assert store.claim("nope", "p1", now, 5.0) is None
        # an active game with no lease at all is an orphan once a lease time has passed
        _game_row(database, "g2", updated_at=now)
        assert store.take_over("p3", now + 1, 5.0) == []
        assert store.take_over("p3", now + 6, 5.0) == ["g2"]
    finally:
        database.close()


@pg
def test_downtime_is_given_back_only_when_no_other_process_was_serving(postgres_url: str) -> None:
    database = Database.open(postgres_url)
    try:
        store = ClusterStore(database)
        _game_row(database, "g1", clock_since=1000.0)
        assert store.join("p1", "host", 1, 1000.0, 5.0) == 0.0  # the first ever: nothing to give
        store.beat("p1", 1010.0, 5.0)
        # p2 starts while p1 serves: the clocks rightly ran on
        assert store.join("p2", "host", 2, 1012.0, 5.0) == 0.0
        store.beat("p2", 1020.0, 5.0)
        # everything stopped at 1020; p3 starts at 1100: 80 s are given back, once
        assert store.join("p3", "host", 3, 1100.0, 5.0) == pytest.approx(80.0)
        assert store.join("p4", "host", 4, 1101.0, 5.0) == 0.0
        # p4 was killed at once; p5 restarts in its place (p3 stopped too): p4 is known dead,
        # so the clocks get their time back, and p4's leases are free at once
        store.claim("g1", "p4", 1101.0, 5.0)
        with database.engine.begin() as connection:
            connection.execute(text("DELETE FROM server_processes WHERE id = 'p3'"))
        given = store.join("p5", "host", 5, 1103.0, 5.0, lambda _host, pid: pid == 4)
        assert given == pytest.approx(2.0)
        assert store.take_over("p5", 1103.0, 5.0) == ["g1"]
        with database.engine.connect() as connection:
            since = connection.execute(text("SELECT clock_since FROM games")).scalar()
        assert since == pytest.approx(1082.0)
    finally:
        database.close()


@pg
@pytest.mark.timeout(600)
def test_serve_workers_starts_that_many_processes_on_one_port(postgres_url: str) -> None:
    port = free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "diceboard.cli", "serve", "--workers", "2"),
            *("--port", str(port), "--db", postgres_url, "--computer-workers", "1"),
            *("--log-level", "warning"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        database = Database.open(postgres_url)
        try:
            # both workers register (each beats into server_processes under its own pid)
            def pids() -> set[int]:
                with database.engine.connect() as connection:
                    rows = connection.execute(text("SELECT pid FROM server_processes")).all()
                return {int(r[0]) for r in rows}

            wait_for(lambda: len(pids()) == 2, 300)
            assert server.pid not in pids()
        finally:
            database.close()
        with httpx2.Client(base_url=base, timeout=60) as http:
            wait_for(lambda: http.get("/api/health").json()["ready"], 300)
            created = http.post("/api/games", json={"game": "chase", "mode": "local"}).json()
            for _ in range(4):  # each request may land on either process
                game = http.get(f"/api/games/{created['id']}").json()["game"]
                answer = http.post(
                    f"/api/games/{created['id']}/moves",
                    json={"move": game["legal"][0]["notation"], "version": game["version"]},
                    headers=auth(created["token"]),
                )
                assert answer.status_code == 200, answer.text
    finally:
        server.send_signal(signal.SIGTERM)
        output = server.communicate(timeout=120)[0].decode(errors="replace")
    assert server.returncode == 0, output
    assert "with 2 processes" in output
