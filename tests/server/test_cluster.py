"""The deployment that docs/web.md describes, for real: Debian's nginx, configured with the
shipped ``deploy/nginx-diceboard.conf``, in front of two ``diceboard serve`` processes on one
throwaway PostgreSQL database.

A game played through one process is seen live by a spectator on the other; then the process
that runs the games' clocks and computer is killed with SIGKILL in the middle of them, and the
games go on through nginx on the survivor: a move is accepted, the computer answers it, and a
clock that runs out ends its game on time. Skips, saying why, where nginx or PostgreSQL is not
installed (``scripts/test`` installs both).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect

from diceboard.server.loadtest import free_port
from tests.server.pg_cluster import Cluster
from tests.server.processes import Server, start_server, stop_server

pytestmark = pytest.mark.postgres

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx-diceboard.conf"
#: short leases, so that a killed process's games are taken over within seconds
LEASE_SECONDS = 1.5
#: how long anything pushed may take to arrive on a loaded machine
PATIENCE = 30.0
HTTP = httpx2.Client(timeout=60)


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.skip("nginx is not installed (apt-get install nginx; scripts/test does)")
    return found


def site_config(site: str, port: int, upstreams: list[int]) -> str:
    """The shipped site file with this test's ports (each substitution must find its line)."""
    servers = re.findall(r"(?m)^\s*server 127\.0\.0\.1:\d+( .*)?;\n", site)
    assert len(servers) == 2, "the shipped site file lists two upstream processes"
    options = servers[0]
    lines = "".join(f"    server 127.0.0.1:{p}{options};\n" for p in upstreams)
    site = re.sub(r"(?m)^\s*server 127\.0\.0\.1:\d+( .*)?;\n", "", site)
    site, found = re.subn(
        r"(upstream diceboard \{\n(?:\s*#.*\n)*)", lambda m: m.group(1) + lines, site
    )
    assert found == 1
    site, found = re.subn(r"(?m)^\s*listen 80;$", f"    listen 127.0.0.1:{port};", site)
    assert found == 1
    site, found = re.subn(r"(?m)^\s*listen \[::\]:80;\n", "", site)
    assert found == 1
    return site


@dataclass
class Nginx:
    base: str
    process: subprocess.Popen[bytes]
    root: Path

    def stop(self) -> None:
        """Stop nginx and its worker (a SIGKILL of the master would leave the worker)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_nginx(root: Path, upstreams: list[int]) -> Nginx:
    binary = nginx_binary()
    port = free_port()
    (root / "site.conf").write_text(site_config(SITE.read_text(), port, upstreams))
    temp = root / "temp"
    temp.mkdir()
    os.chmod(temp, 0o777)
    (root / "nginx.conf").write_text(
        f"""
worker_processes 1;
worker_rlimit_nofile 20000;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
daemon off;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {root}/site.conf;
}}
"""
    )
    process = subprocess.Popen(
        [binary, "-p", str(root), "-e", str(root / "error.log"), "-c", str(root / "nginx.conf")],
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"nginx exited with {process.returncode}: {err[-2000:]}")
        try:
            if HTTP.get(f"{base}/api/meta").status_code == 200:
                return Nginx(base, process, root)
        except httpx2.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("nginx did not start")
        time.sleep(0.1)


def wait_until_ready(server: Server) -> None:
    """Until the server's engine is warm (its WebSocket and moves wait for it before)."""
    deadline = time.monotonic() + 300
    while True:
        health = HTTP.get(f"{server.base}/api/health").json()
        if health["ready"] and health["computer_ready"]:
            return
        assert time.monotonic() < deadline, "the server did not warm up"
        time.sleep(0.2)


@dataclass
class Deployment:
    database: str
    servers: list[Server]
    nginx: Nginx

    def holder(self, game_id: str) -> int | None:
        """The pid of the process holding ``game_id``'s lease."""
        engine = create_engine(self.database)
        try:
            with engine.connect() as connection:
                row = connection.execute(
                    text(
                        "SELECT p.pid FROM leases l JOIN server_processes p ON p.id = l.holder "
                        "WHERE l.game_id = :g"
                    ),
                    {"g": game_id},
                ).first()
        finally:
            engine.dispose()
        return None if row is None else int(row[0])

    def wait_for_holder(self, game_id: str) -> int:
        """The pid of the process holding ``game_id``'s lease, once one does."""
        deadline = time.monotonic() + PATIENCE
        while (pid := self.holder(game_id)) is None:
            assert time.monotonic() < deadline, f"nobody took the lease of {game_id}"
            time.sleep(0.1)
        return pid


