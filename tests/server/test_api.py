"""The HTTP API: creating, joining, moving, offers, records, and every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import diceboard
from tests.server.conftest import PLAY_POSITION, auth, create, online, state, wait_for

# --- creating games ------------------------------------------------------------------------------


def test_meta_lists_games_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    # the menus are the registry's: every game, its variants and options, as GameInfo says
    assert [g["name"] for g in meta["games"]] == list(diceboard.games.names())
    for entry in meta["games"]:
        info = diceboard.games.info(entry["name"])
        expected = json.loads(json.dumps(info.to_json()))
        assert {k: v for k, v in entry.items() if k != "example_position"} == expected
        assert [v["name"] for v in entry["variants"]] == list(info.variant_names)
        diceboard.games.game(entry["name"]).parse(entry["example_position"])
    custodian = meta["games"][0]
    assert "chaos" in [v["name"] for v in custodian["variants"]]
    limit = next(o for o in custodian["options"] if o["name"] == "no_capture_limit")
    assert limit["kind"] == "int" and limit["minimum"] == 0 and limit["default"] == 100
    assert {"spec": "random", "label": "Random mover"} in meta["levels"]


def test_setup_rolls_come_from_the_stored_seed(client: TestClient) -> None:
    created = create(client, mode="local", seed=7)
    game = state(client, created["id"], created["token"])["game"]
    # rolls of seed 7 (diceboard.server.rolls.roll): 2 4 1 6 6 for White, 2 1 1 5 5 for Black
    assert [m["notation"] for m in game["moves"]] == [
        "=2",
        "=4",
        "=1",
        "=6",
        "=6",
        "=2",
        "=1",
        "=1",
        "=5",
        "=5",
    ]
    assert game["position"] == "...../...../...../...../..... W 0 0 W12466,B11255"
    assert game["hand"] == {"W": [1, 2, 4, 6, 6], "B": [1, 1, 2, 5, 5]}
    assert all(m["seat"] is None for m in game["moves"])
    assert game["seed"] is None  # secret while the game goes on


def test_create_answers_with_seat_links_and_cookie(client: TestClient) -> None:
    response = client.post(
        "/api/games",
        json={"game": "custodian", "mode": "computer", "level": "random", "side": "second"},
    )
    assert response.status_code == 201
    body = response.json()
    assert body["seats"] == ["B"]
    assert body["links"]["player"] == f"/game/{body['id']}#seat={body['token']}"
    cookie = response.headers["set-cookie"]
    assert f"diceboard_seat_{body['id']}={body['token']}" in cookie
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie


def test_create_from_a_position(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    game = state(client, created["id"], created["token"])["game"]
    assert game["position"] == PLAY_POSITION
    assert game["start_position"] == PLAY_POSITION
    assert len(game["legal"]) == 84  # the spec's example position (custodian docs)
    step = next(m for m in game["legal"] if m["notation"] == "b1-b2=2")
    assert step == {
        "notation": "b1-b2=2",
        "kind": "step",
        "from": "b1",
        "to": "b2",
        "face": 2,
        "segments": [["b1", "b2"]],
    }


def test_bad_creations_are_refused_with_the_reason(client: TestClient) -> None:
    cases = [
        ({"game": "chess"}, 400, "unknown game"),
        ({"game": "custodian", "variant": "wild"}, 400, "variant"),
        ({"game": "custodian", "options": {"jumping": "maybe"}}, 400, "jumping"),
        ({"game": "custodian", "options": {"colour": "red"}}, 400, "colour"),
        ({"game": "custodian", "position": "B5/xx W 0 0"}, 400, "rank"),
        ({"game": "custodian", "mode": "online", "seed": 3}, 400, "secret"),
        ({"game": "custodian", "level": "grandmaster"}, 400, "grandmaster"),
        ({"game": "custodian", "mode": "local", "level": "random"}, 400, "computer"),
        ({"game": "custodian", "mode": "local", "listed": True}, 400, "lobby"),
        ({"game": "custodian", "side": "purple"}, 400, "side"),
        ({"game": "custodian", "extra": 1}, 422, "extra"),
        ({"game": "custodian", "position": "x" * 401}, 422, "position"),
        ({"game": "custodian", "time_control": {"minutes": 0}}, 422, "minutes"),
        ({"game": "custodian", "mode": "sideways"}, 422, "mode"),
    ]
    for body, status, words in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"].lower(), (body, response.text)
    assert client.get("/api/lobby").json() == []


def test_a_finished_position_cannot_be_played(client: TestClient) -> None:
    # White has one die left: elimination
    response = client.post(
        "/api/games",
        json={"game": "custodian", "position": "B5B2B6B2B6/...../...../...../W3.... W 0 10"},
    )
    assert response.status_code == 400
    assert "already over" in response.json()["detail"]


def test_malformed_json_and_huge_bodies(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    response = client.post(
        "/api/imports", content=b"x" * 1_100_000, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert "larger than" in response.json()["detail"]


# --- moves ---------------------------------------------------------------------------------------


def test_moves_are_checked_by_the_engine(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    response = client.post(
        f"/api/games/{gid}/moves", json={"move": "b1-b2=2", "version": 1}, headers=auth(token)
    )
    assert response.status_code == 200
    game = response.json()["game"]
    assert game["position"] == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"
    assert game["version"] == 2
    assert game["last"]["notation"] == "b1-b2=2"
    # illegal: the engine's own message, nothing changes
    bad = client.post(
        f"/api/games/{gid}/moves", json={"move": "a5-a4=2", "version": 2}, headers=auth(token)
    )
    assert bad.status_code == 400
    assert bad.json()["code"] == "illegal_move"
    assert "turning from 5" in bad.json()["detail"]
    garbage = client.post(f"/api/games/{gid}/moves", json={"move": "hello"}, headers=auth(token))
    assert garbage.status_code == 400 and garbage.json()["code"] == "notation"
    after = state(client, gid, token)["game"]
    assert after["version"] == 2 and len(after["moves"]) == 1


def test_seats_act_only_for_themselves(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", side="second", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    # nobody without a token, nobody with a wrong one
    assert client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}).status_code == 401
    wrong = client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth("x" * 32))
    assert wrong.status_code == 403
    # Black cannot move for White (the computer)
    wait_for(lambda: state(client, gid, token)["game"]["to_move"] == "B")
    game = state(client, gid, token)["game"]
    assert len(game["moves"]) == 1 and game["moves"][0]["seat"] == "W"


def test_stale_version_gets_409_with_the_current_state(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    ok = client.post(
        f"/api/games/{gid}/moves", json={"move": "b1-b2=2", "version": 1}, headers=auth(token)
    )
    assert ok.status_code == 200
    stale = client.post(
        f"/api/games/{gid}/moves", json={"move": "c1-c2=2", "version": 1}, headers=auth(token)
    )
    assert stale.status_code == 409
    body = stale.json()
    assert "version 2" in body["detail"]
    assert body["state"]["game"]["position"] == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"


def test_not_your_turn_is_a_conflict(client: TestClient) -> None:
    created = create(client, mode="online", position=PLAY_POSITION)
    code = created["links"]["invite"].split("#code=")[1]
    joined = client.post(f"/api/games/{created['id']}/join", json={"code": code}).json()
    client.cookies.clear()
    response = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "a5-a4=1"}, headers=auth(joined["token"])
    )
    assert response.status_code == 409
    assert "White's turn" in response.json()["detail"]


def test_chaos_rolls_are_made_by_the_server(client: TestClient) -> None:
    created = create(client, mode="local", variant="chaos", position=PLAY_POSITION, seed=11)
    gid, token = created["id"], created["token"]
    named = client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=6"}, headers=auth(token))
    assert named.status_code == 400
    assert "server rolls" in named.json()["detail"]
    response = client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2"}, headers=auth(token))
    assert response.status_code == 200
    game = response.json()["game"]
    from diceboard.server.rolls import roll

    face = roll(11, 0, 6) + 1
    assert game["moves"][-1]["notation"] == f"b1-b2={face}"
    assert game["last"]["roll"] == face
    assert game["board"]["b2"] == ["W", face]


def test_the_computer_answers(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token))
    wait_for(lambda: len(state(client, gid, token)["game"]["moves"]) == 2)
    game = state(client, gid, token)["game"]
    assert game["moves"][1]["seat"] == "B"
    assert game["to_move"] == "W"
    assert game["seats"]["B"] == {
        "kind": "computer",
        "name": "Computer",
        "agent": "random",
        "connected": False,
    }


def test_the_computer_moves_first_when_it_has_the_first_seat(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", side="second")
    wait_for(lambda: state(client, created["id"], created["token"])["game"]["to_move"] == "B")
    game = state(client, created["id"], created["token"])["game"]
    assert [m["seat"] for m in game["moves"][10:]] == ["W"] * 5  # White's five placements


# --- online games --------------------------------------------------------------------------------


def test_invites_and_joining(client: TestClient) -> None:
    created = create(client, mode="online", name="Ann")
    gid = created["id"]
    code = created["links"]["invite"].split("#code=")[1]
    mine = state(client, gid, created["token"])
    assert mine["invite"] == code and mine["game"]["status"] == "waiting"
    spectator = client.get(f"/api/games/{gid}").text
    assert code not in spectator and created["token"] not in spectator
    assert json.loads(spectator)["you"] == []
    # a move before the opponent arrives
    early = client.post(
        f"/api/games/{gid}/moves", json={"move": "pass"}, headers=auth(created["token"])
    )
    assert early.status_code == 409 and "waiting" in early.json()["detail"]
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 403
    assert client.post(f"/api/games/{gid}/join", json={"code": "nope"}).status_code == 403
    joined = client.post(f"/api/games/{gid}/join", json={"code": code, "name": "Bob"})
    assert joined.status_code == 200
    client.cookies.clear()
    assert joined.json()["seats"] == ["B"]
    again = client.post(f"/api/games/{gid}/join", json={"code": code})
    assert again.status_code == 409
    game = state(client, gid)["game"]
    assert game["status"] == "active"
    assert game["seats"]["B"]["name"] == "Bob"
    assert joined.json()["token"] not in client.get(f"/api/games/{gid}").text


def test_player_names_must_fit_in_the_record(client: TestClient) -> None:
    # a name becomes the White/Black tag of the record: a control character would break the
    # record download, and PostgreSQL cannot store a NUL at all (it answered 500)
    for name in ("Ann\x00", "Ann\nBob", "tab\there"):
        refused = client.post(
            "/api/games", json={"game": "custodian", "mode": "online", "name": name}
        )
        assert refused.status_code == 422, name
        assert "control characters" in refused.json()["detail"]
    created = create(client, mode="online", name='Ann "the Bold" Émile')
    code = created["links"]["invite"].split("#code=")[1]
    bad_join = client.post(f"/api/games/{created['id']}/join", json={"code": code, "name": "B\x00"})
    assert bad_join.status_code == 422 and "body.name" in bad_join.json()["detail"]
    assert state(client, created["id"])["game"]["status"] == "waiting"  # nothing was changed
    record = client.get(f"/api/games/{created['id']}/record").text
    assert '[White "Ann \\"the Bold\\" Émile"]' in record


def test_lobby_lists_open_games(client: TestClient) -> None:
    listed = create(client, mode="online", listed=True, variant="chaos")
    create(client, mode="online")  # private: not listed
    lobby = client.get("/api/lobby").json()
    assert [g["id"] for g in lobby] == [listed["id"]]
    assert lobby[0]["options"] == {"variant": "chaos"}
    joined = client.post(f"/api/games/{listed['id']}/join", json={})
    assert joined.status_code == 200
    assert client.get("/api/lobby").json() == []


def test_summaries_of_recent_games(client: TestClient) -> None:
    a = create(client, mode="local")
    b = create(client, mode="online")
    listing = client.get(f"/api/games?ids={b['id']},nosuchgame,{a['id']}").json()
    assert [g["id"] for g in listing] == [b["id"], a["id"]]
    assert client.get("/api/games?ids=a;drop").status_code == 422


# --- ending, offers, takebacks -------------------------------------------------------------------


def test_resignation(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    response = client.post(f"/api/games/{gid}/resign", json={}, headers=auth(token))
    game = response.json()["game"]
    assert game["outcome"] == {"winner": "B", "reason": "resignation", "result": "0-1"}
    assert game["status"] == "finished" and game["seed"] is not None
    assert client.post(f"/api/games/{gid}/resign", json={}, headers=auth(token)).status_code == 409
    late = client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token))
    assert late.status_code == 409 and "over" in late.json()["detail"]


def _online(client: TestClient, **body: object) -> tuple[str, str, str]:
    return online(client, position=PLAY_POSITION, **body)


def test_draw_offers(client: TestClient) -> None:
    gid, white, black = _online(client)
    assert (
        client.post(
            f"/api/games/{gid}/draw", json={"action": "accept"}, headers=auth(black)
        ).status_code
        == 409
    )
    offered = client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=auth(white))
    assert offered.json()["game"]["offers"]["draw"] == "W"
    assert (
        client.post(
            f"/api/games/{gid}/draw", json={"action": "offer"}, headers=auth(white)
        ).status_code
        == 409
    )
    declined = client.post(
        f"/api/games/{gid}/draw", json={"action": "decline"}, headers=auth(black)
    )
    assert declined.json()["game"]["offers"]["draw"] is None
    client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=auth(black))
    accepted = client.post(f"/api/games/{gid}/draw", json={"action": "accept"}, headers=auth(white))
    assert accepted.json()["game"]["outcome"] == {
        "winner": None,
        "reason": "agreement",
        "result": "1/2-1/2",
    }


def test_a_move_cancels_a_pending_draw_offer(client: TestClient) -> None:
    gid, white, black = _online(client)
    client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=auth(black))
    moved = client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(white))
    assert moved.json()["game"]["offers"]["draw"] is None


def test_the_computer_declines_a_draw_and_one_screen_agrees_at_once(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", position=PLAY_POSITION)
    response = client.post(
        f"/api/games/{created['id']}/draw", json={"action": "offer"}, headers=auth(created["token"])
    )
    assert response.json()["game"]["status"] == "active"
    local = create(client, mode="local", position=PLAY_POSITION)
    response = client.post(
        f"/api/games/{local['id']}/draw", json={"action": "offer"}, headers=auth(local["token"])
    )
    assert response.json()["game"]["outcome"]["reason"] == "agreement"


def test_takebacks(client: TestClient) -> None:
    gid, white, black = _online(client)
    assert (
        client.post(
            f"/api/games/{gid}/takeback", json={"action": "offer"}, headers=auth(white)
        ).status_code
        == 409
    )
    client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(white))
    client.post(f"/api/games/{gid}/moves", json={"move": "a5-a4=1"}, headers=auth(black))
    asked = client.post(f"/api/games/{gid}/takeback", json={"action": "offer"}, headers=auth(white))
    assert asked.json()["game"]["offers"]["takeback"] == "W"
    version = asked.json()["game"]["version"]
    done = client.post(f"/api/games/{gid}/takeback", json={"action": "accept"}, headers=auth(black))
    game = done.json()["game"]
    assert game["position"] == PLAY_POSITION
    assert game["moves"] == [] and game["version"] == version + 1
    # a stale submission from before the takeback is refused, not played elsewhere
    stale = client.post(
        f"/api/games/{gid}/moves", json={"move": "b1-b2=2", "version": version}, headers=auth(white)
    )
    assert stale.status_code == 409


def test_takeback_against_the_computer_undoes_its_reply_too(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token))
    wait_for(lambda: len(state(client, gid, token)["game"]["moves"]) == 2)
    undone = client.post(
        f"/api/games/{gid}/takeback", json={"action": "offer"}, headers=auth(token)
    )
    assert undone.json()["game"]["position"] == PLAY_POSITION


def test_rematch_swaps_sides_and_hands_each_player_their_seat(client: TestClient) -> None:
    gid, white, black = _online(client)
    assert (
        client.post(
            f"/api/games/{gid}/rematch", json={"action": "offer"}, headers=auth(white)
        ).status_code
        == 409
    )
    client.post(f"/api/games/{gid}/resign", json={}, headers=auth(black))
    offered = client.post(
        f"/api/games/{gid}/rematch", json={"action": "offer"}, headers=auth(white)
    )
    assert offered.json() == {"status": "offered"}
    started = client.post(
        f"/api/games/{gid}/rematch", json={"action": "accept"}, headers=auth(black)
    ).json()
    assert started["status"] == "started" and started["seats"] == ["W"]
    new_id = started["game"]
    again = client.post(
        f"/api/games/{gid}/rematch", json={"action": "offer"}, headers=auth(white)
    ).json()
    client.cookies.clear()
    assert again["game"] == new_id and again["seats"] == ["B"]
    game = state(client, new_id, again["token"])
    assert game["you"] == ["B"] and game["game"]["rematch_of"] == gid
    assert game["game"]["position"] == PLAY_POSITION
    assert state(client, gid)["game"]["rematch_game"] == new_id
    assert again["token"] not in client.get(f"/api/games/{new_id}").text
    # the old tokens do not act in the new game
    old = client.post(f"/api/games/{new_id}/moves", json={"move": "b1-b2=2"}, headers=auth(white))
    assert old.status_code == 403


def test_hints(client: TestClient) -> None:
    created = create(client, mode="computer", level="random", position=PLAY_POSITION)
    hint = client.post(f"/api/games/{created['id']}/hint", headers=auth(created["token"]))
    assert hint.status_code == 200
    best = hint.json()["best"]
    legal = diceboard.game("custodian").parse(PLAY_POSITION).legal_moves()
    assert best["notation"] in {m.notation for m in legal}
    gid, white, _black = _online(client)
    assert client.post(f"/api/games/{gid}/hint", headers=auth(white)).status_code == 403


# --- positions and records -----------------------------------------------------------------------


def test_positions_step_through_the_game(client: TestClient) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    gid, token = created["id"], created["token"]
    client.post(f"/api/games/{gid}/moves", json={"move": "b1-b2=2"}, headers=auth(token))
    first = client.get(f"/api/games/{gid}/positions/0").json()
    assert first["position"] == PLAY_POSITION and first["last"] is None
    assert first["svg"].startswith("<svg")
    second = client.get(f"/api/games/{gid}/positions/1?flipped=true").json()
    assert second["last"]["notation"] == "b1-b2=2"
    assert "flipped" in second["svg"][:300]
    missing = client.get(f"/api/games/{gid}/positions/2")
    assert missing.status_code == 404 and "positions 0 to 1" in missing.json()["detail"]
    assert client.get("/api/games/nosuchgame/positions/0").status_code == 404


def test_records_download_and_import(client: TestClient) -> None:
    created = create(client, mode="local", seed=5)
    gid, token = created["id"], created["token"]
    for _ in range(12):
        game = state(client, gid, token)["game"]
        client.post(
            f"/api/games/{gid}/moves",
            json={"move": game["legal"][0]["notation"]},
            headers=auth(token),
        )
    client.post(f"/api/games/{gid}/resign", json={}, headers=auth(token))
    pgn = client.get(f"/api/games/{gid}/record?format=pgn")
    assert pgn.status_code == 200
    assert 'filename="diceboard-' in pgn.headers["content-disposition"]
    assert '[Termination "resignation"]' in pgn.text and '[Seed "5"]' in pgn.text
    record = client.get(f"/api/games/{gid}/record?format=json").json()
    assert record["moves"] == [m["notation"] for m in state(client, gid)["game"]["moves"]]
    imported = client.post("/api/imports", json={"record": pgn.text})
    assert imported.status_code == 201
    replay = state(client, imported.json()["id"])["game"]
    assert replay["mode"] == "imported" and replay["status"] == "finished"
    assert replay["moves"] == [{**m, "clock_ms": None} for m in state(client, gid)["game"]["moves"]]
    assert replay["outcome"]["reason"] == "resignation"
    from_json = client.post("/api/imports", json={"record": json.dumps(record)})
    assert from_json.status_code == 201
    assert client.get("/api/games/nosuch/record").status_code == 404


def test_bad_records_are_explained(client: TestClient) -> None:
    bad = client.post("/api/imports", json={"record": '[Game "Custodian Dice"]\n\n1. zz9 *'})
    assert bad.status_code == 400 and bad.json()["code"] == "record"
    # a one-line text naming a server file is read as text, never as a path
    probe = client.post("/api/imports", json={"record": "/etc/passwd"})
    assert probe.status_code == 400 and "names a file" not in probe.json()["detail"]


def test_pages_and_security_headers(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "New game" in home.text
    assert "default-src 'self'" in home.headers["content-security-policy"]
    page = client.get("/game/abc")
    assert page.status_code == 200 and "game.js" in page.text
    assert client.get("/static/js/board.js").status_code == 200
    assert client.get("/api/games/nosuch").json()["detail"] == "there is no game 'nosuch'"
    assert client.get("/api/games/bad%20id").status_code == 422


def test_unreadable_records_are_refused_not_crashed(client: TestClient) -> None:
    # found by the fuzz test: the PGN reader trips over a no-break space
    response = client.post("/api/imports", json={"record": "0\u00a00"})
    assert response.status_code == 400 and response.json()["code"] == "record"


@pytest.mark.parametrize(
    "body",
    [
        {"game": "custodian", "seed": "42"},
        {"game": "custodian", "seed": 4.0},
        {"game": "custodian", "listed": 1},
        {"game": "custodian", "listed": "true"},
        {"game": "custodian", "seed": True},
        {"game": "custodian", "seed": 92233720368547758085},
        {"game": "custodian", "options": {"no_capture_limit": 92233720368547758085}},
        {"game": "custodian", "position": "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 ²"},
        {"game": "custodian", "position": f"B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 {2**63}"},
    ],
)
def test_wrong_json_types_and_huge_numbers_are_refused(client: TestClient, body: Any) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code in (400, 422), response.text
    assert "detail" in response.json()


@pytest.mark.parametrize("version", [True, "1", 1.0, 92233720368547758085])
def test_a_move_version_must_be_a_json_integer(client: TestClient, version: Any) -> None:
    created = create(client, mode="local", position=PLAY_POSITION)
    response = client.post(
        f"/api/games/{created['id']}/moves",
        json={"move": "b1-b2=2", "version": version},
        headers=auth(created["token"]),
    )
    assert response.status_code == 422, response.text
    assert client.get(f"/api/games/{created['id']}").json()["game"]["version"] == 1


@pytest.mark.parametrize("char", ["\u0085", "\u009f", "\u2028", "\x7f", "\n"])
def test_names_with_any_control_character_are_refused(client: TestClient, char: str) -> None:
    response = client.post("/api/games", json={"game": "custodian", "name": f"Al{char}ice"})
    assert response.status_code == 422, response.text


def test_a_chunked_body_over_the_limit_gets_413(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(12):
            yield b" " * 100_000

    response = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large"
