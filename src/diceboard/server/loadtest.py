"""A load test of the web app: many concurrent online games over WebSockets on loopback.

Each game has two players, each with its own WebSocket. A player whose turn it is picks a
random legal move from the snapshot it was sent and submits it over its socket with the
game's version; the latency of a move is the time from sending it to receiving the snapshot
that contains it. At the end every game is fetched over HTTP and its stored move count is
checked against the moves that were acknowledged: every move must be accounted for.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

import httpx2

from diceboard.games import names as game_names
from diceboard.server.load_player import LoadPlayer, watch
from diceboard.server.load_report import LoadReport

T = TypeVar("T")


def cpu_seconds(pid: int, *, descendants: bool = True) -> float | None:
    """The CPU time (user and system) that process ``pid`` and (``descendants``) its living
    descendants have used so far, read from ``/proc``; ``None`` where it cannot be read (no
    ``/proc``, or the process has gone)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    todo = [pid]
    seen: set[int] = set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            if current == pid:
                return None
            continue  # a child that has just ended
        # the command name (in parentheses) may hold spaces: the fields follow its ')'
        fields = stat.rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
        if not descendants:
            break
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                todo.extend(int(c) for c in (task / "children").read_text().split())
    return total


def check_loopback(url: str) -> None:
    """Refuse any server that is not on a loopback address (the bench never leaves the host)."""
    host = urlparse(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"the load test only runs against loopback addresses, not {host!r}")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Served:
    """A server the bench started: its base URL and its process id."""

    base: str
    pid: int


