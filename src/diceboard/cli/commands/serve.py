"""``diceboard serve``: the web app (FastAPI on uvicorn) with its database."""

from __future__ import annotations

import argparse
import ipaddress
import socket
from typing import Any

from diceboard.cli.arguments import bounded
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Serve the web app: play the computer, play at one screen, or invite an opponent online;
spectate, replay and download records. Games are kept in a database (an SQLite file in your
data directory unless --db names another: any SQLAlchemy URL, e.g.
postgresql+psycopg://user:pass@host/db); its schema is migrated at start, and every game
resumes where it was after a restart.

With PostgreSQL, several server processes may share the database (on one machine or several):
each change is pushed to the sockets of every process, and each game's clock and computer run
on one of them at a time (taken over by another within --lease-seconds when it stops).
--workers N starts N such processes on one port."""

EXAMPLES = """\
examples:
  diceboard serve
  diceboard serve --port 8080 --db sqlite:///games.sqlite3
  diceboard serve --host 0.0.0.0 --computer-workers 2
  diceboard serve --workers 4 --db postgresql+psycopg://diceboard@/diceboard?host=/run/postgresql
"""


_port = bounded(int, 1, 65535, "a port is between 1 and 65535")
_workers = bounded(int, 1, 64, "computer workers must be 1 to 64")
_seconds = bounded(float, 0, 60, "the computer delay is 0 to 60 seconds")
_processes = bounded(int, 1, 64, "server workers must be 1 to 64")
_lease = bounded(float, 0.5, 600, "the lease time is 0.5 to 600 seconds")
_sockets = bounded(int, 1, 1_000_000, "a socket cap is 1 to 1000000")


def _proxy(text: str) -> str:
    """A trusted proxy: an IP address or network."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a trusted proxy is an IP address or network (10.0.0.0/8), not {text!r}"
        ) from None


def register(subparsers: Subparsers) -> None:
    """Add the ``serve`` command."""
    parser = new_command(subparsers, "serve", "run the web app", DESCRIPTION, EXAMPLES)
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy database URL (default: SQLite in your data directory)",
    )
    parser.add_argument(
        "--computer-workers",
        type=_workers,
        metavar="N",
        help="worker processes for computer players (default: cores - 1, at most 4)",
    )
    parser.add_argument(
        "--computer-delay",
        type=_seconds,
        metavar="S",
        default=0.4,
        help="least seconds a computer move takes, so that it can be followed (default 0.4)",
    )
    parser.add_argument(
        "--trusted-proxy",
        type=_proxy,
        action="append",
        default=[],
        metavar="ADDR",
        help="a reverse proxy (address or network; repeatable) whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed: the client's address for the limits, HTTPS for the "
        "seat cookie's Secure flag (default: none)",
    )
    parser.add_argument(
        "--sockets-per-game",
        type=_sockets,
        metavar="N",
        help="WebSockets one game takes at once (default 500)",
    )
    parser.add_argument(
        "--sockets-per-client",
        type=_sockets,
        metavar="N",
        help="WebSockets one client address may have open at once (default 40)",
    )
    parser.add_argument(
        "--workers",
        type=_processes,
        metavar="N",
        default=1,
        help="server processes sharing the port (default 1; more need a PostgreSQL --db)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=_lease,
        metavar="S",
        help="with PostgreSQL: how long a process's hold on a game's clock and computer lasts "
        "unrenewed, so how soon another process takes over from one that died (default 6)",
    )
    parser.add_argument(
        "--no-client-limits",
        action="store_true",
        help="no per-client rate limits or shares (for load tests from one address, such as "
        "'diceboard bench server'; never on a public server)",
    )
    parser.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="server log level (default info)",
    )
    parser.set_defaults(handler=run)


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket, so that a port in use is a clear error before anything starts."""
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        family = socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from diceboard.server import ServerSettings, create_app, default_database_url
    except ImportError as exc:
        raise UsageError(
            f"the web app needs the 'web' extra ({exc.name} is missing): "
            "python3 -m pip install '.[web]' in the source folder"
        ) from None
    url = args.db or default_database_url()
    options: dict[str, Any] = {"trusted_proxies": tuple(args.trusted_proxy)}
    for name in ("computer_workers", "sockets_per_game", "sockets_per_client", "lease_seconds"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    settings = ServerSettings(url, computer_delay=args.computer_delay, **options)
    if args.no_client_limits:
        settings = settings.without_client_limits()
    if args.workers > 1 and make_url(url).get_backend_name() != "postgresql":
        raise UsageError(
            f"--workers {args.workers} needs a PostgreSQL database (--db "
            "postgresql+psycopg://…): the processes tell each other of every change through "
            "PostgreSQL's LISTEN/NOTIFY, which SQLite does not have"
        )
    sock = _bind(args.host, args.port)

    def announce(text: str) -> None:
        print(f"diceboard: {text}", flush=True)

    if args.workers > 1:
        return _run_workers(args, settings, sock)
    try:
        # the engine warms up beside serving: the address works at once
        app = create_app(settings, warm_up_beside=True, announce=announce)
    except BaseException:
        sock.close()
        raise
    shown = make_url(url).render_as_string(hide_password=True)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"diceboard: database {shown}", flush=True)
    print(f"diceboard: serving on http://{host}:{args.port}/", flush=True)
    uvicorn.Server(_config(app, args, settings)).run(sockets=[sock])
    return 0


def _config(app: Any, args: argparse.Namespace, settings: Any, **extra: Any) -> Any:
    """uvicorn's configuration of the server (``app``: the app or, for workers, its factory)."""
    import uvicorn

    return uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=settings.max_message_bytes,
        # snapshots are a few kilobytes: compressing each one costs more CPU than it saves
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # the app believes forwarded headers from --trusted-proxy only (see create_app), not
        # uvicorn's default of any on 127.0.0.1
        proxy_headers=False,
        timeout_graceful_shutdown=3,
        **extra,
    )


def _run_workers(args: argparse.Namespace, settings: Any, sock: socket.socket) -> int:
    """Serve with ``args.workers`` processes on ``sock`` until interrupted."""
    from sqlalchemy.engine import make_url
    from uvicorn.supervisors import Multiprocess

    from diceboard.server.cluster.workers import FACTORY, settings_for_workers
    from diceboard.server.storage import Database

    try:
        # migrate once here, and say what is wrong with the database before any worker starts
        Database.open(settings.database_url).close()
    except BaseException:
        sock.close()
        raise
    settings_for_workers(settings)
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"diceboard: database {shown}", flush=True)
    print(
        f"diceboard: serving on http://{host}:{args.port}/ with {args.workers} processes",
        flush=True,
    )
    config = _config(FACTORY, args, settings, factory=True, workers=args.workers)
    Multiprocess(config, sockets=[sock]).run()
    return 0
