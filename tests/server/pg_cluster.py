"""A throwaway PostgreSQL cluster for the server tests: ``initdb`` into a temporary folder,
a server that listens only on a Unix socket inside that folder, trust authentication, and one
fresh database per test.

Each pytest-xdist worker starts its own cluster in its own folder; the socket lives in that
folder too, so two clusters never compete for a port or a lock file.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import LiteralString

from sqlalchemy import URL

#: the port only names the socket file (``.s.PGSQL.<port>``); nothing listens on TCP
PORT = 5432
#: the superuser that ``initdb`` creates
SUPERUSER = "postgres"
#: the system account that owns the cluster when the tests run as root (initdb refuses root)
SYSTEM_USER = "postgres"
#: the cluster must start within this many seconds
START_TIMEOUT = 60
#: settings for a cluster that holds nothing worth keeping: no disk flushes, a quiet log
SERVER_OPTIONS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c log_min_messages=warning"
)


class PostgresMissing(Exception):
    """PostgreSQL or its driver is not installed here; the message says what is missing (the
    tests that need it skip with it)."""


class ClusterError(RuntimeError):
    """PostgreSQL is installed but the cluster could not be created or started (an error,
    not a reason to skip)."""


def find_bin_dir() -> Path:
    """The folder of ``initdb``/``pg_ctl``: the newest ``/usr/lib/postgresql/<version>/bin``
    (Debian's layout), else wherever ``initdb`` is on the ``PATH``."""

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", path.parent.parent.name))

    installed = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=version)
    if installed:
        return installed[-1].parent
    on_path = shutil.which("initdb")
    if on_path is not None:
        return Path(on_path).resolve().parent
    raise PostgresMissing(
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb and no initdb on "
        "the PATH); install it, e.g. apt-get install postgresql"
    )


def _require_driver() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise PostgresMissing(
            "the PostgreSQL driver is not installed: pip install 'psycopg[binary]'"
        ) from None


@dataclass
class Cluster:
    """A running throwaway cluster; :meth:`stop` shuts it down and deletes every file."""

    bin_dir: Path
    root: Path
    #: the command prefix that runs a program as the cluster's owner (empty: as ourselves)
    as_owner: tuple[str, ...]

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root

    @classmethod
    def start(cls) -> Cluster:
        """Create and start a cluster in a new temporary folder (stopped again if anything
        fails on the way)."""
        _require_driver()
        bin_dir = find_bin_dir()
        as_owner: tuple[str, ...] = ()
        # a short prefix under /tmp: a Unix socket path must stay under about 100 bytes
        root = Path(tempfile.mkdtemp(prefix="diceboard-pg-", dir="/tmp"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(SYSTEM_USER)
            except KeyError:
                shutil.rmtree(root, ignore_errors=True)
                raise PostgresMissing(
                    f"running as root, initdb needs the system user {SYSTEM_USER!r}, "
                    "which does not exist"
                ) from None
            os.chown(root, owner.pw_uid, owner.pw_gid)
            as_owner = ("runuser", "-u", SYSTEM_USER, "--")
        cluster = cls(bin_dir, root, as_owner)
        try:
            cluster._run(
                "initdb",
                "-D",
                str(cluster.data_dir),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            )
            cluster._run(
                "pg_ctl",
                "start",
                "-D",
                str(cluster.data_dir),
                "-l",
                str(cluster.root / "server.log"),
                "-w",
                "-t",
                str(START_TIMEOUT),
                "-o",
                f"{SERVER_OPTIONS} -k {cluster.socket_dir} -p {PORT}",
            )
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, program: str, *args: str) -> None:
        command: Sequence[str] = [*self.as_owner, str(self.bin_dir / program), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.root / "server.log"
            server_log = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterError(
                f"{program} failed with status {done.returncode}: "
                f"{(done.stderr or done.stdout).strip()[-2000:]}\n{server_log}"
            )

    def stop(self) -> None:
        """Stop the server at once (nothing in it is worth a clean shutdown) and delete the
        cluster's folder."""
        try:
            if (self.data_dir / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    # --- databases ----------------------------------------------------------------------------
    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` in this cluster (psycopg 3, over the socket)."""
        return URL.create(
            "postgresql+psycopg",
            username=SUPERUSER,
            database=database,
            query={"host": str(self.socket_dir), "port": str(PORT)},
        ).render_as_string(hide_password=False)

    def _admin(self, template: LiteralString, database: str) -> None:
        """Run ``template`` with ``{}`` replaced by the quoted name ``database`` (outside a
        transaction, as CREATE and DROP DATABASE require)."""
        import psycopg
        from psycopg import sql

        statement = sql.SQL(template).format(sql.Identifier(database))
        with psycopg.connect(
            host=str(self.socket_dir), port=PORT, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(statement)

    def create_database(self) -> str:
        """A new, empty database with a unique name; returns the name."""
        name = f"test_{uuid.uuid4().hex}"
        self._admin("CREATE DATABASE {}", name)
        return name

    def drop_database(self, name: str) -> None:
        """Drop ``name``, closing whatever connections a test left open to it."""
        self._admin("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