def server_environment(src: str | None) -> dict[str, str]:
    """The environment of a ``diceboard serve`` started to be measured: unbuffered output,
    and ``src`` (another tree's package folder) first on its import path."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


@contextlib.contextmanager
def running_server(database: str | None = None, src: str | None = None) -> Iterator[Served]:
    """A ``diceboard serve`` subprocess on a free loopback port (``src``: of the package
    found in that folder, another tree's, instead of this one)."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url = database or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "diceboard.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                url,
                "--log-level",
                "warning",
                "--computer-workers",
                "1",
                # every game of the load test comes from this one address
                "--no-client-limits",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=server_environment(src),
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, process)
            wait_until_ready(base)
            yield Served(base, process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_up(base: str, process: subprocess.Popen[bytes], timeout: float = 180.0) -> None:
    """Wait until the server answers (raise if it exits or does not start in time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"the server exited with status {process.returncode}: {err[-2000:]}")
        try:
            if httpx2.get(f"{base}/api/meta", timeout=1.0).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server at {base} did not start within {timeout:.0f} s")


def wait_until_ready(base: str, timeout: float = 900.0) -> None:
    """Wait until the server's engine and its computer workers have warmed up
    (``/api/health`` says ``ready`` and ``computer_ready``): until then it holds the games'
    requests, and a cold numba cache takes minutes on a busy machine, which would time the
    setup out or count the compiling as latency."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            health = httpx2.get(f"{base}/api/health", timeout=5.0)
            if health.status_code == 404:
                return  # a server that cannot say: nothing to wait for
            body = health.json() if health.status_code == 200 else {}
            # the computer's workers too: warming up, they would take the cores from the
            # games measured (the games are between people, but the CPU is shared)
            if body.get("ready") and body.get("computer_ready", True):
                return
        except httpx2.ConnectError:
            raise  # nothing listens there: no use waiting
        except (httpx2.HTTPError, ValueError):
            pass  # busy warming up
        time.sleep(0.5)
    raise RuntimeError(f"the engine of the server at {base} was not ready within {timeout:.0f} s")


class LoadRefused(RuntimeError):
    """The server refused a request the load test needs (it says why)."""


def granted(response: httpx2.Response, doing: str) -> dict[str, Any]:
    """The JSON body of a successful answer; :class:`LoadRefused` with the server's own
    message otherwise (a server that limits each client, as one started without
    ``--no-client-limits`` does, refuses the load test's hundreds of games from one address)."""
    if response.is_success:
        body: dict[str, Any] = response.json()
        return body
    try:
        message = str(response.json().get("detail", "")) or response.text
    except (ValueError, AttributeError):
        message = response.text
    hint = (
        " (the server limits what one client may do: start it with --no-client-limits to"
        " load-test it)"
        if response.status_code == 429
        else ""
    )
    raise LoadRefused(
        f"the server refused to {doing}: HTTP {response.status_code}, {message.strip()[:300]}{hint}"
    )


def load_test(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` (:func:`run_load`) to its end on an event loop of its own: uvloop's
    where it is installed (the web extra's uvicorn brings it; the server runs on it too),
    whose callbacks cost the load generator about a tenth less CPU than asyncio's own loop,
    CPU that it would otherwise take from the server it measures."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard] on POSIX
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


async def run_load(
    base: str,
    games: int,
    seconds: float,
    max_moves: int,
    seed: int,
    think: float = 1.0,
    game: str | None = None,
    server_pid: int | None = None,
    delta: bool = True,
) -> LoadReport:
    """Play ``games`` concurrent online games on the server at ``base`` for up to ``seconds``
    (each up to ``max_moves`` decisions; a player thinks ``think`` seconds a move on average,
    0 to move at once; ``game``: a registered game, the first by default); returns the
    measurements, with the CPU time of the server process ``server_pid`` if given. The
    players ask for state messages of changes only (``delta``, as the browser does), or
    for whole snapshots."""
    check_loopback(base)
    report = LoadReport(games)
    rng = random.Random(seed)
    # a connection left idle longer than the server keeps it open (uvicorn: 5 s) would be
    # closed under a request sent on it: the client lets its idle connections go sooner
    limits = httpx2.Limits(max_connections=50, keepalive_expiry=2.0)
    async with httpx2.AsyncClient(base_url=base, timeout=60.0, limits=limits) as http:
        sem = asyncio.Semaphore(20)

        async def setup(i: int) -> tuple[str, list[tuple[str, str]]]:
            async with sem:
                created = granted(
                    await http.post(
                        "/api/games",
                        json={
                            "game": game or game_names()[0],
                            "mode": "online",
                            "side": "first",
                            "name": f"bench{i}a",
                        },
                    ),
                    f"make game {i + 1} of {games}",
                )
                joined = granted(
                    await http.post(
                        f"/api/games/{created['id']}/join",
                        json={
                            "code": created["links"]["invite"].split("#code=")[1],
                            "name": f"bench{i}b",
                        },
                        cookies={},
                    ),
                    f"join game {i + 1} of {games}",
                )
                http.cookies.clear()
                return created["id"], [
                    (created["token"], created["seats"][0]),
                    (joined["token"], joined["seats"][0]),
                ]

        created = await asyncio.gather(*(setup(i) for i in range(games)))
        # The client's own collections would show up as server latency: it pauses collecting
        # while it measures (its garbage over one run is a few megabytes).
        gc.collect()
        gc.disable()
        server_cpu = cpu_seconds(server_pid) if server_pid is not None else None
        serving_cpu = cpu_seconds(server_pid, descendants=False) if server_pid is not None else None
        client_cpu = time.process_time()
        start = time.perf_counter()
        deadline = time.monotonic() + seconds
        opening = asyncio.Semaphore(50)
        players = [
            LoadPlayer(
                base,
                gid,
                token,
                seat,
                random.Random(rng.random()),
                report,
                deadline,
                max_moves,
                think,
                delta,
            )
            for gid, seats in created
            for token, seat in seats
        ]
        watching = asyncio.create_task(watch(players, deadline))
        try:
            await asyncio.gather(*(p.play(opening) for p in players))
        finally:
            watching.cancel()
            gc.enable()
        report.seconds = time.perf_counter() - start
        report.client_cpu_s = time.process_time() - client_cpu
        if server_pid is not None and server_cpu is not None:
            after = cpu_seconds(server_pid)
            report.server_cpu_s = None if after is None else after - server_cpu
        if server_pid is not None and serving_cpu is not None:
            after = cpu_seconds(server_pid, descendants=False)
            report.serving_cpu_s = None if after is None else after - serving_cpu
        acked: dict[str, int] = {}
        for p, (gid, _seat) in zip(
            players, [(g, s) for g, seats in created for _t, s in seats], strict=True
        ):
            acked[gid] = acked.get(gid, 0) + p.acked
        for gid, _seats in created:
            stored = (await http.get(f"/api/games/{gid}")).json()["game"]
            decisions = sum(1 for m in stored["moves"] if m["seat"])
            if decisions != acked[gid]:
                report.lost.append(f"{gid}: {acked[gid]} acknowledged, {decisions} stored")
    return report
