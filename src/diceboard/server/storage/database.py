"""The database engine and its schema migrations.

Any SQLAlchemy URL works. SQLite files (the default) run in WAL mode with ``synchronous =
NORMAL``: a committed move survives the server being killed (only an operating-system crash
could lose the last commits), and readers never wait for the writer.
"""

from __future__ import annotations

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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; raises :class:`OptionError` for a URL SQLAlchemy cannot use."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise OptionError(f"--db must be an SQLAlchemy database URL, not {url!r} ({exc})") from None
    kwargs: dict[str, Any] = {}
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False}
        if parsed.database:
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    else:
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(parsed, **kwargs)
    except Exception as exc:  # a missing driver (ModuleNotFoundError) or bad arguments
        raise OptionError(f"cannot use the database {url!r}: {exc}") from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


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
            raise OptionError(f"cannot open the database {url!r}: {exc}") from None
        return cls(engine)

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()
