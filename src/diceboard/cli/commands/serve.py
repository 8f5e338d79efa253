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
resumes where it was after a restart."""

EXAMPLES = """\
examples:
  diceboard serve
  diceboard serve --port 8080 --db sqlite:///games.sqlite3
  diceboard serve --host 0.0.0.0 --computer-workers 2
"""


_port = bounded(int, 1, 65535, "a port is between 1 and 65535")
_workers = bounded(int, 1, 64, "computer workers must be 1 to 64")
_seconds = bounded(float, 0, 60, "the computer delay is 0 to 60 seconds")
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
    for name in ("computer_workers", "sockets_per_game", "sockets_per_client"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    settings = ServerSettings(url, computer_delay=args.computer_delay, **options)
    if args.no_client_limits:
        settings = settings.without_client_limits()
    sock = _bind(args.host, args.port)

    def announce(text: str) -> None:
        print(f"diceboard: {text}", flush=True)

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
    config = uvicorn.Config(
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
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
