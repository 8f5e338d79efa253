"""Reading records: a raw PGN game or a JSON document into checked :class:`Parts`.

JSON document (version 1)::

    {"format": "diceboard-record", "version": 1, "game": "custodian",
     "options": {"variant": "chaos"}, "tags": {"White": "Alice", ...},
     "start": null, "moves": ["=3", ..., "b1-d2=5", ...],
     "result": "1-0", "termination": "elimination", "comments": {"0": ["..."]}}

``format``, ``version``, ``game`` and ``moves`` are required; ``tags`` holds every tag that
has no field of its own (not Game, the option tags, Position, Result or Termination).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diceboard.core.errors import RecordError
from diceboard.core.game import Game
from diceboard.records.assemble import CommentsInput, Parts, assemble
from diceboard.records.header import (
    ResultToken,
    build_game,
    game_name,
    game_of,
    known_games,
    option_tags,
    parse_start,
)
from diceboard.records.pgn import RawGame
from diceboard.records.tags import GAME_TAG, POSITION_TAG, RESULT_TAG, TERMINATION_TAG

JSON_FORMAT = "diceboard-record"
JSON_VERSION = 1
_REQUIRED = ("format", "version", "game", "moves")
_OPTIONAL = ("options", "tags", "start", "result", "termination", "comments", "glyphs")
#: tags that a JSON record keeps in a field of their own -> that field
_FIELD_OF_TAG = {
    GAME_TAG: "game",
    POSITION_TAG: "start",
    RESULT_TAG: "result",
    TERMINATION_TAG: "termination",
}


def parts_from_pgn(raw: RawGame) -> Parts:
    """Check one game read from PGN text; errors name the game, the line and the move."""
    lines = dict(raw.tag_lines)
    if raw.result is not None:
        # a result token stands in for a missing Result tag, so its errors point there
        lines.setdefault(RESULT_TAG, raw.result[1])

    def locate_tag(tag: str | None) -> str:
        line = lines.get(tag, raw.line) if tag is not None else raw.line
        return f"game {raw.number}, line {line}: "

    def locate_move(i: int) -> str:
        return f"game {raw.number}, line {raw.moves[i][1]}, move {i + 1}"

    game = game_of(raw.tags, locate_tag)
    position = raw.tags.get(POSITION_TAG)
    start = (
        game.initial_state()
        if position is None
        else parse_start(game, position, locate_tag(POSITION_TAG))
    )
    token = None
    if raw.result is not None:
        text, line = raw.result
        token = ResultToken(text, f"game {raw.number}, line {line}: ")
    comments: CommentsInput = raw.comments
    moves = [text for text, _ in raw.moves]
    return assemble(start, moves, raw.tags, comments, locate_move, locate_tag, token, raw.glyphs)


def _locate_json_tag(tag: str | None) -> str:
    return "JSON record: "


def _locate_json_move(i: int) -> str:
    return f"JSON record, move {i + 1}"


def parts_from_dict(doc: object) -> Parts:
    """Check a JSON record (already decoded from JSON text)."""
    if not isinstance(doc, Mapping):
        raise RecordError(f"a JSON record is an object, not {_kind(doc)}")
    unknown = [key for key in doc if key not in (*_REQUIRED, *_OPTIONAL)]
    if unknown:
        raise RecordError(
            f"the JSON record has unknown field(s) {', '.join(map(repr, unknown))}; "
            f"its fields are {', '.join((*_REQUIRED, *_OPTIONAL))}"
        )
    missing = [key for key in _REQUIRED if key not in doc]
    if missing:
        raise RecordError(f"the JSON record lacks the field(s) {', '.join(missing)}")
    if doc["format"] != JSON_FORMAT:
        raise RecordError(
            f"the JSON record's format field must be {JSON_FORMAT!r}, not {doc['format']!r}"
        )
    version = doc["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"the JSON record's version must be a whole number, not {version!r}")
    if version != JSON_VERSION:
        raise RecordError(
            f"unsupported {JSON_FORMAT} version {version}: this reader knows version "
            f"{JSON_VERSION} only"
        )
    title = _text(doc, "game")
    name = game_name(title)
    if name is None:
        raise RecordError(
            f"the JSON record names an unknown game {title!r}; games: {known_games()}"
        )
    options = _mapping(doc, "options")
    for option, value in options.items():
        if not isinstance(value, str | int):  # bool is an int: on/off options take it
            raise RecordError(
                f"the JSON record's option {option!r} must be a string, a whole number or a "
                f"boolean, not {_kind(value)}"
            )
    game = build_game(name, options, "the JSON record's options: ")
    tags = _tags(doc, game)
    start_text = doc.get("start")
    if start_text is None:
        start = game.initial_state()
    elif isinstance(start_text, str):
        start = parse_start(game, start_text, "the JSON record's start: ")
    else:
        raise RecordError(
            f"the JSON record's start must be a position string or null, not {_kind(start_text)}"
        )
    moves = doc["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("the JSON record's moves must be a list of move texts (strings)")
    return assemble(
        start,
        moves,
        tags,
        _comments(doc),
        _locate_json_move,
        _locate_json_tag,
        glyphs=_glyphs(doc),
    )


def _kind(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _text(doc: Mapping[str, Any], field: str) -> str:
    value = doc[field]
    if not isinstance(value, str):
        raise RecordError(f"the JSON record's {field} must be a string, not {_kind(value)}")
    return value


def _mapping(doc: Mapping[str, Any], field: str) -> dict[str, Any]:
    value = doc.get(field)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RecordError(f"the JSON record's {field} must be an object, not {_kind(value)}")
    return dict(value)


def _tags(doc: Mapping[str, Any], game: Game) -> dict[str, str]:
    """The JSON record's tags, with its result and termination fields added as tags."""
    tags = _mapping(doc, "tags")
    own_field = {**_FIELD_OF_TAG, **dict.fromkeys(option_tags(game), "options")}
    for tag, value in tags.items():
        if tag in own_field:
            raise RecordError(
                f"the JSON record's tags hold {tag!r}, which has a field of its own: "
                f"{own_field[tag]!r}"
            )
        if not isinstance(value, str):
            raise RecordError(f"the JSON record's tag {tag!r} must be a string, not {_kind(value)}")
    for tag, field in ((RESULT_TAG, "result"), (TERMINATION_TAG, "termination")):
        value = doc.get(field)
        if value is not None:
            if not isinstance(value, str):
                raise RecordError(
                    f"the JSON record's {field} must be a string or null, not {_kind(value)}"
                )
            tags[tag] = value
    return tags


