"""The game service: every action on a game, checked, committed, then pushed to viewers.

The engine decides every rule; the service adds seats, turns, clocks, offers and the server's
rolls. It is split by job, each part over the shared :class:`~.core.ServiceCore` (the games
in memory, their locks, committing, and the preamble of every action):

- :mod:`.lifecycle`: the server starting and stopping, creating and joining games;
- :mod:`.moves`: moves, the clock they charge, resigning, taking moves back;
- :mod:`.computer_turns`: the computer's turns, its answer to a draw offer, hints;
- :mod:`.offers`: one state machine for draw, takeback and rematch offers;
- :mod:`.import_export`: game records in and out;
- :mod:`.lobby`: listings of games;
- :mod:`.admission`: what one client may create (its lobby share, its computer share);
- :mod:`.expiry`: ending games nobody joined or plays (answered 410 afterwards).

:class:`GameService` is the facade the HTTP API and the WebSocket call.
"""

from __future__ import annotations

from typing import Any

from diceboard.records import GameRecord
from diceboard.server.collector import keep_pauses_short
from diceboard.server.computer import ComputerPool
from diceboard.server.hub import Hub
from diceboard.server.live import LiveGame
from diceboard.server.schemas import NewGame
from diceboard.server.service.admission import Admission
from diceboard.server.service.computer_turns import ComputerTurns
from diceboard.server.service.core import ServiceCore, seats_of
from diceboard.server.service.expiry import Expiry, refuse_if_gave_up
from diceboard.server.service.import_export import ImportExport
from diceboard.server.service.lifecycle import Lifecycle, SeatGrant
from diceboard.server.service.lobby import Lobby
from diceboard.server.service.moves import Moves
from diceboard.server.service.offers import DrawOffer, Offers, RematchOffer, TakebackOffer
from diceboard.server.settings import ServerSettings
from diceboard.server.storage import GameData, Repository, SeatData


class GameService:
    """Creates games and carries out every player's and the computer's actions."""

    def __init__(
        self, repository: Repository, pool: ComputerPool, hub: Hub, settings: ServerSettings
    ) -> None:
        self.core = ServiceCore(repository, pool, hub, settings)
        self.lifecycle = Lifecycle(self.core)
        self.moves = Moves(self.core)
        self.computer = ComputerTurns(self.core, self.moves)
        self.offers = Offers(self.core)
        self._draw = DrawOffer(self.core, self.computer)
        self._takeback = TakebackOffer(self.core, self.moves)
        self._rematch = RematchOffer(self.core, self.lifecycle)
        self.records = ImportExport(self.core)
        self.listings = Lobby(self.core)
        self.admission = Admission(self.core)
        self.expiry = Expiry(self.core)

    @property
    def hub(self) -> Hub:
        """The viewers' hub."""
        return self.core.hub

    @staticmethod
    def seats_of(live: LiveGame, token: str | None) -> list[str]:
        """The seats of ``live`` that ``token`` holds (none for a spectator)."""
        return seats_of(live, token)

    async def start(self) -> None:
        """Resume every game in play (:meth:`begin`, then :meth:`finish`)."""
        await self.begin()
        await self.finish()

    async def begin(self) -> bool:
        """The part of :meth:`start` that needs no game kernel; whether stored games can then
        be resumed game by game (see :meth:`.lifecycle.Lifecycle.begin`)."""
        return await self.lifecycle.begin()

    async def resume(self, game: str) -> None:
        """After :meth:`begin`: resume the games in play of the game ``game``, whose kernels
        are ready."""
        await self.lifecycle.resume(game)

    async def finish(self) -> None:
        """After :meth:`begin`, once every game's kernels are ready: the rest of
        :meth:`start`."""
        await self.lifecycle.resume_rest()
        self.expiry.start()
        # Everything loaded so far (the web framework, SQLAlchemy, numba, the kernels) lives as
        # long as the server, and so does most of what follows (sockets, games): without
        # freezing it, each full collection walks all of it again and stalls the event loop
        # for 100 ms and more under load (see collector.py)
        self.core.spawn(keep_pauses_short())

    async def game_of(self, game_id: str) -> str | None:
        """The name of the game that ``game_id`` plays, read without its kernels (``None``:
        no such game)."""
        live = self.core.cached(game_id)
        if live is not None:
            return live.rules.name
        return await self.core.db(self.core.repository.game_of, game_id)

    async def stop(self) -> None:
        """Stop timers, computer turns and the heartbeat."""
        await self.expiry.stop()
        await self.lifecycle.stop()
        self.records.close()

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``; 404 if unknown."""
        return await self.core.get(game_id)

    async def create(self, request: NewGame) -> SeatGrant:
        """A new game as ``request`` describes it; the creator gets a seat token."""
        place = await self.admission.before_create(request)
        try:
            grant = await self.lifecycle.create(request)
        except BaseException:
            self.admission.cancel(place)
            raise
        self.admission.created(place, grant.live.id)
        return grant

    async def _live(self, game_id: str) -> LiveGame:
        """The game ``game_id`` for an action: 404 if unknown, 410 if it expired."""
        live = await self.core.get(game_id)
        refuse_if_gave_up(live)
        return live

    async def join(self, game_id: str, code: str | None, name: str | None) -> SeatGrant:
        """Take the open seat of a waiting game."""
        await self._live(game_id)
        return await self.lifecycle.join(game_id, code, name)

    async def move(
        self, game_id: str, token: str | None, text: str, version: int | None
    ) -> LiveGame:
        """Play ``text`` for the seat ``token`` holds."""
        await self._live(game_id)
        return await self.moves.move(game_id, token, text, version)

    async def resign(self, game_id: str, token: str | None, seat: str | None) -> LiveGame:
        """The seat gives up."""
        await self._live(game_id)
        return await self.moves.resign(game_id, token, seat)

    async def draw(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Offer, accept or decline a draw."""
        await self._live(game_id)
        return await self.offers.act(self._draw, game_id, token, action)

    async def takeback(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Ask for, accept or decline taking back a move."""
        await self._live(game_id)
        return await self.offers.act(self._takeback, game_id, token, action)

    async def rematch(self, game_id: str, token: str | None, action: str) -> dict[str, Any]:
        """Offer, accept or decline a rematch; once it exists, the caller's seat there."""
        await self._live(game_id)
        return await self.offers.act(self._rematch, game_id, token, action)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's suggestion for the player to move."""
        await self._live(game_id)
        return await self.computer.hint(game_id, token)

    async def import_record(self, record: GameRecord) -> LiveGame:
        """Store a game record for replaying."""
        return await self.records.import_record(record)

    async def import_text(self, text: str) -> LiveGame:
        """Read a record's text (JSON or PGN, off the event loop, within the import caps) and
        store it for replaying."""
        return await self.records.import_text(text)

    async def record(self, game_id: str) -> GameRecord:
        """The record of a game as it stands."""
        return await self.records.record(game_id)

    async def lobby(self, limit: int = 50) -> list[tuple[GameData, list[SeatData]]]:
        """Listed games waiting for an opponent."""
        return await self.listings.lobby(limit)

    async def summaries(self, ids: list[str]) -> list[tuple[GameData, list[SeatData]]]:
        """The games among ``ids`` that exist."""
        return await self.listings.summaries(ids)


__all__ = ["GameService", "SeatGrant"]
