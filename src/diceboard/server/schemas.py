"""The shapes of request bodies: every field typed and bounded, unknown fields refused, so
that bad input is answered with a 4xx that names the field before anything is touched."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from diceboard.core.errors import RecordError
from diceboard.records.tags import check_tag_value


def _fits_a_record(name: str) -> str:
    # A name becomes a player tag of the game's record, so it takes what a tag takes; a
    # control character would also break the record download, and PostgreSQL cannot store NUL
    try:
        return check_tag_value("player", name)
    except RecordError:
        raise ValueError(
            "a player's name must be one line without control characters "
            "(it becomes a tag of the game record)"
        ) from None


#: a player's name as people type it
PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_fits_a_record)]


class _Strict(BaseModel):
    # strict: JSON types are not coerced ("1", 1.0 and true are no version, "42" no seed)
    model_config = ConfigDict(extra="forbid", strict=True)


class TimeControl(_Strict):
    """Minutes per player and seconds added after each of their moves."""

    minutes: float = Field(gt=0, le=180)
    increment: float = Field(default=0, ge=0, le=60)


class NewGame(_Strict):
    """A game to create.

    ``mode`` is ``computer`` (against ``level``), ``local`` (both sides at one screen) or
    ``online`` (an invite link for the opponent; ``listed`` puts it in the lobby). ``side``
    is the creator's: ``first``, ``second``, ``random`` or a player letter. ``position``
    starts from a position string instead of the start. ``seed`` fixes the dice (computer and
    local games only: an online opponent must not know the rolls in advance).
    """

    game: str = Field(min_length=1, max_length=32)
    variant: str | None = Field(default=None, min_length=1, max_length=32)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=12)
    position: str | None = Field(default=None, min_length=1, max_length=400)
    mode: Literal["computer", "local", "online"] = "computer"
    side: str = Field(default="first", min_length=1, max_length=8)
    level: str | None = Field(default=None, min_length=1, max_length=64)
    time_control: TimeControl | None = None
    listed: bool = False
    name: PlayerName | None = None
    seed: int | None = Field(default=None, ge=0, lt=2**62)


class JoinGame(_Strict):
    """Take the open seat: with the invite code (not needed for a game in the lobby)."""

    code: str | None = Field(default=None, min_length=1, max_length=64)
    name: PlayerName | None = None


class MoveRequest(_Strict):
    """A move in notation. ``version`` is the game version the move was chosen in: if the
    game has changed since, the move is refused with 409 instead of played elsewhere."""

    move: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0, le=10**9)


class OfferAction(_Strict):
    """Make, accept or decline an offer (draw, takeback, rematch)."""

    action: Literal["offer", "accept", "decline"]


class Resignation(_Strict):
    """Resign; ``seat`` picks the side at a one-screen game (default: the side to move)."""

    seat: str | None = Field(default=None, min_length=1, max_length=1)


class ImportRecord(_Strict):
    """A game record (PGN-style text or its JSON form) to store for replaying."""

    record: str = Field(min_length=1, max_length=500_000)


#: the longest chat message, in characters
CHAT_LENGTH = 300


def _one_line_of_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise ValueError("a chat message cannot be empty")
    # control and format characters (bidi overrides included) and line breaks would let one
    # message pose as several, or as someone else's
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise ValueError("a chat message must be one line without control characters")
    return text


class ChatPost(_Strict):
    """A chat message of an online game, by one of its players (shown to everyone as text)."""

    text: Annotated[
        str, Field(min_length=1, max_length=CHAT_LENGTH), AfterValidator(_one_line_of_text)
    ]
