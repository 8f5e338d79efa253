"""Every read and write of games. Blocking (SQLAlchemy's synchronous API works with every
database); the service calls it from worker threads.

A write changes one game in one transaction and only if the game's revision is still the one
the writer read: ``UPDATE games … WHERE id = ? AND revision = ?``. Two writers of the same
game can therefore never both commit, on one server process or several.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import cast

from sqlalchemy import Connection, Table, bindparam, delete, select, text, update
from sqlalchemy.exc import IntegrityError

from diceboard.server.storage.bulk import BulkWrites, GuardFailed
from diceboard.server.storage.database import Database
from diceboard.server.storage.models import GameRow, MetaRow, MoveRow, SeatRow
from diceboard.server.storage.rows import GameData, MoveData, SeatData
from diceboard.server.storage.rows import Write as Write  # (re-exported: imported from here)

_GAME_FIELDS = tuple(f.name for f in dataclasses.fields(GameData))
_SEAT_FIELDS = tuple(f.name for f in dataclasses.fields(SeatData))
_MOVE_FIELDS = tuple(f.name for f in dataclasses.fields(MoveData))
HEARTBEAT = "heartbeat"

_GAMES = cast(Table, GameRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
#: every column a write may change (the id and creation time never change)
_UPDATED_FIELDS = tuple(name for name in _GAME_FIELDS if name not in ("id", "created_at"))
_GUARDED_UPDATE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"), _GAMES.c.revision == bindparam("b_revision"))
    .values({name: bindparam(name) for name in _UPDATED_FIELDS})
)
_TRUNCATE = delete(_MOVES).where(
    _MOVES.c.game_id == bindparam("b_id"), _MOVES.c.idx >= bindparam("b_from")
)
_SEAT_UPDATE = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("b_id"), _SEATS.c.seat == bindparam("b_seat"))
    .values({name: bindparam(name) for name in _SEAT_FIELDS})
)


#: the PostgreSQL channel that the processes sharing a database listen on
CHANNEL = "diceboard"
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def change_payload(game_id: str, revision: int, origin: str) -> str:
    """The notification that game ``game_id`` is now at ``revision``, changed by the process
    ``origin``."""
    return f"g {game_id} {revision} {origin}"


def _game_data(row: GameRow) -> GameData:
    return GameData(**{name: getattr(row, name) for name in _GAME_FIELDS})


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(**{name: getattr(row, name) for name in _SEAT_FIELDS})


def _move_rows(game_id: str, start: int, moves: Sequence[MoveData]) -> list[MoveRow]:
    return [
        MoveRow(
            game_id=game_id,
            idx=start + i,
            notation=m.notation,
            seat=m.seat,
            played_at=m.played_at,
            clock_ms=m.clock_ms,
        )
        for i, m in enumerate(moves)
    ]


class Repository:
    """Reads and guarded writes of games, seats and moves."""

    def __init__(self, database: Database) -> None:
        self._db = database
        #: whether the database is an embedded SQLite file (fast enough to call inline)
        self.embedded = database.engine.dialect.name == "sqlite"
        #: set (to this process's id) where other processes listen for changes: every commit
        #: then also notifies them, in the same transaction, so they hear of exactly the
        #: changes that were committed (PostgreSQL's NOTIFY; see :mod:`.cluster`)
        self.notify_origin: str | None = None
        #: SQLite's statements for a batch of moves (see :mod:`.bulk`)
        self._bulk = BulkWrites(database.engine) if self.embedded and BulkWrites.usable() else None

    @property
    def database(self) -> Database:
        """The database this repository reads and writes."""
        return self._db

    # --- writes ---------------------------------------------------------------------------
    def insert(self, game: GameData, seats: Sequence[SeatData], moves: Sequence[MoveData]) -> None:
        """Store a new game with its seats and its first moves (setup rolls)."""
        with self._db.sessions.begin() as session:
            session.add(GameRow(**dataclasses.asdict(game)))
            session.flush()
            for seat in seats:
                session.add(SeatRow(game_id=game.id, **dataclasses.asdict(seat)))
            session.add_all(_move_rows(game.id, 0, moves))

    def commit(
        self,
        before: GameData,
        after: GameData,
        *,
        keep_moves: int | None = None,
        new_moves: Sequence[MoveData] = (),
        seats: Iterable[SeatData] = (),
    ) -> bool:
        """Replace ``before`` by ``after`` if nobody changed the game since ``before`` was read.

        ``keep_moves`` drops the moves from that index on (a takeback); ``new_moves`` are
        appended after the remaining ones; ``seats`` are replaced. Returns ``False`` (and
        changes nothing) when the game's revision is no longer ``before.revision``.
        """
        return self.commit_write(Write(before, after, keep_moves, tuple(new_moves), tuple(seats)))

    def commit_write(self, write: Write) -> bool:
        """:meth:`commit` of one :class:`Write`, in a transaction of its own."""
        if self._bulk is not None and self._bulk.takes((write,)):
            try:
                if self._commit_in_bulk((write,)):
                    return True
            except IntegrityError:
                return False
        try:
            with self._db.engine.begin() as connection:
                if not self._apply(connection, write):
                    connection.rollback()
                    return False
        except IntegrityError:
            return False
        return True

    def commit_all(self, writes: Sequence[Write]) -> list[bool]:
        """Several writes (of different games) in one transaction, so one commit (one sync of
        the disk) serves them all: whether each was applied (``False``: its game's revision
        had moved on, and nothing of that write was changed).

        A write whose guard fails has changed nothing, so the others go on in the same
        transaction. Any other failure (a broken constraint, a deadlock) rolls the whole
        transaction back and raises: nothing of any write is stored then, and the caller may
        commit them one by one. The games' rows are locked in order of their ids, so that two
        processes' batches cannot deadlock on each other."""
        if self._bulk is not None and self._bulk.takes(writes) and self._commit_in_bulk(writes):
            return [True] * len(writes)
        order = sorted(range(len(writes)), key=lambda i: writes[i].before.id)
        applied = [False] * len(writes)
        # each game at most once (as the per-game lock makes it): the new moves of every
        # write applied go in one statement at the end (they touch no other write's rows)
        together = len({w.before.id for w in writes}) == len(writes)
        moves: list[dict[str, object]] | None = [] if together else None
        with self._db.engine.begin() as connection:
            for i in order:
                applied[i] = self._apply(connection, writes[i], moves)
            if moves:
                connection.execute(_MOVES.insert(), moves)
        return applied

    def _commit_in_bulk(self, writes: Sequence[Write]) -> bool:
        """Commit ``writes`` in a few statements (see :mod:`.bulk`); ``False`` (nothing
        stored) when a guard failed: the caller then stores them the general way, which
        refuses exactly the stale writes."""
        assert self._bulk is not None
        try:
            with self._db.engine.begin() as connection:
                self._bulk.apply(connection, writes)
        except GuardFailed:
            return False
        return True

    def _apply(
        self, connection: Connection, write: Write, moves: list[dict[str, object]] | None = None
    ) -> bool:
        """The statements of one write, in ``connection``'s transaction; ``False`` (with
        nothing changed) when the guard fails. The rows of the write's new moves are added to
        ``moves``, where given, for the caller to insert, instead of inserted here."""
        before, after, keep_moves = write.before, write.after, write.keep_moves
        values = {name: getattr(after, name) for name in _UPDATED_FIELDS}
        # statements built once with bound parameters: a move costs one UPDATE and one INSERT
        result = connection.execute(
            _GUARDED_UPDATE, {"b_id": before.id, "b_revision": before.revision, **values}
        )
        if result.rowcount != 1:
            return False
        if keep_moves is not None:
            connection.execute(_TRUNCATE, {"b_id": before.id, "b_from": keep_moves})
        start = before.move_count if keep_moves is None else keep_moves
        if write.new_moves:
            rows = [
                # (not dataclasses.asdict, which deep-copies every field)
                {"game_id": before.id, "idx": start + i, **{f: getattr(m, f) for f in _MOVE_FIELDS}}
                for i, m in enumerate(write.new_moves)
            ]
            if moves is not None:
                moves.extend(rows)
            else:
                connection.execute(_MOVES.insert(), rows)
        for seat in write.seats:
            connection.execute(
                _SEAT_UPDATE, {"b_id": before.id, "b_seat": seat.seat, **dataclasses.asdict(seat)}
            )
        if self.notify_origin is not None:
            payload = change_payload(before.id, after.revision, self.notify_origin)
            connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})
        return True

    # --- reads ----------------------------------------------------------------------------
    def load(self, game_id: str) -> tuple[GameData, list[SeatData], list[MoveData]] | None:
        """A game with its seats (first player's first) and moves (in order), or ``None``.

        The three reads see one snapshot of the database: on PostgreSQL (where another process
        may commit between them) they run in one REPEATABLE READ transaction, which a reader
        never has to retry."""
        with self._db.sessions() as session:
            if not self.embedded:
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            moves = session.scalars(
                select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.idx)
            ).all()
            return (
                _game_data(row),
                [_seat_data(s) for s in seats],
                [MoveData(m.notation, m.seat, m.played_at, m.clock_ms) for m in moves],
            )

    def lobby(self, limit: int) -> list[tuple[GameData, list[SeatData]]]:
        """Listed games still waiting for an opponent, newest first."""
        with self._db.sessions() as session:
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.status == "waiting", GameRow.listed.is_(True))
                .order_by(GameRow.created_at.desc())
                .limit(limit)
            ).all()
            return [(_game_data(r), self._seats(session, r.id)) for r in rows]

    def summaries(self, ids: Sequence[str]) -> list[tuple[GameData, list[SeatData]]]:
        """The games among ``ids`` that exist, in the order given."""
        with self._db.sessions() as session:
            rows = {r.id: r for r in session.scalars(select(GameRow).where(GameRow.id.in_(ids)))}
            return [(_game_data(rows[i]), self._seats(session, i)) for i in ids if i in rows]

    def active_games(self) -> dict[str, str]:
        """The games in play, each id with its game's name (for resuming them after a start
        as each game's kernels become ready)."""
        with self._db.sessions() as session:
            rows = session.execute(
                select(GameRow.id, GameRow.game).where(GameRow.status == "active")
            )
            return {game_id: game for game_id, game in rows}

    def game_of(self, game_id: str) -> str | None:
        """The name of the game that ``game_id`` plays (``None``: there is no such game)."""
        with self._db.sessions() as session:
            return session.scalar(select(GameRow.game).where(GameRow.id == game_id))

    def stale_ids(self, waiting_before: float, idle_before: float, limit: int) -> list[str]:
        """Ids of games to expire (at most ``limit``, oldest first): online games still
        waiting for an opponent created before ``waiting_before``, and games in play whose
        last change was before ``idle_before`` (abandoned)."""
        with self._db.sessions() as session:
            waiting = (GameRow.status == "waiting") & (GameRow.created_at < waiting_before)
            idle = (GameRow.status == "active") & (GameRow.updated_at < idle_before)
            query = (
                select(GameRow.id).where(waiting | idle).order_by(GameRow.updated_at).limit(limit)
            )
            return list(session.scalars(query))

    @staticmethod
    def _seats(session: object, game_id: str) -> list[SeatData]:
        assert hasattr(session, "scalars")
        rows = session.scalars(
            select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        ).all()
        return [_seat_data(s) for s in rows]

    # --- server metadata --------------------------------------------------------------------
    def last_heartbeat(self) -> float | None:
        """When the previous server process last said it was alive (epoch seconds)."""
        with self._db.sessions() as session:
            row = session.get(MetaRow, HEARTBEAT)
            return None if row is None else float(row.value)

    def heartbeat(self, now: float) -> None:
        """Record that the server is alive at ``now``."""
        try:
            self._write_heartbeat(now)
        except IntegrityError:
            # another server inserted the first heartbeat between this one's read and insert:
            # the row exists now, so writing again updates it
            self._write_heartbeat(now)

    def _write_heartbeat(self, now: float) -> None:
        with self._db.sessions.begin() as session:
            session.merge(MetaRow(key=HEARTBEAT, value=repr(now)))

    def pause_clocks(self, seconds: float) -> int:
        """Give every running clock ``seconds`` back (the time the server was down).
        Returns how many games were adjusted. Bumps each game's revision."""
        if seconds <= 0:
            return 0
        with self._db.sessions.begin() as session:
            result = session.execute(
                update(GameRow)
                .where(GameRow.status == "active", GameRow.clock_since.is_not(None))
                .values(clock_since=GameRow.clock_since + seconds, revision=GameRow.revision + 1)
                .execution_options(synchronize_session=False)
            )
            return int(getattr(result, "rowcount", 0))
