"""The chat of online games: the two players write, everyone watching reads.

A message is one line of plain text (:class:`~diceboard.server.schemas.ChatPost`), stored
with its game (:mod:`diceboard.server.storage.chat`) and pushed to every viewer as a
``notice`` with ``event: "chat"`` through the hub. Posting is rate-limited per client (the
``chat`` limit of :mod:`diceboard.server.limits`) and a game holds at most
:data:`MAX_PER_GAME` messages. Clients insert messages as text, never as markup.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from diceboard.server.errors import Conflict, Forbidden, Unauthorized
from diceboard.server.limits import Limits
from diceboard.server.service import GameService
from diceboard.server.storage.chat import ChatStore
from diceboard.server.storage.database import Database

#: messages one game keeps (a full chat refuses more)
MAX_PER_GAME = 1000
#: messages one read returns at most
HISTORY = 200
T = TypeVar("T")


def spectators(service: GameService, game_id: str) -> int:
    """How many connections watch ``game_id`` without holding a seat."""
    return service.hub.spectators(game_id)


class Chat:
    """Posting and reading the chat of the games of one service."""

    def __init__(self, service: GameService, database: Database, limits: Limits) -> None:
        self.service = service
        self.store = ChatStore(database)
        self.limits = limits

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        if self.store.embedded:  # as the repository: an SQLite call is quicker than a thread
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    async def post(self, game_id: str, token: str | None, text: str) -> dict[str, Any]:
        """Store ``text`` as a message of the player ``token`` holds a seat for, and push it
        to every viewer; the notice as sent (the message and the spectator count)."""
        live = await self.service.get(game_id)
        if live.data.mode != "online":
            raise Conflict("only online games have a chat")
        if not token:
            raise Unauthorized("only the players write in the chat: send your seat token")
        seats = self.service.seats_of(live, token)
        if not seats:
            raise Forbidden("spectators read the chat; only the two players write in it")
        self.limits.check("chat")
        if await self._db(self.store.count, game_id) >= MAX_PER_GAME:
            raise Conflict(f"this game's chat is full ({MAX_PER_GAME} messages)")
        seat = seats[0]
        message = await self._db(
            self.store.add, game_id, seat, live.seats[seat].name, text, time.time()
        )
        notice = {
            "event": "chat",
            "message": message.to_json(),
            "spectators": spectators(self.service, game_id),
        }
        self.service.hub.notice(game_id, notice)
        return notice

    async def read(self, game_id: str, after: int) -> dict[str, Any]:
        """The messages after id ``after`` (oldest first) and the spectator count."""
        live = await self.service.get(game_id)
        messages = (
            await self._db(self.store.after, game_id, after, HISTORY)
            if live.data.mode == "online"
            else []
        )
        return {
            "messages": [m.to_json() for m in messages],
            "spectators": spectators(self.service, game_id),
        }
