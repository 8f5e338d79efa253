"""The WebSocket of a game: ``/api/games/{id}/ws``.

The client's first message is ``{"type": "hello", "token": …, "flipped": …}`` (the token is
optional: without one the viewer is a spectator; a same-site page may rely on its seat
cookie instead). The server answers with a ``state`` message and sends one after every
change. With ``"delta": true`` in the hello, a ``state`` message's game carries only the
moves the viewer has not been sent: ``moves_from`` says how many of the moves it has are
kept (fewer than it has after a takeback), and ``moves`` are the ones that follow; its
``legal`` moves are there only when the viewer holds the seat to move (``[]`` otherwise),
and a move the viewer sent is acknowledged by the state message that holds it (its ``ack``:
``{"id": …, "version": …}``, beside ``you``) instead of an ``ack`` message of its own.
The first message counts from none, so a reconnection starts whole. The client may then
send:

- ``{"type": "move", "move": "b1-d2=5", "version": 7, "id": "…"}`` → ``ack`` (the new state
  follows as a ``state`` message) or ``error`` with the HTTP-like ``status`` and ``detail``;
- ``{"type": "view", "flipped": true}`` → a ``state`` message in that orientation;
- ``{"type": "ping"}`` → ``pong``.

A game takes at most ``sockets_per_game`` sockets and one client (see
:mod:`diceboard.server.limits`) at most ``sockets_per_client`` over all games: past that the
socket gets an ``error`` (status 429, with ``retry_after``) and is closed with 1013 (try again
later). Moves are rate-limited as over HTTP (an ``error`` with status 429).

Malformed messages get an ``error`` and change nothing; a message over the size limit, or no
hello within 10 seconds, closes the connection (code 1009 / 1008). A binary frame gets an
``error`` and closes the connection with 1003 (the protocol is JSON text only).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from diceboard.core.errors import DiceboardError
from diceboard.server.api import COOKIE_PREFIX, GAME_ID
from diceboard.server.errors import ServiceError, TooManyRequests
from diceboard.server.hub import ANSWERING, Answer, Viewer
from diceboard.server.jsontext import dumps
from diceboard.server.limits import Limits, SocketLimits, current_client
from diceboard.server.service import GameService

log = logging.getLogger(__name__)
router = APIRouter()
HELLO_TIMEOUT = 10.0


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class BinaryFrame(Exception):
    """A binary frame arrived where only JSON text is spoken."""


async def _receive_text(websocket: WebSocket) -> str:
    """The next text frame; :class:`WebSocketDisconnect` when the client has gone and
    :class:`BinaryFrame` for a binary one (``receive_text`` would raise a ``KeyError``)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise BinaryFrame
    return str(text)


class Hello(_Message):
    """Who is watching: a seat token (or none) and the board orientation."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    flipped: bool = False
    #: ``false``: snapshots without the board picture, its geometry and what only a move
    #: chooser shows (the moves' ``segments``, ``captures``, ``rolled_after``): programs
    #: need only the data
    pictures: bool = True
    #: ``true``: each ``state`` message carries only the moves the viewer has not been sent
    #: (after ``moves_from`` of them) and the legal moves only when it is the viewer's turn
    delta: bool = False


class MoveMessage(_Message):
    """A move, as over HTTP; ``id`` is echoed in the answer."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0, le=10**9)
    id: str | int | None = Field(default=None)


class ViewMessage(_Message):
    """Change the board orientation."""

    type: Literal["view"]
    flipped: bool


class Ping(_Message):
    """Keep-alive."""

    type: Literal["ping"]


AnyMessage = Hello | MoveMessage | ViewMessage | Ping
ClientMessage: TypeAdapter[AnyMessage] = TypeAdapter(
    Annotated[AnyMessage, Field(discriminator="type")]
)


def _error(status: int, detail: str, message_id: Any = None, **extra: Any) -> str:
    return dumps({"type": "error", "status": status, "detail": detail, "id": message_id, **extra})


