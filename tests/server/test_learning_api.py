"""The lessons and puzzles API: positions from the engine, moves judged on the server, a
wrong move explained, bad input answered 4xx with a reason."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from diceboard.analysis import lessons as L
from diceboard.analysis.puzzles import shipped


def test_lessons_are_listed_and_served_with_their_position(client: TestClient) -> None:
    index = client.get("/api/learn").json()
    assert [g["game"] for g in index["games"]] == L.lesson_names()
    course = client.get("/api/learn/chase").json()
    assert course["rules"] == "/rules/chase"
    assert [item["id"] for item in course["lessons"]] == [
        item["id"] for item in L.lessons("chase")["lessons"]
    ]
    lesson = client.get("/api/learn/chase/absorb").json()
    assert lesson["to_move"] == "R" and lesson["flipped"] is True
    assert lesson["svg"].startswith("<svg") or "<svg" in lesson["svg"][:200]
    assert {m["notation"] for m in lesson["legal"]} >= {"{i1}i1-c4SE", "{i9}i1-h1SW"}
    assert {"square": "i1", "kind": "target"} in lesson["marks"]


def test_the_intended_move_is_right_and_another_is_explained(client: TestClient) -> None:
    right = client.post("/api/learn/custodian/capture", json={"move": "a2-c2=1"}).json()
    assert right["correct"] and right["text"] == L.lesson("custodian", "capture")["success"]
    assert right["position"].split("/")[2] == "....."  # rank 3: the Black die is gone
    assert right["move"]["segments"] == [["a2", "b2", "c2"]]
    legal = client.get("/api/learn/custodian/capture").json()["legal"]
    from_c4 = next(m["notation"] for m in legal if m.get("from") == "c4")
    wrong = client.post("/api/learn/custodian/capture", json={"move": from_c4}).json()
    assert not wrong["correct"] and "slice of the sandwich" in wrong["text"]
    # an illegal move: the engine's reason, as a 400
    illegal = client.post("/api/learn/custodian/capture", json={"move": "a2-e4=1"})
    assert illegal.status_code == 400 and "no walk of exactly 2 steps" in illegal.json()["detail"]


def test_a_chaos_move_is_rolled_on_the_server(client: TestClient) -> None:
    answer = client.post("/api/learn/custodian/chaos", json={"move": "c1-c4"}).json()
    assert answer["correct"] and answer["rolled"] in range(1, 7)
    assert f"W{answer['rolled']}" in answer["position"].split("/")[1]


def test_bad_lesson_requests_are_refused_with_a_reason(client: TestClient) -> None:
    assert client.get("/api/learn/go").status_code == 404
    assert client.get("/api/learn/custodian/nope").status_code == 404
    assert client.post("/api/learn/custodian/capture", json={"move": 5}).status_code == 422
    assert client.post("/api/learn/custodian/capture", json={}).status_code == 422
    extra = client.post("/api/learn/custodian/capture", json={"move": "a2-c2=1", "x": 1})
    assert extra.status_code == 422
    garbled = client.post("/api/learn/custodian/capture", json={"move": "zz"})
    assert garbled.status_code == 400 and garbled.json()["detail"]


def test_puzzles_one_after_another_judged_on_the_server(client: TestClient) -> None:
    games = {g["game"]: g["count"] for g in client.get("/api/puzzles").json()["games"]}
    assert games and all(count >= 200 for count in games.values())
    name = next(iter(games))
    listing = client.get(f"/api/puzzles/{name}").json()
    assert "solution" not in listing["puzzles"][0]
    first = listing["puzzles"][0]["id"]
    shown = client.get(f"/api/puzzles/{name}/{first}").json()
    assert shown["next"] == listing["puzzles"][1]["id"] and shown["number"] == 1
    assert "solution" not in shown and "line" not in shown
    puzzle = next(p for p in shipped(name)["puzzles"] if p["id"] == first)
    right = client.post(f"/api/puzzles/{name}/{first}/answer", json={"move": puzzle["solution"]})
    assert right.json()["correct"] and right.json()["text"].startswith("Solved")
    other = next(m["notation"] for m in shown["legal"] if m["notation"] not in puzzle["accepted"])
    wrong = client.post(f"/api/puzzles/{name}/{first}/answer", json={"move": other}).json()
    assert not wrong["correct"] and wrong["text"].startswith(f"{other} ")
    solution = client.get(f"/api/puzzles/{name}/{first}/solution").json()
    assert solution["solution"] == puzzle["solution"]
    assert [s["move"]["notation"] for s in solution["line"]] == puzzle["line"]
    assert all("<svg" in s["svg"] for s in solution["line"])


def test_puzzles_are_served_easiest_first_or_one_difficulty(client: TestClient) -> None:
    for name in (g["game"] for g in client.get("/api/puzzles").json()["games"]):
        document = shipped(name)
        rising = client.get(f"/api/puzzles/{name}").json()
        assert rising["order"] == "rising" and rising["difficulty"] is None
        levels = [p["difficulty"] for p in rising["puzzles"]]
        assert levels == sorted(levels) and len(levels) == len(document["puzzles"])
        # within a difficulty, the set's order
        twos = [p["id"] for p in document["puzzles"] if p["difficulty"] == 2]
        assert [p["id"] for p in rising["puzzles"] if p["difficulty"] == 2] == twos
        assert rising["difficulties"] == document["difficulties"]
        made = client.get(f"/api/puzzles/{name}?order=set").json()
        assert [p["id"] for p in made["puzzles"]] == [p["id"] for p in document["puzzles"]]
        for difficulty in range(1, 6):
            chosen = client.get(f"/api/puzzles/{name}?difficulty={difficulty}").json()
            ids = [p["id"] for p in chosen["puzzles"]]
            assert len(ids) == document["difficulties"][str(difficulty)]
            assert all(p["difficulty"] == difficulty for p in chosen["puzzles"])
            if len(ids) >= 2:
                shown = client.get(f"/api/puzzles/{name}/{ids[-1]}?difficulty={difficulty}")
                body = shown.json()
                assert body["next"] == ids[0] and body["number"] == len(ids)
                assert body["count"] == len(ids) and body["difficulty"] == difficulty
                assert body["rating"]["score"] >= 0 and "level" in body["rating"]
        # a puzzle outside the chosen difficulty: followed by the first of it
        hard = client.get(f"/api/puzzles/{name}?difficulty=5").json()["puzzles"]
        easy = rising["puzzles"][0]
        outside = client.get(f"/api/puzzles/{name}/{easy['id']}?difficulty=5").json()
        assert outside["number"] is None and outside["next"] == hard[0]["id"]


@pytest.mark.parametrize(
    "query", ["difficulty=0", "difficulty=6", "difficulty=x", "order=random", "order="]
)
def test_bad_puzzle_selections_are_refused(client: TestClient, query: str) -> None:
    for path in ("/api/puzzles/chase", "/api/puzzles/chase/chase-1-1"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 422, response.text
        assert response.json()["detail"]


def test_bad_puzzle_requests_are_refused(client: TestClient) -> None:
    assert client.get("/api/puzzles/go").status_code == 404
    assert client.get("/api/puzzles/chase/nope").status_code == 404
    assert client.get("/api/puzzles/chase/bad%20id").status_code == 422
    illegal = client.post("/api/puzzles/chase/chase-1-1/answer", json={"move": "a1-a5E"})
    assert illegal.status_code == 400 and illegal.json()["detail"]


def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/learn", "/learn/custodian", "/learn/chase", "/puzzles"):
        page = client.get(path)
        assert page.status_code == 200 and "<!doctype html>" in page.text
