"""The analysis board's and the game review's HTTP API: positions reached by a line, the
engine's evaluation, review jobs, and clear 4xx answers to bad input."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import diceboard
from tests.server.conftest import PLAY_POSITION, auth, create

#: Red to move; every move but i8-f7SW keeps all of Red's dice, that one can be taken at once
HANGING = (
    ".R1R2R3R4R5R4R3R1/........R2/........./........./...B2...../.....B2.../........./"
    "........./B2B3.B3B3B2B6B1B1 R 6 23"
)
#: White takes Black's last but one die (and wins) by walking b3 to a3
WIN_IN_ONE = "...../...../.W1.../B3..../W1...B5 W 0 10"
#: Black is down to one die: the game is over
OVER = "...../...../.W1.../B3..../W1.... W 0 10"


def moves(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/analysis/moves", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def evaluate(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/analysis/evaluate", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_page_is_served(client: TestClient) -> None:
    response = client.get("/analysis")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "/static/js/analysis.js" in response.text


def test_a_start_lists_the_engines_legal_moves(client: TestClient) -> None:
    node = moves(client, game="chase")
    start = diceboard.game("chase").initial_state()
    assert node["position"] == str(start)
    assert [m["notation"] for m in node["legal"]] == [m.notation for m in start.legal_moves()]
    assert node["to_move"] == "B" and not node["chance"] and node["outcomes"] == []
    assert node["svg"].startswith("<svg") and "a1" in node["centres"]
    assert node["last"] is None and node["outcome"] is None


def test_a_line_is_replayed_from_its_start(client: TestClient) -> None:
    node = moves(client, game="custodian", position=PLAY_POSITION, moves=["b1-b2=2"])
    assert node["position"] == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"
    assert node["last"]["notation"] == "b1-b2=2" and node["to_move"] == "B"


def test_a_roll_is_a_node_of_its_own(client: TestClient) -> None:
    body = {"game": "custodian", "variant": "chaos", "position": PLAY_POSITION}
    pending = moves(client, **body, moves=["b1-b2"])
    assert pending["chance"] and pending["legal"] == []
    assert [o["notation"] for o in pending["outcomes"]] == [f"={k}" for k in range(1, 7)]
    assert sum(o["probability"] for o in pending["outcomes"]) == pytest.approx(1.0)
    rolled = moves(client, **body, moves=["b1-b2", "=4"])
    expected = diceboard.game("custodian", "chaos").parse(PLAY_POSITION).play("b1-b2=4")
    assert rolled["position"] == str(expected) and not rolled["chance"]
    # the setup of a rolled placement starts with rolls
    setup = moves(client, game="custodian", variant="chaos", options={"placement": "rolled"})
    assert setup["chance"] and len(setup["outcomes"]) == 6


def test_the_evaluation_of_a_decision(client: TestClient) -> None:
    found = evaluate(client, game="chase", seconds=0.1, lines=3)
    assert found["kind"] == "decision" and found["to_move"] == "B"
    assert sum(found["win"].values()) == pytest.approx(1.0)
    assert 0.0 < found["win"]["B"] < 1.0 and found["depth"] >= 1
    legal = {m.notation for m in diceboard.game("chase").initial_state().legal_moves()}
    assert found["best"] in legal and found["pv"][0] == found["best"]
    assert len(found["moves"]) == 3 and found["moves"][0]["notation"] == found["best"]
    assert all(0.0 <= m["win"] <= 1.0 for m in found["moves"])


def test_a_win_in_one_is_found_and_certain(client: TestClient) -> None:
    found = evaluate(client, game="custodian", position=WIN_IN_ONE, seconds=0.5)
    assert found["best"].startswith("b3-a3=")
    assert found["win"] == {"W": 1.0, "B": 0.0}


def test_a_finished_position_is_scored_by_its_result(client: TestClient) -> None:
    found = evaluate(client, game="custodian", position=OVER)
    assert found["kind"] == "final" and found["win"] == {"W": 1.0, "B": 0.0}
    node = moves(client, game="custodian", position=OVER)
    assert node["outcome"]["winner"] == "W" and node["legal"] == [] and node["to_move"] is None


def test_a_roll_is_weighed_outcome_by_outcome(client: TestClient) -> None:
    found = evaluate(
        client,
        game="custodian",
        variant="chaos",
        position=PLAY_POSITION,
        moves=["b1-b2"],
        seconds=0.3,
    )
    assert found["kind"] == "roll" and len(found["outcomes"]) == 6
    expected = sum(o["probability"] * o["win"]["W"] for o in found["outcomes"])
    assert found["win"]["W"] == pytest.approx(expected)
    # the rolls of a rolled setup are not searched (six to the tenth positions)
    setup = evaluate(client, game="custodian", options={"placement": "rolled"})
    assert setup["kind"] == "roll" and setup["win"] is None


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "nope"}, 400, "unknown game"),
        ({"game": "chase", "variant": "wild"}, 400, "variant"),
        ({"game": "chase", "options": {"zzz": 1}}, 400, "zzz"),
        ({"game": "chase", "position": "xx"}, 400, "fields"),
        ({"game": "chase", "moves": ["a1-a5"]}, 400, "move 1 of the line"),
        ({"game": "chase", "moves": ["a1-a2E", "bogus"]}, 400, "move 2 of the line"),
        ({"game": "chase", "moves": ["a1-a2E"] * 2001}, 422, "moves"),
        ({"game": "chase", "seconds": 9}, 422, "seconds"),
        ({"game": "chase", "seconds": 0}, 422, "seconds"),
        ({"game": "chase", "lines": 0}, 422, "lines"),
        ({"game": "chase", "seconds": "1"}, 422, "seconds"),
        ({"game": "chase", "extra": 1}, 422, "extra"),
        ({"game": "chase", "options": ["a"]}, 422, "options"),
    ],
)
def test_bad_input_is_refused_clearly(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/analysis/evaluate", json=body)
    assert response.status_code == status, response.text
    answer = response.json()
    assert words in answer["detail"] and answer["code"]
    if "seconds" not in body and "lines" not in body:
        # the positions route reads the same body the same way
        again = client.post("/api/analysis/moves", json=body)
        assert again.status_code == status and again.json()["detail"] == answer["detail"]


def finished_game(client: TestClient, position: str, played: list[str]) -> str:
    game = create(client, game="chase", mode="local", position=position)
    token = game["token"]
    for notation in played:
        response = client.post(
            f"/api/games/{game['id']}/moves", json={"move": notation}, headers=auth(token)
        )
        assert response.status_code == 200, response.text
    response = client.post(f"/api/games/{game['id']}/resign", json={}, headers=auth(token))
    assert response.status_code == 200, response.text
    return str(game["id"])


def wait_for_review(client: TestClient, job: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        answer = client.get(f"/api/reviews/{job}").json()
        seen.append(answer["done"])
        if answer["status"] != "running":
            assert seen == sorted(seen), "progress never goes back"
            return dict(answer)
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)


def test_a_review_marks_the_move_that_hangs_a_die(client: TestClient) -> None:
    state = diceboard.game("chase").parse(HANGING).play("i8-f7SW")
    take = next(m for m in state.legal_moves() if m.capture)  # Blue takes the die
    reply = state.play(take).legal_moves()[0]
    game_id = finished_game(client, HANGING, ["i8-f7SW", take.notation, reply.notation])
    started = client.post(f"/api/games/{game_id}/review")
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["status"] == "running" and job["total"] == 3
    done = wait_for_review(client, job["job"])
    assert done["status"] == "done" and done["done"] == 3
    review = done["review"]
    first = next(m for m in review["marks"] if m["index"] == 0)
    assert first["played"] == "i8-f7SW" and first["glyph"] in ("?", "??")
    assert first["after"] < first["before"] and first["loss"] >= 0.10
    assert first["best_move"]["notation"] == first["best"] and first["best_move"]["from"]
    assert "was better" in first["comment"]
    assert len(review["curve"]) == 4 and all(0.0 <= p <= 1.0 for p in review["curve"])
    assert set(review["sides"]) == {"B", "R"} and review["sides"]["R"]["decisions"] == 2
    assert "i8-f7SW?" in review["pgn"] and "was better" in review["pgn"]
    # asked again: the same review, at once
    again = client.post(f"/api/games/{game_id}/review")
    assert again.status_code == 200 and again.json()["job"] == job["job"]


def test_review_refusals(client: TestClient) -> None:
    live = create(client, game="chase", mode="local")
    response = client.post(f"/api/games/{live['id']}/review")
    assert response.status_code == 409 and "finished" in response.json()["detail"]
    assert client.post("/api/games/nosuchgame/review").status_code == 404
    missing = client.get("/api/reviews/nosuchjob")
    assert missing.status_code == 404 and "no review" in missing.json()["detail"]
    assert client.get("/api/reviews/bad%20id").status_code == 422


def test_a_position_of_the_board_continues_as_a_new_game(client: TestClient) -> None:
    body = {"game": "custodian", "variant": "chaos", "position": PLAY_POSITION}
    pending = moves(client, **body, moves=["b1-b2"])
    response = client.post(
        "/api/games",
        json={
            "game": "custodian",
            "options": pending["options"],
            "position": pending["position"],
            "mode": "computer",
            "level": "random",
            "side": "B",
        },
    )
    assert response.status_code == 201, response.text
    client.cookies.clear()
    game = client.get(f"/api/games/{response.json()['id']}").json()["game"]
    # the server made the roll that was due; the game goes on from the board's position
    assert game["variant"] == "chaos" and game["start_position"] == pending["position"]
    assert len(game["moves"]) == 1 and game["moves"][0]["notation"].startswith("=")


def test_the_web_review_is_the_review_of_the_record(client: TestClient) -> None:
    from diceboard.analysis.review import review
    from diceboard.records import GameRecord

    rng = random.Random(5)
    state = diceboard.game("chase").initial_state()
    for _ in range(10):
        state = state.play(rng.choice(state.legal_moves()))
    game_id = finished_game(client, str(state.root()), [m.notation for m in state.move_stack()])
    job = client.post(f"/api/games/{game_id}/review").json()
    web = wait_for_review(client, job["job"])["review"]
    # the same agent and seed, one agent over the whole game: the same figures
    direct = review(GameRecord.from_state(state))
    assert [(m["index"], m["glyph"], m["best"]) for m in web["marks"]] == [
        (d.index, d.glyph, d.best.notation) for d in direct.decisions if d.glyph
    ]
    for letter in ("B", "R"):
        assert web["sides"][letter]["accuracy"] == pytest.approx(direct.side(letter).accuracy)
