"""A batch of moves in three SQLite statements, whatever its size: one guarded ``UPDATE … FROM
(VALUES …)`` of every game, one ``INSERT`` of every new move, and the commit.

The general way (:meth:`~diceboard.server.storage.repository.Repository.commit_all`) runs
two statements per write, each through SQLAlchemy's compiled-statement machinery. Under load
that is most of the database's CPU, and it costs more than its own time: the writes run in a
worker thread, and SQLite gives up the interpreter lock at every statement step, which the
worker then waits to get back from the busy event loop (up to the interpreter's switch
interval, 5 ms, each time). So a batch's statements are as few as can be: the writes are
still each guarded by their game's revision, the batch still one transaction.

A batch whose guards do not all hold (another writer came first) raises :class:`GuardFailed`
inside the transaction, which rolls it back, and the caller then stores the batch the general
way, which refuses exactly the stale writes. Batches that change seats or take moves back
(rare) go the general way from the start.
"""

from __future__ import annotations

import dataclasses
import functools
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table

from diceboard.server.storage.models import GameRow, MoveRow
from diceboard.server.storage.rows import GameData, MoveData, Write

_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
#: the columns a write sets (the id and the creation time never change)
_SET = tuple(f.name for f in dataclasses.fields(GameData) if f.name not in ("id", "created_at"))
_MOVE_FIELDS = tuple(f.name for f in dataclasses.fields(MoveData))
_MOVE_COLUMNS = ("game_id", "idx", *_MOVE_FIELDS)
#: the most rows one statement takes (SQLite's limit on bound parameters, which builds older
#: than 3.32 set to 999, is also checked)
_ROWS = 500


class GuardFailed(Exception):
    """A write of the batch found its game at another revision: nothing of it is kept."""


class BulkWrites:
    """The statements of a batch of moves, on ``engine``'s SQLite database."""

    def __init__(self, engine: Engine) -> None:
        dialect = engine.dialect
        # the same conversion of each value as SQLAlchemy's own statements make (JSON
        # columns become text, booleans integers)
        processors: list[Callable[[Any], Any] | None] = [
            _GAMES.c[name].type.bind_processor(dialect) for name in _SET
        ]
        self._convert = tuple(processors)
        self._variables = _variable_limit(engine)

    @staticmethod
    def usable() -> bool:
        """Whether this SQLite has ``UPDATE … FROM`` (3.33 and later)."""
        return sqlite3.sqlite_version_info >= (3, 33)

    @staticmethod
    def takes(writes: Sequence[Write]) -> bool:
        """Whether this batch can be stored in bulk: moves (and changes of games' rows) of
        different games, with no seats changed and no move taken back."""
        return len({w.before.id for w in writes}) == len(writes) and all(
            w.keep_moves is None and not w.seats for w in writes
        )

    def apply(self, connection: Connection, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in ``connection``'s transaction; :class:`GuardFailed` (the caller
        rolls back) unless every game was at its writer's revision."""
        per_row = 2 + len(_SET)
        rows = max(1, min(_ROWS, self._variables // per_row))
        ordered = sorted(writes, key=lambda w: w.before.id)
        for start in range(0, len(ordered), rows):
            chunk = ordered[start : start + rows]
            values: list[Any] = []
            for write in chunk:
                values.append(write.before.id)
                values.append(write.before.revision)
                after = write.after
                for name, convert in zip(_SET, self._convert, strict=True):
                    value = getattr(after, name)
                    values.append(value if convert is None else convert(value))
            result = connection.exec_driver_sql(_update_sql(len(chunk)), tuple(values))
            if result.rowcount != len(chunk):
                raise GuardFailed
        moves: list[Any] = []
        count = 0
        for write in ordered:
            game_id, first = write.before.id, write.before.move_count
            for i, move in enumerate(write.new_moves):
                moves.extend((game_id, first + i, *(getattr(move, f) for f in _MOVE_FIELDS)))
                count += 1
        rows = max(1, min(_ROWS, self._variables // len(_MOVE_COLUMNS)))
        width = len(_MOVE_COLUMNS)
        for start in range(0, count, rows):
            end = min(count, start + rows)
            connection.exec_driver_sql(
                _insert_sql(end - start), tuple(moves[start * width : end * width])
            )


def _variable_limit(engine: Engine) -> int:
    """How many parameters one statement may bind on ``engine``'s SQLite."""
    with engine.connect() as connection:
        driver = connection.connection.driver_connection
        if isinstance(driver, sqlite3.Connection):
            return int(driver.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    return 999  # pragma: no cover - another SQLite driver: the oldest builds' limit


@functools.cache
def _update_sql(rows: int) -> str:
    """The guarded update of ``rows`` games: each row of the values is a game's id, the
    revision its writer read, and its new columns."""
    row = "(" + ",".join("?" * (2 + len(_SET))) + ")"
    sets = ", ".join(f"{name} = v.column{i + 3}" for i, name in enumerate(_SET))
    return (
        f"UPDATE games SET {sets} FROM (VALUES {','.join([row] * rows)}) AS v "
        "WHERE games.id = v.column1 AND games.revision = v.column2"
    )


@functools.cache
def _insert_sql(rows: int) -> str:
    """The insert of ``rows`` moves."""
    row = "(" + ",".join("?" * len(_MOVE_COLUMNS)) + ")"
    return f"INSERT INTO moves ({', '.join(_MOVE_COLUMNS)}) VALUES {','.join([row] * rows)}"