@pytest.fixture
def deployment(postgres_cluster: Cluster, tmp_path: Path) -> Iterator[Deployment]:
    nginx_binary()
    name = postgres_cluster.create_database()
    database = postgres_cluster.url(name)
    servers: list[Server] = []
    nginx: Nginx | None = None
    try:
        extra = ("--lease-seconds", str(LEASE_SECONDS), "--trusted-proxy", "127.0.0.1")
        servers = [start_server(database, extra=extra) for _ in range(2)]
        for server in servers:
            wait_until_ready(server)
        nginx = start_nginx(tmp_path, [s.port for s in servers])
        yield Deployment(database, servers, nginx)
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            stop_server(server)
            # shown with a failure: what the servers logged
            if server.process.stderr is not None:
                print(f"--- server {server.process.pid}:")
                print(server.process.stderr.read().decode(errors="replace")[-4000:])
        postgres_cluster.drop_database(name)


# --- helpers ------------------------------------------------------------------------------------
def create(base: str, **body: Any) -> dict[str, Any]:
    response = HTTP.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def game(base: str, game_id: str) -> dict[str, Any]:
    response = HTTP.get(f"{base}/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return dict(response.json()["game"])


def move(base: str, game_id: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move of ``state``; the game as the answer shows it."""
    response = HTTP.post(
        f"{base}/api/games/{game_id}/moves",
        json={"move": state["legal"][0]["notation"], "version": state["version"]},
        headers={"X-Seat-Token": token},
    )
    assert response.status_code == 200, response.text
    return dict(response.json()["game"])


async def spectate(base: str, game_id: str) -> ClientConnection:
    socket = await connect(base.replace("http://", "ws://") + f"/api/games/{game_id}/ws")
    await socket.send(json.dumps({"type": "hello", "pictures": False}))
    return socket


async def pushed_until(socket: ClientConnection, done: Any) -> dict[str, Any]:
    """The first state pushed to ``socket`` for which ``done(game)`` holds."""
    deadline = time.monotonic() + PATIENCE
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, "the change was not pushed in time"
        message = json.loads(await asyncio.wait_for(socket.recv(), remaining))
        if message["type"] == "state" and done(message["game"]):
            return dict(message["game"])


def poll(base: str, game_id: str, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    while True:
        state = game(base, game_id)
        if done(state):
            return state
        assert time.monotonic() < deadline, f"timed out; the game is {state['status']}"
        time.sleep(0.2)


def decisions(state: dict[str, Any]) -> int:
    return sum(1 for m in state["moves"] if m["seat"])


# --- the test -----------------------------------------------------------------------------------
def test_two_processes_behind_nginx_survive_a_sigkill(deployment: Deployment) -> None:
    a, b = deployment.servers
    front = deployment.nginx.base
    # A game against the computer and a game on a clock, both run by process A.
    vs = create(a.base, game="chase", mode="computer", level="random", side="first")
    timed = create(
        a.base, game="chase", mode="online", side="first", time_control={"minutes": 0.25}
    )
    code = timed["links"]["invite"].split("#code=")[1]
    joined = HTTP.post(f"{a.base}/api/games/{timed['id']}/join", json={"code": code})
    assert joined.status_code == 200, joined.text
    guest = joined.json()
    assert deployment.wait_for_holder(vs["id"]) == a.process.pid
    assert deployment.wait_for_holder(timed["id"]) == a.process.pid

    async def scenario() -> None:
        # 1. Played through A, seen live by a spectator on B: the move and the computer's reply.
        watcher = await spectate(b.base, vs["id"])
        start = await pushed_until(watcher, lambda g: True)
        after = move(a.base, vs["id"], vs["token"], start)
        # a REST read on B right after the move on A shows it
        assert game(b.base, vs["id"])["version"] >= after["version"]
        await pushed_until(watcher, lambda g: g["version"] == after["version"])
        replied = await pushed_until(watcher, lambda g: decisions(g) == 2)
        assert replied["to_move"] == start["to_move"]

        # The clock game: the host moves, the guest's 15 s run (timer on A).
        first = game(a.base, timed["id"])
        move(a.base, timed["id"], timed["token"], first)
        assert game(b.base, timed["id"])["clock"]["running"] == guest["seats"][0]

        # 2. A dies mid-game. Through nginx the games go on, on B.
        stop_server(a, signal.SIGKILL)
        killed_at = time.monotonic()
        current = game(front, vs["id"])
        after = move(front, vs["id"], vs["token"], current)
        await pushed_until(watcher, lambda g: g["version"] == after["version"])
        # the computer's reply, now from B (once A's lease has expired)
        replied = await pushed_until(watcher, lambda g: decisions(g) == 4)
        assert replied["status"] == "active" or replied["outcome"] is not None
        assert deployment.wait_for_holder(vs["id"]) == b.process.pid
        # a spectator through nginx sees the game too
        front_watcher = await spectate(front, vs["id"])
        seen = await pushed_until(front_watcher, lambda g: True)
        assert decisions(seen) >= 4
        await watcher.close()
        await front_watcher.close()
        # the guest never moved: the clock runs out on B, which ends the game on time
        ended = poll(front, timed["id"], lambda g: g["status"] == "finished")
        assert ended["outcome"]["reason"] == "timeout"
        assert ended["outcome"]["winner"] == timed["seats"][0]
        assert time.monotonic() - killed_at < 15 + PATIENCE

    asyncio.run(scenario())
    # and B still serves everything
    assert b.process.poll() is None
