"""Per-client limits (issue 12, items 1-4 and 9): rate limits with 429 and Retry-After, the
lobby share, socket caps, import caps, expiry of waiting and abandoned games, the client's
address behind a trusted proxy, and the seat cookie's Secure flag."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from diceboard.server import create_app
from diceboard.server.computer import ComputerPool
from diceboard.server.errors import TooManyRequests
from diceboard.server.limits import RateLimiter, SocketLimits, client_key
from diceboard.server.settings import Rate, ServerSettings
from tests.server.conftest import PLAY_POSITION, auth, make_settings, wait_for

PROXY = ("127.0.0.1", 40000)


def proxied(database_url: str, **overrides: Any) -> TestClient:
    """A client that reaches the app through a trusted proxy on 127.0.0.1, so each request
    can say which client it is for with ``X-Forwarded-For`` (see :func:`as_client`)."""
    settings = make_settings(database_url, trusted_proxies=("127.0.0.1",), **overrides)
    return TestClient(create_app(settings), client=PROXY)


def as_client(n: int, **headers: str) -> dict[str, str]:
    """The headers of a request that the proxy forwards for client ``10.0.0.n``."""
    return {"X-Forwarded-For": f"10.0.0.{n}", **headers}


def new_game(client: TestClient, n: int, **body: Any) -> Any:
    body.setdefault("game", "custodian")
    response = client.post("/api/games", json=body, headers=as_client(n))
    client.cookies.clear()
    return response


# --- the pieces ---------------------------------------------------------------------------------
def test_rate_limiter_allows_a_burst_then_the_rate() -> None:
    now = [100.0]
    limiter = RateLimiter("games created", Rate(per_minute=6, burst=3), lambda: now[0])
    for _ in range(3):
        limiter.hit("a")
    with pytest.raises(TooManyRequests) as refused:
        limiter.hit("a")
    assert refused.value.retry_after == 10  # one more every 10 s
    assert "at most 3 at once and 6 a minute" in refused.value.message
    limiter.hit("b")  # another client has its own bucket
    now[0] += 10.0
    limiter.hit("a")
    with pytest.raises(TooManyRequests):
        limiter.hit("a")


def test_client_keys() -> None:
    assert client_key("198.51.100.4") == "198.51.100.4"
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff") == "2001:db8::/64"
    assert client_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert client_key("") == "unknown"


def test_socket_limits_count_per_game_and_per_client() -> None:
    limits = SocketLimits(per_game=2, per_client=3)
    limits.open("g", "a")
    limits.open("g", "b")
    with pytest.raises(TooManyRequests, match="as many viewers"):
        limits.open("g", "c")
    limits.open("h", "a")
    limits.open("i", "a")
    with pytest.raises(TooManyRequests, match="too many connections"):
        limits.open("j", "a")
    limits.close("g", "a")
    limits.open("g", "c")
    assert limits.count("g") == 2


def test_pool_serves_clients_in_turn_and_drops_abandoned_jobs() -> None:
    order: list[str] = []

    def work(label: str) -> str:
        time.sleep(0.05)
        order.append(label)
        return label

    async def scenario() -> None:
        pool = ComputerPool("thread", 1, per_client=4, per_game=2)
        try:
            flood = [
                asyncio.create_task(pool.run(f"a{i}", client="a", game=f"ga{i}", work=work))
                for i in range(4)
            ]
            await asyncio.sleep(0.01)
            with pytest.raises(TooManyRequests, match="already working on 4"):
                await pool.run("a4", client="a", game="ga4", kind="hint", work=work)
            mine = asyncio.create_task(pool.run("b0", client="b", game="gb", work=work))
            gone = asyncio.create_task(pool.run("c0", client="c", game="gc", work=work))
            await asyncio.sleep(0.01)
            gone.cancel()  # its caller gave up before a worker took it
            assert await mine == "b0"
            await asyncio.gather(*flood)
            assert pool.load("a") == pool.load("b") == pool.load("c") == 0
        finally:
            pool.close()

    asyncio.run(scenario())
    # a0 was running when b0 came; b0 went next, before a's backlog; c0 never ran
    assert order == ["a0", "b0", "a1", "a2", "a3"]


def test_pool_caps_hints_per_game() -> None:
    async def scenario() -> None:
        pool = ComputerPool("thread", 1, per_client=8, per_game=1)
        try:
            first = asyncio.create_task(
                pool.run(0.1, client="a", game="g", kind="hint", work=time.sleep)
            )
            await asyncio.sleep(0.01)
            with pytest.raises(TooManyRequests, match="for this game"):
                await pool.run(0.1, client="b", game="g", kind="hint", work=time.sleep)
            # a computer's move is never refused
            await pool.run(0.0, client="b", game="g", kind="move", work=time.sleep)
            await first
        finally:
            pool.close()

    asyncio.run(scenario())


def test_settings_refuse_a_bad_trusted_proxy() -> None:
    with pytest.raises(ValueError, match="IP address or network"):
        ServerSettings("sqlite://", trusted_proxies=("proxy.example",))


# --- rate limits over HTTP ----------------------------------------------------------------------
def test_creation_is_rate_limited_per_client_with_retry_after(database_url: str) -> None:
    with proxied(database_url, create_rate=Rate(per_minute=1, burst=3)) as client:
        for _ in range(3):
            assert new_game(client, 1, mode="local").status_code == 201
        refused = new_game(client, 1, mode="local")
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "rate_limited"
        assert "too many games created" in refused.json()["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        # another address is not held up by the first
        assert new_game(client, 2, mode="local").status_code == 201


def test_forwarded_for_is_ignored_from_an_untrusted_peer(database_url: str) -> None:
    settings = make_settings(database_url, create_rate=Rate(per_minute=1, burst=2))
    with TestClient(create_app(settings), client=("192.0.2.9", 1)) as client:
        assert new_game(client, 1, mode="local").status_code == 201
        assert new_game(client, 2, mode="local").status_code == 201
        # a made-up X-Forwarded-For does not make a flooder a new client
        assert new_game(client, 3, mode="local").status_code == 429


def test_moves_and_hints_are_rate_limited(database_url: str) -> None:
    limits = {"move_rate": Rate(per_minute=1, burst=2), "hint_rate": Rate(per_minute=1, burst=1)}
    with proxied(database_url, **limits) as client:
        game = new_game(client, 1, mode="local", position=PLAY_POSITION).json()
        headers = as_client(1, **auth(game["token"]))
        url = f"/api/games/{game['id']}"
        assert client.post(f"{url}/moves", json={"move": "b1-b2=2"}, headers=headers).is_success
        assert client.post(f"{url}/hint", headers=headers).status_code == 200
        refused = client.post(f"{url}/hint", headers=headers)
        assert refused.status_code == 429 and "too many hints" in refused.json()["detail"]
        assert client.post(f"{url}/resign", json={}, headers=headers).is_success
        refused = client.post(f"{url}/moves", json={"move": "a1-a2"}, headers=headers)
        assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_websocket_moves_are_rate_limited(database_url: str) -> None:
    with proxied(database_url, move_rate=Rate(per_minute=1, burst=1)) as client:
        game = new_game(client, 1, mode="local", position=PLAY_POSITION).json()
        with client.websocket_connect(f"/api/games/{game['id']}/ws", headers=as_client(1)) as ws:
            ws.send_json({"type": "hello", "token": game["token"], "pictures": False})
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "move", "move": "b1-b2=2", "id": 1})
            assert _next(ws, ("ack", "error"))["type"] == "ack"
            ws.send_json({"type": "move", "move": "a5-a4", "id": 2})
            error = _next(ws, ("ack", "error"))
            assert error["type"] == "error" and error["status"] == 429 and error["id"] == 2
            assert error["retry_after"] >= 1


def _next(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message of one of ``kinds`` (state pushes in between are skipped)."""
    for _ in range(10):
        message = dict(ws.receive_json())
        if message["type"] in kinds:
            return message
    raise AssertionError(f"no {kinds} message")


