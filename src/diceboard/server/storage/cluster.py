"""The SQL of several server processes on one database: each process's heartbeat row, the
lease that names the one process running a game's clock flag and computer turns, and the
notifications that tell the other processes a game changed.

Blocking, like :mod:`.repository`; the service calls it from worker threads. Times are epoch
seconds of the calling host (the hosts of one cluster keep their clocks in step, as the game
clocks already require).

A lease is taken with one statement that only succeeds where nobody holds it or its holder let
it expire, so two processes can never both hold a game: ``INSERT … ON CONFLICT (game_id) DO
UPDATE … WHERE leases.expires < now OR leases.holder = me``. (Even if a holder stalls past its
expiry and acts once more, the revision guard on every write keeps the game right.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Table, delete, exists, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from diceboard.server.storage.database import Database
from diceboard.server.storage.models import GameRow, LeaseRow, MetaRow, ProcessRow, SeatRow
from diceboard.server.storage.repository import CHANNEL, HEARTBEAT

_GAMES = cast(Table, GameRow.__table__)
_LEASES = cast(Table, LeaseRow.__table__)
_PROCESSES = cast(Table, ProcessRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)

#: PostgreSQL refuses notification payloads from 8000 bytes on
MAX_PAYLOAD = 7900
#: the advisory lock that makes "is anyone else alive? then give the clocks the downtime"
#: one step for processes starting together (the migrations' key plus one)
JOIN_LOCK = 49_352_151_185
#: process rows not seen for this long are deleted
FORGET_PROCESSES_AFTER = 86_400.0


def _upsert(dialect: str) -> Any:
    """The ``INSERT`` with ``ON CONFLICT`` of ``dialect`` (both databases spell it alike)."""
    if dialect == "postgresql":
        return postgresql.insert
    return sqlite.insert


class ClusterStore:
    """Process rows, leases and change notifications."""

    def __init__(self, database: Database) -> None:
        self._db = database
        self.dialect = database.engine.dialect.name
        #: whether other processes can be told of changes (PostgreSQL's NOTIFY)
        self.notifies = self.dialect == "postgresql"

    # --- processes --------------------------------------------------------------------------
    def join(
        self,
        me: str,
        host: str,
        pid: int,
        now: float,
        alive_within: float,
        gone: Callable[[str, int], bool] = lambda _host, _pid: False,
    ) -> float:
        """Register process ``me``; if no other process has been seen within
        ``alive_within`` seconds the whole cluster was down, and every running clock is given
        the time since the last heartbeat back. Returns the seconds given back (0 if another
        process kept serving: the clocks rightly ran on). One transaction, serialised between
        processes starting together, so the downtime is given back once.

        ``gone(host, pid)`` tells of a process seen lately that is known to have died (one of
        this host whose pid no longer runs, say: the server this one restarts after a crash):
        it does not count as serving, and its leases expire now."""
        with self._db.engine.begin() as connection:
            if self.dialect == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": JOIN_LOCK})
            recent = connection.execute(
                select(_PROCESSES.c.id, _PROCESSES.c.host, _PROCESSES.c.pid).where(
                    _PROCESSES.c.id != me, _PROCESSES.c.seen_at > now - alive_within
                )
            ).all()
            last_seen = connection.execute(select(func.max(_PROCESSES.c.seen_at))).scalar()
            dead = [row.id for row in recent if gone(row.host, row.pid)]
            if dead:
                connection.execute(
                    update(_LEASES).where(_LEASES.c.holder.in_(dead)).values(expires=0.0)
                )
                connection.execute(delete(_PROCESSES).where(_PROCESSES.c.id.in_(dead)))
            given = 0.0
            if len(recent) == len(dead):
                beat = connection.execute(
                    select(MetaRow.value).where(MetaRow.key == HEARTBEAT)
                ).scalar()
                candidates = [float(v) for v in (last_seen, beat) if v is not None]
                if candidates:
                    given = max(0.0, now - max(candidates))
                if given > 0:
                    connection.execute(
                        update(_GAMES)
                        .where(_GAMES.c.status == "active", _GAMES.c.clock_since.is_not(None))
                        .values(
                            clock_since=_GAMES.c.clock_since + given,
                            revision=_GAMES.c.revision + 1,
                        )
                    )
            connection.execute(
                _upsert(self.dialect)(_PROCESSES)
                .values(id=me, host=host[:255], pid=pid, started_at=now, seen_at=now)
                .on_conflict_do_update(index_elements=["id"], set_={"seen_at": now})
            )
        return given

    def beat(self, me: str, now: float, lease_seconds: float) -> set[str]:
        """Process ``me`` is alive at ``now``: its row is refreshed and every lease it still
        holds is renewed until ``now + lease_seconds``. Returns the games it holds."""
        with self._db.engine.begin() as connection:
            connection.execute(update(_PROCESSES).where(_PROCESSES.c.id == me).values(seen_at=now))
            held = connection.execute(
                update(_LEASES)
                .where(_LEASES.c.holder == me)
                .values(expires=now + lease_seconds)
                .returning(_LEASES.c.game_id)
            ).scalars()
            return set(held)

    def leave(self, me: str) -> None:
        """Process ``me`` stops: its row goes and its leases expire at once, so another
        process takes its games over at its next heartbeat."""
        with self._db.engine.begin() as connection:
            connection.execute(update(_LEASES).where(_LEASES.c.holder == me).values(expires=0.0))
            connection.execute(delete(_PROCESSES).where(_PROCESSES.c.id == me))

    def alive(self, now: float, alive_within: float) -> list[str]:
        """The processes seen within ``alive_within`` seconds."""
        with self._db.engine.connect() as connection:
            return list(
                connection.execute(
                    select(_PROCESSES.c.id).where(_PROCESSES.c.seen_at > now - alive_within)
                ).scalars()
            )

    # --- leases -----------------------------------------------------------------------------
    def claim(self, game_id: str, me: str, now: float, lease_seconds: float) -> str | None:
        """Take (or renew) the lease of ``game_id`` for ``me`` unless another process holds
        it unexpired. Returns the holder afterwards (``None`` if the game does not exist)."""
        statement = (
            _upsert(self.dialect)(_LEASES)
            .values(game_id=game_id, holder=me, expires=now + lease_seconds)
            .on_conflict_do_update(
                index_elements=["game_id"],
                set_={"holder": me, "expires": now + lease_seconds},
                where=(_LEASES.c.expires < now) | (_LEASES.c.holder == me),
            )
        )
        with self._db.engine.begin() as connection:
            if not connection.execute(
                select(exists().where(_GAMES.c.id == game_id, _GAMES.c.status == "active"))
            ).scalar():
                return None
            connection.execute(statement)
            holder = connection.execute(
                select(_LEASES.c.holder).where(_LEASES.c.game_id == game_id)
            ).scalar()
            return None if holder is None else str(holder)

    def take_over(self, me: str, now: float, lease_seconds: float) -> list[str]:
        """Take every game in play whose lease has expired, or that has none: the games of a
        process that died (or stopped). Returns the games taken."""
        expires = now + lease_seconds
        with self._db.engine.begin() as connection:
            taken = list(
                connection.execute(
                    update(_LEASES)
                    .where(
                        _LEASES.c.expires < now,
                        _LEASES.c.game_id.in_(
                            select(_GAMES.c.id).where(_GAMES.c.status == "active")
                        ),
                    )
                    .values(holder=me, expires=expires)
                    .returning(_LEASES.c.game_id)
                ).scalars()
            )
            # a game changed just now is being claimed by the process that changed it: only one
            # left without a lease for a whole lease time is an orphan
            # (and only games with something to run: a clock or a computer)
            computer = exists().where(_SEATS.c.game_id == _GAMES.c.id, _SEATS.c.kind == "computer")
            orphans = select(_GAMES.c.id, text(":me"), text(":expires")).where(
                _GAMES.c.status == "active",
                _GAMES.c.updated_at < now - lease_seconds,
                _GAMES.c.initial_ms.is_not(None) | computer,
                ~exists().where(_LEASES.c.game_id == _GAMES.c.id),
            )
            inserted = connection.execute(
                _upsert(self.dialect)(_LEASES)
                .from_select(["game_id", "holder", "expires"], orphans)
                .on_conflict_do_nothing(index_elements=["game_id"])
                .returning(_LEASES.c.game_id),
                {"me": me, "expires": expires},
            ).scalars()
            taken.extend(inserted)
            return taken

    def release(self, game_ids: Sequence[str], me: str) -> None:
        """Let go of ``me``'s leases of ``game_ids`` (games that are over)."""
        if not game_ids:
            return
        with self._db.engine.begin() as connection:
            connection.execute(
                delete(_LEASES).where(_LEASES.c.holder == me, _LEASES.c.game_id.in_(game_ids))
            )

    def tidy(self, now: float) -> None:
        """Delete the leases of games no longer in play and the rows of processes long gone."""
        with self._db.engine.begin() as connection:
            connection.execute(
                delete(_LEASES).where(
                    _LEASES.c.game_id.in_(select(_GAMES.c.id).where(_GAMES.c.status != "active"))
                )
            )
            connection.execute(
                delete(_PROCESSES).where(_PROCESSES.c.seen_at < now - FORGET_PROCESSES_AFTER)
            )

    # --- reads and notifications -------------------------------------------------------------
    def revision(self, game_id: str) -> int | None:
        """The stored revision of ``game_id`` (``None`` if there is no such game): how a
        process checks that the game it holds in memory is current."""
        with self._db.engine.connect() as connection:
            value = connection.execute(
                select(_GAMES.c.revision).where(_GAMES.c.id == game_id)
            ).scalar()
            return None if value is None else int(value)

    def notify(self, payload: str) -> None:
        """Send ``payload`` to every listening process (PostgreSQL only; at most
        :data:`MAX_PAYLOAD` bytes)."""
        if not self.notifies:
            return
        with self._db.engine.begin() as connection:
            connection.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": payload},
            )


def insert_processes(database: Database, rows: Sequence[dict[str, Any]]) -> None:
    """Insert process rows as given (for tests that fake other processes)."""
    with database.engine.begin() as connection:
        connection.execute(insert(_PROCESSES), list(rows))
