"""Server settings: where the database lives and how the server behaves."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

#: the file name of the default SQLite database inside the user's data directory
DATABASE_FILE = "diceboard.sqlite3"


def default_database_path() -> Path:
    """The SQLite file used when no ``--db`` is given: in the user's data directory."""
    return Path(platformdirs.user_data_dir("diceboard", appauthor=False)) / DATABASE_FILE


def default_database_url() -> str:
    """The SQLAlchemy URL of :func:`default_database_path` (its folder is created)."""
    path = default_database_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class Rate:
    """A rate limit: ``burst`` actions at once, then ``per_minute`` more a minute (a token
    bucket that holds ``burst`` tokens and gains ``per_minute`` a minute)."""

    per_minute: float
    burst: int

    def __post_init__(self) -> None:
        if not self.per_minute > 0 or self.burst < 1:
            raise ValueError(
                f"a rate needs per_minute > 0 and burst >= 1, not {self.per_minute}/{self.burst}"
            )


#: a per-client share that is no limit at all
UNLIMITED = 10**9


def _default_workers() -> int:
    # one core stays free for the event loop
    return max(1, min(4, (os.cpu_count() or 2) - 1))


@dataclass(frozen=True)
class ServerSettings:
    """Everything :func:`diceboard.server.create_app` needs to know.

    ``computer_pool`` is ``"process"`` (the default: computer players think in worker
    processes, so a long search never slows the event loop) or ``"thread"`` (lighter; tests).
    ``computer_delay`` is the least time a computer move takes, so that people can follow it.
    """

    database_url: str
    computer_pool: str = "process"
    computer_workers: int = _default_workers()
    computer_delay: float = 0.4
    #: seconds between the heartbeats that let a restart give back the time it was down
    heartbeat_interval: float = 2.0
    #: with several processes on one PostgreSQL database: how long a game's lease (the right to
    #: run its clock flag and computer turns) lasts unrenewed, so how soon a process that died
    #: has its games taken over (renewed every third of it)
    lease_seconds: float = 6.0
    #: games kept in memory
    cache_size: int = 2048
    #: largest HTTP body accepted, in bytes (a record import is the largest request)
    max_body_bytes: int = 1_000_000
    #: largest WebSocket message accepted, in bytes
    max_message_bytes: int = 16_384
    #: computer jobs (moves, hints, analyses) one client may have queued or running at once
    computer_jobs_per_client: int = 8
    #: hints and analyses one game may have queued or running at once
    computer_jobs_per_game: int = 2
    #: WebSockets open at once on one game, and from one client (over all games)
    sockets_per_game: int = 500
    sockets_per_client: int = 40
    #: the most games one record import may hold, and moves one game of it may have
    import_max_games: int = 1
    import_max_moves: int = 5_000
    #: rate limits per client; ``None`` switches one off
    create_rate: Rate | None = Rate(per_minute=6, burst=20)
    move_rate: Rate | None = Rate(per_minute=120, burst=60)
    import_rate: Rate | None = Rate(per_minute=6, burst=10)
    hint_rate: Rate | None = Rate(per_minute=20, burst=10)
    chat_rate: Rate | None = Rate(per_minute=20, burst=10)
    #: listed games one client may have waiting in the lobby at once
    lobby_per_client: int = 3
    #: seconds after which an online game nobody joined expires, and a game in play that
    #: nobody moved in is abandoned (0: never); how often the server looks for them
    waiting_expiry: float = 24 * 3600.0
    abandoned_expiry: float = 14 * 24 * 3600.0
    expiry_interval: float = 60.0
    #: addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For`` and
    #: ``X-Forwarded-Proto`` headers are believed (no one's by default)
    trusted_proxies: tuple[str, ...] = ()

    def without_client_limits(self) -> ServerSettings:
        """These settings with no per-client limit (rate limits off, every per-client share
        as large as the server's): for load tests from one address, never for a public
        server. The per-game caps stay."""
        return dataclasses.replace(
            self,
            create_rate=None,
            move_rate=None,
            import_rate=None,
            hint_rate=None,
            chat_rate=None,
            lobby_per_client=UNLIMITED,
            sockets_per_client=UNLIMITED,
            computer_jobs_per_client=UNLIMITED,
        )

    def __post_init__(self) -> None:
        if self.computer_pool not in ("process", "thread"):
            raise ValueError(
                f"computer_pool must be 'process' or 'thread', not {self.computer_pool!r}"
            )
        if self.computer_workers < 1:
            raise ValueError(f"computer_workers must be at least 1, not {self.computer_workers}")
        for name in (
            "computer_jobs_per_client",
            "computer_jobs_per_game",
            "sockets_per_game",
            "sockets_per_client",
            "import_max_games",
            "import_max_moves",
            "lobby_per_client",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("waiting_expiry", "abandoned_expiry"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (never) or more, not {getattr(self, name)}")
        if not self.expiry_interval > 0:
            raise ValueError(f"expiry_interval must be positive, not {self.expiry_interval}")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(
                    f"a trusted proxy is an IP address or network, not {proxy!r}"
                ) from None