# --- the lobby ----------------------------------------------------------------------------------
def test_one_client_cannot_flood_the_lobby(database_url: str) -> None:
    with proxied(database_url, lobby_per_client=2) as client:
        for _ in range(2):
            assert new_game(client, 1, mode="online", listed=True).status_code == 201
        refused = new_game(client, 1, mode="online", listed=True)
        assert refused.status_code == 429
        assert "2 games waiting in the lobby" in refused.json()["detail"]
        assert new_game(client, 1, mode="online").status_code == 201  # unlisted: fine
        assert new_game(client, 2, mode="online", listed=True).status_code == 201
        assert len(client.get("/api/lobby").json()) == 3


def test_a_joined_game_frees_a_lobby_place(database_url: str) -> None:
    with proxied(database_url, lobby_per_client=1) as client:
        game = new_game(client, 1, mode="online", listed=True).json()
        assert new_game(client, 1, mode="online", listed=True).status_code == 429
        joined = client.post(f"/api/games/{game['id']}/join", json={}, headers=as_client(2))
        assert joined.status_code == 200, joined.text
        assert new_game(client, 1, mode="online", listed=True).status_code == 201


# --- sockets ------------------------------------------------------------------------------------
def _refused_socket(client: TestClient, url: str, n: int) -> tuple[dict[str, Any], int]:
    with client.websocket_connect(url, headers=as_client(n)) as ws:
        error = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return error, closed.value.code


