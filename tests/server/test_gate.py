"""The engine's gate while the engine warms up: a request waits for the kernels of the game
it names (in its path, its stored game or its JSON body, which reaches the app unchanged),
a request that names none waits for every game, and the open routes never wait."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.types import Message, Receive, Scope, Send

from diceboard.server.gate import EngineGate
from diceboard.server.warmup import Warmup


class App:
    """Records each request that got through, with the body it received."""

    def __init__(self) -> None:
        self.through: list[tuple[str, bytes]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        if scope["type"] == "http" and scope.get("method") == "POST":
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body", False):
                    break
        self.through.append((scope["path"], body))


STORED = {"c1": "custodian", "h1": "chase"}


async def _game_of(game_id: str) -> str | None:
    return STORED.get(game_id)


def _request(path: str, body: bytes = b"", method: str = "POST", chunks: int = 1) -> Any:
    scope = {"type": "http", "method": method, "path": path, "headers": []}
    size = max(1, -(-len(body) // chunks))
    parts = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
    messages: list[Message] = [
        {"type": "http.request", "body": part, "more_body": i < len(parts) - 1}
        for i, part in enumerate(parts)
    ]

    async def receive() -> Message:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    return scope, receive, send


def _passes(warmup: Warmup, request: Any) -> tuple[bool, App]:
    """Whether ``request`` gets through the gate within 0.2 s, with only custodian ready."""
    app = App()
    gate = EngineGate(app, warmup, _game_of)

    async def scenario() -> bool:
        try:
            await asyncio.wait_for(gate(*request), 0.2)
        except TimeoutError:
            return False
        return True

    return asyncio.run(scenario()), app


@pytest.fixture
def custodian_ready() -> Warmup:
    warmup = Warmup(lambda _: None)
    warmup._open("custodian")
    return warmup


def test_a_new_game_of_a_ready_game_goes_ahead_with_its_body_unchanged(
    custodian_ready: Warmup,
) -> None:
    body = json.dumps({"game": "custodian", "mode": "local", "name": "x" * 500}).encode()
    passed, app = _passes(custodian_ready, _request("/api/games", body, chunks=3))
    assert passed and app.through == [("/api/games", body)]


@pytest.mark.parametrize(
    ("path", "body", "method", "passes"),
    [
        ("/api/games", b'{"game": "chase"}', "POST", False),
        ("/api/analysis/moves", b'{"game": "custodian", "moves": []}', "POST", True),
        ("/api/analysis/evaluate", b'{"game": "chase"}', "POST", False),
        ("/api/games", b"not json", "POST", False),
        ("/api/games", b'["custodian"]', "POST", False),
        ("/api/games", b'{"game": "nope"}', "POST", False),
        ("/api/games/c1", b"", "GET", True),
        ("/api/games/c1/move", b'{"move": "x"}', "POST", True),
        ("/api/games/h1/session", b"", "GET", False),
        ("/api/games/unknown", b"", "GET", False),
        ("/api/learn/custodian/first", b"", "GET", True),
        ("/api/puzzles/chase", b"", "GET", False),
        ("/api/puzzles", b"", "GET", False),
        ("/api/lobby", b"", "GET", False),
        ("/api/meta", b"", "GET", True),
        ("/api/health", b"", "GET", True),
        ("/", b"", "GET", True),
    ],
)
def test_what_waits(
    custodian_ready: Warmup, path: str, body: bytes, method: str, passes: bool
) -> None:
    passed, app = _passes(custodian_ready, _request(path, body, method))
    assert passed is passes
    if passed and method == "POST":
        assert app.through == [(path, body)]


def test_a_websocket_of_a_ready_game_goes_ahead(custodian_ready: Warmup) -> None:
    for game_id, passes in (("c1", True), ("h1", False)):
        scope = {"type": "websocket", "path": f"/api/games/{game_id}/ws", "headers": []}
        passed, _ = _passes(custodian_ready, (scope, None, None))
        assert passed is passes


def test_a_lookup_that_fails_waits_for_every_game(custodian_ready: Warmup) -> None:
    async def broken(game_id: str) -> str | None:
        raise RuntimeError("database gone")

    app = App()
    gate = EngineGate(app, custodian_ready, broken)

    async def scenario() -> bool:
        try:
            await asyncio.wait_for(gate(*_request("/api/games/c1", method="GET")), 0.2)
        except TimeoutError:
            return False
        return True

    assert asyncio.run(scenario()) is False
