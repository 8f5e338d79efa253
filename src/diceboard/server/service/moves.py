"""Moves and the clock: a player's move checked and played (with the server's rolls joined
to it), the mover's clock charged, and resigning."""

from __future__ import annotations

import time
from typing import Any

from diceboard.server import clocks
from diceboard.server.errors import Conflict, Forbidden
from diceboard.server.live import RESIGNATION, LiveGame, play_decision
from diceboard.server.service.core import ServiceCore, ended, finished, next_revision
from diceboard.server.storage import MoveData
from diceboard.server.storage.rows import replaced


def seat_name(live: LiveGame, seat: str | None) -> str:
    """The colour name of ``seat`` (``nobody`` for none)."""
    if seat is None:
        return "nobody"
    return live.rules.player_names[live.players.index(seat)]


class Moves:
    """Playing moves and resigning."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def move(
        self, game_id: str, token: str | None, text: str, version: int | None
    ) -> LiveGame:
        """Play ``text`` for the seat ``token`` holds. 409 (with the current game) if the game
        has moved on since ``version``, or it is not this seat's turn."""
        async with self.core.action(game_id, token) as act:
            live = act.live
            if version is not None and version != live.data.version:
                raise Conflict(
                    f"the game is at version {live.data.version}, not {version}: "
                    "another move came first",
                    live,
                )
            side = live.side_to_move()
            if side not in act.seats:
                raise Conflict(f"it is {seat_name(live, side)}'s turn, not yours", live)
            return await self.play(live, side, text)

    async def play(self, live: LiveGame, side: str, text: str) -> LiveGame:
        """Play ``text`` for ``side`` in ``live`` (checked by the engine; lock held)."""
        now = time.time()
        index = len(live.moves)
        move = play_decision(live.state, text, live.data.seed, index)
        state = live.state.play(move)
        outcome = state.outcome()
        next_side = None if outcome is not None else state.to_move
        data, mover_ms = clocks.charge(live.data, live.players, side, next_side, now)
        changes: dict[str, Any] = {
            "version": data.version + 1,
            "move_count": index + 1,
            "draw_offer": None,
            "takeback_offer": None,
        }
        if outcome is not None:
            changes.update(finished(live.players, outcome.winner, outcome.reason))
        data = next_revision(data, now, **changes)
        played = MoveData(move.notation, side, now, mover_ms)
        after = replaced(live, data=data, moves=(*live.moves, played), state=state)
        return await self.core.commit(live, after, new_moves=(played,))

    async def resign(self, game_id: str, token: str | None, seat: str | None) -> LiveGame:
        """The seat (at one screen: ``seat``, else the side to move) gives up."""
        async with self.core.action(game_id, token) as act:
            if seat is not None:
                if seat.upper() not in act.seats:
                    raise Forbidden(f"you do not hold seat {seat!r}")
                loser = seat.upper()
            else:
                loser = act.me
            live = act.live
            return await self.core.commit(
                live, ended(live, live.opponent(loser), RESIGNATION, act.now)
            )

    async def undo(self, live: LiveGame, keep: int | None, now: float) -> LiveGame:
        """The game with the moves from index ``keep`` on removed (a takeback; lock held)."""
        if keep is None:
            raise Conflict("there is no move to take back", live)
        state = list(live.state.path())[keep]
        data = clocks.restart(live.data, live.players, state.to_move, now)
        data = next_revision(
            data,
            now,
            version=data.version + 1,
            move_count=keep,
            draw_offer=None,
            takeback_offer=None,
        )
        after = replaced(live, data=data, moves=live.moves[:keep], state=state)
        return await self.core.commit(live, after, keep_moves=keep)