def test_spectator_sockets_are_capped_per_game(database_url: str) -> None:
    with proxied(database_url, sockets_per_game=2) as client:
        game = new_game(client, 1, mode="local").json()
        url = f"/api/games/{game['id']}/ws"
        with (
            client.websocket_connect(url, headers=as_client(1)) as first,
            client.websocket_connect(url, headers=as_client(2)) as second,
        ):
            for ws in (first, second):
                ws.send_json({"type": "hello", "pictures": False})
                assert ws.receive_json()["type"] == "state"
            error, code = _refused_socket(client, url, 3)
            assert code == 1013
            assert (
                error["status"] == 429 and "as many viewers as it can take (2)" in error["detail"]
            )
        # once they are closed there is room again
        with client.websocket_connect(url, headers=as_client(3)) as ws:
            ws.send_json({"type": "hello", "pictures": False})
            assert ws.receive_json()["type"] == "state"


def test_spectator_sockets_are_capped_per_client(database_url: str) -> None:
    with proxied(database_url, sockets_per_client=2) as client:
        ids = [new_game(client, 1, mode="local").json()["id"] for _ in range(3)]
        with (
            client.websocket_connect(f"/api/games/{ids[0]}/ws", headers=as_client(1)),
            client.websocket_connect(f"/api/games/{ids[1]}/ws", headers=as_client(1)),
        ):
            error, code = _refused_socket(client, f"/api/games/{ids[2]}/ws", 1)
            assert code == 1013 and "too many connections" in error["detail"]
            with client.websocket_connect(f"/api/games/{ids[2]}/ws", headers=as_client(2)) as ws:
                ws.send_json({"type": "hello", "pictures": False})
                assert ws.receive_json()["type"] == "state"


# --- imports ------------------------------------------------------------------------------------
def _pgn(moves: int, games: int = 1) -> str:
    import diceboard
    from diceboard.records import GameRecord

    state = diceboard.game("custodian").parse(PLAY_POSITION)
    played = []
    for _ in range(moves):
        move = state.legal_moves()[0]
        played.append(move)
        state = state.play(move)
    record = GameRecord.from_state(state).to_pgn()
    return "\n\n".join([record] * games)


def test_imports_over_the_caps_get_413_before_any_replay(database_url: str) -> None:
    with proxied(database_url, import_max_moves=6, import_max_games=1) as client:
        ok = client.post("/api/imports", json={"record": _pgn(6)}, headers=as_client(1))
        assert ok.status_code == 201, ok.text
        assert ok.json()["moves"] == 6
        long = client.post("/api/imports", json={"record": _pgn(7)}, headers=as_client(1))
        assert long.status_code == 413, long.text
        assert long.json()["detail"] == "game 1 has 7 moves; an imported game may have at most 6"
        many = client.post("/api/imports", json={"record": _pgn(2, 3)}, headers=as_client(1))
        assert many.status_code == 413
        assert "holds 3 games; an import may hold at most 1" in many.json()["detail"]


def test_json_imports_over_the_move_cap_get_413(database_url: str) -> None:
    import diceboard
    from diceboard.records import GameRecord

    state = diceboard.game("chase").initial_state()
    for _ in range(5):
        state = state.play(state.legal_moves()[0])
    text = GameRecord.from_state(state).to_json()
    with proxied(database_url, import_max_moves=4) as client:
        refused = client.post("/api/imports", json={"record": text}, headers=as_client(1))
        assert refused.status_code == 413
        assert "has 5 moves" in refused.json()["detail"]


def test_imports_are_rate_limited(database_url: str) -> None:
    with proxied(database_url, import_rate=Rate(per_minute=1, burst=1)) as client:
        assert client.post(
            "/api/imports", json={"record": _pgn(2)}, headers=as_client(1)
        ).is_success
        refused = client.post("/api/imports", json={"record": _pgn(2)}, headers=as_client(1))
        assert refused.status_code == 429 and "record imports" in refused.json()["detail"]


# --- expiry -------------------------------------------------------------------------------------
@pytest.fixture
def expiring(database_url: str) -> Iterator[TestClient]:
    settings = make_settings(
        database_url,
        trusted_proxies=("127.0.0.1",),
        waiting_expiry=0.6,
        abandoned_expiry=0.6,
        expiry_interval=0.1,
    )
    with TestClient(create_app(settings), client=PROXY) as client:
        yield client


def _reason(client: TestClient, game_id: str) -> str | None:
    outcome = client.get(f"/api/games/{game_id}?pictures=false").json()["game"]["outcome"]
    return None if outcome is None else str(outcome["reason"])


