"""Alembic environment: runs migrations on the engine that the server passes in, or on the
URL of ``sqlalchemy.url`` when Alembic is run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine, create_engine

from diceboard.server.storage.models import Base


def run_migrations() -> None:
    """Run the migrations Alembic asked for, online, in one transaction."""
    config = context.config
    engine = config.attributes.get("engine")
    if not isinstance(engine, Engine):
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.connect() as connection:
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
