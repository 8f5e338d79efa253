"""Plain, immutable copies of what the database holds about a game. The service works on
these; only the repository turns them into rows and back."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, TypeVar

Record = TypeVar("Record")


def replaced(record: Record, /, **changes: Any) -> Record:
    """``dataclasses.replace`` for these records and the others of the server made the same
    way (frozen, no slots, no ``__post_init__``, nothing cached on the instance): the copy's
    fields are copied, not passed through ``__init__``, which sets each field of a frozen
    class with ``object.__setattr__`` (a game's data has 29: an eighth of the time, on every
    move)."""
    kind: type = type(record)
    unknown = changes.keys() - _field_names(kind)
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {', '.join(sorted(unknown))}")
    copy: Record = object.__new__(kind)
    fields = vars(copy)
    fields.update(vars(record))
    fields.update(changes)
    return copy


@functools.cache
def _field_names(kind: type) -> frozenset[str]:
    if hasattr(kind, "__post_init__") or hasattr(kind, "__slots__"):
        raise TypeError(f"{kind.__name__} is not a record that replaced() can copy")
    return frozenset(f.name for f in dataclasses.fields(kind))


@dataclass(frozen=True)
class SeatData:
    """A seat: ``kind`` is ``human`` (holds ``token_hash``), ``computer`` (plays ``agent``)
    or ``open`` (waiting for someone to join)."""

    seat: str
    kind: str
    name: str
    token_hash: str | None = None
    agent: str | None = None
    rematch_hash: str | None = None


@dataclass(frozen=True)
class MoveData:
    """One committed move: its notation, who played it (``None`` for a server roll), when,
    and the mover's clock after it (``None`` without time control)."""

    notation: str
    seat: str | None
    played_at: float
    clock_ms: int | None = None


@dataclass(frozen=True)
class GameData:
    """Everything stored about a game except its moves.

    ``revision`` counts every change and guards every write; ``version`` counts changes of
    the position (moves and takebacks) and is what a move submission names.
    """

    id: str
    game: str
    options: dict[str, Any]
    start_position: str | None
    seed: int
    mode: str
    listed: bool
    status: str
    revision: int
    version: int
    move_count: int
    result: str
    winner: str | None
    reason: str | None
    initial_ms: int | None
    increment_ms: int | None
    clock_first_ms: int | None
    clock_second_ms: int | None
    clock_running: str | None
    clock_since: float | None
    draw_offer: str | None
    takeback_offer: str | None
    rematch_offer: str | None
    rematch_game: str | None
    rematch_of: str | None
    invite_code: str | None
    created_at: float
    updated_at: float
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Write:
    """One guarded change of a game (see
    :meth:`~diceboard.server.storage.repository.Repository.commit`)."""

    before: GameData
    after: GameData
    keep_moves: int | None = None
    new_moves: tuple[MoveData, ...] = ()
    seats: tuple[SeatData, ...] = ()
