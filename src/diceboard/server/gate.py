"""The engine's gate: while the engine warms up, a request that needs a game's kernels waits
until that game's are ready (see :mod:`diceboard.server.warmup`).

The game a request needs is read from the request itself, so that a game whose kernels are
ready is played while the next game's compile:

- ``/api/learn/{game}/…`` and ``/api/puzzles/{game}/…`` name it;
- ``/api/games/{id}/…`` (and its WebSocket) plays the stored game ``id``'s;
- a new game or an analysis (``POST /api/games``, ``/api/analysis/…``) names it in its JSON
  body, which is read here and handed on unchanged.

Any other request under ``/api/`` may need every game's kernels, and waits for them all;
``/api/meta`` and ``/api/health`` never wait, nor do the pages.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from diceboard import games
from diceboard.server.warmup import Warmup

#: routes that answer while the engine warms up (they need no kernel)
OPEN_PATHS = frozenset({"/api/meta", "/api/health"})

#: requests whose JSON body names the game they need
BODY_NAMES_GAME = frozenset({"/api/games", "/api/analysis/moves", "/api/analysis/evaluate"})

#: a game's name from the id of a stored game (``None``: no such game)
GameOf = Callable[[str], Awaitable[str | None]]


class EngineGate:
    """ASGI middleware: a request that needs the engine waits until the kernels it needs are
    ready (all of them, where the request does not say which game it is about)."""

    def __init__(self, app: ASGIApp, warmup: Warmup, game_of: GameOf) -> None:
        self.app = app
        self.warmup = warmup
        self.game_of = game_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            not self.warmup.ready
            and scope["type"] in ("http", "websocket")
            and path.startswith("/api/")
            and path not in OPEN_PATHS
        ):
            game, receive = await self._game(scope, receive)
            await self.warmup.wait_for(game)
        await self.app(scope, receive, send)

    async def _game(self, scope: Scope, receive: Receive) -> tuple[str | None, Receive]:
        """The game the request needs (``None``: maybe any), and how to receive its body
        (read here when it names the game)."""
        path: str = scope["path"]
        parts = path.split("/")  # "", "api", section, ...
        if len(parts) > 3 and parts[2] in ("learn", "puzzles"):
            return _known(parts[3]), receive
        if len(parts) > 3 and parts[2] == "games" and parts[3]:
            try:
                return _known(await self.game_of(parts[3])), receive
            except Exception:  # the request itself will say what is wrong, once all is ready
                return None, receive
        if scope["type"] == "http" and scope.get("method") == "POST" and path in BODY_NAMES_GAME:
            return await _game_in_body(receive)
        return None, receive


def _known(name: str | None) -> str | None:
    return name if name in games.names() else None


async def _game_in_body(receive: Receive) -> tuple[str | None, Receive]:
    """The ``game`` member of a JSON request body, and a ``receive`` that hands the body on
    as it came (``None`` for a body that is no JSON object naming a registered game)."""
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    name = parsed.get("game") if isinstance(parsed, dict) else None

    async def replay() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return _known(name if isinstance(name, str) else None), replay
