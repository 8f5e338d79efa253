"""Game records in and out: a record imported for replaying (nobody can act in it, everyone
watches) and the record of a stored game (with its seed once the game is over)."""

from __future__ import annotations

import datetime
import time

from diceboard.records import GameRecord
from diceboard.server.live import LiveGame
from diceboard.server.service.core import ServiceCore
from diceboard.server.service.lifecycle import new_game_data
from diceboard.server.storage import MoveData, SeatData


class ImportExport:
    """Importing records and exporting games as records."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

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
        server_decided = outcome is not None and live.state.outcome() is None
        return GameRecord.from_state(
            live.state,
            players=names,
            date=datetime.datetime.fromtimestamp(live.data.created_at, datetime.UTC).date(),
            seed=live.data.seed if live.data.status == "finished" else None,
            outcome=outcome if server_decided else None,
        )
