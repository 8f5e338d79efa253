"""The chat of online games: the two players write, spectators read (over HTTP and pushed on
the game's socket), messages are one line of text, stored with the game, rate-limited per
client, and refused to spectators and outside online games."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from diceboard.server import create_app
from diceboard.server.settings import Rate
from tests.server.conftest import auth, create, make_settings, online


def _online(client: TestClient) -> tuple[str, str, str]:
    return online(client, name="Ann", joiner="Bob")


def _post(client: TestClient, gid: str, token: str | None, text: str) -> Any:
    return client.post(
        f"/api/games/{gid}/chat", json={"text": text}, headers=auth(token) if token else {}
    )


def _next_notice(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "notice":
            return dict(message)


def test_players_write_and_a_spectator_reads_it_pushed_and_stored(client: TestClient) -> None:
    gid, ann, bob = _online(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        spectator.send_json({"type": "hello"})
        assert spectator.receive_json()["type"] == "state"
        sent = _post(client, gid, ann, "  good luck!  ")
        assert sent.status_code == 200, sent.text
        pushed = _next_notice(spectator)
        assert pushed["event"] == "chat"
        assert pushed["message"]["text"] == "good luck!"
        assert pushed["message"]["name"] == "Ann" and pushed["message"]["seat"] == "W"
        assert pushed["spectators"] == 1
        assert _post(client, gid, bob, "<b>thanks</b>").status_code == 200
        assert _next_notice(spectator)["message"]["text"] == "<b>thanks</b>"  # stored as text
    read = client.get(f"/api/games/{gid}/chat").json()
    assert [(m["name"], m["text"]) for m in read["messages"]] == [
        ("Ann", "good luck!"),
        ("Bob", "<b>thanks</b>"),
    ]
    first = read["messages"][0]["id"]
    later = client.get(f"/api/games/{gid}/chat?after={first}").json()["messages"]
    assert [m["text"] for m in later] == ["<b>thanks</b>"]


def test_the_chat_survives_a_restart(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        gid, ann, _ = _online(client)
        assert _post(client, gid, ann, "still here?").status_code == 200
    with TestClient(create_app(make_settings(database_url))) as client:
        messages = client.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [m["text"] for m in messages] == ["still here?"]


def test_a_players_second_tab_is_no_spectator(client: TestClient) -> None:
    gid, ann, _ = _online(client)
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws") as tab,
        client.websocket_connect(f"/api/games/{gid}/ws") as second_tab,
    ):
        spectator.send_json({"type": "hello"})
        assert spectator.receive_json()["type"] == "state"
        for socket in (tab, second_tab):
            socket.send_json({"type": "hello", "token": ann, "pictures": False})
            assert socket.receive_json()["type"] == "state"
        assert _post(client, gid, ann, "two tabs").status_code == 200
        assert _next_notice(spectator)["spectators"] == 1
        assert client.get(f"/api/games/{gid}/chat").json()["spectators"] == 1


def test_spectators_and_other_games_cannot_write(client: TestClient) -> None:
    gid, _, _ = _online(client)
    nobody = _post(client, gid, None, "hello")
    assert nobody.status_code == 401 and "seat token" in nobody.json()["detail"]
    stranger = _post(client, gid, "not-a-token", "hello")
    assert stranger.status_code == 403 and "spectators read" in stranger.json()["detail"]
    local = create(client, mode="local")
    refused = _post(client, local["id"], local["token"], "hello")
    assert refused.status_code == 409 and "online" in refused.json()["detail"]
    assert client.get(f"/api/games/{local['id']}/chat").json()["messages"] == []
    missing = client.get("/api/games/nosuchgame/chat")
    assert missing.status_code == 404


def test_a_message_is_one_short_line(client: TestClient) -> None:
    gid, ann, _ = _online(client)
    for text, words in [
        ("", "at least 1 character"),
        ("   ", "cannot be empty"),
        ("x" * 301, "at most 300"),
        ("two\nlines", "one line"),
        ("bidi \u202e trick", "one line"),
        ("nul \x00", "one line"),
    ]:
        answer = _post(client, gid, ann, text)
        assert answer.status_code == 422, (text, answer.text)
        assert words in answer.json()["detail"], (text, answer.json())
    wrong_type = client.post(f"/api/games/{gid}/chat", json={"text": 5}, headers=auth(ann))
    assert wrong_type.status_code == 422
    assert _post(client, gid, ann, "x" * 300).status_code == 200
    assert client.get(f"/api/games/{gid}/chat?after=-1").status_code == 422


def test_posting_is_rate_limited(database_url: str) -> None:
    settings = make_settings(database_url, chat_rate=Rate(per_minute=1, burst=3))
    with TestClient(create_app(settings)) as client:
        gid, ann, _ = _online(client)
        for i in range(3):
            assert _post(client, gid, ann, f"message {i}").status_code == 200
        refused = _post(client, gid, ann, "one too many")
        assert refused.status_code == 429
        assert "too many chat messages" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 3


@pytest.mark.postgres
def test_the_chat_on_postgresql(postgres_url: str) -> None:
    with TestClient(create_app(make_settings(postgres_url))) as client:
        gid, ann, bob = _online(client)
        assert _post(client, gid, ann, "hello").status_code == 200
        assert _post(client, gid, bob, "hi").status_code == 200
        messages = client.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [(m["seat"], m["text"]) for m in messages] == [("W", "hello"), ("B", "hi")]
        assert messages[0]["id"] < messages[1]["id"]
