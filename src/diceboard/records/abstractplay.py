"""Reading Abstract Play's exported game records (JSON).

Abstract Play (https://www.abstractplay.com) exports a finished game as::

    {"header": {"game": {"name": "Chase", "variants": []},
                "site": {"name": "Abstract Play", "gameid": "…"},
                "date-start": "2023-04-01T10:00:00Z", "date-end": "…",
                "players": [{"name": "Alice", "userid": "…", "is_ai": false,
                             "score": 0, "result": 1}, …]},
     "moves": [["a5-f8NE", "i5-d3SW"], ["…"], …]}

— the moves grouped by round, one string per player. Its move notation is ours. The header
becomes tags: the players (first player first) under their colours, ``Date`` (from
``date-start``), ``EndDate``, ``Site``, ``GameId``, ``Variants`` (if any) and ``<Colour>Type``
(``program`` or ``human``, as PGN writes it). The game is replayed with the options that its
:class:`~diceboard.core.info.GameInfo` lists for the site (``site_options``: Chase without a
no-capture limit or a repetition draw), which the record's option tags then show.

A game that the replay leaves unfinished but the site scored is recorded with the site's
result and the termination ``resignation`` (a draw: ``agreement``): the export does not say
whether a player resigned or ran out of time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from diceboard.core.errors import RecordError
from diceboard.games import info
from diceboard.records.assemble import Parts, assemble
from diceboard.records.header import build_game, game_name, known_games
from diceboard.records.tags import DATE_TAG, RESULT_TAG, TERMINATION_TAG

SITE = "Abstract Play"
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def is_abstractplay(doc: object) -> bool:
    """Whether a decoded JSON document has the shape of an Abstract Play export."""
    return (
        isinstance(doc, Mapping)
        and isinstance(doc.get("header"), Mapping)
        and isinstance(doc.get("moves"), list)
        and "format" not in doc
    )


def _date(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    m = _ISO_DATE.match(value)
    return None if m is None else ".".join(m.groups())


def _locate_tag(tag: str | None) -> str:
    return "Abstract Play record: "


def _locate_move(i: int) -> str:
    return f"Abstract Play record, move {i + 1}"


def _site_result(players: list[Any]) -> str | None:
    results = [p.get("result") if isinstance(p, Mapping) else None for p in players[:2]]
    numbers = [float(r) for r in results if isinstance(r, int | float)]
    if len(numbers) != 2:
        return None
    first, second = numbers
    if first > second:
        return "1-0"
    if second > first:
        return "0-1"
    return "1/2-1/2"


def parts_from_abstractplay(doc: Mapping[str, Any]) -> Parts:
    """Check an Abstract Play export (already decoded from JSON) and make it a record."""
    header = doc["header"]
    game_field = header.get("game")
    title = game_field.get("name") if isinstance(game_field, Mapping) else game_field
    if not isinstance(title, str):
        raise RecordError("the Abstract Play record's header names no game (header.game.name)")
    name = game_name(title)
    if name is None:
        raise RecordError(
            f"the Abstract Play record names an unknown game {title!r}; games: {known_games()}"
        )
    site_field = header.get("site")
    site = site_field.get("name", SITE) if isinstance(site_field, Mapping) else SITE
    game_info = info(name)
    options = dict(game_info.site_options.get(str(site), game_info.site_options.get(SITE, {})))
    game = build_game(name, options, "the Abstract Play record's game: ")

    tags: dict[str, str] = {"Site": str(site)}
    if isinstance(site_field, Mapping) and site_field.get("gameid") is not None:
        tags["GameId"] = str(site_field["gameid"])
    start_date, end_date = _date(header.get("date-start")), _date(header.get("date-end"))
    if start_date or end_date:
        tags[DATE_TAG] = start_date or end_date or ""
    if end_date:
        tags["EndDate"] = end_date
    variants = game_field.get("variants") if isinstance(game_field, Mapping) else None
    if isinstance(variants, list) and variants:
        tags["Variants"] = ", ".join(str(v) for v in variants)
    players = header.get("players")
    players = players if isinstance(players, list) else []
    for colour, player in zip(game.player_names, players, strict=False):
        if isinstance(player, Mapping):
            if isinstance(player.get("name"), str) and player["name"].strip():
                tags[colour] = " ".join(player["name"].split())
            if isinstance(player.get("is_ai"), bool):
                tags[f"{colour}Type"] = "program" if player["is_ai"] else "human"

    moves: list[str] = []
    for i, group in enumerate(doc["moves"]):
        items = group if isinstance(group, list) else [group]
        for item in items:
            if not isinstance(item, str):
                raise RecordError(
                    f"the Abstract Play record's round {i + 1} holds {item!r}, not a move text"
                )
            if item.strip():
                moves.append(item.strip())

    start = game.initial_state()
    parts = assemble(start, moves, tags, None, _locate_move, _locate_tag)
    result = _site_result(players)
    if parts.states[-1].outcome() is None and result is not None:
        tags[RESULT_TAG] = result
        tags[TERMINATION_TAG] = "agreement" if result == "1/2-1/2" else "resignation"
        parts = assemble(start, moves, tags, None, _locate_move, _locate_tag)
    return parts
