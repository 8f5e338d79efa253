"""The WebSocket hub: who watches which game, and pushing every change to them.

A change is turned into text once per kind of viewer, not once per socket: the viewers of a
game fall into a few groups (the seats they hold, the board orientation, with or without
pictures; every spectator of one orientation is one group), and each group's ``state``
message is built and serialised once and the same text queued to all of its sockets. Queuing
never waits: each viewer has a bounded outgoing queue drained by its own writer task, so a
slow or stalled browser never holds up a move, the loop or the other viewers; a viewer whose
queue overflows is disconnected (its page reconnects and gets a fresh snapshot).

With several server processes (:mod:`diceboard.server.cluster`) the hub also knows which seats
are connected to the other processes, and relays notices to them.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diceboard.server.jsontext import dumps
from diceboard.server.live import LiveGame
from diceboard.server.storage.rows import MoveData
from diceboard.server.views import ViewCache, moves_in_common

log = logging.getLogger(__name__)

#: messages a viewer may have waiting before it is dropped
QUEUE_LIMIT = 64


@dataclass
class Answer:
    """A move that came over ``viewer``'s socket, to acknowledge (``id``: the message's)."""

    viewer: Viewer
    id: Any
    #: whether the state message that holds the move has carried the acknowledgement
    given: bool = False


#: the move being answered in this task, if it came over a socket: the state message that
#: holds it acknowledges it to a viewer that asked for changes only, which then needs no
#: ``ack`` message of its own (tasks started meanwhile inherit it, already given)
ANSWERING: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("answering", default=None)


class Viewer:
    """One WebSocket connection to one game: the seats it holds (none for a spectator) and
    the board orientation it asked for."""

    def __init__(
        self,
        game_id: str,
        seats: list[str],
        flipped: bool,
        pictures: bool = True,
        delta: bool = False,
    ) -> None:
        self.game_id = game_id
        self.seats = seats
        self.flipped = flipped
        self.pictures = pictures
        #: whether the viewer asked for changes only (see :meth:`moves_from`)
        self.delta = delta
        #: the game's moves as the viewer was last sent them (``delta`` viewers)
        self.sent: tuple[MoveData, ...] = ()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False
        #: the close code the writer ends the connection with
        self.close_code = 1000
        self.closing = False

    def moves_from(self, live: LiveGame) -> int | None:
        """How many of ``live``'s moves this viewer already has (``None``: it is sent every
        snapshot whole), remembering that it will have them all."""
        if not self.delta:
            return None
        common = moves_in_common(self.sent, live.moves)
        self.sent = live.moves
        return common

    def send(self, text: str) -> None:
        """Queue ``text``; a full queue marks the viewer for disconnection."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            log.info("viewer of %s is too slow; disconnecting it", self.game_id)
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self, code: int = 1000) -> None:
        """Ask the writer to stop (after what is queued), closing with ``code`` (the first
        code asked for stands)."""
        if self.closing:
            return
        self.closing = True
        self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.overflowed = True


