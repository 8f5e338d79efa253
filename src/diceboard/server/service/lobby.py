"""Reading games in bulk: the lobby of listed games waiting for an opponent, and the short
descriptions of a browser's recent games."""

from __future__ import annotations

from diceboard.server.service.core import ServiceCore
from diceboard.server.storage import GameData, SeatData


class Lobby:
    """Listings of games."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def lobby(self, limit: int = 50) -> list[tuple[GameData, list[SeatData]]]:
        """Listed games waiting for an opponent."""
        return await self.core.db(self.core.repository.lobby, limit)

    async def summaries(self, ids: list[str]) -> list[tuple[GameData, list[SeatData]]]:
        """The games among ``ids`` that exist."""
        return await self.core.db(self.core.repository.summaries, ids)
