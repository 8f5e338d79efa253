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
        #: the listed games each client created that may still be waiting (``?n``: a place
        #: held for a game being created)
        self._listed: dict[str, list[str]] = {}
        self._held = 0

    async def before_create(self, request: NewGame) -> str | None:
        """429 if the current client may not create ``request`` now; else the place held for
        it in the lobby (hand it to :meth:`created` or :meth:`cancel`), if it is listed."""
        if request.mode == "computer":
            self.core.pool.check_room()
        if not request.listed:
            return None
        client = current_client()
        known = [i for i in self._listed.get(client, []) if not i.startswith("?")]
        if known:
            waiting = set(await self._still_waiting(known))
            # other creations may have changed the list while this one waited
            games = self._listed.get(client, [])
            games[:] = [i for i in games if i.startswith("?") or i in waiting]
        games = self._listed.setdefault(client, [])
        limit = self.core.settings.lobby_per_client
        if len(games) >= limit:
            raise TooManyRequests(
                f"you already have {len(games)} games waiting in the lobby (at most {limit}); "
                "wait for an opponent or let one expire",
                60.0,
            )
        self._held += 1
        place = f"?{self._held}"  # never a game id
        games.append(place)
        while len(self._listed) > _CLIENTS_KEPT:
            del self._listed[next(iter(self._listed))]
        return place

    def created(self, place: str | None, game_id: str) -> None:
        """The game that ``place`` was held for now exists."""
        if place is not None:
            games = self._listed.get(current_client(), [])
            games[:] = [game_id if i == place else i for i in games]

    def cancel(self, place: str | None) -> None:
        """The creation that ``place`` was held for failed."""
        if place is not None:
            games = self._listed.get(current_client(), [])
            games[:] = [i for i in games if i != place]

    async def _still_waiting(self, ids: list[str]) -> list[str]:
        core = self.core
        found = await core.db(core.repository.summaries, ids)
        return [data.id for data, _seats in found if data.status == "waiting" and data.listed]
