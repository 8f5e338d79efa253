"""The WebSocket hub: who watches which game, and pushing every change to them.

Each viewer has a bounded outgoing queue drained by its own writer task, so a slow or stalled
browser never holds up a move or the other viewers; a viewer whose queue overflows is
disconnected (its page reconnects and gets a fresh snapshot).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from diceboard.server.live import LiveGame
from diceboard.server.views import ViewCache

log = logging.getLogger(__name__)

#: messages a viewer may have waiting before it is dropped
QUEUE_LIMIT = 64


class Viewer:
    """One WebSocket connection to one game: the seats it holds (none for a spectator) and
    the board orientation it asked for."""

    def __init__(
        self, game_id: str, seats: list[str], flipped: bool, pictures: bool = True
    ) -> None:
        self.game_id = game_id
        self.seats = seats
        self.flipped = flipped
        self.pictures = pictures
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False
        #: the close code the writer ends the connection with
        self.close_code = 1000
        self.closing = False

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
        #: called when the set of connected seats of a game changes
        self.on_presence: Callable[[str], None] | None = None

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

    def connected(self, game_id: str) -> set[str]:
        """The seats that have at least one open connection."""
        return {s for v in self._viewers.get(game_id, ()) for s in v.seats}

    def watchers(self, game_id: str) -> int:
        """How many connections watch ``game_id``."""
        return len(self._viewers.get(game_id, ()))

    def state_message(
        self, live: LiveGame, viewer_seats: list[str], flipped: bool, pictures: bool = True
    ) -> str:
        """The snapshot of ``live`` for a viewer holding ``viewer_seats``."""
        invite = None
        if live.data.status == "waiting" and viewer_seats:
            invite = live.data.invite_code
        return self._views.message(
            live, flipped, self.connected(live.id), viewer_seats, invite, pictures
        )

    def publish(self, live: LiveGame) -> None:
        """Send the new snapshot of ``live`` to everyone watching it."""
        for viewer in list(self._viewers.get(live.id, ())):
            viewer.send(self.state_message(live, viewer.seats, viewer.flipped, viewer.pictures))

    def notice(self, game_id: str, payload: dict[str, Any]) -> None:
        """Send an event that is not a new snapshot (a declined offer) to everyone."""
        text = json.dumps({"type": "notice", **payload}, separators=(",", ":"))
        for viewer in list(self._viewers.get(game_id, ())):
            viewer.send(text)

    def close_all(self) -> None:
        """Stop every writer (server shutdown)."""
        for viewers in self._viewers.values():
            for viewer in viewers:
                viewer.close()
