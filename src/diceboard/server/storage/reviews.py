"""Finished game reviews (table ``reviews``, created by migration 0004), so that a review
survives a restart of the server: one row per game and review agent, holding the review as
the page shows it (JSON), the game's revision it was made for and the job id clients poll.
Blocking, like the repository.

A row that cannot be read back (not JSON, or not a review) is treated as missing, deleted,
and the review made again; a row made for another revision of the game is stale the same way.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, Text, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from diceboard.server.storage.database import Database
from diceboard.server.storage.models import Base

log = logging.getLogger(__name__)

#: what a stored review must hold to be shown (the page reads every one of these)
REVIEW_KEYS = ("agent", "players", "curve", "sides", "marks", "pgn")


class ReviewRow(Base):
    """One finished review of a game by one agent."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    agent: Mapped[str] = mapped_column(String(120), primary_key=True)
    job_id: Mapped[str] = mapped_column(String(24), unique=True)
    revision: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    result: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class StoredReview:
    """A review read back: which game, revision and agent, its job id, and the review."""

    game_id: str
    agent: str
    job_id: str
    revision: int
    seconds: float
    result: dict[str, Any]


def _readable(row: ReviewRow) -> StoredReview | None:
    """``row`` as a review, or ``None`` when its JSON is broken or not a review."""
    try:
        result = json.loads(row.result)
    except (TypeError, ValueError):
        return None
    if not isinstance(result, dict) or any(key not in result for key in REVIEW_KEYS):
        return None
    return StoredReview(row.game_id, row.agent, row.job_id, row.revision, row.seconds, result)


class ReviewStore:
    """Reads and writes of finished reviews."""

    def __init__(self, database: Database) -> None:
        self.database = database
        #: whether the database is an embedded SQLite file (fast enough to call inline)
        self.embedded = database.engine.dialect.name == "sqlite"

    def save(
        self,
        game_id: str,
        agent: str,
        job_id: str,
        revision: int,
        seconds: float,
        result: dict[str, Any],
        at: float,
    ) -> bool:
        """Store the review of ``game_id`` by ``agent`` in place of any older one; ``False``
        when it could not be (the game is gone, or another server stored the same review
        with its own job id first)."""
        text = json.dumps(result, separators=(",", ":"))
        try:
            with self.database.sessions.begin() as session:
                session.execute(
                    delete(ReviewRow).where(ReviewRow.game_id == game_id, ReviewRow.agent == agent)
                )
                session.add(
                    ReviewRow(
                        game_id=game_id,
                        agent=agent,
                        job_id=job_id,
                        revision=revision,
                        seconds=seconds,
                        result=text,
                        at=at,
                    )
                )
        except IntegrityError:
            return False
        return True

    def _checked(self, row: ReviewRow | None, revision: int | None) -> StoredReview | None:
        if row is None:
            return None
        found = _readable(row)
        if found is None or (revision is not None and found.revision != revision):
            why = "cannot be read" if found is None else f"is of revision {found.revision}"
            log.warning(
                "the stored review of game %s by %s %s: dropped", row.game_id, row.agent, why
            )
            self.drop(row.game_id, row.agent)
            return None
        return found

    def find(self, game_id: str, agent: str, revision: int) -> StoredReview | None:
        """The stored review of revision ``revision`` of ``game_id`` by ``agent``; ``None``
        if there is none (a broken or stale row is dropped)."""
        with self.database.sessions() as session:
            row = session.get(ReviewRow, (game_id, agent))
            if row is not None:
                session.expunge(row)
        return self._checked(row, revision)

    def by_job(self, job_id: str) -> StoredReview | None:
        """The stored review whose job id is ``job_id`` (a broken row is dropped)."""
        with self.database.sessions() as session:
            row = session.scalars(select(ReviewRow).where(ReviewRow.job_id == job_id)).first()
            if row is not None:
                session.expunge(row)
        return self._checked(row, None)

    def drop(self, game_id: str, agent: str) -> None:
        """Forget the stored review of ``game_id`` by ``agent``."""
        with self.database.sessions.begin() as session:
            session.execute(
                delete(ReviewRow).where(ReviewRow.game_id == game_id, ReviewRow.agent == agent)
            )
