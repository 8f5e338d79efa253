"""Floods (issue 12, Availability): one client floods the server in each way the issue found,
and another client's game keeps its pace.

The bounds, for every flood below, on another client's game:

- a move is answered within :data:`MOVE_BOUND` seconds;
- the computer's reply to a move arrives within :data:`REPLY_BOUND` seconds, where the
  computer takes :data:`THINK` seconds a move and there is one worker: the flooder's job that
  is running, then the victim's own, then slack for a loaded machine.

Before the limits, each of these floods broke a bound: the computer's queue was one FIFO for
everyone (the victim waited for the whole backlog), hints had no cap, sockets no cap, and an
import was read and replayed on the event loop in full before its size was looked at.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from diceboard.server import create_app
from tests.server.conftest import PLAY_POSITION, auth, make_settings
from tests.server.slow_agent import SlowLevels, slow_levels  # noqa: F401 (a fixture)

#: seconds the (slow) computer thinks per move
THINK = 0.3
#: the bounds on the victim's game while another client floods
MOVE_BOUND = 1.0
REPLY_BOUND = 2 * THINK + 1.4

FLOODER, VICTIM = 1, 2


def headers(n: int, token: str | None = None) -> dict[str, str]:
    """A request forwarded for client ``10.0.0.n`` by the trusted proxy of the test app."""
    extra = auth(token) if token else {}
    return {"X-Forwarded-For": f"10.0.0.{n}", **extra}


@pytest.fixture
def server(database_url: str, slow_levels: type[SlowLevels]) -> Iterator[TestClient]:  # noqa: F811
    slow_levels.delay = THINK
    settings = make_settings(
        database_url, trusted_proxies=("127.0.0.1",), computer_workers=1, computer_delay=0.0
    )
    with TestClient(create_app(settings), client=("127.0.0.1", 40000)) as client:
        yield client


def create(client: TestClient, n: int, **body: Any) -> Any:
    body.setdefault("game", "custodian")
    body.setdefault("position", PLAY_POSITION)
    response = client.post("/api/games", json=body, headers=headers(n))
    client.cookies.clear()
    return response


def game_state(client: TestClient, game_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}?pictures=false")
    return dict(answer.json()["game"])


def play_any(client: TestClient, n: int, game: dict[str, Any]) -> float:
    """Play the first legal move in ``game`` as client ``n``; the seconds it took to read
    the game and have the move answered."""
    started = time.monotonic()
    legal = game_state(client, game["id"])["legal"]
    answer = client.post(
        f"/api/games/{game['id']}/moves",
        json={"move": legal[0]["notation"]},
        headers=headers(n, game["token"]),
    )
    took = time.monotonic() - started
    assert answer.status_code == 200, answer.text
    return took


class Victim:
    """Another client's games: one at one screen (its move latency) and one against the
    computer (the computer's reply)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.local = create(client, VICTIM, mode="local").json()
        self.computer = create(client, VICTIM, mode="computer", level="level:8").json()
        # once before the flood: first-use costs (compiling, caches) are not the flood's
        self.move_latency()
        self.computer_reply()

    def move_latency(self) -> float:
        return play_any(self.client, VICTIM, self.local)

    def computer_reply(self) -> float:
        """Seconds from the victim's move until the computer has answered it."""
        started = time.monotonic()
        before = len(game_state(self.client, self.computer["id"])["moves"])
        play_any(self.client, VICTIM, self.computer)
        deadline = started + 30
        while len(game_state(self.client, self.computer["id"])["moves"]) < before + 2:
            assert time.monotonic() < deadline, "the computer never replied"
            time.sleep(0.01)
        return time.monotonic() - started

    def check(self) -> tuple[float, float]:
        """The victim's move latency and computer reply now, checked against the bounds."""
        latency, reply = self.move_latency(), self.computer_reply()
        assert latency < MOVE_BOUND, f"a move took {latency:.2f} s during the flood"
        assert reply < REPLY_BOUND, f"the computer took {reply:.2f} s to reply during the flood"
        return latency, reply


def in_threads(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` at once (each in a thread) and return their results."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(c) for c in calls]]


# --- the computer's queue -----------------------------------------------------------------------
def test_a_flood_of_computer_games_does_not_delay_another_clients_computer(
    server: TestClient,
) -> None:
    victim = Victim(server)
    # 30 games in which the computer moves first, as fast as the flooder can
    answers = [
        create(server, FLOODER, mode="computer", level="level:8", side="second") for _ in range(30)
    ]
    codes = [a.status_code for a in answers]
    assert set(codes) == {201, 429}, codes
    details = {a.json()["detail"] for a in answers if a.status_code == 429}
    # past its share of the computer (8 jobs) the flooder is refused, then rate-limited
    assert any("the computer is already working on 8 requests" in d for d in details), details
    victim.check()


def test_a_flood_of_hints_does_not_delay_another_clients_computer(server: TestClient) -> None:
    victim = Victim(server)
    games = [create(server, FLOODER, mode="local").json() for _ in range(12)]

    def hint(game: dict[str, Any]) -> int:
        url = f"/api/games/{game['id']}/hint"
        return server.post(url, headers=headers(FLOODER, game["token"])).status_code

    with ThreadPoolExecutor(24) as pool:
        flood = [pool.submit(hint, g) for g in games + games]
        time.sleep(0.3)  # the hints are queued
        victim.check()
        codes = [f.result() for f in flood]
    assert codes.count(429) >= 2, codes  # past its share the flooder is refused
    # the two requests for each game's hint shared one job: never more than 12 were worked out
    assert len(SlowLevels.calls) <= 12 + 2 * 3


def test_a_hint_is_dropped_when_the_position_moves_on(server: TestClient) -> None:
    SlowLevels.delay = 1.0
    first, second = (create(server, FLOODER, mode="local").json() for _ in range(2))

    def hint(game: dict[str, Any]) -> Any:
        url = f"/api/games/{game['id']}/hint"
        return server.post(url, headers=headers(FLOODER, game["token"]))

    with ThreadPoolExecutor(2) as pool:
        running = pool.submit(hint, first)
        time.sleep(0.2)
        waiting = pool.submit(hint, second)  # queued behind the first
        time.sleep(0.2)
        play_any(server, FLOODER, second)  # the position moves on before a worker took it
        answer = waiting.result(timeout=5)
        assert answer.status_code == 409, answer.text
        assert "the position changed before the hint was ready" in answer.json()["detail"]
        assert running.result(timeout=5).status_code == 200
    time.sleep(0.3)
    assert len(SlowLevels.calls) == 1  # the dropped hint was never worked out


# --- sockets ------------------------------------------------------------------------------------
def test_a_flood_of_spectator_sockets_is_capped(database_url: str, slow_levels: Any) -> None:  # noqa: F811
    slow_levels.delay = THINK
    settings = make_settings(
        database_url,
        trusted_proxies=("127.0.0.1",),
        computer_workers=1,
        sockets_per_game=12,
        sockets_per_client=8,
    )
    with TestClient(create_app(settings), client=("127.0.0.1", 40000)) as client:
        victim = Victim(client)
        url = f"/api/games/{victim.local['id']}/ws"
        accepted = refused = 0
        with contextlib.ExitStack() as sockets:
            for n in (FLOODER, FLOODER + 10):  # two addresses, 10 sockets each
                for _ in range(10):
                    ws = sockets.enter_context(client.websocket_connect(url, headers=headers(n)))
                    ws.send_json({"type": "hello", "pictures": False})
                    first = ws.receive_json()
                    if first["type"] == "state":
                        accepted += 1
                    else:
                        assert first["status"] == 429
                        refused += 1
            assert (accepted, refused) == (12, 8)  # 8 of the first address, 4 of the second
            victim.check()


# --- imports ------------------------------------------------------------------------------------
def _many_games(count: int) -> str:
    import diceboard
    from diceboard.records import GameRecord

    state = diceboard.game("custodian").parse(PLAY_POSITION)
    for _ in range(30):
        state = state.play(state.legal_moves()[0])
    return "\n\n".join([GameRecord.from_state(state).to_pgn()] * count)


def test_a_flood_of_imports_does_not_stall_the_server(server: TestClient) -> None:
    victim = Victim(server)
    text = _many_games(300)  # ~250 KB: 9,000 moves to replay before the caps
    assert len(text) < 1_000_000

    def send() -> int:
        answer = server.post("/api/imports", json={"record": text}, headers=headers(FLOODER))
        return answer.status_code

    with ThreadPoolExecutor(10) as pool:
        flood = [pool.submit(send) for _ in range(10)]
        for _ in range(4):  # while the imports arrive and are read
            time.sleep(0.3)
            victim.check()
        codes = [f.result() for f in flood]
    assert set(codes) <= {413, 429}, codes


# --- creation -----------------------------------------------------------------------------------
def test_a_flood_of_game_creation_is_rate_limited(server: TestClient) -> None:
    victim = Victim(server)
    codes = in_threads(
        [lambda: create(server, FLOODER, mode="online", listed=True).status_code] * 40
    )
    assert codes.count(201) <= 3, codes  # its lobby share
    refused = create(server, FLOODER, mode="local")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert len(server.get("/api/lobby").json()) <= 3
    victim.check()
