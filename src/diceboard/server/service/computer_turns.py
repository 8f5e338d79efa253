"""The computer at the table: its turns (thought out in the worker pool, played under the
game's lock unless the game moved on meanwhile), its answer to a draw offer, and hints.

Every job goes to the pool in the turn of the client that caused it (see
:class:`~diceboard.server.computer.ComputerPool`): the creator of a game the computer opens,
the player whose move the computer answers. Requests for the same hint share one job, and a
hint still being worked out when the position moves on is cancelled (dropped if no worker has
taken it yet)."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from dataclasses import dataclass
from typing import Any

from diceboard.server.computer_players import FALLBACK_AGENT, ThinkTask, hint_agent
from diceboard.server.errors import Conflict, Forbidden
from diceboard.server.limits import current_client
from diceboard.server.live import LiveGame
from diceboard.server.move_json import move_json
from diceboard.server.service.core import ServiceCore
from diceboard.server.service.moves import Moves

log = logging.getLogger(__name__)

#: a computer accepts a draw only when it judges its own position this bad (value in [-1, 1])
COMPUTER_DRAW_THRESHOLD = -0.5


def think_task(live: LiveGame, agent: str, analyse: bool = False) -> ThinkTask:
    """The question for the worker pool: ``agent``'s move (and its value) in ``live``."""
    return ThinkTask(
        game_id=live.id,
        game=live.rules.name,
        options=live.data.options,
        start_position=live.data.start_position,
        moves=tuple(m.notation for m in live.moves),
        agent=agent,
        seed=(live.data.seed * 1_000_003 + len(live.moves)) % 2**62,
        analyse=analyse,
    )


@dataclass(eq=False)
class _Hint:
    """A hint being worked out: for which version of the game, and how many requests wait."""

    version: int
    task: asyncio.Task[dict[str, Any]]
    waiters: int = 0


class ComputerTurns:
    """Starts the computer's turn whenever a game waits for it (a watcher of the core)."""

    def __init__(self, core: ServiceCore, moves: Moves) -> None:
        self.core = core
        self.moves = moves
        self._thinking: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._hints: dict[str, _Hint] = {}
        core.watchers.append(self.schedule)

    def schedule(self, live: LiveGame) -> None:
        """Start thinking if the computer is to move in ``live`` (once per version), and
        cancel a hint for an earlier position."""
        hint = self._hints.get(live.id)
        if hint is not None and hint.version != live.data.version:
            hint.task.cancel()
            del self._hints[live.id]
        if not live.computer_to_move():
            return
        pending = self._thinking.get(live.id)
        if pending is not None and pending[0] == live.data.version and not pending[1].done():
            return
        task = asyncio.create_task(self._turn(live.id, live.data.version, current_client()))
        self._thinking[live.id] = (live.data.version, task)
        self.core.tasks.add(task)
        task.add_done_callback(self.core.tasks.discard)
        task.add_done_callback(functools.partial(self._forget, live.id))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        pending = self._thinking.get(game_id)
        if pending is not None and pending[1] is task:
            del self._thinking[game_id]

    async def ensure_room(self, game_id: str) -> None:
        """429 if a move in ``game_id`` would give the computer a turn to think out and the
        current client already has as many computer jobs as it may (checked before the move
        is made, since a computer's turn, once due, is never refused)."""
        # the game as held in memory will do (with other processes, without reading its
        # revision again: the move reads it under the game's lock): whether a seat is the
        # computer's never changes, and a game that ended meanwhile only makes the check moot
        live = self.core.cached(game_id) or await self.core.get(game_id)
        if live.in_play() and any(seat.kind == "computer" for seat in live.seats.values()):
            self.core.pool.check_room()

    async def _turn(self, game_id: str, version: int, client: str) -> None:
        core = self.core
        started = time.monotonic()
        try:
            live = await core.get(game_id)
            if live.data.version != version or not live.computer_to_move():
                return
            side = live.side_to_move()
            assert side is not None
            agent = live.seats[side].agent or FALLBACK_AGENT
            try:
                answer = await core.pool.run(think_task(live, agent), client=client)
            except Exception:
                log.exception("computer %r failed in game %s; playing randomly", agent, game_id)
                answer = await core.pool.run(think_task(live, FALLBACK_AGENT), client=client)
            wait = core.settings.computer_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with core.lock(game_id):
                live = await core.get(game_id)
                if live.data.version != version or live.side_to_move() != side:
                    return  # the game moved on (a takeback, a timeout) while it thought
                live = await core.settle_flag(live)
                if not live.in_play():
                    return
                await self.moves.play(live, side, answer["best"])
        except asyncio.CancelledError:
            raise
        except Conflict:
            pass
        except Exception:
            log.exception("computer move failed in game %s", game_id)

    async def accepts_draw(self, live: LiveGame, computer: str) -> bool:
        """Whether the computer playing ``computer`` takes a draw: only when it is to move
        and judges its position lost."""
        if live.side_to_move() != computer:
            return False
        agent = live.seats[computer].agent or FALLBACK_AGENT
        answer = await self.core.pool.run(think_task(live, agent, analyse=True))
        return float(answer["value"]) < COMPUTER_DRAW_THRESHOLD

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's suggestion for the player to move (games against the computer and
        at one screen only)."""
        live = await self.core.get(game_id)
        seats = self.core.require_seats(live, token)
        if live.data.mode == "online":
            raise Forbidden("hints are for games against the computer or at one screen")
        self.core.require_in_play(live)
        side = live.side_to_move()
        if side not in seats:
            raise Conflict("a hint is for the player to move; it is the computer's turn", live)
        hint = self._hints.get(game_id)
        if hint is None or hint.version != live.data.version or hint.task.done():
            task = asyncio.create_task(self._hint(live, current_client()))
            hint = self._hints[game_id] = _Hint(live.data.version, task)
            task.add_done_callback(functools.partial(self._hint_done, game_id, hint))
        hint.waiters += 1
        try:
            return await asyncio.shield(hint.task)
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if hint.task.cancelled() and (me is None or not me.cancelling()):
                current = await self.core.get(game_id)
                raise Conflict(
                    "the position changed before the hint was ready; ask again", current
                ) from None
            raise
        finally:
            hint.waiters -= 1
            if hint.waiters == 0 and not hint.task.done():
                hint.task.cancel()  # nobody waits for it any more

    def _hint_done(self, game_id: str, hint: _Hint, _task: asyncio.Task[Any]) -> None:
        if self._hints.get(game_id) is hint:
            del self._hints[game_id]

    async def _hint(self, live: LiveGame, client: str) -> dict[str, Any]:
        task = think_task(live, hint_agent(), analyse=True)
        answer = await self.core.pool.run(task, client=client, kind="hint")
        best = live.state.parse_move(answer["best"])
        return {
            "version": live.data.version,
            "best": move_json(live.state, best),
            "value": answer["value"],
            "pv": answer["pv"],
        }
