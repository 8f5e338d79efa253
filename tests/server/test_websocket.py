"""The game WebSocket: snapshots for players and spectators, moves, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import PLAY_POSITION, auth, create, online, state


def _hello(
    ws: Any, token: str | None = None, flipped: bool = False, **options: Any
) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token, "flipped": flipped, **options}))
    return dict(json.loads(ws.receive_text()))


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = dict(json.loads(ws.receive_text()))
        if message["type"] == kind:
            return message


def _version(ws: Any, version: int) -> dict[str, Any]:
    """The next snapshot at ``version`` (presence changes also send snapshots)."""
    while True:
        message = _next(ws, "state")
        if message["game"]["version"] == version:
            return message


def test_players_and_spectators_get_every_change(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws") as player,
    ):
        first = _hello(spectator)
        assert first["type"] == "state" and first["you"] == [] and first["invite"] is None
        mine = _hello(player, token)
        assert mine["you"] == ["W", "B"]
        assert mine["game"]["seats"]["W"]["connected"] is True
        response = client.post(
            f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token)
        )
        assert response.status_code == 200
        pushed = _version(spectator, 2)
        assert pushed["game"]["last"]["notation"] == "b1-b2=2"
        assert pushed["game"]["version"] == 2
        assert token not in json.dumps(pushed)


def test_moves_over_the_socket(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        _hello(ws, token)
        ws.send_text(json.dumps({"type": "move", "move": "b1-b2=2", "version": 1, "id": "m1"}))
        state = _version(ws, 2)
        assert state["game"]["position"] == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"
        ack = _next(ws, "ack")
        assert ack == {"type": "ack", "id": "m1", "version": 2}
        # the same submission again: 409 and the current state, nothing played
        ws.send_text(json.dumps({"type": "move", "move": "b1-b2=2", "version": 1, "id": "m2"}))
        error = _next(ws, "error")
        assert error["status"] == 409 and error["id"] == "m2"
        assert _next(ws, "state")["game"]["version"] == 2
        # an illegal move: the engine's reason
        ws.send_text(json.dumps({"type": "move", "move": "a5-a4=2", "id": 3}))
        error = _next(ws, "error")
        assert error["status"] == 400 and "turning from 5" in error["detail"]


class _DeltaViewer:
    """A socket that asked for changes only, and the move list it rebuilds from them."""

    def __init__(self, ws: Any, token: str | None = None) -> None:
        self.ws = ws
        self.moves: list[dict[str, Any]] = []
        self.last = self._take(_hello(ws, token, delta=True))

    def _take(self, message: dict[str, Any]) -> dict[str, Any]:
        game = message["game"]
        assert 0 <= game["moves_from"] <= len(self.moves)
        self.moves = self.moves[: game["moves_from"]] + game["moves"]
        return dict(game)

    def at(self, version: int) -> dict[str, Any]:
        """The next state at ``version``, every state before it taken in."""
        while True:
            game = self._take(_next(self.ws, "state"))
            if game["version"] == version:
                self.last = game
                return game


def test_delta_viewers_get_new_moves_only_and_legal_moves_on_their_turn(
    client: TestClient,
) -> None:
    gid, white, black = online(client, position=PLAY_POSITION)
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as ws_white,
        client.websocket_connect(f"/api/games/{gid}/ws") as ws_black,
        client.websocket_connect(f"/api/games/{gid}/ws") as ws_watcher,
        client.websocket_connect(f"/api/games/{gid}/ws") as ws_whole,
    ):
        w, b, watcher = (
            _DeltaViewer(ws_white, white),
            _DeltaViewer(ws_black, black),
            _DeltaViewer(ws_watcher),
        )
        whole = _hello(ws_whole)["game"]
        # the first message counts from no moves; the legal moves go to the mover only
        assert w.last["moves_from"] == 0 and w.last["legal"]
        assert b.last["legal"] == [] and watcher.last["legal"] == []
        assert "moves_from" not in whole and whole["legal"] == w.last["legal"]

        def played(version: int, mover: _DeltaViewer, waiter: _DeltaViewer) -> None:
            games = [v.at(version) for v in (w, b, watcher)]
            full = state(client, gid)["game"]
            for viewer in (w, b, watcher):
                assert viewer.moves == full["moves"]
            assert games[0]["position"] == full["position"]
            assert waiter.last["legal"] == full["legal"] and mover.last["legal"] == []
            assert watcher.last["legal"] == []

        ws_white.send_text(json.dumps({"type": "move", "move": "b1-b2=2", "version": 1}))
        played(2, w, b)
        assert [m["notation"] for m in w.moves] == ["b1-b2=2"]
        ws_black.send_text(json.dumps({"type": "move", "move": "a5-a4=1", "version": 2}))
        played(3, b, w)
        # only the new move travels
        assert w.last["moves_from"] == 1 and len(w.last["moves"]) == 1
        # a takeback: the list is cut back, not sent whole again
        client.post(f"/api/games/{gid}/takeback", json={"action": "offer"}, headers=auth(white))
        client.post(f"/api/games/{gid}/takeback", json={"action": "accept"}, headers=auth(black))
        undone = w.at(4)
        b.at(4), watcher.at(4)
        assert undone["moves_from"] == 0 and undone["moves"] == []
        assert w.moves == b.moves == watcher.moves == []
        assert undone["position"] == PLAY_POSITION and undone["legal"]
        # a turned board is a snapshot like any other: nothing is sent twice
        ws_black.send_text(json.dumps({"type": "view", "flipped": True}))
        turned = b.at(4)
        assert turned["flipped"] is True and turned["moves"] == [] and b.moves == []


def test_a_delta_viewers_move_is_acknowledged_by_the_state_that_holds_it(
    client: TestClient,
) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as ws,
        client.websocket_connect(f"/api/games/{gid}/ws") as second_tab,
    ):
        _hello(ws, token, delta=True)
        _hello(second_tab, token, delta=True)
        ws.send_text(json.dumps({"type": "move", "move": "b1-b2=2", "version": 1, "id": "m1"}))
        state = _next(ws, "state")
        while state["game"]["version"] != 2:  # (the second tab's arrival is a change too)
            state = _next(ws, "state")
        assert state["ack"] == {"id": "m1", "version": 2}
        assert state["game"]["moves"][-1]["notation"] == "b1-b2=2"
        # no ack of its own follows it, and the other tab of the same seats gets none
        ws.send_text('{"type":"ping"}')
        assert json.loads(ws.receive_text()) == {"type": "pong"}
        other = _version(second_tab, 2)
        assert "ack" not in other and other["you"] == state["you"]
        # a refused move is answered as before: an error, then the game as it is
        ws.send_text(json.dumps({"type": "move", "move": "b1-b2=2", "version": 1, "id": "m2"}))
        assert _next(ws, "error")["id"] == "m2"
        assert "ack" not in _next(ws, "state")


def test_a_delta_viewer_that_reconnects_starts_whole(client: TestClient) -> None:
    gid, white, black = online(client, position=PLAY_POSITION)
    client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(white))
    client.post(f"/api/games/{gid}/moves", json={"move": "a5-a4=1"}, headers=auth(black))
    for _ in range(2):
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            viewer = _DeltaViewer(ws, black)
            assert viewer.last["moves_from"] == 0
            assert [m["notation"] for m in viewer.moves] == ["b1-b2=2", "a5-a4=1"]


def test_spectators_cannot_move(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    client.cookies.clear()
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        _hello(ws)
        ws.send_text(json.dumps({"type": "move", "move": "b1-b2=2"}))
        error = _next(ws, "error")
        assert error["status"] == 401


def test_bad_messages_are_answered_and_change_nothing(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        _hello(ws, token)
        for text in [
            "not json",
            "[]",
            '{"type":"fly"}',
            '{"type":"move"}',
            '{"type":"move","move":""}',
            '{"type":"move","move":"b1-b2=2","extra":1}',
            '{"type":"hello"}',
        ]:
            ws.send_text(text)
            error = _next(ws, "error")
            assert error["status"] == 400, text
        ws.send_text('{"type":"ping"}')
        assert _next(ws, "pong") == {"type": "pong"}
        ws.send_text('{"type":"view","flipped":true}')
        assert _next(ws, "state")["game"]["flipped"] is True
    assert client.get(f"/api/games/{gid}").json()["game"]["version"] == 1


def test_the_first_message_must_be_a_hello(client: TestClient) -> None:
    created = create(client, mode="local")
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        ws.send_text('{"type":"ping"}')
        assert _next(ws, "error")["detail"] == "the first message must be a hello"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    created = create(client, mode="local")
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "forged"}))
        error = _next(ws, "error")
        assert error["status"] == 403
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()


def test_unknown_games_and_oversized_messages(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        assert _next(ws, "error")["status"] == 404
    created = create(client, mode="local")
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        _hello(ws, created["token"])
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == 1009


def test_a_joining_opponents_token_never_reaches_spectators(client: TestClient) -> None:
    created = create(client, mode="online")
    gid = created["id"]
    code = created["links"]["invite"].split("#code=")[1]
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws") as creator,
    ):
        seen = [json.dumps(_hello(spectator))]
        assert _hello(creator, created["token"])["invite"] == code
        joined = client.post(f"/api/games/{gid}/join", json={"code": code}).json()
        client.cookies.clear()
        while True:
            message = _next(spectator, "state")
            seen.append(json.dumps(message))
            if message["game"]["status"] == "active":
                break
        text = "".join(seen)
        for secret in (created["token"], joined["token"], code):
            assert secret not in text


def test_a_binary_frame_gets_an_error_and_close_1003(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        _hello(ws, created["token"])
        ws.send_bytes(b'{"type":"ping"}')
        error = _next(ws, "error")
        assert error["status"] == 400 and "binary" in error["detail"]
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == 1003


def test_a_binary_hello_is_refused_with_a_message(client: TestClient) -> None:
    created = create(client, mode="local")
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        ws.send_bytes(b"\x00\xff")
        assert _next(ws, "error")["detail"] == "the first message must be a hello"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1008


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"move","move":"b1-b2=2","version":true}',
        '{"type":"move","move":"b1-b2=2","version":"1"}',
        '{"type":"move","move":"b1-b2=2","version":1.0}',
        '{"type":"view","flipped":1}',
        '{"type":"move","move":"b1-b2=2","version":92233720368547758085}',
        '{"type":',
        "\u00b2",
    ],
)
def test_wrong_json_types_are_not_coerced(client: TestClient, text: str) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid = created["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        _hello(ws, created["token"])
        ws.send_text(text)
        assert _next(ws, "error")["status"] == 400
        ws.send_text('{"type":"ping"}')
        assert _next(ws, "pong") == {"type": "pong"}
    assert client.get(f"/api/games/{gid}").json()["game"]["version"] == 1
