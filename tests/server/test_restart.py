"""Kill a real ``diceboard serve`` with SIGKILL in the middle of games, start it again on the
same database: every game resumes exactly where it was, and clients reconnect."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from typing import Any

import httpx2
from websockets.asyncio.client import connect

from tests.server.conftest import PLAY_POSITION
from tests.server.processes import Server, start_server, stop_server

#: generous: the machine running the tests may be busy
HTTP = httpx2.Client(timeout=60)


def _play(base: str, game_id: str, token: str, rng: random.Random, count: int) -> None:
    for _ in range(count):
        game = HTTP.get(f"{base}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()[
            "game"
        ]
        if not game["legal"]:
            return
        move = rng.choice(game["legal"])["notation"]
        response = HTTP.post(
            f"{base}/api/games/{game_id}/moves",
            json={"move": move, "version": game["version"]},
            headers={"X-Seat-Token": token},
        )
        assert response.status_code == 200, response.text


def _snapshot(base: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    body = HTTP.get(f"{base}/api/games/{game_id}", headers=headers).json()
    game = body["game"]
    return {
        "you": body["you"],
        **{
            k: game[k]
            for k in ("position", "moves", "version", "status", "legal", "to_move", "offers")
        },
    }


def test_sigkill_and_restart(database_url: str) -> None:
    database = database_url
    server = start_server(database)
    rng = random.Random(7)
    base = server.base
    games: list[tuple[str, str]] = []
    local = HTTP.post(
        f"{base}/api/games", json={"game": "custodian", "mode": "local", "seed": 1}
    ).json()
    _play(base, local["id"], local["token"], rng, 14)
    games.append((local["id"], local["token"]))
    chaos = HTTP.post(
        f"{base}/api/games",
        json={
            "game": "custodian",
            "mode": "local",
            "variant": "chaos",
            "position": PLAY_POSITION,
            "seed": 2,
        },
    ).json()
    _play(base, chaos["id"], chaos["token"], rng, 5)
    games.append((chaos["id"], chaos["token"]))
    chase = HTTP.post(f"{base}/api/games", json={"game": "chase", "mode": "local"}).json()
    _play(base, chase["id"], chase["token"], rng, 6)
    games.append((chase["id"], chase["token"]))
    online = HTTP.post(f"{base}/api/games", json={"game": "custodian", "mode": "online"}).json()
    code = online["links"]["invite"].split("#code=")[1]
    guest = HTTP.post(f"{base}/api/games/{online['id']}/join", json={"code": code}).json()
    HTTP.post(
        f"{base}/api/games/{online['id']}/draw",
        json={"action": "offer"},
        headers={"X-Seat-Token": guest["token"]},
    )
    games.append((online["id"], online["token"]))
    before = {gid: _snapshot(base, gid, token) for gid, token in games}

    received: list[dict[str, Any]] = []
    restarted: Server | None = None

    async def watch_across_the_crash() -> None:
        """A spectator that reconnects by itself, like the pages do."""
        url = base.replace("http", "ws") + f"/api/games/{local['id']}/ws"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            received.append(json.loads(await ws.recv()))
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            try:
                await asyncio.wait_for(ws.recv(), 5)
                raise AssertionError("the connection outlived the server")
            except Exception as exc:
                assert not isinstance(exc, AssertionError)
        # until the restarted server listens: its start takes half a minute on a busy machine
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                async with connect(url, open_timeout=2) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    received.append(json.loads(await ws.recv()))
                    return
            except OSError:
                await asyncio.sleep(0.1)
        raise AssertionError("could not reconnect")

    async def crash_and_restart() -> None:
        watcher = asyncio.create_task(watch_across_the_crash())
        while server.process.poll() is None:
            await asyncio.sleep(0.05)
        nonlocal restarted
        restarted = await asyncio.to_thread(start_server, database, server.port)
        await watcher

    try:
        asyncio.run(crash_and_restart())
        assert restarted is not None
        for gid, token in games:
            assert _snapshot(restarted.base, gid, token) == before[gid], gid
        assert received[0]["game"]["version"] == received[1]["game"]["version"]
        # the links still act: play on in every game
        for gid, token in games[:3]:
            _play(restarted.base, gid, token, rng, 2)
        assert (
            HTTP.post(
                f"{restarted.base}/api/games/{online['id']}/draw",
                json={"action": "accept"},
                headers={"X-Seat-Token": online["token"]},
            ).json()["game"]["outcome"]["reason"]
            == "agreement"
        )
    finally:
        if restarted is not None:
            stop_server(restarted)
        stop_server(server, signal.SIGKILL)
