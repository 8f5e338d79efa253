"""The load test's player against small WebSocket servers of the tests' own: it plays its
turn, assembles a fragmented message, answers the closing handshake, gives up on a silent
server once play is over, and says clearly when a server refuses or drops it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from diceboard.server import load_player
from diceboard.server.load_player import LoadBroken, LoadPlayer, watch
from diceboard.server.loadtest import LoadReport

Handler = Callable[[ServerConnection], Awaitable[None]]


def _state(version: int, to_move: str, status: str = "playing", **extra: Any) -> str:
    game = {
        "version": version,
        "status": status,
        "to_move": to_move,
        "players": ["A", "B"],
        "moves_from": None,
        "moves": [{"seat": "A" if i % 2 == 0 else "B", "notation": "x"} for i in range(version)],
        "legal": [{"notation": "b1-b2"}, {"notation": "c1-c2"}] if to_move == "A" else [],
    }
    return json.dumps({"type": "state", "game": game, **extra})


def _player(port: int, report: LoadReport, deadline: float) -> LoadPlayer:
    """Seat A of game g1 on a local port, thinking not at all, up to 40 decisions."""
    return LoadPlayer(
        f"http://127.0.0.1:{port}", "g1", "t", "A", random.Random(1), report, deadline, 40, 0.0
    )


def _play(
    handler: Handler,
    *,
    deadline_in: float = 30.0,
    process_request: Callable[[ServerConnection, Request], Response | None] | None = None,
) -> tuple[LoadPlayer, LoadReport]:
    """One player (seat A, no thinking) against ``handler``, watched as the load test does."""

    async def scenario() -> tuple[LoadPlayer, LoadReport]:
        async with serve(handler, "127.0.0.1", 0, process_request=process_request) as server:
            port = server.sockets[0].getsockname()[1]
            report = LoadReport(1)
            deadline = time.monotonic() + deadline_in
            player = _player(port, report, deadline)
            watching = asyncio.create_task(watch([player], deadline))
            try:
                await asyncio.wait_for(player.play(), 30.0)
            finally:
                watching.cancel()
            return player, report

    return asyncio.run(scenario())


def test_a_player_moves_on_its_turn_and_counts_the_answer() -> None:
    received: list[dict[str, Any]] = []

    async def handler(ws: ServerConnection) -> None:
        received.append(json.loads(await ws.recv()))  # the hello
        await ws.send(_state(0, "A"))
        move = json.loads(await ws.recv())
        received.append(move)
        # the state that holds the move, then the game's end: the player closes
        await ws.send(_state(1, "B", ack={"version": 1}))
        await ws.send(_state(2, "A", status="finished"))
        await ws.wait_closed()

    player, report = _play(handler)
    hello, move = received
    assert hello == {"type": "hello", "token": "t", "pictures": False, "delta": True}
    assert move["type"] == "move" and move["version"] == 0
    assert move["move"] in {"b1-b2", "c1-c2"}
    assert (player.acked, report.moves, len(report.latencies_ms)) == (1, 1, 1)
    assert report.finished_games == 1 and player.decisions == 2


def test_a_fragmented_message_is_put_together() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        text = _state(3, "B", status="finished")
        await ws.send([text[:10], text[10:25], text[25:]])  # three frames, one message
        await ws.wait_closed()

    player, report = _play(handler)
    assert report.finished_games == 1
    assert len(player.moves) == 3 and player.done


def test_a_silent_server_is_left_once_play_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_player, "LINGER_S", 0.2)

    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.wait_closed()  # never says anything

    player, report = _play(handler, deadline_in=0.0)
    assert player.finishing and report.moves == 0


def test_a_player_told_to_finish_before_it_has_connected_closes_once_it_has() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.wait_closed()

    async def scenario() -> tuple[bool, int | None]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            player = _player(port, LoadReport(1), time.monotonic())
            player.finish()  # (as the watch does to a player still waiting to connect)
            await asyncio.wait_for(player.play(), 30.0)
            return (
                player.finishing,
                player._protocol.close_rcvd and player._protocol.close_rcvd.code,
            )

    assert asyncio.run(scenario()) == (True, 1000)


def test_a_server_that_drops_the_connection_is_named_with_its_close_code() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.close(1011, "broken")

    with pytest.raises(
        LoadBroken, match=r"game g1, seat A: the server closed .*\(close code 1011 broken\)"
    ):
        _play(handler)


def test_a_refused_handshake_is_named() -> None:
    async def handler(ws: ServerConnection) -> None:
        raise AssertionError("never reached")

    def refuse(ws: ServerConnection, request: Request) -> Response:
        return ws.respond(403, "no\n")

    with pytest.raises(LoadBroken, match=r"game g1: the WebSocket handshake failed: .*403"):
        _play(handler, process_request=refuse)


def test_a_server_that_never_answers_the_handshake_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(load_player, "OPEN_WAIT_S", 1.0)

    async def scenario() -> None:
        async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read()  # takes the request, never answers

        server = await asyncio.start_server(mute, "127.0.0.1", 0)
        async with server:
            port = server.sockets[0].getsockname()[1]
            player = _player(port, LoadReport(1), time.monotonic())
            await player.play()

    with pytest.raises(
        LoadBroken, match=r"game g1: the server did not open the WebSocket within 1 s"
    ):
        asyncio.run(scenario())