def test_a_game_nobody_joins_expires_and_leaves_the_lobby(expiring: TestClient) -> None:
    client = expiring
    game = new_game(client, 1, mode="online", listed=True).json()
    assert [g["id"] for g in client.get("/api/lobby").json()] == [game["id"]]
    wait_for(lambda: _reason(client, game["id"]) == "expired", timeout=10)
    state = client.get(f"/api/games/{game['id']}?pictures=false").json()["game"]
    assert state["status"] == "finished"
    assert state["outcome"] == {"winner": None, "reason": "expired", "result": "*"}
    assert client.get("/api/lobby").json() == []
    joined = client.post(f"/api/games/{game['id']}/join", json={}, headers=as_client(2))
    assert joined.status_code == 410
    assert joined.json() == {
        "detail": f"game {game['id']} expired: nobody joined it in time; create a new one",
        "code": "expired",
    }
    record = client.get(f"/api/games/{game['id']}/record")
    assert record.status_code == 200 and '[Result "*"]' in record.text


def test_an_abandoned_game_ends_without_a_result(expiring: TestClient) -> None:
    client = expiring
    game = new_game(client, 1, mode="local", position=PLAY_POSITION).json()
    wait_for(lambda: _reason(client, game["id"]) == "abandoned", timeout=10)
    move = client.post(
        f"/api/games/{game['id']}/moves",
        json={"move": "b1-b2=2"},
        headers=as_client(1, **auth(game["token"])),
    )
    assert move.status_code == 410
    assert "abandoned" in move.json()["detail"]


def test_a_game_in_play_does_not_expire(database_url: str) -> None:
    settings = make_settings(database_url, abandoned_expiry=1.5, expiry_interval=0.1)
    with TestClient(create_app(settings)) as client:
        game = client.post(
            "/api/games", json={"game": "custodian", "mode": "local", "position": PLAY_POSITION}
        ).json()
        client.cookies.clear()
        for text in ("b1-b2=2", "a5-a4"):
            time.sleep(0.8)
            answer = client.post(
                f"/api/games/{game['id']}/moves", json={"move": text}, headers=auth(game["token"])
            )
            if answer.status_code == 400:  # not legal after the roll: any legal move will do
                legal = client.get(f"/api/games/{game['id']}").json()["game"]["legal"]
                answer = client.post(
                    f"/api/games/{game['id']}/moves",
                    json={"move": legal[0]["notation"]},
                    headers=auth(game["token"]),
                )
            assert answer.status_code == 200, answer.text
        assert _reason(client, game["id"]) is None


# --- the seat cookie ----------------------------------------------------------------------------
def _cookie_line(response: Any) -> str:
    lines = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
    assert len(lines) == 1
    return str(lines[0])


def test_seat_cookie_is_secure_over_https(database_url: str) -> None:
    settings = make_settings(database_url)
    with TestClient(create_app(settings), base_url="https://testserver") as client:
        response = client.post("/api/games", json={"game": "custodian", "mode": "local"})
        assert "Secure" in _cookie_line(response)
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/games", json={"game": "custodian", "mode": "local"})
        assert "Secure" not in _cookie_line(response)


def test_seat_cookie_believes_forwarded_proto_from_a_trusted_proxy_only(
    database_url: str,
) -> None:
    body = {"game": "custodian", "mode": "local"}
    https = as_client(1, **{"X-Forwarded-Proto": "https"})
    with proxied(database_url) as client:
        assert "Secure" in _cookie_line(client.post("/api/games", json=body, headers=https))
        plain = as_client(1, **{"X-Forwarded-Proto": "http"})
        assert "Secure" not in _cookie_line(client.post("/api/games", json=body, headers=plain))
    with TestClient(create_app(make_settings(database_url)), client=PROXY) as client:
        # not configured as a proxy: its say-so is not believed
        assert "Secure" not in _cookie_line(client.post("/api/games", json=body, headers=https))


def test_a_trusted_proxy_may_be_a_network(database_url: str) -> None:
    settings = make_settings(
        database_url, trusted_proxies=("127.0.0.0/8",), create_rate=Rate(per_minute=1, burst=1)
    )
    with TestClient(create_app(settings), client=("127.0.0.5", 1)) as client:
        assert new_game(client, 1, mode="local").status_code == 201
        assert new_game(client, 1, mode="local").status_code == 429
        assert new_game(client, 2, mode="local").status_code == 201  # another client


def test_serve_refuses_a_bad_trusted_proxy(capsys: pytest.CaptureFixture[str]) -> None:
    from diceboard.cli.main import main

    assert main(["serve", "--trusted-proxy", "proxy.example"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "a trusted proxy is an IP address or network" in error
