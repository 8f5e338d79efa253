"""Games that nobody will finish: an online game nobody joined within ``waiting_expiry``
seconds *expires*, and a game in play in which nothing happened for ``abandoned_expiry``
seconds is *abandoned*. A periodic task (every ``expiry_interval`` seconds) ends them with
no result (``*``) and the reason ``expired`` or ``abandoned``: they leave the lobby, can still
be watched and downloaded, and any action in them is answered 410 Gone.

Several server processes on one database may all run the task: each expiry is a guarded
commit, so exactly one of them ends a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from diceboard.server import clocks
from diceboard.server.errors import Conflict, Gone
from diceboard.server.live import LiveGame
from diceboard.server.service.core import ServiceCore, next_revision

log = logging.getLogger(__name__)

#: the outcome reasons of a game the server gave up on
EXPIRED = "expired"
ABANDONED = "abandoned"
#: games ended in one round of the task, at most
BATCH = 200


def gave_up(live: LiveGame) -> bool:
    """Whether ``live`` was ended by expiry (nothing can be done in it any more)."""
    return live.data.status == "finished" and live.data.reason in (EXPIRED, ABANDONED)


def refuse_if_gave_up(live: LiveGame) -> None:
    """410 Gone for an action in a game that expired or was abandoned."""
    if live.data.reason == EXPIRED and gave_up(live):
        raise Gone(f"game {live.id} expired: nobody joined it in time; create a new one")
    if gave_up(live):
        raise Gone(f"game {live.id} was abandoned: nobody moved in it for too long")


class Expiry:
    """The periodic task that ends waiting and abandoned games."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the periodic task (unless both expiries are switched off)."""
        settings = self.core.settings
        if settings.waiting_expiry or settings.abandoned_expiry:
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop the periodic task."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.expire(time.time())
            except Exception:
                log.exception("expiring old games failed")
            await asyncio.sleep(self.core.settings.expiry_interval)

    def _cutoffs(self, now: float) -> tuple[float, float]:
        settings = self.core.settings
        # an expiry of 0 is "never": a cutoff before every timestamp
        waiting = now - settings.waiting_expiry if settings.waiting_expiry else -1.0
        idle = now - settings.abandoned_expiry if settings.abandoned_expiry else -1.0
        return waiting, idle

    async def expire(self, now: float) -> list[str]:
        """End every game due to expire at ``now``; the ids of those ended."""
        core = self.core
        waiting_before, idle_before = self._cutoffs(now)
        ids = await core.db(core.repository.stale_ids, waiting_before, idle_before, BATCH)
        ended = []
        for game_id in ids:
            try:
                if await self._end(game_id, now, waiting_before, idle_before):
                    ended.append(game_id)
            except Conflict:
                pass  # it changed meanwhile (a move, another process): it is not stale
        if ended:
            log.info("ended %d games nobody joined or played: %s", len(ended), ", ".join(ended))
        return ended

    async def _end(
        self, game_id: str, now: float, waiting_before: float, idle_before: float
    ) -> bool:
        core = self.core
        async with core.lock(game_id):
            live = await core.get(game_id)
            data = live.data
            if data.status == "waiting" and data.created_at < waiting_before:
                reason = EXPIRED
            elif data.status == "active" and data.updated_at < idle_before:
                reason = ABANDONED
            else:
                return False
            stopped = clocks.restart(data, live.players, None, now)
            after = next_revision(
                stopped,
                now,
                status="finished",
                winner=None,
                reason=reason,
                result="*",
                draw_offer=None,
                takeback_offer=None,
                listed=False,
                invite_code=None,
            )
            await core.commit(live, LiveGame(after, live.seats, live.moves, live.rules, live.state))
            return True
