"""``diceboard bench startup``: how long a new ``diceboard serve`` keeps people waiting."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from diceboard.cli.arguments import positive_float
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Start 'diceboard serve' on a free loopback port with a fresh SQLite database and measure, from
the moment the process starts: when '/' first answers, when /api/meta answers, and when the
first computer move of a new game (the computer moving first, at --level) arrives. Done twice:
on an empty numba cache (a temporary NUMBA_CACHE_DIR, so every kernel is compiled) and again
on the cache that run filled (a warm start). --src serves the package from another source
folder (to compare two trees)."""

EXAMPLES = """\
examples:
  diceboard bench startup
  diceboard bench startup --only warm --level random
  diceboard bench startup --src /tmp/old-tree/src --json
"""


def register(subparsers: Subparsers) -> None:
    """Add ``bench startup``."""
    parser = new_command(
        subparsers,
        "startup",
        "time until the web app answers and until its first computer move (cold and warm)",
        DESCRIPTION,
        EXAMPLES,
    )
    parser.add_argument("--game", metavar="NAME", help="the game played (default: the first)")
    parser.add_argument(
        "--level", default="level:4", metavar="SPEC", help="the computer (default level:4)"
    )
    parser.add_argument(
        "--only",
        choices=("cold", "warm"),
        help="measure only one start (warm: fills the cache first, unmeasured)",
    )
    parser.add_argument(
        "--src", metavar="DIR", help="serve the package found in this folder (PYTHONPATH)"
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=600.0,
        metavar="S",
        help="give up on a start after this many seconds (default 600)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def _start(cache: str, src: str | None, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    from diceboard.server.loadtest import free_port

    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONUNBUFFERED": "1"}
    if src:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    command = [
        sys.executable, "-m", "diceboard.cli", "serve", "--port", str(port),
        "--db", f"sqlite:///{workdir / f'games-{port}.sqlite3'}",
        "--computer-workers", "1", "--computer-delay", "0", "--log-level", "warning",
    ]  # fmt: skip
    out = (workdir / f"serve-{port}.log").open("wb")
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    return process, f"http://127.0.0.1:{port}"


def measure(
    cache: str, game: str, level: str, src: str | None, timeout: float, workdir: Path
) -> dict[str, Any]:
    """One start of the server on the numba cache ``cache``: seconds from the start of the
    process until ``/`` answers, ``/api/meta`` answers, and the first computer move arrives;
    and what the server printed."""
    import httpx

    started = time.monotonic()
    process, base = _start(cache, src, workdir)
    figures: dict[str, Any] = {}
    deadline = started + timeout

    def left() -> float:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"no answer within {timeout:g} s")
        return deadline - time.monotonic()

    try:
        with httpx.Client(timeout=timeout) as client:
            for path, key in (("/", "root_s"), ("/api/meta", "meta_s")):
                while True:
                    left()
                    try:
                        if client.get(base + path, timeout=2.0).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.05)
                figures[key] = time.monotonic() - started
            body = {"game": game, "mode": "computer", "side": "second", "level": level, "seed": 1}
            created = client.post(base + "/api/games", json=body, timeout=left())
            created.raise_for_status()
            grant = created.json()
            mine = set(grant["seats"])
            url = f"{base}/api/games/{grant['id']}?pictures=false"
            while True:
                moves = client.get(url, timeout=left()).json()["game"]["moves"]
                if any(m["seat"] and m["seat"] not in mine for m in moves):
                    break
                time.sleep(0.05)
            figures["first_computer_move_s"] = time.monotonic() - started
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    logs = sorted(workdir.glob("serve-*.log"), key=lambda p: p.stat().st_mtime)
    figures["printed"] = logs[-1].read_text(errors="replace").splitlines()[:20] if logs else []
    return figures


def run(args: argparse.Namespace) -> int:
    """Measure a cold and a warm start and print the figures."""
    try:
        import httpx  # noqa: F401

        from diceboard import games
    except ImportError as exc:
        missing = exc.name
        raise UsageError(
            f"the startup bench needs the 'web' extra ({missing} is missing)"
        ) from None
    game = args.game or games.names()[0]
    if game not in games.names():
        raise UsageError(f"no game {game!r}; the games are {', '.join(games.names())}")
    results: dict[str, Any] = {"game": game, "level": args.level, "src": args.src}
    with tempfile.TemporaryDirectory(prefix="diceboard-bench-startup-") as tmp:
        workdir = Path(tmp)
        cache = str(workdir / "numba-cache")
        kinds = ("cold", "warm") if args.only is None else (args.only,)
        if args.only == "warm":  # fill the cache first
            measure(cache, game, args.level, args.src, args.timeout, workdir)
        for kind in kinds:
            try:
                results[kind] = measure(cache, game, args.level, args.src, args.timeout, workdir)
            except RuntimeError as exc:
                results[kind] = {"error": str(exc)}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"diceboard serve, {game} against {args.level} (one computer worker)")
    for kind in ("cold", "warm"):
        if kind not in results:
            continue
        r = results[kind]
        if "error" in r:
            print(f"  {kind:<5} failed: {r['error']}")
            continue
        print(
            f"  {kind:<5} '/' answers after {r['root_s']:6.1f} s · /api/meta {r['meta_s']:6.1f} s"
            f" · first computer move {r['first_computer_move_s']:6.1f} s"
        )
    return 0