def _parse(text: str) -> AnyMessage:
    try:
        return ClientMessage.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ValueError(
            f"bad message: {where + ': ' if where else ''}{first.get('msg')}"
        ) from None


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Push a game's changes to one viewer and take its moves."""
    service: GameService = websocket.app.state.service
    limit: int = websocket.app.state.settings.max_message_bytes
    sockets: SocketLimits = websocket.app.state.sockets
    client = current_client()
    await websocket.accept()
    try:
        sockets.open(game_id, client)
    except TooManyRequests as exc:
        with contextlib.suppress(Exception):
            await websocket.send_text(_error(429, exc.message, retry_after=exc.retry_after))
            await websocket.close(1013, exc.message[:120])
        return
    try:
        await _serve(websocket, service, game_id, limit)
    finally:
        sockets.close(game_id, client)


async def _serve(websocket: WebSocket, service: GameService, game_id: str, limit: int) -> None:
    if not re.match(GAME_ID, game_id):
        await websocket.close(1008, "bad game id")
        return
    try:
        live = await service.get(game_id)
    except ServiceError as exc:
        await websocket.send_text(_error(exc.status, exc.message))
        await websocket.close(1008, exc.message[:100])
        return
    try:
        text = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
        hello = _parse(text) if len(text) <= limit else None
    except (TimeoutError, ValueError, WebSocketDisconnect, BinaryFrame):
        hello = None
    if not isinstance(hello, Hello):
        with contextlib.suppress(Exception):
            await websocket.send_text(_error(400, "the first message must be a hello"))
            await websocket.close(1008, "expected hello")
        return
    token = hello.token
    if token is None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host", "")
        if origin is None or origin.split("://", 1)[-1] == host:
            token = websocket.cookies.get(COOKIE_PREFIX + game_id)
    seats = service.seats_of(live, token)
    if hello.token is not None and not seats:
        await websocket.send_text(_error(403, f"this token holds no seat in game {game_id}"))
        await websocket.close(1008, "bad token")
        return
    viewer = Viewer(game_id, seats, hello.flipped, hello.pictures, hello.delta)
    service.hub.add(viewer)
    current = await service.get(game_id)
    viewer.send(service.hub.message_for(viewer, current))
    writer = asyncio.create_task(_write(websocket, viewer))
    try:
        await _read(websocket, service, viewer, token, limit)
    except WebSocketDisconnect:
        pass
    finally:
        service.hub.remove(viewer)
        viewer.close()
        with contextlib.suppress(Exception):
            await writer


async def _write(websocket: WebSocket, viewer: Viewer) -> None:
    while True:
        text = await viewer.queue.get()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close(1013 if viewer.overflowed else viewer.close_code)
            return
        try:
            await websocket.send_text(text)
        except Exception:
            return


async def _read(
    websocket: WebSocket, service: GameService, viewer: Viewer, token: str | None, limit: int
) -> None:
    while True:
        try:
            text = await _receive_text(websocket)
        except BinaryFrame:
            viewer.send(_error(400, "messages are JSON text: binary frames are not accepted"))
            viewer.close(1003)
            return
        if len(text) > limit:
            await websocket.close(1009, "message too large")
            return
        try:
            message = _parse(text)
        except ValueError as exc:
            viewer.send(_error(400, str(exc)))
            continue
        limits: Limits = websocket.app.state.limits
        if isinstance(message, Ping):
            viewer.send('{"type":"pong"}')
        elif isinstance(message, ViewMessage):
            viewer.flipped = message.flipped
            live = await service.get(viewer.game_id)
            viewer.send(service.hub.message_for(viewer, live))
        elif isinstance(message, Hello):
            viewer.send(_error(400, "hello was already said"))
        else:
            await _move(service, limits, viewer, token, message)


async def _move(
    service: GameService, limits: Limits, viewer: Viewer, token: str | None, message: MoveMessage
) -> None:
    answer = Answer(viewer, message.id)
    answering = ANSWERING.set(answer)
    try:
        limits.check("move")
        await service.computer.ensure_room(viewer.game_id)
        live = await service.move(viewer.game_id, token, message.move, message.version)
    except TooManyRequests as exc:
        viewer.send(_error(429, exc.message, message.id, retry_after=exc.retry_after))
        return
    except ServiceError as exc:
        viewer.send(_error(exc.status, exc.message, message.id))
        current = getattr(exc, "live", None)
        if current is not None:
            viewer.send(service.hub.message_for(viewer, current))
        return
    except DiceboardError as exc:
        viewer.send(_error(400, str(exc), message.id))
        return
    finally:
        ANSWERING.reset(answering)
    if not answer.given:
        viewer.send(dumps({"type": "ack", "id": message.id, "version": live.data.version}))
