"""Server settings: where the database lives and how the server behaves."""

from __future__ import annotations

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
    #: games kept in memory
    cache_size: int = 2048
    #: largest HTTP body accepted, in bytes (a record import is the largest request)
    max_body_bytes: int = 1_000_000
    #: largest WebSocket message accepted, in bytes
    max_message_bytes: int = 16_384

    def __post_init__(self) -> None:
        if self.computer_pool not in ("process", "thread"):
            raise ValueError(
                f"computer_pool must be 'process' or 'thread', not {self.computer_pool!r}"
            )
        if self.computer_workers < 1:
            raise ValueError(f"computer_workers must be at least 1, not {self.computer_workers}")
