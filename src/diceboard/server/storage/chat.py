"""The chat messages of games (table ``chat_messages``, created by migration 0003): written
one at a time, read in order after a given id. Blocking, like the repository."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, Text, func, select
from sqlalchemy.orm import Mapped, mapped_column

from diceboard.server.storage.database import Database
from diceboard.server.storage.models import Base


class ChatRow(Base):
    """One chat message of a game: who wrote it (seat and name as it was then), and when."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(24), ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(1))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class ChatMessage:
    """A stored chat message."""

    id: int
    game_id: str
    seat: str
    name: str
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        """The message as clients get it (the game id is the page's own)."""
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
        }


def _message(row: ChatRow) -> ChatMessage:
    return ChatMessage(row.id, row.game_id, row.seat, row.name, row.text, row.at)


class ChatStore:
    """Reads and writes of chat messages."""

    def __init__(self, database: Database) -> None:
        self.database = database
        #: whether the database is an embedded SQLite file (fast enough to call inline)
        self.embedded = database.engine.dialect.name == "sqlite"

    def add(self, game_id: str, seat: str, name: str, text: str, at: float) -> ChatMessage:
        """Store one message; the stored message (with its id)."""
        with self.database.sessions.begin() as session:
            row = ChatRow(game_id=game_id, seat=seat, name=name, text=text, at=at)
            session.add(row)
            session.flush()
            return _message(row)

    def after(self, game_id: str, after: int, limit: int) -> list[ChatMessage]:
        """The game's messages with ids above ``after``, oldest first, at most ``limit`` (the
        newest ``limit`` of them when there are more)."""
        with self.database.sessions() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.game_id == game_id, ChatRow.id > after)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [_message(r) for r in reversed(rows)]

    def count(self, game_id: str) -> int:
        """How many messages the game has."""
        with self.database.sessions() as session:
            return int(
                session.scalar(
                    select(func.count()).select_from(ChatRow).where(ChatRow.game_id == game_id)
                )
                or 0
            )
