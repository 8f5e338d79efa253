"""Alembic environment: runs migrations on the engine that the server passes in, or on the
URL of ``sqlalchemy.url`` when Alembic is run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, Engine, create_engine, text

from diceboard.server.storage.models import Base

#: the key of the PostgreSQL advisory lock that serialises migrations: any fixed 64-bit number
#: that other applications on the same database are unlikely to use ("diceboard" as the
#: letters' places in the alphabet: 4 9 3 5 2 15 1 18 4)
MIGRATION_LOCK = 49_352_151_184


def _wait_for_other_migrations(connection: Connection) -> None:
    """On PostgreSQL, take a lock that lasts until this migration's transaction ends.

    Several servers may start at the same moment on a new database: without the lock each
    would read "no schema yet" and create the tables, and all but one would fail. With it, the
    first migrates and the others, once it commits, find the schema current and do nothing.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


def run_migrations() -> None:
    """Run the migrations Alembic asked for, online, in one transaction."""
    config = context.config
    engine = config.attributes.get("engine")
    if not isinstance(engine, Engine):
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.connect() as connection:
        # the lock opens the transaction that Alembic then runs in (and that commits below)
        _wait_for_other_migrations(connection)
        # batch mode lets later migrations alter tables on SQLite as well
        context.configure(
            connection=connection, target_metadata=Base.metadata, render_as_batch=True
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


# Alembic sets up ``context.config`` before it runs this file; an import for any other reason
# (documentation, doctest collection) must not try to migrate anything
if hasattr(context, "config"):
    run_migrations()