def _comments(doc: Mapping[str, Any]) -> CommentsInput:
    """The JSON record's comments, keyed by the number of moves they follow."""
    comments: dict[int, Any] = {}
    for key, texts in _mapping(doc, "comments").items():
        if not (key.isascii() and key.isdigit()) or len(key) > 12:
            raise RecordError(
                f'the JSON record\'s comments are keyed by a number of moves ("0", "12"), '
                f"not {key!r}"
            )
        if not isinstance(texts, str | list):
            raise RecordError(
                f"the JSON record's comments after move {key} must be a string or a list of "
                f"strings, not {_kind(texts)}"
            )
        comments[int(key)] = texts
    return comments


def _glyphs(doc: Mapping[str, Any]) -> dict[int, str]:
    """The JSON record's annotation glyphs, keyed by the number of the move they mark."""
    glyphs: dict[int, str] = {}
    for key, glyph in _mapping(doc, "glyphs").items():
        if not (key.isascii() and key.isdigit()) or len(key) > 12:
            raise RecordError(
                f'the JSON record\'s glyphs are keyed by the number of a move ("1", "12"), '
                f"not {key!r}"
            )
        if not isinstance(glyph, str):
            raise RecordError(
                f"the JSON record's glyph of move {key} must be a string, not {_kind(glyph)}"
            )
        glyphs[int(key)] = glyph
    return glyphs