class Hub:
    """Viewers by game, and the messages sent to them."""

    def __init__(self, views: ViewCache) -> None:
        self._views = views
        self._viewers: dict[str, set[Viewer]] = {}
        #: the seats connected to other server processes: game -> process -> seats
        self._remote: dict[str, dict[str, frozenset[str]]] = {}
        #: called when the set of connected seats of a game changes
        self.on_presence: Callable[[str], None] | None = None
        #: called with every notice, to pass it on to the viewers of other server processes
        self.relay: Callable[[str, dict[str, Any]], None] | None = None

    def add(self, viewer: Viewer) -> None:
        """Start pushing ``viewer``'s game to it."""
        before = self.connected(viewer.game_id)
        self._viewers.setdefault(viewer.game_id, set()).add(viewer)
        if self.connected(viewer.game_id) != before and self.on_presence:
            self.on_presence(viewer.game_id)

    def remove(self, viewer: Viewer) -> None:
        """Stop pushing to ``viewer``."""
        before = self.connected(viewer.game_id)
        viewers = self._viewers.get(viewer.game_id)
        if viewers is not None:
            viewers.discard(viewer)
            if not viewers:
                del self._viewers[viewer.game_id]
        if self.connected(viewer.game_id) != before and self.on_presence:
            self.on_presence(viewer.game_id)

    def local_seats(self, game_id: str) -> frozenset[str]:
        """The seats with an open connection to this process."""
        return frozenset(s for v in self._viewers.get(game_id, ()) for s in v.seats)

    def connected(self, game_id: str) -> set[str]:
        """The seats that have at least one open connection (to any server process)."""
        seats = set(self.local_seats(game_id))
        for remote in self._remote.get(game_id, {}).values():
            seats |= remote
        return seats

    def set_remote_seats(self, game_id: str, process: str, seats: frozenset[str]) -> None:
        """Another server ``process`` now has connections for ``seats`` of ``game_id``."""
        before = self.connected(game_id)
        games = self._remote.setdefault(game_id, {})
        if seats:
            games[process] = seats
        else:
            games.pop(process, None)
            if not games:
                del self._remote[game_id]
        if self.connected(game_id) != before and self.on_presence:
            self.on_presence(game_id)

    def forget_process(self, process: str) -> None:
        """A server process has gone: its connections no longer count."""
        for game_id in [g for g, by in self._remote.items() if process in by]:
            self.set_remote_seats(game_id, process, frozenset())

    def watched(self) -> list[str]:
        """The games that have viewers on this process."""
        return list(self._viewers)

    def watchers(self, game_id: str) -> int:
        """How many connections watch ``game_id``."""
        return len(self._viewers.get(game_id, ()))

    def spectators(self, game_id: str) -> int:
        """How many connections to this process watch ``game_id`` holding no seat (a player's
        second tab holds its seat too, so it is no spectator)."""
        return sum(1 for v in self._viewers.get(game_id, ()) if not v.seats)

    def state_message(
        self, live: LiveGame, viewer_seats: list[str], flipped: bool, pictures: bool = True
    ) -> str:
        """The whole snapshot of ``live`` for a viewer holding ``viewer_seats``."""
        return self._message(live, viewer_seats, flipped, pictures, self.connected(live.id))

    def message_for(self, viewer: Viewer, live: LiveGame) -> str:
        """The ``state`` message of ``live`` for ``viewer`` (changes only, for a viewer that
        asked for them, counted from what it was last sent)."""
        return self._message(
            live,
            viewer.seats,
            viewer.flipped,
            viewer.pictures,
            self.connected(live.id),
            viewer.moves_from(live),
        )

    def _message(
        self,
        live: LiveGame,
        viewer_seats: list[str],
        flipped: bool,
        pictures: bool,
        connected: set[str],
        moves_from: int | None = None,
        ack: dict[str, Any] | None = None,
    ) -> str:
        invite = None
        if live.data.status == "waiting" and viewer_seats:
            invite = live.data.invite_code
        return self._views.message(
            live, flipped, connected, viewer_seats, invite, pictures, moves_from, ack
        )

    def publish(self, live: LiveGame) -> None:
        """Send the new snapshot of ``live`` to everyone watching it: built once per group
        of viewers that see the same message, queued to each without waiting. The socket whose
        move this is (:data:`ANSWERING`), if it asked for changes only, gets its own message
        that acknowledges the move."""
        viewers = self._viewers.get(live.id)
        if not viewers:
            return
        connected = self.connected(live.id)
        built: dict[tuple[tuple[str, ...], bool, bool, int | None], str] = {}
        answer = ANSWERING.get()
        if answer is not None and (answer.given or answer.viewer not in viewers):
            answer = None
        for viewer in list(viewers):
            moves_from = viewer.moves_from(live)
            if answer is not None and viewer is answer.viewer and viewer.delta:
                ack = {"id": answer.id, "version": live.data.version}
                viewer.send(
                    self._message(
                        live,
                        viewer.seats,
                        viewer.flipped,
                        viewer.pictures,
                        connected,
                        moves_from,
                        ack,
                    )
                )
                answer.given = True
                continue
            key = (tuple(viewer.seats), viewer.flipped, viewer.pictures, moves_from)
            text = built.get(key)
            if text is None:
                text = self._message(
                    live, viewer.seats, viewer.flipped, viewer.pictures, connected, moves_from
                )
                built[key] = text
            viewer.send(text)

    def notice(self, game_id: str, payload: dict[str, Any]) -> None:
        """Send an event that is not a new snapshot (a declined offer) to everyone, on this
        process and (through :attr:`relay`) the others."""
        self.notice_here(game_id, payload)
        if self.relay is not None:
            self.relay(game_id, payload)

    def notice_here(self, game_id: str, payload: dict[str, Any]) -> None:
        """Send a notice to this process's viewers of ``game_id`` only."""
        viewers = self._viewers.get(game_id)
        if not viewers:
            return
        text = dumps({"type": "notice", **payload})
        for viewer in list(viewers):
            viewer.send(text)

    def close_all(self) -> None:
        """Stop every writer (server shutdown)."""
        for viewers in self._viewers.values():
            for viewer in viewers:
                viewer.close()
