"""Game records in and out: a record imported for replaying (nobody can act in it, everyone
watches) and the record of a stored game (with its seed once the game is over).

An imported text is read and replayed in a thread of its own, one import at a time, never on
the event loop (a long record takes a second to replay); before that its games and moves are
counted, cheaply, and a text over the caps (``import_max_games``, ``import_max_moves``) is
refused with 413 without replaying anything. At most :data:`IMPORTS_WAITING` imports wait for
the thread; more are refused with 429.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import re
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from diceboard.core.errors import RecordError
from diceboard.records import GameRecord, read_pgn
from diceboard.records.pgn import split_games
from diceboard.server.errors import BadRequest, TooLarge, TooManyRequests
from diceboard.server.live import LiveGame
from diceboard.server.service.core import ServiceCore
from diceboard.server.service.lifecycle import new_game_data
from diceboard.server.storage import MoveData, SeatData

log = logging.getLogger(__name__)

#: imports that may wait for the import thread at once (past that: 429)
IMPORTS_WAITING = 4
#: the Game tag that opens each game of a PGN text
_GAME_TAG = re.compile(r"^\s*\[\s*Game\s", re.MULTILINE)


def _move_count(doc: Mapping[str, Any]) -> int:
    """The moves of a decoded JSON record (Abstract Play groups them by round)."""
    moves = doc.get("moves")
    if not isinstance(moves, list):
        return 0
    if "format" not in doc:  # Abstract Play: a list of rounds
        return sum(len(r) if isinstance(r, list) else 1 for r in moves)
    return len(moves)


def read_record(text: str, max_games: int, max_moves: int) -> GameRecord:
    """The one game record of an imported ``text`` (JSON or PGN), replayed and checked.

    Raises :class:`~diceboard.server.errors.TooLarge` when the text holds more than
    ``max_games`` games or a game more than ``max_moves`` moves (counted before any replay),
    :class:`~diceboard.server.errors.BadRequest` for more than one game, and
    :class:`~diceboard.core.errors.RecordError` for a text that is not a valid record."""
    text = text.strip()
    try:
        if text.startswith("{"):
            try:
                doc = json.loads(text)
            except (json.JSONDecodeError, RecordError):
                return GameRecord.from_json(text)  # its own message for bad JSON
            if isinstance(doc, Mapping):
                _check_moves(_move_count(doc), max_moves, "the record")
            records = [GameRecord.from_dict(doc)]
        else:
            # a game without its Game tag cannot be read, so this count (at C speed) refuses
            # a text of many games before anything is tokenised
            tagged = len(_GAME_TAG.findall(text))
            if tagged > max_games:
                raise TooLarge(
                    f"the text holds {tagged} games; an import may hold at most {max_games}"
                )
            raw = split_games(text)
            if len(raw) > max_games:
                raise TooLarge(
                    f"the text holds {len(raw)} games; an import may hold at most {max_games}"
                )
            for game in raw:
                _check_moves(len(game.moves), max_moves, f"game {game.number}")
            # bytes, not str: a str naming a file on the server would be checked as a path
            records = read_pgn(text.encode("utf-8"))
    except (RecordError, TooLarge):
        raise
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    except Exception as exc:  # a reader bug must not become a 500 (logged for the maintainers)
        log.exception("reading an imported record failed")
        raise RecordError(f"the record could not be read ({type(exc).__name__})") from None
    if len(records) != 1:
        raise BadRequest(f"the text holds {len(records)} games; import one game at a time")
    return records[0]


def _check_moves(count: int, limit: int, what: str) -> None:
    if count > limit:
        raise TooLarge(f"{what} has {count} moves; an imported game may have at most {limit}")


class ImportExport:
    """Importing records and exporting games as records."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        #: the import thread (made at the first import, again after :meth:`close`)
        self._reader: ThreadPoolExecutor | None = None
        self._waiting = 0

    async def import_text(self, text: str) -> LiveGame:
        """Read, replay (off the event loop) and store the record in ``text``."""
        settings = self.core.settings
        if self._waiting >= IMPORTS_WAITING:
            raise TooManyRequests("the server is busy importing records; try again soon", 2.0)
        self._waiting += 1
        try:
            if self._reader is None:
                self._reader = ThreadPoolExecutor(1, thread_name_prefix="import")
            loop = asyncio.get_running_loop()
            record = await loop.run_in_executor(
                self._reader,
                read_record,
                text,
                settings.import_max_games,
                settings.import_max_moves,
            )
        finally:
            self._waiting -= 1
        return await self.import_record(record)

    def close(self) -> None:
        """Stop the import thread (an import under way finishes)."""
        if self._reader is not None:
            self._reader.shutdown(wait=False, cancel_futures=True)
            self._reader = None

    async def import_record(self, record: GameRecord) -> LiveGame:
        """Store a game record for replaying: no seats can act, everyone watches."""
        rules = record.game
        start = record.start
        now = time.time()
        moves = tuple(
            MoveData(m.notation, None if s.is_chance() else s.to_move, now)
            for m, s in zip(record.moves, record.states(), strict=False)
        )
        outcome = record.outcome
        data = new_game_data(
            rules,
            now,
            start_position=None if start == rules.initial_state() else str(start),
            seed=(record.seed or 0) % 2**62,
            mode="imported",
            status="finished",
            move_count=len(moves),
            result=record.result,
            winner=None if outcome is None else outcome.winner,
            reason=None if outcome is None else outcome.reason,
            tags=record.tags,
        )
        names = record.players
        seats = {
            p: SeatData(p, "imported", (names[i] or "?")[:40]) for i, p in enumerate(rules.players)
        }
        live = LiveGame(data, seats, moves, rules, record.final_state())
        return await self.core.insert(live, schedule=False)

    async def record(self, game_id: str) -> GameRecord:
        """The record of a game as it stands (with the seed once the game is over)."""
        live = await self.core.get(game_id)
        if live.data.mode == "imported":
            tags = {k: str(v) for k, v in live.data.tags.items()}
            return GameRecord(live.state.root(), live.state.move_stack(), tags=tags)
        names = tuple(
            live.seats[p].name if live.seats[p].kind != "open" else None for p in live.players
        )
        outcome = live.outcome()
        # a game the server gave up on (expiry.py) has no result: its record is unfinished
        server_decided = (
            outcome is not None and live.state.outcome() is None and outcome.result != "*"
        )
        return GameRecord.from_state(
            live.state,
            players=names,
            date=datetime.datetime.fromtimestamp(live.data.created_at, datetime.UTC).date(),
            seed=live.data.seed if live.data.status == "finished" else None,
            outcome=outcome if server_decided else None,
        )
