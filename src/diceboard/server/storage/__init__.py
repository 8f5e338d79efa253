"""Persistent storage of games: SQLAlchemy tables, Alembic migrations and the repository that
every write goes through (each write is one transaction guarded by the game's revision)."""

from diceboard.server.storage.database import Database, migrate
from diceboard.server.storage.repository import Repository
from diceboard.server.storage.rows import GameData, MoveData, SeatData

__all__ = ["Database", "GameData", "MoveData", "Repository", "SeatData", "migrate"]
