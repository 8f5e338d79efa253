"""Load-test the deployment of docs/web.md: nginx (the shipped deploy/nginx-diceboard.conf) in
front of one or two ``diceboard serve`` processes on one throwaway PostgreSQL, measured with
``diceboard bench server --url``.

    python benchmarks/server_cluster.py --games 200 1000 --processes 1 2 --seconds 30

Each (games, processes) setting gets a fresh database and fresh servers; the settings run in
turn, round after round (``--rounds``), so that a change in the machine's load touches all of
them alike. Prints each run's p50/p99 move latency and the load average. Needs PostgreSQL's
server binaries and nginx (as the tests do); run from the source folder.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server import processes as server_processes  # noqa: E402
from tests.server.pg_cluster import Cluster  # noqa: E402
from tests.server.processes import start_server, stop_server  # noqa: E402
from tests.server.test_cluster import start_nginx, wait_until_ready  # noqa: E402

from diceboard.server import loadtest  # noqa: E402

# a loaded machine may take minutes to start a server
server_processes.wait_until_up = functools.partial(loadtest.wait_until_up, timeout=900.0)


def load_average() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def one_run(cluster: Cluster, games: int, processes: int, args: argparse.Namespace) -> dict:
    name = cluster.create_database()
    database = cluster.url(name)
    servers = []
    nginx = None
    try:
        extra = ("--no-client-limits", "--trusted-proxy", "127.0.0.1")
        for _ in range(processes):
            servers.append(start_server(database, extra=extra))
        for server in servers:
            wait_until_ready(server)
        with tempfile.TemporaryDirectory() as tmp:
            nginx = start_nginx(Path(tmp), [s.port for s in servers])
            before = load_average()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "diceboard.cli",
                    "bench",
                    "server",
                    "--url",
                    nginx.base,
                    "--games",
                    str(games),
                    "--seconds",
                    str(args.seconds),
                    "--think",
                    str(args.think),
                    "--json",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            nginx.stop()
            nginx = None
        if done.returncode not in (0, 1) or not done.stdout.strip():
            raise RuntimeError(f"bench server exited with {done.returncode}: {done.stderr[-2000:]}")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures.update(load_before=before, load_after=load_average())
        return figures
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            stop_server(server)
        cluster.drop_database(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    cluster = Cluster.start()
    try:
        print(
            f"{'games':>6} {'procs':>5} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8} {'lost':>4}  load"
        )
        for _round in range(args.rounds):
            for games in args.games:
                for processes in args.processes:
                    f = one_run(cluster, games, processes, args)
                    print(
                        f"{games:>6} {processes:>5} {f['moves']:>6} {f['p50_ms']:>8.1f} "
                        f"{f['p99_ms']:>8.1f} {len(f['lost']):>4}  "
                        f"{f['load_before']} -> {f['load_after']}",
                        flush=True,
                    )
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
