"""The database engine and its schema migrations.

Any SQLAlchemy URL works. SQLite files (the default) run in WAL mode with ``synchronous =
FULL``: the WAL is synced at every commit, so a move once acknowledged survives the server
being killed and also a power loss or operating-system crash (``NORMAL`` would sync only at
checkpoints and could lose the last commits); readers never wait for the writer. PostgreSQL
connections run at READ COMMITTED whatever the server's default, which the revision guard
relies on. Error messages never show a URL's password.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from diceboard.core.errors import OptionError

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
#: the password part of ``scheme://user:password@host``
_PASSWORD = re.compile(r"^([^:/?#]+://[^:/?#@]*:)[^@/?#]*@")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; raises :class:`OptionError` for a URL SQLAlchemy cannot use."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:  # ValueError: a port that is not a number
        raise OptionError(
            f"--db must be an SQLAlchemy database URL, not {shown_url(url)!r} ({exc})"
        ) from None
    kwargs: dict[str, Any] = {}
    backend = parsed.get_backend_name()
    sqlite = backend == "sqlite"
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False}
        if parsed.database:
            folder = Path(parsed.database).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a file in the way, no permission, a read-only disk
                raise OptionError(
                    f"cannot make the folder of the database {shown_url(url)!r}, {folder}: "
                    f"{exc.strerror or exc}"
                ) from None
    else:
        kwargs["pool_pre_ping"] = True
    if backend == "postgresql":
        # The guarded UPDATE of a game needs READ COMMITTED: a writer that waited for another
        # one's row lock then re-reads the row, sees the new revision and updates nothing. At
        # REPEATABLE READ or SERIALIZABLE (a server's default may be either) it would fail
        # with a serialization error instead of losing the race cleanly.
        kwargs["isolation_level"] = "READ COMMITTED"
    try:
        engine = create_engine(parsed, **kwargs)
    except Exception as exc:  # a missing driver (ModuleNotFoundError) or bad arguments
        raise OptionError(f"cannot use the database {shown_url(url)!r}: {exc}") from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def shown_url(url: str) -> str:
    """``url`` as messages may show it: with its password, if any, replaced by ``***``
    (also in a URL SQLAlchemy cannot parse, such as one with a mistyped port)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return _PASSWORD.sub(r"\1***@", url)


def alembic_config(engine: Engine) -> Config:
    """An Alembic configuration that runs the shipped migrations against ``engine``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (run at every start; does nothing when current)."""
    command.upgrade(alembic_config(engine), revision)


class Database:
    """An engine with its session factory; :meth:`open` also migrates the schema."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, url: str) -> Database:
        """Connect to ``url`` and run the migrations."""
        engine = make_engine(url)
        try:
            migrate(engine)
        except Exception as exc:
            engine.dispose()
            raise OptionError(f"cannot open the database {shown_url(url)!r}: {exc}") from None
        return cls(engine)

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()
