"""The server's own tests once more, on PostgreSQL.

Every server test takes its database from the ``database_url`` fixture; this module overrides
it with a fresh database in a throwaway PostgreSQL cluster (see ``pg_cluster.py``) and collects
the tests again here: the whole API and WebSocket suites, the database-relevant reliability
tests, and the SIGKILL-and-restart test of a real ``diceboard serve --db postgresql+psycopg://``.
They skip, saying why, where PostgreSQL or psycopg is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from types import ModuleType

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, make_url, text

from diceboard.server.storage import Database, Repository
from tests.server import (
    test_api,
    test_group_commit,
    test_limits,
    test_reliability,
    test_restart,
    test_websocket,
)
from tests.server.test_group_commit import repository  # noqa: F401 (its tests' fixture)
from tests.server.test_limits import expiring  # noqa: F401 (a fixture of the limits tests)

pytestmark = pytest.mark.postgres

#: a server process that opens (and so migrates) the database of its argument, then beats once
_STARTING_SERVER = """
import sys
from diceboard.server.storage import Database, Repository
database = Database.open(sys.argv[1])
Repository(database).heartbeat(1.0)
database.close()
"""


def _head_revision() -> str | None:
    """The newest migration shipped (what a migrated database is at)."""
    from alembic.script import ScriptDirectory

    from diceboard.server.storage.database import MIGRATIONS

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


@pytest.fixture
def database_url(postgres_url: str) -> str:
    """Every test collected here runs on a fresh PostgreSQL database."""
    return postgres_url


# --- what only PostgreSQL shows ---------------------------------------------------------------


def test_the_tests_here_really_run_on_postgresql(client: TestClient) -> None:
    engine = client.app.state.database.engine  # type: ignore[attr-defined]
    assert engine.dialect.name == "postgresql" and engine.driver == "psycopg"
    columns = {c["name"]: c["type"] for c in inspect(engine).get_columns("games")}
    # epoch seconds must keep their fraction: FLOAT is double precision on PostgreSQL
    assert type(columns["clock_since"]).__name__ == "DOUBLE_PRECISION"
    assert type(columns["listed"]).__name__ == "BOOLEAN"


def test_servers_starting_together_on_a_new_database_all_start(database_url: str) -> None:
    """Four servers open one empty database at the same moment: one migrates while the others
    wait for its advisory lock, then find the schema current."""
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", _STARTING_SERVER, database_url],
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    failures = [
        stderr[-1500:]
        for stderr in (server.communicate(timeout=120)[1] for server in servers)
        if stderr.strip()
    ]
    assert failures == [] and all(server.returncode == 0 for server in servers)
    database = Database.open(database_url)
    with database.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            (_head_revision(),)
        ]
    assert Repository(database).last_heartbeat() == 1.0
    database.close()


def test_the_revision_guard_holds_whatever_the_servers_default_isolation(
    database_url: str,
) -> None:
    """A PostgreSQL server may default to SERIALIZABLE: the losers of a race must still lose
    cleanly (no serialization error), because the server's connections ask for READ COMMITTED."""
    strict = (
        make_url(database_url)
        .update_query_dict({"options": "-c default_transaction_isolation=serializable"})
        .render_as_string(hide_password=False)
    )
    database = Database.open(strict)
    with database.engine.connect() as connection:
        default = connection.execute(text("SHOW default_transaction_isolation")).scalar()
        used = connection.execute(text("SHOW transaction_isolation")).scalar()
    assert (default, used) == ("serializable", "read committed")
    database.close()
    test_reliability.test_racing_writers_of_one_revision_commit_exactly_once(strict)


# --- the server's own tests, once more ---------------------------------------------------------


def _tests_of(module: ModuleType, *names: str) -> dict[str, Callable[..., object]]:
    """The test functions of ``module``: all of them, or the ones ``names`` lists (a name
    that no longer exists is an error, so a renamed test cannot silently drop out)."""
    tests = {
        name: value
        for name, value in vars(module).items()
        if name.startswith("test_") and callable(value)
    }
    if not names:
        return tests
    missing = sorted(set(names) - set(tests))
    if missing:
        raise LookupError(f"{module.__name__} has no tests named {', '.join(missing)}")
    return {name: tests[name] for name in names}


# pytest collects test functions found in a module's namespace wherever they were defined, and
# resolves their fixtures from here: so they run with the ``database_url`` above
globals().update(_tests_of(test_api))
globals().update(_tests_of(test_websocket))
globals().update(_tests_of(test_group_commit))
globals().update(
    _tests_of(
        test_limits,  # the limits that read the database: expiry and the lobby share
        "test_a_game_nobody_joins_expires_and_leaves_the_lobby",
        "test_an_abandoned_game_ends_without_a_result",
        "test_one_client_cannot_flood_the_lobby",
        "test_a_joined_game_frees_a_lobby_place",
    )
)
globals().update(
    _tests_of(
        test_reliability,
        "test_conflicting_submissions_exactly_one_applies",
        "test_a_second_process_cannot_overwrite_a_newer_game",
        "test_racing_writers_of_one_revision_commit_exactly_once",
        "test_games_survive_a_restart",
        "test_a_computer_turn_resumes_after_a_restart",
        "test_a_first_heartbeat_written_meanwhile_by_another_server_is_updated",
        "test_running_out_of_time_loses",
        "test_the_clock_charges_the_mover_and_adds_the_increment",
        "test_downtime_is_given_back_to_running_clocks",
        "test_migrations_create_and_drop_the_schema",
    )
)
globals().update(_tests_of(test_restart))
