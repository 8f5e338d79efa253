"""The shapes of request bodies: every field typed and bounded, unknown fields refused, so
that bad input is answered with a 4xx that names the field before anything is touched; and
the shapes of the answers the OpenAPI document declares (:class:`ErrorBody` and the rest)."""

from __future__ import annotations

import functools
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue
from pydantic.config import JsonDict

from diceboard import games
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


#: what a tag value (so a player's name) may not hold, as a regular expression: the control
#: characters (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) and the line and paragraph
#: separators (U+2028, U+2029); declared in the schema, checked by :func:`_fits_a_record`
ONE_LINE = "^[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*$"

#: a player's name as people type it
PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=40, json_schema_extra={"pattern": ONE_LINE}),
    AfterValidator(_fits_a_record),
]


class _Strict(BaseModel):
    # strict: JSON types are not coerced ("1", 1.0 and true are no version, "42" no seed;
    # JSON Schema counts 1.0 as an integer, this API does not)
    model_config = ConfigDict(extra="forbid", strict=True)


class TimeControl(_Strict):
    """Minutes per player and seconds added after each of their moves."""

    minutes: float = Field(gt=0, le=180)
    increment: float = Field(default=0, ge=0, le=60)


def _game_names() -> list[JsonValue]:
    # the registered names and their aliases: what the document lists (any case is taken)
    return [*sorted({name for info in games.infos() for name in (info.name, *info.aliases)})]


def _variant_names() -> list[JsonValue]:
    return [*sorted({v.name for info in games.infos() for v in info.variants})]


def _sides() -> list[JsonValue]:
    letters = {p for info in games.infos() for p in info.players}
    return ["first", "second", "random", *sorted(letters)]


class NewGame(_Strict):
    """A game to create.

    ``mode`` is ``computer`` (against ``level``), ``local`` (both sides at one screen) or
    ``online`` (an invite link for the opponent; ``listed`` puts it in the lobby). ``side``
    is the creator's: ``first``, ``second``, ``random`` or a player letter. ``position``
    starts from a position string instead of the start. ``seed`` fixes the dice (computer and
    local games only: an online opponent must not know the rolls in advance).
    """

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"game": "custodian", "mode": "local"},
                {"game": "chase", "mode": "computer", "side": "second"},
                {"game": "custodian", "variant": "chaos", "mode": "online", "listed": True},
            ]
        }
    )

    # the lists are what the registry holds (the values are matched in any case, and a
    # variant or side must be one of the game's own: 400 otherwise)
    game: str = Field(min_length=1, max_length=32, json_schema_extra={"enum": _game_names()})
    variant: (
        Annotated[
            str, Field(min_length=1, max_length=32, json_schema_extra={"enum": _variant_names()})
        ]
        | None
    ) = None
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=12)
    position: str | None = Field(default=None, min_length=1, max_length=400)
    mode: Literal["computer", "local", "online"] = "computer"
    side: str = Field(
        default="first", min_length=1, max_length=8, json_schema_extra={"enum": _sides()}
    )
    level: str | None = Field(default=None, min_length=1, max_length=64)
    time_control: TimeControl | None = None
    listed: bool = False
    name: PlayerName | None = None
    # at most 2**53 - 1: the whole numbers every JSON reader (JavaScript's above all) and
    # every JSON Schema validator reads exactly (RFC 7493)
    seed: int | None = Field(default=None, ge=0, le=2**53 - 1)


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

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "record": '[Game "Chase"]\n[Result "0-1"]\n[Termination "resignation"]\n'
                    "\n1. a1-a2E i1-h1SW 0-1\n"
                }
            ]
        }
    )

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


def _char_class(codes: list[int]) -> str:
    """A regular-expression character class body for the code points ``codes`` (sorted):
    ``\\uXXXX`` ranges in the Basic Multilingual Plane, which JSON Schema (ECMA-262) and
    Python read alike, the characters themselves beyond it."""
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])

    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in runs)


@functools.cache
def chat_pattern() -> str:
    """A chat message's text as a regular expression: what :func:`_one_line_of_text` takes
    (made when the OpenAPI document is, not on import: it reads the whole Unicode table)."""
    # what _one_line_of_text takes: stripped of whitespace something is left, and it holds no
    # control or format character and no line break
    every = [chr(c) for c in range(0x110000)]
    bad = {ord(c) for c in every if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")}
    space = {ord(c) for c in every if c.isspace()}
    edge = _char_class(sorted(bad | space))  # what can neither start nor end it
    blank = _char_class(sorted(space))
    return f"^[{blank}]*[^{edge}]([^{_char_class(sorted(bad))}]*[^{edge}])?[{blank}]*$"


def _declare_chat_pattern(schema: JsonDict) -> None:
    schema["pattern"] = chat_pattern()


class ChatPost(_Strict):
    """A chat message of an online game, by one of its players (shown to everyone as text)."""

    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=CHAT_LENGTH,
            json_schema_extra=_declare_chat_pattern,
        ),
        AfterValidator(_one_line_of_text),
    ]


# --- answers ------------------------------------------------------------------------------------
class ErrorBody(BaseModel):
    """A refused request's answer: ``detail`` says why in words, ``code`` in one word
    (``invalid`` for a body or parameter that does not fit the schema, ``not_found``,
    ``conflict``, ``rate_limited``, ``illegal_move`` …)."""

    detail: str
    code: str


class ConflictBody(ErrorBody):
    """A 409's answer: the refusal and, where there is a game, ``state``: the game as it now
    is (the WebSocket's ``state`` message), so that the client can catch up."""

    state: dict[str, Any] = Field(default_factory=dict)


class SeatGrantBody(BaseModel):
    """A seat handed out: the game's ``id``, the ``seats`` (player letters) the ``token``
    acts for (shown once: send it as ``X-Seat-Token``), and the page ``links`` (``player``,
    ``spectate`` and, for an online game waiting for an opponent, ``invite``)."""

    id: str
    seats: list[str]
    token: str
    links: dict[str, str]


class ImportedBody(BaseModel):
    """A record stored for replaying: the new game's ``id``, its spectator link, how many
    moves it has, and when it was stored (seconds since the epoch)."""

    id: str
    links: dict[str, str]
    moves: int
    imported_at: float
