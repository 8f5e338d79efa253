"""The database tables. The schema itself is created and changed only by the Alembic
migrations in :mod:`diceboard.server.migrations`; these classes mirror it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of every table."""


class GameRow(Base):
    """One game: its rules, its seed, its status and clocks, and the offers pending in it."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    start_position: Mapped[str | None] = mapped_column(Text, nullable=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(16))
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)
    revision: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    move_count: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(8))
    winner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    initial_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    increment_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_first_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_second_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_running: Mapped[str | None] = mapped_column(String(1), nullable=True)
    clock_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    draw_offer: Mapped[str | None] = mapped_column(String(1), nullable=True)
    takeback_offer: Mapped[str | None] = mapped_column(String(1), nullable=True)
    rematch_offer: Mapped[str | None] = mapped_column(String(1), nullable=True)
    rematch_game: Mapped[str | None] = mapped_column(String(24), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(24), nullable=True)
    invite_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    tags: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float, index=True)
    updated_at: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    """A player's seat in a game: a person (known by a token hash), the computer, or open."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    rematch_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))


class MoveRow(Base):
    """The ``idx``-th move of a game. The primary key makes two writers of the same move
    collide, so exactly one of them commits."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    notation: Mapped[str] = mapped_column(String(64))
    seat: Mapped[str | None] = mapped_column(String(1), nullable=True)
    played_at: Mapped[float] = mapped_column(Float)
    clock_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class MetaRow(Base):
    """Server-wide values, such as the last heartbeat."""

    __tablename__ = "server_meta"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ProcessRow(Base):
    """A running server process, known by the id it made up at start; ``seen_at`` is its last
    heartbeat."""

    __tablename__ = "server_processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)


class LeaseRow(Base):
    """The process that runs a game's clock flag and computer turns, until ``expires``."""

    __tablename__ = "leases"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    holder: Mapped[str] = mapped_column(String(32), index=True)
    expires: Mapped[float] = mapped_column(Float, index=True)
