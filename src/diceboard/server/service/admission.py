"""Whether a client may create the game it asks for, beyond the creation rate (which the
HTTP API checks): a game against the computer needs room in the client's share of the
computer (:meth:`~diceboard.server.computer.ComputerPool.check_room`), and one client may
have at most ``lobby_per_client`` listed games waiting in the lobby, so that nobody floods it.

The lobby count lives in this process's memory: it is lost on a restart and not shared with
other processes, where the creation rate and the games' expiry still bound a flood.
"""

from __future__ import annotations

from diceboard.server.errors import TooManyRequests
from diceboard.server.limits import current_client
from diceboard.server.schemas import NewGame
from diceboard.server.service.core import ServiceCore

#: clients whose listed games are remembered, at most (the least recent are forgotten)
_CLIENTS_KEPT = 10_000


class Admission:
    """The creation checks of one server."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        #: the listed games each client created that may still be waiting
        self._listed: dict[str, list[str]] = {}

    async def before_create(self, request: NewGame) -> None:
        """429 if the current client may not create ``request`` now."""
        if request.mode == "computer":
            self.core.pool.check_room()
        if request.listed:
            client = current_client()
            waiting = await self._still_waiting(self._listed.get(client, []))
            self._listed[client] = waiting
            limit = self.core.settings.lobby_per_client
            if len(waiting) >= limit:
                raise TooManyRequests(
                    f"you already have {len(waiting)} games waiting in the lobby (at most "
                    f"{limit}); wait for an opponent or let one expire",
                    60.0,
                )

    def created(self, game_id: str, listed: bool) -> None:
        """Count a game the current client just created."""
        if not listed:
            return
        client = current_client()
        games = self._listed.pop(client, [])
        games.append(game_id)
        self._listed[client] = games  # most recent last
        while len(self._listed) > _CLIENTS_KEPT:
            del self._listed[next(iter(self._listed))]

    async def _still_waiting(self, ids: list[str]) -> list[str]:
        if not ids:
            return []
        core = self.core
        found = await core.db(core.repository.summaries, ids)
        return [data.id for data, _seats in found if data.status == "waiting" and data.listed]
